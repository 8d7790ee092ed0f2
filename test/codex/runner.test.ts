// The runner with the fake codex: steps, deadline, cancel, stalls, no password in what a run
// writes.

import {copyFileSync, existsSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {startRun, type RunOptions, type RunResult} from '../../source/codex/runner.js';
import {loadRunLog} from '../../source/codex/runlog.js';
import type {RunUpdate} from '../../source/codex/tracker.js';
import {FAKE_CODEX, isAlive, liveGroupMembers, readPids, tempDir} from './support.js';

type Timed = RunUpdate & {at: number};

type FakeRun = {result: RunResult; updates: Timed[]; elapsedMs: number; pids: number[]; dir: string};

const TRIAGE_STEPS = [
	{kind: 'reasoning', label: 'Listing the channel', status: 'done', result: null},
	{kind: 'mcp_tool_call', label: 'list_record_items bugs', status: 'done', result: '3 items'},
	{kind: 'mcp_tool_call', label: 'edit_record_item BUG-0042', status: 'done', result: 'ok v3'},
	{kind: 'mcp_tool_call', label: 'edit_record_item BUG-0043', status: 'failed', result: 'rejected: points, due'},
	{kind: 'mcp_tool_call', label: 'edit_record_item BUG-0044', status: 'failed', result: 'conflict'},
];

const ANSWER_START = 'Set BUG-0042 to in_progress for aiko.';

/** Starts a run of the fake codex in a fresh folder; its pids are recorded in `pidFile`. */
function startFake(mode: string, options: Partial<RunOptions> & {fakeEnv?: Record<string, string>} = {}) {
	const dir = tempDir();
	const pidFile = path.join(dir, 'pids');
	const {fakeEnv, ...runOptions} = options;
	const handle = startRun({
		instruction: 'Triage these bugs',
		channelId: 'bugs',
		itemIds: ['itm_0042', 'itm_0043', 'itm_0044'],
		dbPath: path.join(dir, 'sift.db'),
		codex: FAKE_CODEX,
		stateDir: path.join(dir, 'state'),
		// A deadline, not a pace: generous, so a loaded machine never turns an ok run into timed_out.
		timeoutMs: 60_000,
		killGraceMs: 500,
		env: {...process.env, FAKE_CODEX_MODE: mode, FAKE_CODEX_PIDFILE: pidFile, ...fakeEnv},
		...runOptions,
	});
	return {handle, dir, pidFile};
}

async function runFake(mode: string, options: Partial<RunOptions> & {fakeEnv?: Record<string, string>; onUpdate?: (update: RunUpdate, cancel: () => void) => void} = {}): Promise<FakeRun> {
	const {onUpdate, ...startOptions} = options;
	const began = performance.now();
	const {handle, dir, pidFile} = startFake(mode, startOptions);
	const updates: Timed[] = [];
	const reading = (async () => {
		for await (const update of handle.updates) {
			updates.push({...update, at: performance.now() - began});
			onUpdate?.(update, handle.cancel);
		}
	})();
	const result = await handle.done;
	const elapsedMs = performance.now() - began;
	await reading;
	return {result, updates, elapsedMs, pids: readPids(pidFile), dir};
}

/** Nothing the run started may outlive it: not Codex, not its process group, not a grandchild. */
function expectNothingAlive(run: FakeRun): void {
	expect(run.pids.length).toBeGreaterThan(0);
	expect(run.pids.filter(isAlive)).toEqual([]);
	expect(run.result.pid).toBe(run.pids[0]);
	expect(liveGroupMembers(run.result.pid!)).toEqual([]);
}

function stepsOf(result: RunResult) {
	return result.steps.map(({id: _id, ...step}) => step);
}

describe('runner against the fake codex, one test per mode', () => {
	it('normal: ok, every step, the answer, usage and the edit counts', async () => {
		const run = await runFake('normal');
		expect(run.result.outcome).toBe('ok');
		expect(run.result.error).toBeNull();
		expect(stepsOf(run.result)).toEqual(TRIAGE_STEPS);
		expect(run.result.text.startsWith(ANSWER_START)).toBe(true);
		expect(run.result.usage).toEqual({input_tokens: 5120, cached_input_tokens: 1024, output_tokens: 312});
		expect([run.result.editsApplied, run.result.rejections, run.result.followupsOpened]).toEqual([1, 1, 2]);
		expect(run.result.exitCode).toBe(0);
		expectNothingAlive(run);
	});

	it('slow: steps arrive while Codex works, long before the answer', async () => {
		// Codex holds its answer until the test has seen every step (the gate file), so each step
		// provably arrived while Codex was still working.
		const gate = path.join(tempDir(), 'answer-gate');
		const finished = new Set<string>();
		let answerBeforeSteps = false;
		const run = await runFake('normal', {
			fakeEnv: {FAKE_CODEX_ANSWER_GATE: gate},
			onUpdate(update) {
				if (update.type === 'text' && finished.size < TRIAGE_STEPS.length) answerBeforeSteps = true;
				if (update.type !== 'step' || update.step.status === 'running') return;
				finished.add(update.step.id);
				if (finished.size === TRIAGE_STEPS.length) writeFileSync(gate, '');
			},
		});
		expect(run.result.outcome).toBe('ok');
		expect(stepsOf(run.result)).toEqual(TRIAGE_STEPS);
		expect(finished.size).toBe(TRIAGE_STEPS.length);
		expect(answerBeforeSteps).toBe(false);
		const editSteps = run.updates.flatMap(update => (update.type === 'step' && update.step.id === 'item_2' ? [update.step.status] : []));
		expect(editSteps).toEqual(['running', 'done']);
		expectNothingAlive(run);
	});

	it('hang: the reader loop stops it at the deadline and SIGKILLs a child that ignores SIGTERM', async () => {
		const run = await runFake('hang', {timeoutMs: 1500, killGraceMs: 300});
		expect(run.result.outcome).toBe('timed_out');
		expect(run.result.error).toMatch(/did not finish within 2 s/);
		expect(stepsOf(run.result)).toEqual([TRIAGE_STEPS[0], {...TRIAGE_STEPS[1], status: 'running', result: null}]);
		expect(run.result.text).toBe('');
		expect(run.result.signal).toBe('SIGKILL');
		expectNothingAlive(run);
	});

	it('crash before the answer: failed, with the panic from stderr', async () => {
		const run = await runFake('crash-before-answer');
		expect(run.result.outcome).toBe('failed');
		expect(run.result.error).toContain("panicked at codex-rs/exec/src/lib.rs");
		expect(stepsOf(run.result)).toEqual([TRIAGE_STEPS[0], TRIAGE_STEPS[1], {...TRIAGE_STEPS[2], status: 'running', result: null}]);
		expect(run.result.text).toBe('');
		expect(run.result.exitCode).toBe(101);
		expectNothingAlive(run);
	});

	it('crash right after the answer: partial, the answer kept', async () => {
		const run = await runFake('crash-after-answer');
		expect(run.result.outcome).toBe('partial');
		expect(run.result.error).toMatch(/exit code 101/);
		expect(stepsOf(run.result)).toEqual(TRIAGE_STEPS);
		expect(run.result.text.startsWith(ANSWER_START)).toBe(true);
		expect(run.result.usage).toBeNull();
		expectNothingAlive(run);
	});

	it('auth: a 401 error event then turn.failed asks for `codex login`', async () => {
		const run = await runFake('auth');
		expect(run.result.outcome).toBe('auth_required');
		expect(run.result.error).toContain('401 Unauthorized');
		// FAKE_CODEX is not `codex` on PATH: the advice names the binary itself, so it works as typed.
		expect(run.result.error).toContain(`\`${FAKE_CODEX} login\``);
		expect(run.result.steps).toEqual([]);
		expect(run.result.text).toBe('');
		expectNothingAlive(run);
	});

	it('stderr flood: 200 KB of stderr is drained, only a 4,000-byte tail kept', async () => {
		const run = await runFake('stderr-flood');
		expect(run.result.outcome).toBe('ok');
		expect(stepsOf(run.result)).toEqual(TRIAGE_STEPS);
		expect(run.result.text.startsWith(ANSWER_START)).toBe(true);
		expect(Buffer.byteLength(run.result.stderrTail)).toBeLessThanOrEqual(4000);
		expect(Buffer.byteLength(run.result.stderrTail)).toBeGreaterThan(3900);
		expect(run.result.stderrTail.trimEnd().endsWith('flood-end')).toBe(true);
		expectNothingAlive(run);
	});

	it('noise: non-JSON lines and unknown events are skipped, error items become warnings', async () => {
		const run = await runFake('noise');
		expect(run.result.outcome).toBe('ok');
		expect(stepsOf(run.result)).toEqual(TRIAGE_STEPS);
		expect(run.result.warnings).toEqual(['model rerouted to a smaller model']);
		expect(run.result.text.startsWith(ANSWER_START)).toBe(true);
		// Every stdout line is in the log, the noise wrapped; the log loads without repair.
		const log = loadRunLog(run.result.logPath);
		expect(log.backupPath).toBeNull();
		const raw = readFileSync(run.result.logPath, 'utf8');
		expect(raw).toContain(JSON.stringify({sift: 'raw', line: 'Reading prompt from stdin... not really'}));
		expect(raw).toContain(JSON.stringify({sift: 'raw', line: '{"type":"item.completed","item":'}));
		expectNothingAlive(run);
	});

	it('reconnecting: top-level "Reconnecting..." errors are notices, not failures', async () => {
		const run = await runFake('reconnecting');
		expect(run.result.outcome).toBe('ok');
		expect(run.result.error).toBeNull();
		expect(stepsOf(run.result)).toEqual(TRIAGE_STEPS);
		const notices = run.updates.flatMap(update => (update.type === 'notice' ? [update.message.slice(0, 17)] : []));
		expect(notices).toEqual(['Reconnecting... 1', 'Reconnecting... 2']);
		expectNothingAlive(run);
	});

	it('grandchild: a sleep holding stdout does not keep the run open, and is killed', async () => {
		const run = await runFake('grandchild', {timeoutMs: 25_000});
		expect(run.result.outcome).toBe('ok');
		expect(stepsOf(run.result)).toEqual(TRIAGE_STEPS);
		expect(run.result.text.startsWith(ANSWER_START)).toBe(true);
		expect(run.pids).toHaveLength(2);
		// The sleep lasts 30 s, the run's deadline here 25 s: an ok run did not wait for it.
		expectNothingAlive(run);
	});

	it('required MCP startup failure: no events, the reason read from stderr', async () => {
		const run = await runFake('mcp-startup-failure');
		expect(run.result.outcome).toBe('failed');
		expect(run.result.error).toContain('required MCP servers failed to initialize: sift');
		expect(run.result.error).not.toContain('<unknown>');
		expect(run.result.steps).toEqual([]);
		expect(run.result.text).toBe('');
		expectNothingAlive(run);
	});
});

describe('runner', () => {
	it('cancel() stops the run at once and kills its group', async () => {
		// Codex never answers by itself here (its gate never opens): only the cancel ends the run before its deadline.
		const run = await runFake('normal', {
			fakeEnv: {FAKE_CODEX_ANSWER_GATE: path.join(tempDir(), 'never')},
			onUpdate(update, cancel) {
				if (update.type === 'step' && update.step.id === 'item_1') cancel();
			},
		});
		expect(run.result.outcome).toBe('cancelled');
		// Lines Codex wrote before the cancel landed may still be read; the held answer never is.
		expect(run.result.steps.map(step => step.id).slice(0, 2)).toEqual(['item_0', 'item_1']);
		expect(run.result.text).toBe('');
		expectNothingAlive(run);
	});

	it('starts Codex with stdin closed, in an empty run folder, without the API variables', async () => {
		const dir = tempDir();
		const argsFile = path.join(dir, 'args.json');
		const run = await runFake('normal', {
			fakeEnv: {FAKE_CODEX_ARGS_FILE: argsFile, OPENAI_API_KEY: 'sk-test', CODEX_API_KEY: 'c', OPENAI_BASE_URL: 'http://127.0.0.1:1', KEEP_ME: '1'},
			model: 'gpt-test',
			codexConfig: ['model_reasoning_effort="low"'],
		});
		const seen = JSON.parse(readFileSync(argsFile, 'utf8')) as {argv: string[]; prompt: string; cwd: string; cwd_entries: string[]; stdin: string; env_keys: string[]};
		expect(seen.stdin).toBe('character-device');
		expect(seen.cwd_entries).toEqual([]);
		expect(seen.cwd).toBe(path.join(run.dir, 'state', 'work', run.result.runId));
		expect(existsSync(seen.cwd)).toBe(false);
		expect(seen.env_keys).toContain('KEEP_ME');
		expect(seen.env_keys).not.toContain('OPENAI_API_KEY');
		expect(seen.env_keys).not.toContain('CODEX_API_KEY');
		expect(seen.env_keys).not.toContain('OPENAI_BASE_URL');
		expect(seen.argv.slice(0, 7)).toEqual(['exec', '--json', '--skip-git-repo-check', '--ignore-user-config', '--ignore-rules', '--ephemeral', '--strict-config']);
		// The user's -c, then the switches that turn Codex's own tools off (they come last so they win).
		const userConfig = seen.argv.indexOf('model_reasoning_effort="low"');
		expect(seen.argv.slice(userConfig - 3, userConfig + 1)).toEqual(['-m', 'gpt-test', '-c', 'model_reasoning_effort="low"']);
		expect(seen.argv.slice(userConfig + 1, -2).filter((_, index) => index % 2 === 1)).toContain('features.shell_tool=false');
		expect(seen.argv.slice(-2)).toEqual(['--', seen.prompt]);
		expect(seen.prompt).toContain('(item ids): itm_0042, itm_0043, itm_0044.');
		expect(seen.prompt.endsWith('\n\nUser: Triage these bugs')).toBe(true);
	});

	it('never writes the store\'s password into the run log, the answer, the error or the stderr tail', async () => {
		const dbPath = 'postgres://sift:SECRETMARK@127.0.0.1:1/sift';
		const run = await runFake('echo-store', {dbPath, fakeEnv: {PGPASSWORD: 'PGSECRETMARK'}});
		expect(run.result.outcome).toBe('failed');
		expect(run.result.error).toBe('MCP server sift failed: could not open postgres://sift:***@127.0.0.1:1/sift');
		expect(run.result.text).toContain('postgres://sift:***@');
		expect(run.result.stderrTail).toContain('postgres://sift:***@');
		const everything = JSON.stringify(run.result) + readFileSync(run.result.logPath, 'utf8');
		expect(everything).not.toContain('SECRETMARK');
	});

	it('keeps the API variables when asked, and leaves out --ignore-rules when this codex lacks it', async () => {
		const dir = tempDir();
		const oldCodex = path.join(dir, 'codex');
		copyFileSync(FAKE_CODEX, oldCodex);
		const argsFile = path.join(dir, 'args.json');
		await runFake('normal', {codex: oldCodex, keepApiEnv: true, fakeEnv: {FAKE_CODEX_ARGS_FILE: argsFile, FAKE_CODEX_HELP: 'old', OPENAI_API_KEY: 'sk-test'}});
		const seen = JSON.parse(readFileSync(argsFile, 'utf8')) as {argv: string[]; env_keys: string[]};
		expect(seen.env_keys).toContain('OPENAI_API_KEY');
		expect(seen.argv).not.toContain('--ignore-rules');
		expect(seen.argv.slice(0, 4)).toEqual(['exec', '--json', '--skip-git-repo-check', '--ignore-user-config']);
	});

	it('a missing binary is codex_missing with how to install it, and still logged', async () => {
		const run = await runFake('normal', {codex: '/nonexistent/codex'});
		expect(run.result.outcome).toBe('codex_missing');
		expect(run.result.error).toContain('npm install -g @openai/codex');
		expect(run.result.pid).toBeUndefined();
		expect(loadRunLog(run.result.logPath).end?.outcome).toBe('codex_missing');
	});

	it('writes a run log: start line, every stdout line, end line', async () => {
		const run = await runFake('normal');
		const log = loadRunLog(run.result.logPath);
		expect(log.start).toMatchObject({run_id: run.result.runId, channel_id: 'bugs', instruction: 'Triage these bugs', item_ids: ['itm_0042', 'itm_0043', 'itm_0044']});
		expect(log.events.map(event => event.type)).toEqual([
			'thread.started',
			'turn.started',
			'item.completed',
			...Array.from({length: 4}, () => ['item.started', 'item.completed']).flat(),
			'item.completed',
			'turn.completed',
		]);
		expect(log.end).toMatchObject({outcome: 'ok', text: run.result.text, edits_applied: 1, rejections: 1, followups_opened: 2});
	});
});

describe('runner cancelled before Codex starts', () => {
	it('never spawns Codex', async () => {
		const {handle, pidFile} = startFake('normal');
		handle.cancel();
		const result = await handle.done;
		expect(result.outcome).toBe('cancelled');
		expect(result.pid).toBeUndefined();
		expect(readPids(pidFile)).toEqual([]);
	});
});

describe('runner whose log cannot be written mid-run', () => {
	it('rejects done, and still kills the whole group', async () => {
		const {handle, dir, pidFile} = startFake('slow', {killGraceMs: 300});
		for await (const update of handle.updates) {
			if (update.type === 'step') {
				rmSync(path.join(dir, 'state', 'runs'), {recursive: true});
				break;
			}
		}
		await expect(handle.done).rejects.toThrow(/ENOENT/);
		const pids = readPids(pidFile);
		expect(pids).toHaveLength(1);
		expect(pids.filter(isAlive)).toEqual([]);
		expect(liveGroupMembers(pids[0]!)).toEqual([]);
	});
});
