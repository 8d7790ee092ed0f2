// No Codex outlives its sift, whatever ends it.

import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {execa, type ResultPromise} from 'execa';
import {beforeAll, describe, expect, it} from 'vitest';
import {loadRunHistory} from '../../source/ui/history.js';
import {openStore, SqliteAsyncStore} from '../../store/index.js';
import {ensureBuilt, sift, SIFT_ENTRY} from '../support/cli.js';
import {setUp, type Setup} from './cli-setup.js';
import {FAKE_CODEX, isAlive, liveGroupMembers, readPids, tempDir} from './support.js';
import {eventually} from '../support/wait.js';

beforeAll(() => ensureBuilt());

/** Live processes whose command line names the run (Codex and the MCP server it starts), by `ps`. */
function processesNaming(runId: string): string[] {
	return execFileSync('ps', ['-eo', 'stat=,args='], {encoding: 'utf8'})
		.split('\n')
		.filter(line => line.includes(runId) && !line.trim().startsWith('Z') && !line.includes('ps -eo'));
}

/** True once neither the run's process group nor any process naming the run is left, within ms. */
async function runIsGone(runId: string, group: number, withinMs = 3000): Promise<boolean> {
	return eventually(() => liveGroupMembers(group).length === 0 && processesNaming(runId).length === 0, {timeoutMs: withinMs, intervalMs: 100});
}

type Started = {child: ResultPromise<{reject: false}>; runId: string; group: number; stderr: () => string};

/** `sift run` on a hanging Codex, once Codex has shown its first step. */
async function startHangingRun(setup: Setup, extraEnv: Record<string, string> = {}): Promise<Started> {
	const child = execa(process.execPath, [SIFT_ENTRY, 'run', 'Triage', '--db', setup.db, '--json'], {
		env: {...process.env, ...setup.env, FAKE_CODEX_MODE: 'hang', ...extraEnv},
		reject: false,
	});
	let stderr = '';
	await new Promise<void>((resolve, reject) => {
		child.stderr!.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
			if (stderr.includes('list_record_items')) resolve();
		});
		void child.then(() => reject(new Error(`sift run ended early: ${stderr}`)));
	});
	const runId = /sift: run (run-\S+)/.exec(stderr)![1]!;
	const [group] = readPids(setup.env.FAKE_CODEX_PIDFILE!);
	return {child, runId, group: group!, stderr: () => stderr};
}

const runsJson = (setup: Setup) => JSON.parse(sift(['runs', '--db', setup.db, '--json'], setup.env).stdout) as Array<{id: string; outcome: string | null; error: string | null}>;

describe('no Codex outlives `sift run`', () => {
	it.each(['SIGTERM', 'SIGHUP'] as const)('%s: the run group is killed, the run recorded as cancelled', async signal => {
		const setup = setUp();
		const run = await startHangingRun(setup);
		expect(processesNaming(run.runId).length).toBeGreaterThan(0);
		run.child.kill(signal);
		const result = await run.child;
		expect(await runIsGone(run.runId, run.group)).toBe(true);
		expect(result.exitCode).toBe(130);
		expect(JSON.parse(String(result.stdout))).toMatchObject({run_id: run.runId, outcome: 'cancelled'});
		expect(runsJson(setup)).toMatchObject([{id: run.runId, outcome: 'cancelled'}]);
	});

	it('SIGKILL: the run\'s watchdog kills its processes within 3 s; the next sift start records the run as abandoned', async () => {
		const setup = setUp();
		const run = await startHangingRun(setup);
		run.child.kill('SIGKILL');
		await run.child;
		// No sift has started since: the watchdog alone stopped the run.
		expect(await runIsGone(run.runId, run.group)).toBe(true);
		expect(runsJson(setup)).toMatchObject([{id: run.runId, outcome: 'abandoned'}]);
		const listing = sift(['runs', '--db', setup.db], setup.env);
		expect(listing.code).toBe(0);
		expect(listing.stdout).toMatch(new RegExp(`^${run.runId}  abandoned`));
		expect(runsJson(setup)).toMatchObject([{id: run.runId, outcome: 'abandoned', error: expect.stringContaining('gone')}]);
	});

	it('SIGKILL: the orphaned Codex loses write access at once — its MCP server refuses a later edit and exits within 2 s', async () => {
		const setup = setUp();
		const trigger = path.join(setup.dir, 'edit-now');
		const answer = path.join(setup.dir, 'edit-answer');
		const run = await startHangingRun(setup, {
			FAKE_CODEX_MODE: 'mcp-hang',
			FAKE_CODEX_EDIT: JSON.stringify({record_channel_id: 'bugs', item_id: setup.ids[0], values: {ticket: 'HIJACKED'}}),
			FAKE_CODEX_EDIT_TRIGGER: trigger,
			FAKE_CODEX_EDIT_RESULT: answer,
		});
		// The fake codex writes its own pid, then its MCP server's (sift renames its process: argv does not show it).
		const [, server] = readPids(setup.env.FAKE_CODEX_PIDFILE!);
		expect(liveGroupMembers(run.group)).toContain(server);
		run.child.kill('SIGKILL');
		await run.child;
		writeFileSync(trigger, '');
		// Either the MCP server refuses the edit (owner gone) or the watchdog has already killed the run.
		await eventually(() => existsSync(answer), {timeoutMs: 3000, intervalMs: 50});
		if (existsSync(answer)) expect(readFileSync(answer, 'utf8')).toBe('closed');
		expect(isAlive(server!)).toBe(false);
		expect(await runIsGone(run.runId, run.group)).toBe(true);
		const tickets = (JSON.parse(sift(['list', '--db', setup.db, '--json'], setup.env).stdout) as {items: Array<{preview: {ticket: string}}>}).items.map(item => item.preview.ticket);
		expect(tickets).not.toContain('HIJACKED');
		// That `sift list` was a sift start: it recorded the run.
		expect(runsJson(setup)).toMatchObject([{id: run.runId, outcome: 'abandoned'}]);
	});

	it('a run of a live sift is left alone by another sift', async () => {
		const setup = setUp();
		const run = await startHangingRun(setup);
		try {
			expect(runsJson(setup)).toMatchObject([{id: run.runId, outcome: null}]);
			expect(liveGroupMembers(run.group).length).toBeGreaterThan(0);
		} finally {
			run.child.kill('SIGTERM');
			await run.child;
		}
	});
});

describe('stalls are visible', () => {
	it('says "no progress from Codex" after each silent interval, naming the last step', async () => {
		const setup = setUp();
		const run = await startHangingRun(setup, {SIFT_STALL_NOTICE_MS: '300'});
		const stalls = () => run.stderr().split('\n').filter(line => line.includes('no progress from Codex for'));
		await eventually(() => stalls().length >= 2, {timeoutMs: 20_000, intervalMs: 100});
		run.child.kill('SIGINT');
		await run.child;
		expect(stalls().length).toBeGreaterThanOrEqual(2);
		expect(stalls().every(line => /^ {2}! no progress from Codex for \d+ s \(last: .+\)$/.test(line))).toBe(true);
		// Codex's last line before it went silent was the start of this tool call.
		expect(stalls().at(-1)).toMatch(/\(last: list_record_items.*\(running\)\)$/);
	});
});

describe('preflight: the login is checked before Codex starts', () => {
	it('logged out: auth_required (exit 4), advice that works as typed, and no `codex exec` was started', () => {
		const setup = setUp();
		const calls = path.join(setup.dir, 'calls');
		const result = sift(['run', 'Triage', '--db', setup.db, '--json'], {...setup.env, FAKE_CODEX_LOGGED_IN: '0', FAKE_CODEX_CALLS: calls});
		expect(result.code).toBe(4);
		const summary = JSON.parse(result.stdout) as {outcome: string; error: string};
		expect(summary.outcome).toBe('auth_required');
		// FAKE_CODEX is not `codex` on PATH, so the advice names it by its path.
		expect(summary.error).toContain(`Run \`${FAKE_CODEX} login\``);
		const invocations = readFileSync(calls, 'utf8').trim().split('\n').map(line => JSON.parse(line) as string[]);
		expect(invocations.filter(argv => argv[0] === 'exec')).toEqual([]);
		expect(invocations).toContainEqual(['login', 'status']);
	});

	it('names `codex login` when `codex` on PATH is the binary in use', () => {
		const setup = setUp();
		const bin = path.join(setup.dir, 'bin');
		mkdirSync(bin);
		symlinkSync(FAKE_CODEX, path.join(bin, 'codex'));
		const env = {...setup.env, SIFT_CODEX: '', PATH: `${bin}${path.delimiter}${process.env.PATH}`, FAKE_CODEX_LOGGED_IN: '0'};
		const result = sift(['run', 'Triage', '--db', setup.db, '--json'], env);
		expect(JSON.parse(result.stdout)).toMatchObject({outcome: 'auth_required', error: expect.stringContaining('Run `codex login` and try again.')});
	});

	it('doctor and the preflight ask the same way: API variables are dropped from both unless kept', () => {
		const setup = setUp();
		const env = {...setup.env, FAKE_CODEX_LOGGED_IN: 'api-key', OPENAI_API_KEY: 'sk-test'};
		const doctor = (extra: string[]) => (JSON.parse(sift(['doctor', '--json', ...extra], env).stdout) as {checks: Array<{name: string; ok: boolean}>}).checks.find(check => check.name === 'codex login');
		expect(doctor([])).toMatchObject({ok: false});
		expect(doctor(['--keep-api-env'])).toMatchObject({ok: true});
		expect(JSON.parse(sift(['run', 'Triage', '--db', setup.db, '--json'], env).stdout)).toMatchObject({outcome: 'auth_required'});
		expect(JSON.parse(sift(['run', 'Triage', '--db', setup.db, '--json', '--keep-api-env'], env).stdout)).toMatchObject({outcome: 'ok'});
	});
});

describe('run history', () => {
	it('`sift runs` and R list the same runs: this database\'s only, never another database\'s logs', async () => {
		const dir = tempDir();
		const mine = setUp({}, {dir, name: 'mine.db'});
		const other = setUp({}, {dir, name: 'other.db'});
		const runOf = (setup: Setup, instruction: string) => (JSON.parse(sift(['run', instruction, '--db', setup.db, '--json'], setup.env).stdout) as {run_id: string}).run_id;
		const ids = [runOf(mine, 'First'), runOf(mine, 'Second')];
		const foreign = runOf(other, 'Elsewhere');
		expect(readdirSync(path.join(dir, 'state', 'runs'))).toContain(`${foreign}.jsonl`);

		const listed = runsJson(mine).map(run => run.id);
		const db = openStore(mine.db);
		const shown = (await loadRunHistory(mine.env.SIFT_STATE_DIR!, new SqliteAsyncStore(db))).map(run => run.runId);
		db.close();
		expect(listed).toEqual([...ids].reverse());
		expect(shown).toEqual(listed);
		expect(shown).not.toContain(foreign);
	});

	it('never reads or rewrites a file outside the state dir\'s runs folder that a row names as its log', async () => {
		const setup = setUp();
		const {run_id: runId} = JSON.parse(sift(['run', 'Triage', '--db', setup.db, '--json'], setup.env).stdout) as {run_id: string};
		const victim = path.join(setup.dir, 'victim.txt');
		const content = 'precious line one\nnot json {\n{"sift":"end","outcome":"ok"}\nlast line\n';
		writeFileSync(victim, content);
		const linked = path.join(setup.env.SIFT_STATE_DIR!, 'runs', 'run-linked.jsonl');
		symlinkSync(victim, linked);
		const db = new Database(setup.db);
		db.prepare('UPDATE runs SET log_path = ?, outcome = NULL, finished_at = NULL WHERE id = ?').run(victim, runId);
		db.prepare("INSERT INTO runs (id, channel_id, item_ids, instruction, started_at, log_path) VALUES ('run-linked', 'bugs', '[]', 'x', '2025-01-01T00:00:00Z', ?)").run(linked);
		db.close();

		expect(sift(['runs', '--db', setup.db], setup.env).code).toBe(0);
		const detail = sift(['runs', runId, '--db', setup.db], setup.env);
		expect(detail.code).toBe(0);
		expect(detail.stdout).toContain('(not read: not a run log of this state dir, or missing)');
		expect(sift(['runs', 'run-linked', '--db', setup.db], setup.env).code).toBe(0);
		const readonly = openStore(setup.db);
		await loadRunHistory(setup.env.SIFT_STATE_DIR!, new SqliteAsyncStore(readonly));
		readonly.close();

		expect(readFileSync(victim, 'utf8')).toBe(content);
		expect(readdirSync(setup.dir).filter(name => name.startsWith('victim'))).toEqual(['victim.txt']);
	});

	it('a damaged run log is read tolerantly by `sift runs`, and left as it is', () => {
		const setup = setUp();
		const {run_id: runId, log} = JSON.parse(sift(['run', 'Triage', '--db', setup.db, '--json'], setup.env).stdout) as {run_id: string; log: string};
		const damaged = readFileSync(log, 'utf8') + '{"half a line\n';
		writeFileSync(log, damaged);
		const detail = sift(['runs', runId, '--db', setup.db], setup.env);
		expect(detail.stdout).toContain('Set BUG-0042 to in_progress');
		expect(readFileSync(log, 'utf8')).toBe(damaged);
		expect(readdirSync(path.dirname(log)).filter(name => name.endsWith('.bak'))).toEqual([]);
	});
});

describe('an unwritable run log', () => {
	it('fails the run before it is recorded: a clear message, exit 1, no unfinished row, no Codex', () => {
		const setup = setUp();
		mkdirSync(setup.env.SIFT_STATE_DIR!, {recursive: true});
		// A file where the runs folder should be: no log can be written there, not even by root.
		writeFileSync(path.join(setup.env.SIFT_STATE_DIR!, 'runs'), '');
		const result = sift(['run', 'Triage', '--db', setup.db], setup.env);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/^sift: cannot write the run log .*runs\/run-\S+\.jsonl \(\w+\); make .* writable, or point SIFT_STATE_DIR elsewhere\n$/);
		expect(runsJson(setup)).toEqual([]);
		expect(readPids(setup.env.FAKE_CODEX_PIDFILE!)).toEqual([]);
	});
});
