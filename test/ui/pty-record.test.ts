// The record pane in the built app at 80×24 and 200×60: markdown drawn and hostile text inert, 12
// `J` then `K` moves (defect 5), `Z` with `PgDn`/`Space`/`g`, a new record at its top, a cut
// multi-select's marker, overdue dates bold red; a 1 MiB body paged (`PgDn`, `Space`, `Z`, `G`)
// with every line whole and the list answering after; 30×8 with nothing wrapped; the ticket
// column's width.

import path from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import type {Channel} from '../../store/index.js';
import {openStore} from '../../store/index.js';
import {ptyDemo, suiteLauncher} from '../support/pty-fixtures.js';
import {KEYS, rowOf, type PtyApp} from '../support/pty.js';
import {tempDir} from '../support/temp.js';

// The record pane on the built app in a real pseudo-terminal: markdown drawn (and hostile text
// inert), paging and full screen (Z), the scroll's end (defect 5), a multi-select cut marker
// (defect 6), overdue dates, rows cut at 30×8 (defect 21) and the ticket column's width.

const tickets: Channel = {
	id: 'tickets',
	name: 'Tickets',
	fields: [
		{key: 'ticket', label: 'Ticket', type: 'text', is_required: true, is_unique: true, config: {max_length: 32}},
		{key: 'title', label: 'Title', type: 'text', is_required: true, is_unique: false, config: {max_length: 200}},
		{key: 'tags', label: 'Tags', type: 'multi_select', is_required: false, is_unique: false, config: {options: [{value: 'billing', label: 'billing', color: 'blue'}, {value: 'refund', label: 'refund', color: 'green'}]}},
		{key: 'due', label: 'Due', type: 'date', is_required: false, is_unique: false, config: {}},
		{key: 'body', label: 'Body', type: 'text', is_required: false, is_unique: false, config: {long: true}},
	],
} as unknown as Channel;

const MARKDOWN = [
	'## Steps to reproduce',
	'',
	'1. Open **Settings** and press `save()`',
	'2. See [the log](https://example.org/log)',
	'',
	'> It worked in 2.3',
	'',
	'| OS | Crashes |',
	'|---|---|',
	'| macOS | yes |',
	'',
	'Pasted: \u001b]0;pwned\u0007 and \u001b[2J and &#27;[5m',
].join('\n');

/** The full screen record's footer: its own keys. */
const FULL_SCREEN = /^PgDn page · j ↓ scroll · → ] next · e edit · Esc back/m;

const LONG_BODY = Array.from({length: 55}, (_, index) => `body line ${index + 1}`).join('\n');

/** Newest first on screen: T-4, T-3, T-2, T-1. */
const ITEMS = [
	{values: {ticket: 'T-1', title: 'Long body', body: LONG_BODY}},
	{values: {ticket: 'T-2', title: 'Markdown body', body: MARKDOWN}},
	{values: {ticket: 'T-3', title: 'Late and tagged', tags: ['billing', 'refund'], due: '2000-01-01'}},
	{values: {ticket: 'T-4', title: 'On time', tags: ['billing'], due: '2999-12-31'}},
];

let dbPath = '';
let stateDir = '';
const launch = suiteLauncher();

beforeAll(async () => {
	const dir = tempDir('sift-pty-record-');
	dbPath = path.join(dir, 'tickets.db');
	stateDir = path.join(dir, 'state');
	const store = openStore(dbPath, {create: true});
	try {
		store.importChannel({channel: tickets, items: ITEMS});
	} finally {
		store.close();
	}
});

async function start(cols: number, rows: number, db = dbPath, dir = stateDir): Promise<PtyApp> {
	const app = launch({args: ['--db', db], cols, rows, env: {SIFT_STATE_DIR: dir, XDG_CONFIG_HOME: path.dirname(dir)}});
	await app.waitFor(/T-4|BUG-\d{4}/);
	return app;
}

/** The cursor on the row of `name` (rows are newest first: T-4 is the top one). */
async function goTo(app: PtyApp, name: string): Promise<void> {
	app.press(...Array.from({length: 4 - Number(name.slice(2))}, () => 'j'));
	await app.waitFor(`row ${5 - Number(name.slice(2))} `);
}

/** Waits until nothing has been drawn for a while (a burst of keys has been drawn). */
async function settled(app: PtyApp, quietMs = 400): Promise<string> {
	await app.waitFor(() => performance.now() - app.lastOutputAt > quietMs, 10_000, 'the screen to settle');
	return app.screen();
}

/** The cell at the first place `text` shows on screen. */
function cellOf(app: PtyApp, text: string, nth = 0) {
	const lines = app.lines();
	const hits = lines.flatMap((line, y) => (line.includes(text) ? [{y, x: line.indexOf(text)}] : []));
	const hit = hits[nth];
	if (!hit) throw new Error(`${text} is not on the screen:\n${lines.join('\n')}`);
	return app.term.buffer.active.getLine(app.term.buffer.active.viewportY + hit.y)!.getCell(hit.x)!;
}

describe('the record pane in a pseudo-terminal', () => {
	for (const [cols, rows] of [[80, 24], [200, 60]] as const) {
		describe(`at ${cols}×${rows}`, () => {
			it('draws a markdown body: heading without its marks, bold, code, the link\'s address, a list, a quote, a table; hostile text inert', async () => {
				const app = await start(cols, rows);
				await goTo(app, 'T-2');
				app.press(KEYS.enter);
				await app.waitFor('Body');
				app.press('Z');
				const screen = await app.waitFor(text => text.includes('Steps to reproduce') && !text.includes('## Steps') && FULL_SCREEN.test(text));
				expect(screen).not.toContain('## Steps');
				expect(screen).toContain('1. Open Settings and press save()');
				expect(screen).toContain('2. See the log <https://example.org/log>');
				expect(screen).toContain('│ It worked in 2.3');
				expect(screen).toMatch(/OS\s+│ Crashes/);
				expect(screen).toMatch(/macOS\s+│ yes/);
				expect(cellOf(app, 'Steps to reproduce').isBold()).toBeTruthy();
				expect(cellOf(app, 'Settings').isBold()).toBeTruthy();
				expect(cellOf(app, 'save()').getFgColor()).toBe(3);
				// Shown as text, never sent: the title, the clear and the blink.
				expect(screen).toContain('Pasted: ␛]0;pwned␇ and ␛[2J and ␛[5m');
				expect(app.raw).not.toContain('\u001b]0;pwned');
				expect(app.raw).not.toContain('\u001b[5m');
				// The full screen's keys are in its footer; Esc is back to the list with its pane.
				app.press('q');
				await app.waitFor(/^j ↓ move/m);
				expect(app.screen()).toContain('T-2');
				expect(await app.quit()).toBe(0);
			});

			it('defect 5: after 12 J on a 55-line body the pane is at its end, and the first K moves it', async () => {
				const app = await start(cols, rows);
				// The lexer loads after the first frame and changes how many lines a body has: T-2's
				// heading drawn without its marks says it is in before T-1's lines are counted.
				await goTo(app, 'T-2');
				app.press(KEYS.enter);
				await app.waitFor(text => text.includes('Steps to reproduce') && !text.includes('## Steps'), 10_000, 'markdown drawn');
				app.press(KEYS.escape);
				app.press('j');
				await app.waitFor('row 4 ');
				app.press(KEYS.enter);
				await app.waitFor('body line 1');
				// One J at a time: keys that arrive in one read are one input to the app (a burst is another defect).
				for (let press = 0; press < 12; press++) {
					const before = app.screen();
					app.press('J');
					await app.waitFor(screen => screen !== before || screen.includes('body line 55'), 3000, `J ${press + 1} to be drawn`);
					await settled(app, 100);
				}

				const atEnd = await settled(app);
				expect(atEnd).toContain('body line 55');
				app.press('K');
				const back = await app.waitFor(screen => screen !== atEnd, 3000, 'the first K to move the pane');
				expect(back).not.toContain('body line 55');
				expect(back).toMatch(/↓ 6 more lines \(J\)/);
				expect(await app.quit()).toBe(0);
			});

			it('Z shows the record full screen; PgDn and Space page it, g goes back to its start; the next record starts at its top', async () => {
				const app = await start(cols, rows);
				await goTo(app, 'T-1');
				app.press(KEYS.enter);
				await app.waitFor('body line 1');
				app.press('Z');
				const body = rows - 5;
				const first = await app.waitFor(text => /↓ \d+ more lines/.test(text) && FULL_SCREEN.test(text));
				expect(first).toContain('T-1');
				// A page moves by the body's height less its two marker lines (the next page starts right
				// after the last line shown), and never past the end: T-1 has 61 lines (head, 4 fields, label, 55).
				const furthest = 61 - body;
				const lastShown = Math.max(...[...first.matchAll(/body line (\d+)/g)].map(match => Number(match[1])));
				app.press(KEYS.pageDown);
				const paged = await app.waitFor(new RegExp(`↑ ${Math.min(body - 2, furthest) + 1} more lines`));
				if (body - 2 <= furthest) {
					expect(paged).toContain(`body line ${lastShown + 1}\n`);
					expect(paged).not.toContain(`body line ${lastShown}\n`);
				}

				app.press(KEYS.space);
				await app.waitFor(new RegExp(`↑ ${Math.min(2 * (body - 2), furthest) + 1} more lines`));
				app.press('g');
				await app.waitFor(screen => !/↑ \d+ more lines/.test(screen) && screen.includes('T-1'));
				// Back to the list: scrolled on T-1, the next record opens at its top.
				app.press('J', KEYS.escape);
				await app.waitFor(/^j ↓ move/m);
				app.press('J');
				await app.waitFor(/↑ \d+ more lines/);
				app.press('k');
				const next = await app.waitFor(screen => screen.includes('Markdown body') && !/↑ \d+ more lines/.test(screen), 3000, 'T-2 at its top');
				expect(next).toMatch(/Ticket\s+⚑?\s*T-2/);
				expect(await app.quit()).toBe(0);
			});

			it('defect 6 and overdue: a cut multi-select ends in a marker; a date before today is drawn bold red, in the list and the pane', async () => {
				const app = await start(cols, rows);
				const screen = app.screen();
				// Both values of T-3 do not fit its column: the cell says it was cut.
				expect(rowOf(screen, 'T-3')).toMatch(/billin~/);
				expect(rowOf(screen, 'T-4')).toMatch(/billing\s/);
				expect(rowOf(screen, 'T-3')).toContain('2000-01-01');
				const late = cellOf(app, '2000-01-01');
				expect(late.isBold()).toBeTruthy();
				expect(late.getFgColor()).toBe(1);
				expect(cellOf(app, '2999-12-31').isBold()).toBeFalsy();
				await goTo(app, 'T-3');
				app.press(KEYS.enter);
				const pane = await app.waitFor('2000-01-01 overdue');
				expect(pane).not.toContain('2999-12-31 overdue');
				expect(cellOf(app, '2000-01-01 overdue').isBold()).toBeTruthy();
				expect(await app.quit()).toBe(0);
			});
		});
	}
});

const demo = ptyDemo(60, 'sift-pty-narrow-');

describe('rows on any terminal', () => {
	it('defect 21: at 30×8 every line is cut to the width, nothing wraps: header, tabs, labels, rows, footer in place', async () => {
		const app = await start(30, 8, demo.db.dbPath, demo.db.stateDir);
		const lines = (await app.waitFor(/^j ↓ move/m)).split('\n');
		expect(lines[0]).toMatch(/^sift Bugs/);
		expect(lines[2]).toMatch(/^ {2}Ticket +Title/);
		expect(lines[3]).toMatch(/^ {2}BUG-0060 \S/);
		expect(lines[4]).toMatch(/^ {2}BUG-0059 \S/);
		expect(lines[6]).toMatch(/^j ↓ move/);
		// Pressing keys keeps it so: the cursor row moves, no line spills into the next.
		app.press('j', 'j');
		const moved = (await app.waitFor('row 3 ')).split('\n');
		expect(moved[0]).toMatch(/^sift Bugs/);
		expect(moved[6]).toMatch(/^j ↓ move/);
		expect(await app.quit()).toBe(0);
	});

	for (const [cols, rows] of [[80, 24], [200, 60]] as const) {
		it(`at ${cols}×${rows} the ticket column is as wide as its tickets`, async () => {
			const app = await start(cols, rows, demo.db.dbPath, demo.db.stateDir);
			const screen = app.screen();
			expect(screen).toMatch(/^ {2}Ticket {3}Title/m);
			expect(rowOf(screen, 'BUG-0060')).toMatch(/^ {2}BUG-0060 Thumbnail/);
			expect(await app.quit()).toBe(0);
		});
	}
});

/** A long text body of just under 1 MiB (the most a text value holds): numbered lines, one each. */
function mebibyteBody(): {body: string; lines: number} {
	const lines: string[] = [];
	let bytes = 0;
	for (let n = 1; ; n++) {
		const line = `big line ${String(n).padStart(6, '0')} abcdefghijklmnopqrstuvwxyz`;
		if (bytes + line.length + 1 > 1024 * 1024 - 64) break;
		lines.push(line);
		bytes += line.length + 1;
	}

	return {body: lines.join('\n'), lines: lines.length};
}

/** The numbers of the body lines on screen, in screen order. */
const numbersShown = (screen: string) => [...screen.matchAll(/^ *big line (\d{6}) abcdefghijklmnopqrstuvwxyz$/gm)].map(match => Number(match[1]));

/** Every line of the screen at most `cols` wide, the header on top and the footer's keys at the bottom: nothing garbled. */
function expectWhole(screen: string, cols: number, rows: number): number[] {
	const lines = screen.split('\n');
	expect(lines, screen).toHaveLength(rows);
	for (const line of lines) expect(line.length).toBeLessThanOrEqual(cols);
	expect(lines[0]).toMatch(/^sift Tickets/);
	const shown = numbersShown(screen);
	// The body's lines shown are consecutive: none drawn twice, none skipped, none overdrawn.
	expect(shown.length, screen).toBeGreaterThan(0);
	expect(shown, screen).toEqual(shown.map((_, index) => shown[0]! + index));
	return shown;
}

describe('a 1 MiB long text in a pseudo-terminal', () => {
	const big = mebibyteBody();
	let bigDb = '';
	let bigState = '';

	beforeAll(() => {
		const dir = tempDir('sift-pty-record-big-');
		bigDb = path.join(dir, 'big.db');
		bigState = path.join(dir, 'state');
		const store = openStore(bigDb, {create: true});
		try {
			store.importChannel({channel: tickets, items: [{values: {ticket: 'T-1', title: 'Huge body', body: big.body}}, {values: {ticket: 'T-2', title: 'Small one'}}, {values: {ticket: 'T-3', title: 'Another one'}}]});
		} finally {
			store.close();
		}
	});

	for (const [cols, rows] of [[80, 24], [200, 60]] as const) {
		it(`opens in the pane, pages with PgDn and Space, Z full screen, G to its end, unbroken; the list answers after (${cols}×${rows})`, async () => {
			const app = launch({args: ['--db', bigDb], cols, rows, env: {SIFT_STATE_DIR: bigState, XDG_CONFIG_HOME: path.dirname(bigState)}});
			await app.waitFor('Huge body');
			// T-1 is the oldest: the third row.
			app.press('j', 'j');
			await app.waitFor('row 3 ');
			app.press(KEYS.enter);
			await app.waitFor('big line 000001', 20_000);
			app.press('Z');
			const first = await app.waitFor(screen => FULL_SCREEN.test(screen) && /↓ [\d,]+ more lines/.test(screen), 20_000, 'the full screen');
			const top = expectWhole(first, cols, rows);
			app.press(KEYS.pageDown);
			const paged = await app.waitFor(screen => numbersShown(screen)[0]! > top[0]!, 10_000, 'PgDn to page');
			const second = expectWhole(paged, cols, rows);
			// The next page starts right after the last line shown.
			expect(second[0]).toBe(top.at(-1)! + 1);
			app.press(KEYS.space);
			const spaced = await app.waitFor(screen => numbersShown(screen)[0]! > second[0]!, 10_000, 'Space to page');
			expect(expectWhole(spaced, cols, rows)[0]).toBe(second.at(-1)! + 1);
			app.press('G');
			const end = await app.waitFor(screen => numbersShown(screen).includes(big.lines), 10_000, 'G to the end');
			expect(expectWhole(end, cols, rows).at(-1)).toBe(big.lines);
			expect(end).not.toMatch(/↓ [\d,]+ more lines/);
			// Back to the list: it still moves at once, a key at a time, the pane on the next record.
			app.press(KEYS.escape);
			await app.waitFor(/^j ↓ move/m);
			app.press('k');
			await app.waitFor(screen => screen.includes('row 2 ') && screen.includes('Small one'));
			app.press('k');
			await app.waitFor('row 1 ');
			expect(await app.quit()).toBe(0);
		});
	}
});
