// `sift serve` and `sift token` through the built CLI.

import {spawn, type ChildProcess} from 'node:child_process';
import {readFileSync, rmSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {ensureBuilt, sift, SIFT_ENTRY, siftJson, tempDir} from '../support/cli.js';
import {BACKENDS} from '../contract/backends.js';
import {holdWriteLock} from '../support/lock-holder.js';
import {waitUntil} from '../support/wait.js';
import {describePg} from '../support/pg.js';
import {makeDatabase, openMcpStore, type McpStore} from '../mcp/fixtures.js';
import {databaseHash, MCP_HEADERS, parseLogLines, rawRequest, toolCall} from './support.js';

const dir = tempDir('sift-serve-cli-');
const db = path.join(dir, 'team.db');
beforeAll(() => {
	ensureBuilt();
	makeDatabase(db);
});
afterAll(() => rmSync(dir, {recursive: true, force: true}));

describe('sift token', () => {
	it('create prints the token once; list shows it without secret or hash; revoke ends it', () => {
		const created = sift(['token', 'create', '--grant', 'bugs,secrets', '--name', 'ci-bot', '--expires', '12h', '--db', db]);
		expect(created.code).toBe(0);
		const secret = created.stdout.split('\n')[0]!;
		expect(secret).toMatch(/^sift_[\w-]{43}$/);
		expect(created.stdout).toMatch(/shown only this once/);

		const listed = siftJson<Array<Record<string, unknown>>>(['token', 'list', '--db', db]);
		const entry = listed.find(token => token.name === 'ci-bot')!;
		expect(entry).toMatchObject({grants: ['bugs', 'secrets'], actor: 'agent', scope: 'write', revoked_at: null, last_used_at: null});
		expect(Date.parse(entry.expires_at as string) - Date.parse(entry.created_at as string)).toBe(12 * 3_600_000);
		expect(JSON.stringify(listed)).not.toContain(secret);
		expect(JSON.stringify(listed)).not.toContain('hash');
		const table = sift(['token', 'list', '--db', db]);
		expect(table.stdout).toMatch(/^NAME\s+ACTOR\s+GRANTS\s+SCOPE\s+CREATED\s+EXPIRES\s+LAST USED\s+STATUS/);
		expect(table.stdout).toMatch(/ci-bot\s+agent\s+bugs,secrets\s.*\sactive/);

		expect(sift(['token', 'revoke', 'ci-bot', '--db', db]).code).toBe(0);
		expect(sift(['token', 'list', '--db', db]).stdout).toMatch(/ci-bot\s.*\srevoked/);
		expect(sift(['token', 'revoke', 'nobody', '--db', db]).code).toBe(1);
	});

	it.each([
		[['--grant', 'nope'], 1, /"nope", not a channel; channels: bugs, secrets/],
		[[], 2, /needs --grant CHANNEL/],
		[['--grant', 'bugs', '--expires', 'tomorrow'], 2, /--expires must be a duration/],
		[['--grant', 'bugs', '--actor', 'root'], 2, /--actor must be agent or human/],
		[['--grant', 'bugs', '--name', 'has space'], 1, /token name "has space" must be/],
	])('create %j is refused (exit %i) and writes nothing', (args, code, message) => {
		const before = databaseHash(db);
		const result = sift(['token', 'create', ...args, '--db', db]);
		expect(result.code).toBe(code);
		expect(result.stderr).toMatch(message);
		expect(result.stdout).toBe('');
		expect(databaseHash(db)).toBe(before);
	});

	it('a name is used once', () => {
		expect(sift(['token', 'create', '--grant', 'bugs', '--name', 'twice', '--db', db]).code).toBe(0);
		const again = sift(['token', 'create', '--grant', 'bugs', '--name', 'twice', '--db', db]);
		expect(again.code).toBe(1);
		expect(again.stderr).toMatch(/already exists/);
	});
});

let child: ChildProcess | undefined;
afterEach(() => {
	if (child && child.exitCode === null) child.kill('SIGKILL');
});

/** Starts `sift serve` on a free port; resolves with its URL once it listens. */
async function serve(env: Record<string, string> = {}, location = db, args = ['--listen', '127.0.0.1:0']) {
	const started = spawn(process.execPath, [SIFT_ENTRY, 'serve', '--db', location, ...args], {env: {...process.env, ...env}, stdio: ['ignore', 'pipe', 'pipe']});
	child = started;
	let stderr = '';
	const exited = new Promise<number | null>(resolve => started.once('exit', code => resolve(code)));
	const url = await new Promise<string>((resolve, reject) => {
		started.stderr!.on('data', chunk => {
			stderr += String(chunk);
			const match = /sift serve: (http:\/\/[^\s]+)\/mcp/.exec(stderr);
			if (match) resolve(match[1]!);
		});
		void exited.then(code => reject(new Error(`sift serve exited ${code}: ${stderr}`)));
	});
	return {url, exited, stderr: () => stderr, process: started};
}

describePg('sift token and sift serve on PostgreSQL (the built CLI)', () => {
	const backend = BACKENDS.find(entry => entry.name === 'postgres')!;
	let test: McpStore;
	beforeAll(async () => {
		await backend.setUp();
		test = await openMcpStore(backend);
	});
	afterAll(async () => {
		await test.close();
		await backend.tearDown();
	});

	it('a token made by sift token works against sift serve --db postgres://… until it is revoked', async () => {
		// A password in the URL (ignored by the test server's trust login) must never be printed.
		const url = new URL(test.location);
		url.password = 'not-a-real-password';
		const location = url.toString();
		const created = sift(['token', 'create', '--grant', 'bugs', '--name', 'pg-bot', '--db', location]);
		expect(created.code, created.stderr).toBe(0);
		const secret = created.stdout.split('\n')[0]!;
		expect(siftJson<Array<{name: string}>>(['token', 'list', '--db', location]).map(token => token.name)).toEqual(['pg-bot']);

		const server = await serve({}, location);
		const headers = {...MCP_HEADERS, Authorization: `Bearer ${secret}`};
		const listed = await rawRequest(server.url, {headers, body: toolCall('list_granted_resources')});
		expect(listed.status).toBe(200);
		expect(JSON.parse(listed.body).result.structuredContent.channels).toEqual([{id: 'bugs', name: 'Bugs', item_count: 30, latest_sequence: 30}]);
		expect(sift(['token', 'revoke', 'pg-bot', '--db', location]).code).toBe(0);
		expect((await rawRequest(server.url, {headers, body: toolCall('list_granted_resources')})).status).toBe(401);
		server.process.kill('SIGTERM');
		expect(await server.exited).toBe(0);
		expect(server.stderr()).toContain(`/mcp for ${test.location} (`);
		expect(server.stderr() + created.stderr).not.toContain('not-a-real-password');
	});
});

describe('sift serve (the built CLI)', () => {

	it('SIGTERM: a call in flight completes, a new one is refused, the process exits 0', async () => {
		const secret = sift(['token', 'create', '--grant', 'bugs', '--name', 'drain', '--db', db]).stdout.split('\n')[0]!;
		const server = await serve({SIFT_SERVE_TEST_CALL_DELAY_MS: '1500'});
		const headers = {...MCP_HEADERS, Authorization: `Bearer ${secret}`};
		const slow = rawRequest(server.url, {headers, body: toolCall('list_granted_resources')});
		await waitUntil(async () => (JSON.parse((await rawRequest(server.url, {method: 'GET', path: '/healthz'})).body) as {in_flight: number}).in_flight > 0, 'the slow call to reach the server');
		server.process.kill('SIGTERM');
		await waitUntil(() => server.stderr().includes('"event":"draining"'), 'the server to start draining');
		const late = await rawRequest(server.url, {headers, body: toolCall('list_granted_resources')}).then(
			response => response.status,
			(error: NodeJS.ErrnoException) => error.code,
		);
		expect([503, 'ECONNREFUSED']).toContain(late);
		const answered = await slow;
		expect(answered.status).toBe(200);
		expect(JSON.parse(answered.body).result.structuredContent.channels[0].id).toBe('bugs');
		expect(await server.exited).toBe(0);
		expect(server.stderr()).toMatch(/SIGTERM, finishing 1 request\(s\) in flight/);
		// Every line of the log is one JSON object, the start and the stop included.
		const lines = parseLogLines([server.stderr()]);
		expect(lines.at(-1)).toMatchObject({event: 'stopped', cut_off: false, message: 'sift serve: stopped'});
		// The log line of the drained call names the token, never its secret.
		expect(lines).toContainEqual(expect.objectContaining({status: 200, token: 'drain', method: 'tools/call', tool: 'list_granted_resources', outcome: 'ok'}));
		expect(server.stderr()).not.toContain(secret);
		// The drained call was the token's first use: its last use was written before the store closed.
		const listed = JSON.parse(sift(['token', 'list', '--json', '--db', db]).stdout) as Array<{name: string; last_used_at: string | null}>;
		expect(listed.find(token => token.name === 'drain')?.last_used_at).toEqual(expect.any(String));
	});

	it('sift run --server: Codex reaches the store through sift serve with a token that ends with the run', async () => {
		const server = await serve();
		const out = path.join(dir, 'seen-cli.json');
		const codex = fileURLToPath(new URL('token-codex.mjs', import.meta.url));
		const run = sift(['run', 'Triage the bugs', '--channel', 'bugs', '--server', server.url, '--codex', codex, '--timeout', '60', '--db', db, '--json'], {
			FAKE_CODEX_MODE: 'normal',
			TOKEN_CODEX_OUT: out,
			SIFT_STATE_DIR: path.join(dir, 'state'),
		});
		expect(run.code, run.stderr).toBe(0);
		const {run_id: runId} = JSON.parse(run.stdout) as {run_id: string};
		const seen = JSON.parse(readFileSync(out, 'utf8')) as {argv: string[]; token: string; status: {code: number}};
		expect(seen.status.code).toBe(200);
		expect(seen.argv.join(' ')).toContain(`url="${server.url}/mcp"`);
		expect(run.stdout + run.stderr).not.toContain(seen.token);
		const [info] = siftJson<Array<{name: string; run_id: string; revoked_at: string | null}>>(['token', 'list', '--db', db]).filter(token => token.run_id === runId);
		expect(info).toMatchObject({name: `run-${runId}`});
		expect(info!.revoked_at).not.toBeNull();
		const after = await rawRequest(server.url, {headers: {...MCP_HEADERS, Authorization: `Bearer ${seen.token}`}, body: toolCall('list_granted_resources')});
		expect(after.status).toBe(401);
		server.process.kill('SIGTERM');
		expect(await server.exited).toBe(0);
	});

	it('--listen 0.0.0.0 --allow-host sift.internal: a request for Host sift.internal:PORT is served', async () => {
		const secret = sift(['token', 'create', '--grant', 'bugs', '--name', 'lan', '--db', db]).stdout.split('\n')[0]!;
		const server = await serve({}, db, ['--listen', '0.0.0.0:0', '--allow-host', 'sift.internal', '--allow-host', 'Proxy.Example:443']);
		const port = new URL(server.url).port;
		const loopback = `http://127.0.0.1:${port}`;
		const headers = (host: string) => ({...MCP_HEADERS, Authorization: `Bearer ${secret}`, Host: host});
		for (const host of [`sift.internal:${port}`, 'proxy.example', `127.0.0.1:${port}`]) {
			const response = await rawRequest(loopback, {headers: headers(host), body: toolCall('list_granted_resources')});
			expect(response.status, host).toBe(200);
		}

		expect((await rawRequest(loopback, {headers: headers(`evil.example:${port}`), body: toolCall('list_granted_resources')})).status).toBe(403);
		server.process.kill('SIGTERM');
		expect(await server.exited).toBe(0);
	});

	it('a cancel inside its own batch leaves nothing in flight; SIGTERM then exits 0 and closes the store', async () => {
		const secret = sift(['token', 'create', '--grant', 'bugs', '--name', 'cancel', '--db', db]).stdout.split('\n')[0]!;
		const server = await serve({SIFT_SERVE_TEST_CALL_DELAY_MS: '20'});
		const headers = {...MCP_HEADERS, Authorization: `Bearer ${secret}`};
		const batch = JSON.stringify([JSON.parse(toolCall('list_granted_resources')), {jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 1}}]);
		for (let round = 0; round < 10; round++) expect((await rawRequest(server.url, {headers, body: batch})).status).toBe(200);
		const inFlight = async () => (JSON.parse((await rawRequest(server.url, {method: 'GET', path: '/healthz'})).body) as {in_flight: number}).in_flight;
		await waitUntil(async () => (await inFlight()) === 0, 'no call in flight');
		server.process.kill('SIGTERM');
		expect(await server.exited).toBe(0);
		expect(parseLogLines([server.stderr()]).at(-1)).toMatchObject({event: 'stopped', cut_off: false});
	});

	it('SIGTERM with a call that outlives the drain: the call is logged cut_off, the process still exits 0 at once', async () => {
		const secret = sift(['token', 'create', '--grant', 'bugs', '--name', 'stuck', '--db', db]).stdout.split('\n')[0]!;
		const server = await serve({SIFT_SERVE_TEST_CALL_DELAY_MS: '20000', SIFT_SERVE_TEST_DRAIN_MS: '300'});
		const slow = rawRequest(server.url, {headers: {...MCP_HEADERS, Authorization: `Bearer ${secret}`}, body: toolCall('list_granted_resources')}).catch((error: Error) => error);
		await waitUntil(async () => (JSON.parse((await rawRequest(server.url, {method: 'GET', path: '/healthz'})).body) as {in_flight: number}).in_flight > 0, 'the slow call to reach the server');
		server.process.kill('SIGTERM');
		expect(await server.exited).toBe(0);
		// Exited without waiting the 20 s call out: the call got no answer.
		expect(await slow).toBeInstanceOf(Error);
		const lines = parseLogLines([server.stderr()]);
		expect(lines).toContainEqual(expect.objectContaining({token: 'stuck', tool: 'list_granted_resources', status: null, outcome: 'cut_off'}));
		expect(lines.at(-1)).toMatchObject({event: 'stopped', cut_off: true});
	});

	it('the lock-wait notice is a JSON line of the log too', async () => {
		const locked = path.join(dir, 'locked.db');
		makeDatabase(locked);
		const secret = sift(['token', 'create', '--grant', 'bugs', '--name', 'locked', '--db', locked]).stdout.split('\n')[0]!;
		const server = await serve({}, locked);
		const headers = {...MCP_HEADERS, Authorization: `Bearer ${secret}`};
		const page = JSON.parse((await rawRequest(server.url, {headers, body: toolCall('list_record_items', {record_channel_id: 'bugs', limit: 1})})).body) as {result: {structuredContent: {items: Array<{id: string; version: number}>}}};
		const item = page.result.structuredContent.items[0]!;
		const holder = await holdWriteLock(locked);
		try {
			const edit = rawRequest(server.url, {headers, body: toolCall('edit_record_item', {record_channel_id: 'bugs', item_id: item.id, values: {points: 3}, expected_version: item.version, idempotency_key: 'under-lock'})});
			await waitUntil(() => server.stderr().includes('waiting for another sift process'), 'the lock-wait notice in the log', {timeoutMs: 20_000});

			await holder.release();
			expect(JSON.parse((await edit).body).result.structuredContent).toMatchObject({ok: true});
		} finally {
			holder.kill();
		}

		server.process.kill('SIGTERM');
		expect(await server.exited).toBe(0);
		const lines = parseLogLines([server.stderr()]);
		expect(lines).toContainEqual(expect.objectContaining({message: expect.stringMatching(/^sift: waiting for another sift process to finish writing/)}));
	});

	it.each([
		[['serve', '--allow-host', 'HTTP://x'], /--allow-host must be HOST or HOST:PORT .*got "HTTP:\/\/x" \(a host name, not a URL/],
		[['serve', '--allow-host', 'x:70000'], /--allow-host must be HOST or HOST:PORT/],
		[['serve', '--listen', 'nowhere:99999'], /--listen must be HOST:PORT/],
		[['serve', '--rate', '0'], /--rate must be/],
		[['run', 'triage', '--server', 'ftp://x'], /--server must be the http\(s\) URL/],
		// The TUI's --server, checked before it needs a terminal.
		[['--server', 'ftp://x'], /--server must be the http\(s\) URL/],
	])('%j is a usage error', (args, message) => {
		const result = sift([...args, '--db', db]);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(message);
	});
});
