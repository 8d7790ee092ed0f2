// The list and its edits at 80×24 and 200×60: a 200-key burst while rows load, `/` terms and
// counts, follow-up dates and their ISO preview, `:` errors, the cursor after an edit, Esc on
// marks, a number typed over.

import {describe, expect, it} from 'vitest';
import {StoreError} from '../../store/index.js';
import {resolveDateInput} from '../../source/text/typed-value.js';
import {idOfTicket, ptyDemo} from '../support/pty-fixtures.js';
import {KEYS, type PtyApp} from '../support/pty.js';

// The list and its edits on the built app, at 80×24 and 200×60: keys typed in a burst while rows
// load, the `/` line's bad terms and match count, the follow-up queue's dates, the `:` line's
// errors, the cursor after an edit, Esc on marks, a number typed over.

const demo = ptyDemo(1000, 'sift-list-edit-');
const SIZES = [[80, 24], [200, 60]] as const;

const rowNumber = (screen: string) => Number(/row ([\d,]+)/.exec(screen.split('\n')[0] ?? '')?.[1]?.replaceAll(',', '') ?? 0);

function start(cols: number, rows: number): PtyApp {
	return demo.launch({args: ['--db', demo.db.dbPath], cols, rows, env: {SIFT_STATE_DIR: demo.db.stateDir, XDG_CONFIG_HOME: demo.db.dir}});
}

describe('keys typed in a burst while rows load (defect 11)', () => {
	for (const [cols, rows] of SIZES) {
		it(`at ${cols}×${rows}: 200 j land on row 201, also right after r; 20 PgDn land 20 pages down`, async () => {
			const app = start(cols, rows);
			await app.waitFor('BUG-1000');
			app.type('j'.repeat(200));
			await app.waitFor(screen => rowNumber(screen) === 201, 10_000, 'row 201');
			// r reads the list again from its first row: the keys typed with it count from there.
			app.type(`r${'j'.repeat(200)}`);
			await app.waitFor(screen => screen.includes('Reloaded') && rowNumber(screen) === 201, 10_000, 'row 201 after r');
			app.type('g');
			await app.waitFor(screen => rowNumber(screen) === 1, 10_000, 'row 1');
			app.press(KEYS.pageDown);
			await app.waitFor(screen => rowNumber(screen) > 1, 10_000, 'one page down');
			const page = rowNumber(app.screen()) - 1;
			// 20 pages, or the last row when there are fewer.
			const landing = Math.min(1000, 1 + (20 * page));
			app.press(KEYS.pageDown.repeat(19));
			await app.waitFor(screen => rowNumber(screen) === landing, 10_000, `row ${landing}`);
			expect(await app.quit()).toBe(0);
		});
	}
});

/** The footer's prompt line (the line above the key hints). */
const promptLine = (screen: string) => screen.split('\n').reverse().find(line => line.startsWith('/ ')) ?? '';

describe('the / line (defect 1, and its live count)', () => {
	for (const [cols, rows] of SIZES) {
		it(`at ${cols}×${rows}: a bad term is said while typing and on Enter; a line that reads shows its count`, async () => {
			const app = start(cols, rows);
			await app.waitFor('BUG-1000');
			app.type('/');
			await app.waitFor(/^\/ /m);
			app.type('colour:red');
			await app.waitFor(screen => promptLine(screen).includes('bad query term "colour:red"'), 10_000, 'the bad term while typing');
			// Enter on a bad term keeps the line open: the key typed after it (handled after it, in order)
			// lands on the line, which still says the term is bad.
			app.press(KEYS.enter);
			app.type('x');
			await app.waitFor(screen => promptLine(screen).includes('bad query term "colour:redx"'), 10_000, 'the line still open after Enter');
			expect(promptLine(app.screen())).toMatch(/^\/ colour:redx/);
			app.press(KEYS.escape);
			await app.waitFor(screen => promptLine(screen) === '', 10_000, 'the line closed');
			const matches = await demo.store.countMatches('bugs', 'status:new');
			app.type('/status:new');
			await app.waitFor(screen => promptLine(screen).includes(`${matches.toLocaleString('en-US')} matches`), 10_000, 'the count');
			app.press(KEYS.escape);
			expect(await app.quit()).toBe(0);
		});
	}
});

describe('a date typed in the follow-up queue (defect 2; its preview)', () => {
	for (const [cols, rows, ticket] of [[80, 24, 'BUG-0950'], [200, 60, 'BUG-0951']] as const) {
		it(`at ${cols}×${rows}: the input opens empty, takes friday and shows the date it will write`, async () => {
			const id = idOfTicket(demo.store, ticket);
			expect(() => demo.store.editItem({channelId: 'bugs', itemId: id, values: {due: 'Friday'}, actor: {kind: 'agent', run_id: 'run-pty'}, expectedVersion: 1})).toThrow(StoreError);
			const app = start(cols, rows);
			await app.waitFor('1 follow-up');
			app.press('F');
			await app.waitFor('Codex tried: Friday');
			app.press('t');
			await app.waitFor('Value:');
			app.type('friday');
			await app.waitFor(/Value: friday ?$/m);
			expect(app.screen()).not.toContain('Fridayfriday');
			// The date it will write, before Enter, as the field edit shows it.
			const friday = resolveDateInput('friday', new Date());
			await app.waitFor(`friday → ${friday.ok ? friday.date : '?'}`);
			app.press(KEYS.enter);
			await app.waitFor('No open follow-ups');
			expect(friday.ok && demo.store.readItem('bugs', id).values.due).toBe(friday.ok ? friday.date : '');
			app.press(KEYS.escape);
			expect(await app.quit()).toBe(0);
		});
	}
});

describe('the : line\'s errors (defect 9)', () => {
	for (const [cols, rows] of SIZES) {
		it(`at ${cols}×${rows}: no doubled or stray colon`, async () => {
			const app = start(cols, rows);
			await app.waitFor('BUG-1000');
			app.type(':sort description');
			app.press(KEYS.enter);
			await app.waitFor(/^description cannot be sorted/m, 10_000, 'the sort refusal');
			app.type(':set');
			app.press(KEYS.enter);
			const screen = await app.waitFor(/^:set takes a field and a value/m, 10_000, 'the set refusal');
			expect(screen).not.toContain('::');
			expect(await app.quit()).toBe(0);
		});
	}
});

describe('what triagers expect (the cursor after an edit, Esc on marks, a number typed over)', () => {
	for (const [cols, rows, ticket] of [[80, 24, 'BUG-0990'], [200, 60, 'BUG-0985']] as const) {
		it(`at ${cols}×${rows}`, async () => {
			const app = start(cols, rows);
			await app.waitFor('BUG-1000');
			const at = 1001 - Number(ticket.slice(4));
			app.type(`:${ticket}`);
			app.press(KEYS.enter);
			await app.waitFor(screen => rowNumber(screen) === at, 10_000, `row ${at}`);
			// p: the points input opens on the value, selected: 7 replaces it; Enter saves, and the cursor moves on.
			const id = idOfTicket(demo.store, ticket);
			app.press('p');
			await app.waitFor('Enter saves');
			app.type('7');
			app.press(KEYS.enter);
			await app.waitFor(screen => rowNumber(screen) === at + 1, 10_000, 'the next row');
			expect(demo.store.readItem('bugs', id).values.points).toBe(7);
			// Space marks and moves down; Esc clears the marks.
			app.press(KEYS.space);
			await app.waitFor(screen => screen.split('\n')[0]!.includes('1 marked') && rowNumber(screen) === at + 2, 10_000, 'one marked');
			app.press(KEYS.escape);
			await app.waitFor(screen => !screen.split('\n')[0]!.includes('marked') && screen.includes('1 mark cleared'), 10_000, 'marks cleared');
			expect(await app.quit()).toBe(0);
		});
	}
});
