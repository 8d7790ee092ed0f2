// The built app in a pseudo-terminal.

import {readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {StoreError} from '../../store/index.js';
import {idOfTicket, ptyDemo} from '../support/pty-fixtures.js';
import {alive, KEYS, repoRoot, rowOf, type PtyApp} from '../support/pty.js';

// The built app (`npm test` builds first) in a real pseudo-terminal; the screen is read back
// through a headless xterm, so what is asserted is what a person would see.

const FAKE_CODEX = path.join(repoRoot(), 'test', 'support', 'fake-codex.mjs');

// 1,600 items: the generator puts each of its four hostile titles in once.
const demo = ptyDemo(1600, 'sift-pty-');

function start(options: {env?: NodeJS.ProcessEnv; cols?: number; rows?: number} = {}): PtyApp {
	const app = demo.launch({
		args: ['--db', demo.db.dbPath, '--codex', FAKE_CODEX],
		cols: options.cols ?? 140,
		rows: options.rows ?? 36,
		env: {SIFT_STATE_DIR: demo.db.stateDir, FAKE_CODEX_MODE: 'normal', ...options.env},
	});
	return app;
}

const fieldIndex = (key: string) => demo.store.getChannel('bugs').fields.filter(field => field.type !== 'formula').findIndex(field => field.key === key);
const rowNumber = (screen: string) => Number(/row ([\d,]+)/.exec(screen)?.[1]?.replaceAll(',', '') ?? 0);

describe('the TUI in a pseudo-terminal', () => {
	it('pages down past the first page, showing select labels in their option color', async () => {
		const app = start();
		const screen = await app.waitFor('BUG-1600');
		expect(screen).toMatch(/sift Bugs 1,600 items · row 1/);
		// A triaged row's status label is drawn in its option's color (In progress: yellow = palette 3).
		const buffer = app.term.buffer.active;
		const lines = app.lines();
		const y = lines.findIndex(line => / (In progress) /.test(line) && /BUG-\d{4}/.test(line));
		expect(y).toBeGreaterThan(0);
		const cell = buffer.getLine(y)!.getCell(lines[y]!.indexOf('In progress'))!;
		expect(cell.isFgPalette()).toBeTruthy();
		expect(cell.getFgColor()).toBe(3);
		for (let index = 0; index < 4; index++) app.press(KEYS.pageDown);
		// The row under the cursor is the one the header counts (pages are fetched by before_id).
		await app.waitFor(text => rowNumber(text) > 60 && rowOf(text, `BUG-${1600 - rowNumber(text) + 1}`) !== '', 10_000, 'a row past the first page');
		app.press('G');
		await app.waitFor(text => rowNumber(text) >= 150, 10_000, 'the bottom of what is loaded');
		expect(app.raw).not.toContain('\u001b[2J');
		expect(await app.quit()).toBe(0);
	});

	it('edits a status through the picker and shows a refused out-of-range number inline', async () => {
		const app = start();
		await app.waitFor('BUG-1600');
		app.press('j');
		await app.waitFor('row 2 ');
		app.press('e', ...Array.from({length: fieldIndex('status')}, () => 'j'), KEYS.enter);
		await app.waitFor('› 1 New  new');
		app.press(KEYS.down, KEYS.enter);
		const screen = await app.waitFor('BUG-1599: Status New → Triaged');
		expect(rowOf(screen, 'BUG-1599')).toContain('Triaged');
		expect(demo.store.readItem('bugs', idOfTicket(demo.store, 'BUG-1599')).values.status).toBe('triaged');

		app.press('e', ...Array.from({length: fieldIndex('points')}, () => 'j'), KEYS.enter);
		await app.waitFor('Points (number');
		app.type('20');
		app.press(KEYS.enter);
		const refused = await app.waitFor('Refused: values.points must be between 0 and 13, got 20');
		expect(refused).toContain('Allowed: 0 to 13');
		app.press(KEYS.escape, KEYS.escape);
		expect(demo.store.readItem('bugs', idOfTicket(demo.store, 'BUG-1599')).values.points).toBeNull();
		expect(await app.quit()).toBe(0);
	});

	it('resolves a follow-up from the queue and the header count follows', async () => {
		const id = idOfTicket(demo.store, 'BUG-1590');
		expect(() => demo.store.editItem({channelId: 'bugs', itemId: id, values: {severity: 'major'}, actor: {kind: 'agent', run_id: 'run-pty'}, expectedVersion: 1})).toThrow(StoreError);
		const app = start();
		await app.waitFor('1 follow-up');
		app.press('F');
		const screen = await app.waitFor('Follow-up 1 of 1');
		expect(screen).toContain('Codex tried: major');
		expect(screen).toContain('S2 Major  s2');
		app.press('j', KEYS.enter);
		await app.waitFor('No open follow-ups');
		app.press(KEYS.escape);
		await app.waitFor('0 follow-ups');
		expect(demo.store.readItem('bugs', id).values.severity).toBe('s2');
		expect(demo.store.countOpenFollowUps('bugs')).toBe(0);
		expect(await app.quit()).toBe(0);
	});

	it('runs Codex on marked rows: steps show live, and a row edited meanwhile changes in place', async () => {
		// The run waits at its first step until the test has edited a row (the step gate), then runs to its end.
		const stepGate = path.join(demo.db.dir, 'step-gate');
		const app = start({env: {FAKE_CODEX_STEP_GATE: stepGate}});
		await app.waitFor('BUG-1600');
		app.press(' ', ' ');
		await app.waitFor('2 marked');
		app.press('c');
		await app.waitFor('Run Codex on 2 marked records');
		app.press(KEYS.enter);
		await app.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] list_record_items bugs/, 60_000, 'a running step with a spinner');
		// Another writer (as Codex's MCP server would) edits a visible row while the run works.
		const target = idOfTicket(demo.store, 'BUG-1596');
		demo.store.editItem({channelId: 'bugs', itemId: target, values: {status: 'wont_fix', owner: 'ren'}, actor: {kind: 'agent', run_id: 'run-live'}, expectedVersion: 1});
		// How fast the row changes is a benchmark (event to row); here only that it does, mid-run.
		const live = await app.waitFor(text => /Won't fix\s+Ren/.test(rowOf(text, 'BUG-1596')), 10_000, 'the edited row');
		expect(live).toMatch(/Codex running/);
		writeFileSync(stepGate, '');
		// Wait for the whole finished pane: a frame can be read while it is still being drawn.
		const done = await app.waitFor(text => text.includes('✓ Codex ok') && text.includes('usage:'), 20_000, 'the finished run pane');
		expect(done).toMatch(/✓ list_record_items bugs\s+3 items/);
		expect(done).toMatch(/✓ edit_record_item BUG-0042\s+ok v3/);
		expect(done).toMatch(/✗ edit_record_item BUG-0043\s+rejected: points, due/);
		expect(done).toContain('usage: 5,120 in (1,024 cached) · 312 out');
		expect(done).toContain('Could not set');
		// R: the run history, from the runs table (and the log for the answer).
		app.press('R');
		const history = await app.waitFor('Run history');
		expect(history).toMatch(/ok\s+[\d.]+s\s+2 items, 1 edit\s+Triage these records/);
		app.press(KEYS.enter);
		const opened = await app.waitFor(/✗ edit_record_item BUG-0043\s+rejected: points, due/);
		expect(opened).toContain('Answer:');
		app.press(KEYS.escape, KEYS.escape);
		await app.waitFor(text => !text.includes('Run history'));
		expect(await app.quit()).toBe(0);
	});

	it('cancels a hanging run with x, and no process of the run remains', async () => {
		const pidFile = path.join(demo.db.dir, 'pids.txt');
		const app = start({env: {FAKE_CODEX_MODE: 'hang', FAKE_CODEX_PIDFILE: pidFile}});
		await app.waitFor('BUG-1600');
		app.press('c');
		await app.waitFor('Run Codex on');
		app.press(KEYS.enter);
		await app.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] list_record_items bugs/, 15_000);
		const pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
		expect(pids.length).toBeGreaterThan(0);
		expect(pids.every(pid => alive(pid))).toBe(true);
		app.press('x');
		await app.waitFor('Cancel the Codex run?');
		app.press('y');
		const screen = await app.waitFor(text => text.includes('✗ Codex cancelled') && text.includes('Cancelled: Codex and every process it started were'), 15_000, 'the cancelled run pane');
		expect(screen).toContain('usage: no usage reported');
		expect(pids.filter(pid => alive(pid))).toEqual([]);
		expect(await app.quit()).toBe(0);
	});

	it('asks before quitting during a run, then stops Codex and exits', async () => {
		const pidFile = path.join(demo.db.dir, 'pids-quit.txt');
		const app = start({env: {FAKE_CODEX_MODE: 'hang', FAKE_CODEX_PIDFILE: pidFile}});
		await app.waitFor('BUG-1600');
		app.press('c');
		await app.waitFor('Run Codex on');
		app.press(KEYS.enter);
		await app.waitFor(/list_record_items bugs/, 15_000);
		app.press('q');
		await app.waitFor('A Codex run is active. Cancel it and quit?');
		app.press('y');
		expect(await app.exited).toBe(0);
		const pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
		expect(pids.filter(pid => alive(pid))).toEqual([]);
	});

	it('renders records with escape sequences in their title inert', async () => {
		const app = start();
		let titleChanged = false;
		app.term.onTitleChange(() => {
			titleChanged = true;
		});
		await app.waitFor('BUG-1600');
		app.press('/');
		app.type('pwned');
		app.press(KEYS.enter);
		let screen = await app.waitFor('Search: "pwned"');
		expect(screen).toContain('Window title changes ␛]0;pwned␇ after');
		expect(screen).toContain('Everything at once: ␛[31mred␛[0m');
		app.press('/', '\u0015');
		app.type('invoice');
		app.press(KEYS.enter);
		screen = await app.waitFor('Search: "invoice"');
		// Shown as its escape, cut where the title column ends (more columns fit beside a ticket column sized to its tickets).
		expect(screen).toContain('invoice\\u202');
		app.press('/', '\u0015');
		app.type('FATAL');
		app.press(KEYS.enter);
		await app.waitFor('Search: "FATAL"');
		app.press(KEYS.enter);
		await app.waitFor(/Title\s+Crash log pasted raw: ␛\[31mFATAL␛\[0m/);
		expect(titleChanged).toBe(false);
		expect(app.raw).not.toContain('\u001b]0;pwned');
		expect(app.raw).not.toContain('\u202e');
		expect(app.raw).not.toContain('\u001b[31mFATAL');
		expect(await app.quit()).toBe(0);
	});

	it('survives resizes, and NO_COLOR draws no colors', async () => {
		const app = start({env: {NO_COLOR: '1'}});
		await app.waitFor('BUG-1600');
		app.resize(70, 16);
		await app.waitFor(text => text.split('\n')[0]!.startsWith('sift Bugs') && text.includes('BUG-1600'));
		app.resize(160, 40);
		const screen = await app.waitFor(text => /Status\s+Owner\s+Severity/.test(text));
		expect(screen).toContain('BUG-1600');
		expect(app.raw).not.toMatch(/\u001b\[(3[0-7]|9[0-7]|38;)/);
		expect(await app.quit()).toBe(0);
	});

	it('draws live frames even where CI is set in the environment (Ink would otherwise hold every frame back)', async () => {
		const app = start({env: {CI: 'true', CONTINUOUS_INTEGRATION: '1'}});
		await app.waitFor('BUG-1600');
		app.press('j');
		await app.waitFor('row 2');
		expect(await app.quit()).toBe(0);
	});
});
