// The built TUI in a pty: no Codex left running; login caught early.

import {readFileSync} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {makeDemoDb, suiteLauncher, type DemoDb} from '../support/pty-fixtures.js';
import {KEYS, type PtyApp} from '../support/pty.js';
import {sift} from '../support/cli.js';
import {FAKE_CODEX, liveGroupMembers, readPids} from './support.js';
import {eventually} from '../support/wait.js';

// The built TUI in a pseudo-terminal: whatever ends it (kill, a closed terminal, SIGKILL), no
// Codex it started is left running; and a logged-out Codex is caught before a run starts.

const launch = suiteLauncher();
let db: DemoDb;

beforeAll(() => {
	db = makeDemoDb(40, {prefix: 'sift-pty-life-'});
});

afterAll(() => db?.cleanup());

function start(env: NodeJS.ProcessEnv): PtyApp {
	return launch({args: ['--db', db.dbPath, '--codex', FAKE_CODEX], cols: 140, rows: 36, env: {SIFT_STATE_DIR: db.stateDir, ...env}});
}

/** Opens the TUI, starts a run on the first row, and waits until Codex shows its first step. */
async function startHangingRun(pidFile: string): Promise<{app: PtyApp; group: number}> {
	const app = start({FAKE_CODEX_MODE: 'hang', FAKE_CODEX_PIDFILE: pidFile});
	await app.waitFor('BUG-', 15_000);
	app.press('c');
	await app.waitFor('Run Codex on');
	app.press(KEYS.enter);
	await app.waitFor(/list_record_items bugs/, 15_000);
	const [group] = readPids(pidFile);
	expect(liveGroupMembers(group!).length).toBeGreaterThan(0);
	return {app, group: group!};
}

const groupGone = async (group: number, withinMs = 3000) => eventually(() => liveGroupMembers(group).length === 0, {timeoutMs: withinMs, intervalMs: 100});

function outcomes(): Array<{id: string; outcome: string | null}> {
	const handle = new Database(db.dbPath, {readonly: true});
	try {
		return handle.prepare('SELECT id, outcome FROM runs ORDER BY id DESC').all() as Array<{id: string; outcome: string | null}>;
	} finally {
		handle.close();
	}
}

describe('the TUI stops its Codex on every way out', () => {
	it.each([
		['SIGTERM', 143],
		['SIGHUP', 129],
	] as const)('%s: the run group is killed, the run recorded as cancelled, exit %i', async (signal, code) => {
		const {app, group} = await startHangingRun(path.join(db.dir, `pids-${signal}`));
		app.proc.kill(signal);
		expect(await groupGone(group)).toBe(true);
		expect(await app.exited).toBe(code);
		expect(outcomes()[0]).toMatchObject({outcome: 'cancelled'});
	});

	it('SIGKILL: the run\'s watchdog kills its processes within 3 s; the next sift records the run as abandoned', async () => {
		const {app, group} = await startHangingRun(path.join(db.dir, 'pids-SIGKILL'));
		app.proc.kill('SIGKILL');
		await app.exited;
		// No sift has started since: the watchdog alone stopped the run.
		expect(await groupGone(group)).toBe(true);
		const [latest] = outcomes();
		expect(latest!.outcome).toBeNull();
		const listing = sift(['runs', '--db', db.dbPath], {SIFT_STATE_DIR: db.stateDir});
		expect(listing.code).toBe(0);
		expect(listing.stdout).toMatch(new RegExp(`^${latest!.id}  abandoned`));
	});
});

describe('the TUI checks the login before a run', () => {
	it('c then Enter with a logged-out Codex starts nothing, advising a login command that works as typed', async () => {
		const calls = path.join(db.dir, 'calls-auth');
		// A state dir of its own: the runs above left a "logged in" answer cached in theirs, for a minute.
		const app = start({FAKE_CODEX_LOGGED_IN: '0', FAKE_CODEX_CALLS: calls, SIFT_STATE_DIR: path.join(db.dir, 'state-auth')});
		await app.waitFor('BUG-', 15_000);
		app.press('c');
		await app.waitFor('Run Codex on');
		app.press(KEYS.enter);
		// The login is checked before any item is taken: no run, and the footer says what to type.
		const screen = await app.waitFor(text => text.includes('No run started: Codex is not logged in'), 15_000, 'the refusal');
		expect(screen).toContain(`run \`${FAKE_CODEX} login\` in a shell, then press c again.`);
		expect(screen).not.toContain('Codex auth_required');
		const invocations = readFileSync(calls, 'utf8').trim().split('\n').map(line => JSON.parse(line) as string[]);
		expect(invocations.filter(argv => argv[0] === 'exec')).toEqual([]);
		expect(await app.quit()).toBe(0);
	});
});
