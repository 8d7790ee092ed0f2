// The first frame has the rows; alternate screen on every exit, recovery, marks.

import {execFileSync} from 'node:child_process';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {openStore} from '../../store/index.js';
import {idOfTicket, makeDemoDb, ptyDemo} from '../support/pty-fixtures.js';
import {CLI, KEYS, repoRoot, rowOf, type PtyApp} from '../support/pty.js';

// The built app in a pseudo-terminal: the alternate screen on every way out, live updates that
// recover from an unreadable event log, and marks that outlive a run.

const FAKE_CODEX = path.join(repoRoot(), 'test', 'support', 'fake-codex.mjs');
const ENTER_ALT = '\u001B[?1049h';
const LEAVE_ALT = '\u001B[?1049l';

const demo = ptyDemo(80, 'sift-pty-life-');

function start(options: {dbPath?: string; env?: NodeJS.ProcessEnv; entry?: string; args?: string[]} = {}): PtyApp {
	const app = demo.launch({
		args: options.args ?? ['--db', options.dbPath ?? demo.db.dbPath, '--codex', FAKE_CODEX],
		entry: options.entry,
		cols: 140,
		rows: 30,
		env: {SIFT_STATE_DIR: demo.db.stateDir, ...options.env},
	});
	return app;
}

const count = (text: string, part: string) => text.split(part).length - 1;

/** What was on the normal screen after the app left: the alternate screen is gone, and no frame is left. */
function expectNormalScreenClean(app: PtyApp): void {
	expect(app.term.buffer.active.type).toBe('normal');
	expect(app.screen()).not.toMatch(/BUG-\d{4}/);
	expect(app.screen()).not.toContain('sift Bugs');
}

describe('the first frame', () => {
	it('has the rows: the opening and its first page are read before anything is drawn (no "Loading…", no screen without rows)', async () => {
		const app = start();
		await app.waitFor('BUG-0080');
		const beforeRows = app.raw.slice(0, app.raw.indexOf('BUG-0080'));
		expect(beforeRows).not.toContain('Loading');
		// The header (the channel's name) is drawn once before the first row: in the frame that has the rows.
		expect(count(beforeRows, ' Bugs ')).toBe(1);
		expect(await app.quit()).toBe(0);
	});
});

describe('the alternate screen', () => {
	it('is entered at start and left when quitting with q, leaving no frame on the normal screen', async () => {
		const app = start();
		await app.waitFor('BUG-0080');
		expect(app.term.buffer.active.type).toBe('alternate');
		expect(count(app.raw, ENTER_ALT)).toBe(1);
		expect(app.raw.indexOf(ENTER_ALT)).toBeLessThan(app.raw.indexOf('BUG-0080'));
		expect(await app.quit()).toBe(0);
		await app.waitForOutput(raw => raw.includes(LEAVE_ALT), 'the alternate screen left');
		// Left once, after the last frame.
		expect(count(app.raw, LEAVE_ALT)).toBe(1);
		expect(app.raw.lastIndexOf(LEAVE_ALT)).toBeGreaterThan(app.raw.lastIndexOf('BUG-0080'));
		expectNormalScreenClean(app);
	});

	it('is left when quitting with Ctrl+C', async () => {
		const app = start();
		await app.waitFor('BUG-0080');
		app.press(KEYS.ctrlC);
		expect(await app.exited).toBe(0);
		await app.waitForOutput(raw => raw.includes(LEAVE_ALT), 'the alternate screen left');
		expect(count(app.raw, ENTER_ALT)).toBe(1);
		expect(count(app.raw, LEAVE_ALT)).toBe(1);
		expectNormalScreenClean(app);
	});

	it('is left when the app fails while drawing, and the error stays readable on the normal screen', async () => {
		const broken = makeDemoDb(5, {prefix: 'sift-pty-broken-'});
		try {
			const writer = openStore(broken.dbPath);
			writer.db.exec("UPDATE channels SET fields = '{not json' WHERE id = 'bugs'");
			writer.close();
			const app = start({dbPath: broken.dbPath});
			expect(await app.exited).toBe(1);
			await app.waitForOutput(raw => raw.includes(LEAVE_ALT) && /sift: .*JSON/.test(raw), 'the alternate screen left, then the error');
			expect(count(app.raw, ENTER_ALT)).toBe(1);
			expect(count(app.raw, LEAVE_ALT)).toBe(1);
			expect(app.term.buffer.active.type).toBe('normal');
			expect(app.screen()).toMatch(/sift: .*JSON/);
		} finally {
			broken.cleanup();
		}
	});

	it('is left on an uncaught error thrown outside the app, before the error is printed', async () => {
		const app = start({entry: path.join(repoRoot(), 'test', 'support', 'alt-screen-crash.mjs'), args: []});
		expect(await app.exited).toBe(1);
		await app.waitForOutput(raw => raw.includes('boom from a timer'), 'the error printed');
		expect(app.raw.indexOf(ENTER_ALT)).toBeGreaterThanOrEqual(0);
		expect(app.raw.indexOf(LEAVE_ALT)).toBeGreaterThan(app.raw.indexOf('drawn on the alternate screen'));
		expect(app.raw.indexOf(LEAVE_ALT)).toBeLessThan(app.raw.indexOf('boom from a timer'));
		expect(app.term.buffer.active.type).toBe('normal');
		expect(app.screen()).toContain('Error: boom from a timer');
		expect(app.screen()).not.toContain('drawn on the alternate screen');
	});
	it('is left once however many exit paths restore the terminal', async () => {
		const app = start({entry: path.join(repoRoot(), 'test', 'support', 'alt-screen-crash.mjs'), args: ['twice']});
		expect(await app.exited).toBe(0);
		await app.waitForOutput(raw => raw.includes(LEAVE_ALT), 'the alternate screen left');
		expect(count(app.raw, ENTER_ALT)).toBe(1);
		expect(count(app.raw, LEAVE_ALT)).toBe(1);
		expect(app.term.buffer.active.type).toBe('normal');
	});
});

describe('live updates in the built app', () => {
	it('recover after the event log could not be read for a while; an edit from another process then shows', async () => {
		const app = start({env: {SIFT_POLL_MAX_MS: '300'}});
		await app.waitFor('BUG-0080');
		// The app's connection is already open: a file renamed or chmod-ed away still reads through
		// it, and an exclusive lock cannot be taken while it reads. Renaming the events table can.
		demo.store.db.exec('ALTER TABLE events RENAME TO events_away');
		try {
			const paused = await app.waitFor('Live updates paused', 10_000);
			expect(paused).toContain('no such table: events');
			expect(paused.split('\n')[0]).toContain('not live');
		} finally {
			demo.store.db.exec('ALTER TABLE events_away RENAME TO events');
		}

		const resumed = await app.waitFor('Live updates resumed.', 10_000);
		expect(resumed.split('\n')[0]).not.toContain('not live');
		const id = idOfTicket(demo.store, 'BUG-0078');
		execFileSync(process.execPath, [CLI(), 'edit', id, 'status=wont_fix', 'owner=ren', '--db', demo.db.dbPath], {stdio: 'pipe'});
		await app.waitFor(text => /Won't fix\s+Ren/.test(rowOf(text, 'BUG-0078')), 10_000, 'the row edited by `sift edit`');
		expect(await app.quit()).toBe(0);
	});
});

describe('marks in the built app', () => {
	it('stay on the rows through a whole Codex run', async () => {
		const app = start({env: {FAKE_CODEX_MODE: 'normal'}});
		await app.waitFor('BUG-0080');
		app.press(' ', ' ');
		await app.waitFor('2 marked');
		app.press('c');
		await app.waitFor('Run Codex on 2 marked records');
		app.press(KEYS.enter);
		const done = await app.waitFor(text => text.includes('✓ Codex ok') && text.includes('usage:'), 20_000, 'the finished run pane');
		expect(done.split('\n')[0]).toContain('2 marked');
		expect(await app.quit()).toBe(0);
	});
});
