// The one run path on the built app: SIGTERM/SIGHUP start no queued batch and leave no process; `c`
// and `W` check the login; an auth_required watch batch halts it; a fan-out carries the transcript,
// each batch its own count; the cancel question goes with its run; a run's detail pages over every
// step; a finished run's time and step count agree in header, pane, footer and history (all at
// 80×24 and 200×60)

import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {ptyDemo} from '../support/pty-fixtures.js';
import {alive, KEYS, repoRoot} from '../support/pty.js';
import {readPids} from '../support/processes.js';
import {tempDir} from '../support/temp.js';
import {waitUntil} from '../support/wait.js';

// Every TUI run through the one fan-out path, on the built app with the fake Codex: a signal
// cancels the queued batches too; `c` and `W` take no items without a login; an auth_required
// watch batch halts the watch and says so; a follow-up fan-out carries the earlier answer; each
// batch's prompt names its own items.

const FAKE_CODEX = path.join(repoRoot(), 'test', 'support', 'fake-codex.mjs');
const demo = ptyDemo(30, 'sift-pty-run-path-');
const scratch = tempDir('sift-pty-run-path-files-');
const SIZES = [{cols: 80, rows: 24}, {cols: 200, rows: 60}] as const;

const runLogs = (stateDir: string) => (existsSync(path.join(stateDir, 'runs')) ? readdirSync(path.join(stateDir, 'runs')).filter(name => name.endsWith('.jsonl')) : []);
/** The prompts the fake Codex was started with, one per `exec` (FAKE_CODEX_CALLS). */
const prompts = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map(line => JSON.parse(line) as string[]).filter(argv => argv[0] === 'exec' && argv.includes('--')).map(argv => argv[argv.indexOf('--') + 1]!) : []);

function launch(name: string, args: string[], env: NodeJS.ProcessEnv, size: {cols: number; rows: number} = {cols: 160, rows: 32}) {
	const stateDir = path.join(scratch, name);
	const app = demo.launch({args: ['--db', demo.db.dbPath, '--codex', FAKE_CODEX, ...args], ...size, env: {SIFT_STATE_DIR: stateDir, ...env}});
	return {app, stateDir};
}

describe('the one run path', () => {
	for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
		it(`${signal} cancels the queued batches: none starts after the signal, and no process survives`, async () => {
			const pidFile = path.join(scratch, `pids-${signal}`);
			const {app, stateDir} = launch(signal, ['--batch', '1', '--parallel', '1'], {FAKE_CODEX_MODE: 'hang', FAKE_CODEX_PIDFILE: pidFile});
			await app.waitFor('BUG-0030', 15_000);
			app.press(' ', ' ', ' ');
			await app.waitFor('3 marked');
			app.press('c');
			await app.waitFor('Run Codex on', 10_000);
			app.press(KEYS.enter);
			await app.waitFor(text => /\[1\] 1 item · [1-9]\d* steps? · /.test(text) && /\[3\] 1 item · 0 steps · — · 0 tok · queued/.test(text), 20_000, 'one batch running, two queued');
			await waitUntil(() => existsSync(pidFile) && readPids(pidFile).length >= 1, 'the first batch\'s fake codex', {timeoutMs: 20_000, intervalMs: 50});
			expect(runLogs(stateDir)).toHaveLength(1);
			process.kill(app.proc.pid, signal);
			await app.exited;
			// Only the batch that ran when the signal came was ever started.
			expect(runLogs(stateDir)).toHaveLength(1);
			const pids = readPids(pidFile);
			expect(pids).toHaveLength(1);
			await waitUntil(() => pids.every(pid => !alive(pid)), 'no fake codex alive', {timeoutMs: 10_000, intervalMs: 50});
		});
	}

	for (const size of SIZES) {
		it(`the cancel question goes away when its run ends (${size.cols}×${size.rows})`, async () => {
			// The run holds before its answer until the question is up (the answer gate), then ends on its own.
			const answerGate = path.join(scratch, `question-gate-${size.cols}`);
			const {app} = launch(`question-${size.cols}`, [], {FAKE_CODEX_MODE: 'normal', FAKE_CODEX_ANSWER_GATE: answerGate}, size);
			await app.waitFor('BUG-0030', 15_000);
			app.press('c');
			await app.waitFor('Run Codex on', 10_000);
			app.press(KEYS.enter);
			await app.waitFor('Codex running', 15_000);
			app.press('x');
			await app.waitFor('Cancel the Codex run?', 10_000);
			writeFileSync(answerGate, '');
			const ended = await app.waitFor(text => text.includes('Codex ok') && !text.includes('Cancel the Codex run?'), 30_000, 'the run over and the question gone');
			expect(ended).not.toContain('y/n');
			// y now answers nothing: the list still has the keys.
			app.press('j');
			await app.waitFor('row 2', 10_000);
			expect(await app.quit()).toBe(0);
		});
	}

	for (const size of SIZES) {
		it(`a run's detail (R → Enter) shows every step over its pages, with what is above and below (${size.cols}×${size.rows})`, async () => {
			const {app} = launch(`detail-${size.cols}`, [], {FAKE_CODEX_MODE: 'many-steps'}, size);
			await app.waitFor('BUG-0030', 15_000);
			app.press('c');
			await app.waitFor('Run Codex on', 10_000);
			app.press(KEYS.enter);
			await app.waitFor(text => text.includes('Codex ok'), 30_000, 'the run');
			app.press('R');
			await app.waitFor('Run history', 10_000);
			app.press(KEYS.enter);
			let screen = await app.waitFor(text => /↓ [\d,]+ more lines? below/.test(text) && text.includes('read_record_item itm_0001'), 10_000, 'the detail with a below marker');
			// The detail counts the steps as the header does.
			const count = /· ([\d,]+) steps · j\/k/.exec(screen)?.[1];
			expect(count).toBeDefined();
			expect(screen.split('\n')[0]).toContain(`${count} steps`);
			const seen = new Set<string>();
			for (let page = 0; page < 60 && !screen.includes('Answer:'); page++) {
				for (const match of screen.matchAll(/read_record_item (itm_\d{4})/g)) seen.add(match[1]!);
				const before = screen;
				app.press(KEYS.pageDown);
				screen = await app.waitFor(text => text !== before, 10_000, 'the next page');
			}

			for (const match of screen.matchAll(/read_record_item (itm_\d{4})/g)) seen.add(match[1]!);
			expect(seen.size).toBe(60);
			expect(screen).toMatch(/↑ [\d,]+ more lines? above/);
			expect(screen).toContain('Answer:');
			app.press('k');
			await app.waitFor(text => text !== screen, 10_000, 'a line back up');
			app.press(KEYS.escape, KEYS.escape);
			await app.waitFor(text => !text.includes('Run history'), 10_000, 'the list again');
			expect(await app.quit()).toBe(0);
		});
	}

	for (const size of SIZES) {
		it(`one finished run reads the same time and step count in the header, the run pane, the footer and the history (${size.cols}×${size.rows})`, async () => {
			const {app} = launch(`agree-${size.cols}`, [], {FAKE_CODEX_MODE: 'normal'}, size);
			await app.waitFor('BUG-0030', 15_000);
			app.press('c');
			await app.waitFor('Run Codex on', 10_000);
			app.press(KEYS.enter);
			const done = await app.waitFor(text => /Codex ok in [\d.]+s: /.test(text) && /Codex ok [\d.]+s · \d+ steps?/.test(text), 30_000, 'the run ended');
			const header = /Codex ok ([\d.]+s) · (\d+) steps?/.exec(done.split('\n')[0]!);
			expect(header, 'the header names the run').not.toBeNull();
			const [, seconds, steps] = header!;
			expect(done).toContain(`✓ Codex ok in ${seconds} · ${steps} steps · run-`);
			expect(done).toMatch(new RegExp(`^Codex ok in ${seconds.replace('.', '\\.')}: `, 'm'));
			// Each plural from the one helper: never "1 steps".
			expect(done).not.toMatch(/\b1 steps\b/);
			app.press('R');
			const history = await app.waitFor('Run history', 10_000);
			expect(history).toMatch(new RegExp(`\\bok +${seconds.replace('.', '\\.')} `));
			app.press(KEYS.escape);
			expect(await app.quit()).toBe(0);
		});
	}

	for (const size of SIZES) {
		it(`c and W check the login first: nothing starts, no item is taken, and the footer says what to do (${size.cols}×${size.rows})`, async () => {
			const calls = path.join(scratch, `calls-logged-out-${size.cols}`);
			const {app, stateDir} = launch(`logged-out-${size.cols}`, [], {FAKE_CODEX_LOGGED_IN: '0', FAKE_CODEX_CALLS: calls}, size);
			await app.waitFor('BUG-0030', 15_000);
			app.press('c');
			await app.waitFor('Run Codex on', 10_000);
			app.press(KEYS.enter);
			const refused = await app.waitFor(text => text.includes('No run started: Codex is not logged in'), 15_000, 'the refusal');
			// The hint names the binary's whole path: it fits at 200 columns; at 80 the refusal takes the
			// hints' line too, the path on it (cut to the width where the checkout's path is long).
			if (size.cols >= 200) expect(refused).toContain(`run \`${FAKE_CODEX} login\` in a shell, then press c again.`);
			else expect(refused).toMatch(/No run started: Codex is not logged in — run *\n`\S+/);
			expect(refused).not.toContain('Run Codex on');
			app.press('W');
			await app.waitFor(text => text.includes('Watch mode not started: Codex is not logged in'), 15_000, 'the watch refused');
			await app.waitFor(text => !text.includes('watch on:'), 10_000, 'watch off');
			expect(prompts(calls)).toEqual([]);
			expect(runLogs(stateDir)).toEqual([]);
			expect(await app.quit()).toBe(0);
		});
	}

	for (const size of SIZES) {
		it(`an auth_required watch batch halts the watch: watch off, and the footer says why (${size.cols}×${size.rows})`, async () => {
			const {app} = launch(`auth-${size.cols}`, ['--batch', '2'], {FAKE_CODEX_MODE: 'auth'}, size);
			await app.waitFor('BUG-0030', 15_000);
			app.press('W');
			await app.waitFor('watch on: new items after event', 15_000);
			for (const ticket of [`AUTH-${size.cols}-1`, `AUTH-${size.cols}-2`]) demo.store.createItem('bugs', {ticket, title: `watched ${ticket}`, status: 'new'}, {kind: 'human'});
			const halted = await app.waitFor(text => text.includes('Watch mode stopped: a batch ended auth_required') && !text.includes('watch on:'), 30_000, 'the halted watch');
			expect(halted).toContain('its items wait again');
			expect(await app.quit()).toBe(0);
		});
	}

	for (const size of SIZES) {
		it(`a fan-out after a run carries its answer, and each batch is told its own items and count (${size.cols}×${size.rows})`, async () => {
			const calls = path.join(scratch, `calls-transcript-${size.cols}`);
			const {app} = launch(`transcript-${size.cols}`, ['--batch', '2'], {FAKE_CODEX_MODE: 'normal', FAKE_CODEX_CALLS: calls}, size);
			await app.waitFor('BUG-0030', 15_000);
			app.press('c');
			await app.waitFor('Run Codex on', 10_000);
			app.press(KEYS.enter);
			await app.waitFor(text => text.includes('✓ Codex ok') && text.includes('usage:'), 30_000, 'the first run');
			app.press(' ', ' ', ' ', ' ');
			await app.waitFor('4 marked');
			app.press('c');
			await app.waitFor('Run Codex on', 10_000);
			app.press(KEYS.enter);
			await app.waitFor(text => /Runs: 0 going · 3 done/.test(text), 30_000, 'two more batches done');
			const [first, ...batches] = prompts(calls);
			expect(first).toMatch(/Work on this one item of channel "bugs" \(item ids\): \S+\./);
			expect(batches).toHaveLength(2);
			for (const prompt of batches) {
				expect(prompt).toMatch(/Work on these 2 items, and only these, of channel "bugs" \(item ids\): \S+, \S+\./);
				expect(prompt).toContain('Assistant:');
				expect(prompt).toMatch(/User: Triage these records/);
				expect(prompt).not.toMatch(/these 4 records/);
			}

			expect(await app.quit()).toBe(0);
		});
	}
});
