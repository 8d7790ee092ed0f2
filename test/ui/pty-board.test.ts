// The runs board with 3 parallel fake runs: Enter focuses, X cancels all, no Codex left; W's batch.

import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {ptyDemo} from '../support/pty-fixtures.js';
import {alive, KEYS, repoRoot} from '../support/pty.js';
import {readPids} from '../support/processes.js';
import {tempDir} from '../support/temp.js';
import {waitUntil} from '../support/wait.js';

// The runs board on the built app: `c` on six marks with --batch 2 --parallel 3 starts three fake
// Codex runs at once; the board lists them, Enter shows one run's live steps, X cancels them all,
// and afterwards no fake Codex process is left.

const FAKE_CODEX = path.join(repoRoot(), 'test', 'support', 'fake-codex.mjs');
const demo = ptyDemo(30, 'sift-pty-board-');
const scratch = tempDir('sift-pty-board-pids-');

const pidsIn = readPids;

const until = async (check: () => boolean, timeoutMs: number, what: string) => waitUntil(check, what, {timeoutMs, intervalMs: 50});

describe('the runs board', () => {
	it('shows 3 parallel runs, focuses one, and X cancels all with no Codex process left', async () => {
		const pidFile = path.join(scratch, 'pids');
		const app = demo.launch({
			args: ['--db', demo.db.dbPath, '--codex', FAKE_CODEX, '--batch', '2', '--parallel', '3'],
			cols: 160,
			rows: 32,
			// hang: each run shows its first steps, then waits (ignoring SIGTERM) until it is cancelled.
			env: {SIFT_STATE_DIR: demo.db.stateDir, FAKE_CODEX_MODE: 'hang', FAKE_CODEX_PIDFILE: pidFile},
		});
		await app.waitFor('BUG-0030', 15_000);
		app.press(...Array.from({length: 6}, () => ' '));
		await app.waitFor('6 marked');
		app.press('c');
		await app.waitFor('Run Codex on', 10_000);
		app.press(KEYS.enter);
		const board = await app.waitFor(text => /Runs: 3 going/.test(text) && /\[3\] 2 items/.test(text), 30_000, 'three runs on the board');
		expect(board).toMatch(/\[1\] 2 items/);
		expect(board).toMatch(/\[2\] 2 items/);
		expect(board).toContain('Codex started on 6 records in 3 runs');
		await until(() => {
			try {
				return pidsIn(pidFile).length >= 3;
			} catch {
				return false;
			}
		}, 20_000, 'three fake codex processes');

		// Enter: the second run's live steps, in the run pane; Enter again: back to the board.
		app.press('j', KEYS.enter);
		await app.waitFor(text => text.includes('run 2 of 3') && text.includes('Codex running'), 10_000, 'the focused run');
		app.press(KEYS.enter);
		await app.waitFor(text => text.includes('Runs: 3 going') && !text.includes('run 2 of 3'), 10_000, 'the board again');

		app.press('X');
		await app.waitFor(text => /Runs: 0 going · 3 done/.test(text) && (text.match(/cancelled/g) ?? []).length >= 3, 30_000, 'every run cancelled');
		const pids = pidsIn(pidFile);
		expect(pids.length).toBeGreaterThanOrEqual(3);
		await until(() => pids.every(pid => !alive(pid)), 10_000, 'no fake codex alive');
		expect(pids.filter(pid => alive(pid))).toEqual([]);

		app.press(KEYS.escape);
		expect(await app.quit()).toBe(0);
	});

	it('W turns watch mode on: new items go out in a batch on the board; W again stops it and its runs', async () => {
		const pidFile = path.join(scratch, 'watch-pids');
		const app = demo.launch({
			args: ['--db', demo.db.dbPath, '--codex', FAKE_CODEX, '--batch', '2', '--parallel', '2'],
			cols: 160,
			rows: 32,
			env: {SIFT_STATE_DIR: demo.db.stateDir, FAKE_CODEX_MODE: 'hang', FAKE_CODEX_PIDFILE: pidFile},
		});
		await app.waitFor('BUG-0030', 15_000);
		app.press('W');
		await app.waitFor(text => text.includes('watch on: new items after event') && text.includes('Watching'), 10_000, 'the watch status line');
		// A full batch (2 items) goes at once, without waiting out the settle time.
		for (const ticket of ['NEW-1', 'NEW-2']) demo.store.createItem('bugs', {ticket, title: `watched ${ticket}`, status: 'new'}, {kind: 'human'});
		await app.waitFor(text => /\[1\] 2 items/.test(text) && /1 going/.test(text), 20_000, 'the watch batch on the board');
		await until(() => {
			try {
				return pidsIn(pidFile).length >= 1;
			} catch {
				return false;
			}
		}, 20_000, 'the fake codex of the batch');

		app.press('W');
		await app.waitFor(text => !text.includes('watch on:') && /0 going · 1 done/.test(text) && text.includes('cancelled'), 20_000, 'watch off, its batch cancelled');
		const pids = pidsIn(pidFile);
		await until(() => pids.every(pid => !alive(pid)), 10_000, 'no fake codex alive');
		expect(await app.quit()).toBe(0);
	});
});
