// A `sift run --server URL` killed with SIGKILL cannot revoke its own token. The next sift start
// reaps the run (`abandoned`), and the run's end revokes its token in the same write: a request
// with it gets 401 from then on, not 200 until the run's deadline. The built CLI for serve, run
// and the reaper; the run's codex is test/serve/token-codex.mjs, which records the token it got.

import {spawn} from 'node:child_process';
import {existsSync, readFileSync, rmSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, beforeAll, expect, it} from 'vitest';
import {ensureBuilt, sift, SIFT_ENTRY, siftJson, tempDir} from '../support/cli.js';
import {waitUntil} from '../support/wait.js';
import {makeDatabase} from '../mcp/fixtures.js';
import {MCP_HEADERS, rawRequest, spawnServe, toolCall} from './support.js';

const dir = tempDir('sift-serve-abandoned-');
const db = path.join(dir, 'team.db');
const codex = fileURLToPath(new URL('token-codex.mjs', import.meta.url));
beforeAll(() => {
	ensureBuilt();
	makeDatabase(db);
});
afterAll(() => rmSync(dir, {recursive: true, force: true}));

/**
 * `sift run --server` against `serverUrl` whose codex hangs once it has used its token; `started`
 * waits until it has (the run is under way) and gives the token it was answered with.
 */
function startHangingRun(serverUrl: string, seenFile: string) {
	const out = path.join(dir, seenFile);
	const env = {...process.env, SIFT_DB: '', XDG_DATA_HOME: path.join(dir, 'data'), SIFT_STATE_DIR: path.join(dir, 'state'), FAKE_CODEX_MODE: 'hang', TOKEN_CODEX_OUT: out};
	const run = spawn(process.execPath, [SIFT_ENTRY, 'run', 'Triage the bugs', '--channel', 'bugs', '--server', serverUrl, '--codex', codex, '--timeout', '600', '--db', db], {env, stdio: ['ignore', 'ignore', 'pipe']});
	const exited = new Promise(resolve => run.once('exit', resolve));
	const started = async () => {
		await waitUntil(() => existsSync(out), 'the run\'s codex to start', {timeoutMs: 20_000});
		const seen = JSON.parse(readFileSync(out, 'utf8')) as {token: string; status: {code: number}};
		return {seen, headers: {...MCP_HEADERS, Authorization: `Bearer ${seen.token}`}};
	};

	return {run, exited, env, started};
}

it('SIGKILL of sift run --server, then the reaper: the run is abandoned and its token answers 401', async () => {
	const server = await spawnServe(db);
	const {run, exited: runExited, env, started} = startHangingRun(server.url, 'seen.json');
	try {
		// Codex has its token and used it once: the run is under way.
		const {seen, headers} = await started();
		expect(seen.status.code).toBe(200);
		const [info] = siftJson<Array<{name: string; run_id: string | null; revoked_at: string | null}>>(['token', 'list', '--db', db]).filter(token => token.run_id !== null);
		expect(info!.revoked_at).toBeNull();
		const runId = info!.run_id!;

		run.kill('SIGKILL');
		await runExited;
		// Nothing revoked it: a SIGKILLed sift cannot. (Its watchdog stops the codex, not the token.)
		expect((await rawRequest(server.url, {headers, body: toolCall('list_granted_resources')})).status).toBe(200);

		// Any later start of sift reaps the run; `sift runs` is one.
		const reaped = sift(['runs', '--db', db, '--json'], {XDG_DATA_HOME: env.XDG_DATA_HOME, SIFT_STATE_DIR: env.SIFT_STATE_DIR});
		expect(reaped.code, reaped.stderr).toBe(0);
		expect((JSON.parse(reaped.stdout) as Array<{id: string; outcome: string}>).find(entry => entry.id === runId)?.outcome).toBe('abandoned');
		const [after] = siftJson<Array<{run_id: string | null; revoked_at: string | null}>>(['token', 'list', '--db', db]).filter(token => token.run_id === runId);
		expect(after!.revoked_at).not.toBeNull();
		const refused = await rawRequest(server.url, {headers, body: toolCall('list_granted_resources')});
		expect(refused.status).toBe(401);
	} finally {
		if (run.exitCode === null && run.signalCode === null) run.kill('SIGKILL');
		server.process.kill('SIGTERM');
		await server.exited;
	}
}, 60_000);

it('a running sift serve reaps on its own: the SIGKILLed run\'s token stops working without another sift start', async () => {
	const server = await spawnServe(db, {SIFT_SERVE_TEST_REAP_MS: '200'});
	const {run, exited: runExited, started} = startHangingRun(server.url, 'seen-serve-reaps.json');
	try {
		const {seen, headers} = await started();
		expect(seen.status.code).toBe(200);
		run.kill('SIGKILL');
		await runExited;
		// No other sift starts: sift serve's own reaper records the run and revokes its token.
		await waitUntil(async () => (await rawRequest(server.url, {headers, body: toolCall('list_granted_resources')})).status === 401, 'the run\'s token to be refused (401)', {intervalMs: 100});
		const runs = siftJson<Array<{id: string; outcome: string | null}>>(['runs', '--db', db]);
		// Newest first: this test's run.
		expect(runs[0]!.outcome).toBe('abandoned');
	} finally {
		if (run.exitCode === null && run.signalCode === null) run.kill('SIGKILL');
		server.process.kill('SIGTERM');
		await server.exited;
	}
}, 60_000);
