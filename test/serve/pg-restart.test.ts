// PostgreSQL restarts and outages under the long-lived processes: `sift serve`, `sift mcp` (the real
// MCP SDK client over stdio), `sift watch`, and `sift import` caught mid-transaction. A cluster of
// the test's own (scram-sha-256, PGPASSWORD, a role with row rights only) is stopped, started and restarted (`pg_ctl restart -m
// fast`, every backend gets 57P01) under them: the call in flight fails with `unavailable` or 503,
// the next one succeeds, and no process dies.

import {spawn, type ChildProcess} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import pg from 'pg';
import {afterAll, beforeAll, expect, it} from 'vitest';
import {ensureBuilt, sift, SIFT_ENTRY, tempDir} from '../support/cli.js';
import {describePg} from '../support/pg.js';
import {startPgCluster, type PgCluster} from '../support/pg-cluster.js';
import {FAKE_CODEX, isAlive, readPids} from '../codex/support.js';
import {MCP_HEADERS, toolCall} from './support.js';
import {launch, rowOf, type PtyApp} from '../support/pty.js';
import {waitUntil} from '../support/wait.js';

const CRASH = /Unhandled|uncaught|at .*\.js:\d+|TypeError|ReferenceError/;

describePg('PostgreSQL restarts under sift serve, sift mcp, sift watch, sift import and the TUI', () => {
	let cluster: PgCluster;
	let url: string;
	let env: NodeJS.ProcessEnv;
	const measured: string[] = [];
	const children: ChildProcess[] = [];

	/** A long-lived sift process; its stderr is collected. */
	function start(args: string[], extra: NodeJS.ProcessEnv = {}): {child: ChildProcess; stderr: () => string; stdout: () => string} {
		const child = spawn(process.execPath, [SIFT_ENTRY, ...args], {env: {...process.env, ...env, ...extra}, stdio: ['ignore', 'pipe', 'pipe']});
		children.push(child);
		let stderr = '';
		let stdout = '';
		child.stderr!.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		child.stdout!.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
		});
		return {child, stderr: () => stderr, stdout: () => stdout};
	}

	/** Waits until `probe` gives a truthy value, and returns it. */
	async function until<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 20_000): Promise<T> {
		let value: T | undefined;
		await waitUntil(async () => Boolean(value = await probe()), what, {timeoutMs, intervalMs: 100});
		return value!;
	}

	/**
	 * Holds a lock on items from another connection, so the next read of them waits on the server:
	 * a statement in flight on a client checked out of the pool, when the restart comes.
	 */
	async function lockItems(): Promise<{waiting: () => Promise<boolean>; release: () => Promise<void>}> {
		const locker = new pg.Client({connectionString: cluster.url({database: 'team', password: cluster.password})});
		locker.on('error', () => {});
		await locker.connect();
		await locker.query('BEGIN');
		await locker.query('LOCK TABLE items IN ACCESS EXCLUSIVE MODE');
		const {rows: [{pid: lockerPid}]} = await locker.query<{pid: number}>('SELECT pg_backend_pid() AS pid');
		return {
			// A sift client's statement waiting for the lock: not an autovacuum worker, which also queues behind it
			// (on a loaded machine one did, and the restart then came before sift's statement was sent).
			waiting: async () => (await cluster.sql(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'team' AND wait_event_type = 'Lock' AND backend_type = 'client backend' AND pid <> ${Number(lockerPid)}`, 'team')).rows[0].n > 0,
			release: async () => locker.end().catch(() => {}),
		};
	}

	beforeAll(async () => {
		ensureBuilt();
		cluster = await startPgCluster();
		await cluster.sql('CREATE DATABASE team');
		const home = tempDir('sift-restart-home-');
		const base = {HOME: home, SIFT_DB: '', XDG_DATA_HOME: path.join(home, 'data'), SIFT_STATE_DIR: path.join(home, 'state')};
		const demo = sift(['demo', '--db', cluster.url({database: 'team'}), '--items', '20', '--no-open'], {...base, PGPASSWORD: cluster.password});
		expect(demo.code, demo.stderr).toBe(0);
		// Every process below runs as a role with row rights only, as a team deploys it.
		await cluster.sql(`
			CREATE ROLE triager LOGIN PASSWORD 'triager-secret';
			GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO triager;
			GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO triager;
		`, 'team');
		url = cluster.url({user: 'triager', database: 'team'});
		env = {...base, PGPASSWORD: 'triager-secret'};
	}, 60_000);

	const apps: PtyApp[] = [];
	afterAll(async () => {
		for (const child of children) child.kill('SIGKILL');
		for (const app of apps) {
			app.kill();
			await app.exited;
		}

		console.log(`\npg-restart cases:\n  ${measured.join('\n  ')}\n`);
		await cluster?.stop();
	});

	it('sift serve: 503 and /healthz {"store":"unreachable"} while the server is down, a tool call in flight fails, the next request succeeds', async () => {
		const serve = start(['serve', '--db', url, '--listen', '127.0.0.1:0'], {SIFT_SERVE_TEST_CALL_DELAY_MS: '1500'});
		const base = (await until('sift serve to listen', () => /sift serve: (http:\/\/[^ ]+)\/mcp/.exec(serve.stderr())?.[1]));
		const created = sift(['token', 'create', '--grant', 'bugs', '--name', 'restart', '--db', url], env);
		expect(created.code, created.stderr).toBe(0);
		const token = created.stdout.split('\n')[0]!;
		const call = async () => {
			const response = await fetch(`${base}/mcp`, {method: 'POST', headers: {...MCP_HEADERS, Authorization: `Bearer ${token}`}, body: toolCall('list_record_items', {record_channel_id: 'bugs', limit: 2})});
			const text = await response.text();
			return {status: response.status, body: text ? JSON.parse(text) as {result?: CallToolResult; error?: string} : {}};
		};

		const health = async () => {
			const response = await fetch(`${base}/healthz`);
			return {status: response.status, body: await response.json() as Record<string, unknown>};
		};

		expect(await health()).toMatchObject({status: 200, body: {status: 'ok', store: 'ok'}});
		expect((await call()).body.result?.isError).toBeUndefined();

		// A call accepted (its token checked) just before the server goes down fails as the tool's `unavailable`.
		const inFlight = call();
		await until('the call to be in flight', async () => ((await health()).body.in_flight as number) > 0);
		const stopped = Date.now();
		cluster.stopServer();
		const failed = await inFlight;
		measured.push(`serve: call in flight while the server stops: HTTP ${failed.status}, ${failed.body.result ? JSON.parse((failed.body.result.content[0] as {text: string}).text).error : failed.body.error}`);
		expect(failed.status === 503 || failed.body.result?.isError === true).toBe(true);
		if (failed.status === 200) expect(JSON.parse((failed.body.result!.content[0] as {text: string}).text)).toMatchObject({error: 'unavailable'});

		const down = await call();
		measured.push(`serve: request while the server is down: HTTP ${down.status} ${down.body.error}`);
		expect(down).toMatchObject({status: 503, body: {error: 'unavailable'}});
		expect(await health()).toMatchObject({status: 503, body: {store: 'unreachable'}});

		cluster.start();
		measured.push(`serve: server down for ${Date.now() - stopped} ms`);
		const back = await call();
		measured.push(`serve: first request after the start: HTTP ${back.status}`);
		expect(back.status).toBe(200);
		expect(back.body.result?.isError).toBeUndefined();
		expect(await health()).toMatchObject({status: 200, body: {store: 'ok'}});

		// A real restart: every pooled connection is killed (57P01); the next request reconnects.
		await cluster.restart();
		const afterRestart = await call();
		measured.push(`serve: first request after pg_ctl restart -m fast: HTTP ${afterRestart.status}`);
		expect(afterRestart.status).toBe(200);
		expect(afterRestart.body.result?.isError).toBeUndefined();

		// A restart while a statement runs on a checked-out client (it waits for a lock): that call fails, the process lives.
		const lock = await lockItems();
		const blocked = call();
		await until('the call to wait for the lock', lock.waiting);
		await cluster.restart();
		await lock.release();
		const cut = await blocked;
		measured.push(`serve: call whose statement was running during pg_ctl restart: HTTP ${cut.status}, ${cut.body.result ? JSON.parse((cut.body.result.content[0] as {text: string}).text).error : cut.body.error}`);
		expect(cut.status === 503 || JSON.parse((cut.body.result!.content[0] as {text: string}).text).error === 'unavailable').toBe(true);
		expect((await call()).body.result?.isError).toBeUndefined();
		expect(serve.child.exitCode).toBeNull();
		expect(serve.stderr()).not.toMatch(CRASH);
		serve.child.kill('SIGTERM');
		await until('sift serve to stop', () => serve.child.exitCode !== null);
		expect(serve.child.exitCode).toBe(0);
	}, 60_000);

	it('sift mcp (the MCP SDK client over stdio): unavailable while the server is down, then the next call succeeds, after a restart too', async () => {
		const transport = new StdioClientTransport({command: process.execPath, args: [SIFT_ENTRY, 'mcp', '--db', url, '--grant', 'bugs'], env: {...process.env, ...env} as Record<string, string>, stderr: 'pipe'});
		let stderr = '';
		transport.stderr?.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		const client = new Client({name: 'sift-restart-test', version: '1.0.0'});
		await client.connect(transport);
		const list = async () => (await client.callTool({name: 'list_record_items', arguments: {record_channel_id: 'bugs', limit: 2}})) as CallToolResult;
		const codeOf = (result: CallToolResult) => (result.isError ? (JSON.parse((result.content[0] as {text: string}).text) as {error: string}).error : 'ok');
		try {
			expect(codeOf(await list())).toBe('ok');
			cluster.stopServer();
			const down = await list();
			measured.push(`mcp: call while the server is down: ${codeOf(down)}`);
			expect(codeOf(down)).toBe('unavailable');
			expect((JSON.parse((down.content[0] as {text: string}).text) as {message: string}).message).toMatch(new RegExp(`^the PostgreSQL store at 127\\.0\\.0\\.1:${cluster.port}/team cannot be reached \\(connection refused`));
			cluster.start();
			const back = await list();
			measured.push(`mcp: first call after the start: ${codeOf(back)}`);
			expect(codeOf(back)).toBe('ok');
			await cluster.restart();
			const afterRestart = await list();
			measured.push(`mcp: first call after pg_ctl restart -m fast: ${codeOf(afterRestart)}`);
			expect(codeOf(afterRestart)).toBe('ok');
			// A restart while the call's statement runs (it waits for a lock) on a client checked out of the pool.
			const lock = await lockItems();
			const blocked = list();
			await until('the call to wait for the lock', lock.waiting);
			await cluster.restart();
			await lock.release();
			const cut = await blocked;
			measured.push(`mcp: call whose statement was running during pg_ctl restart: ${codeOf(cut)}`);
			expect(codeOf(cut)).toBe('unavailable');
			expect(codeOf(await list())).toBe('ok');
			// And the row-rights role writes through it after all that.
			const edit = (await client.callTool({name: 'edit_record_item', arguments: {record_channel_id: 'bugs', item_id: 'it_0000000002', values: {status: 'triaged'}, expected_version: 1, idempotency_key: 'after-restart'}})) as CallToolResult;
			expect(codeOf(edit)).toBe('ok');
			expect(transport.pid !== null && isAlive(transport.pid)).toBe(true);
			expect(stderr).not.toMatch(CRASH);
		} finally {
			await client.close();
		}
	}, 60_000);

	it('sift import interrupted by a restart: one line, exit 1, nothing of the channel left', async () => {
		const file = path.join(tempDir('sift-restart-import-'), 'big.json');
		const items = Array.from({length: 150_000}, (_, index) => `{"values":{"name":"host-${index}","note":"${'x'.repeat(40)}"}}`);
		writeFileSync(file, `{"channel":{"id":"big","name":"Big","fields":[{"key":"name","label":"Name","type":"text","is_unique":true,"is_required":true},{"key":"note","label":"Note","type":"text"}]},"items":[${items.join(',')}]}`);
		const before = (await cluster.sql('SELECT count(*)::int AS n FROM items', 'team')).rows[0].n as number;
		const started = Date.now();
		const importing = start(['import', file, '--db', url]);
		// Its transaction is open once a batch of rows went out (the channel row is written first).
		await until('the import to send rows', async () => (await cluster.sql("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'team' AND pid <> pg_backend_pid() AND query LIKE 'WITH batch AS%'", 'team')).rows[0].n > 0, 30_000);
		await cluster.restart();
		await until('the import to exit', () => importing.child.exitCode !== null, 30_000);
		measured.push(`import: exit ${importing.child.exitCode} after ${Date.now() - started} ms: ${importing.stderr().trim()}`);
		expect(importing.child.exitCode).toBe(1);
		expect(importing.stderr().split('\n').filter(Boolean)).toEqual([expect.stringMatching(new RegExp(`^sift: the PostgreSQL store at 127\\.0\\.0\\.1:${cluster.port}/team cannot be reached \\(.*\\); the write may not have been made; try again$`))]);
		expect(importing.stdout()).toBe('');
		expect((await cluster.sql("SELECT count(*)::int AS n FROM channels WHERE id = 'big'", 'team')).rows[0].n).toBe(0);
		expect((await cluster.sql('SELECT count(*)::int AS n FROM items', 'team')).rows[0].n).toBe(before);
		expect((await cluster.sql("SELECT count(*)::int AS n FROM events WHERE channel_id = 'big'", 'team')).rows[0].n).toBe(0);
	}, 60_000);

	it('sift watch survives a restart and sends an item created after it', async () => {
		const dir = tempDir('sift-restart-watch-');
		const pids = path.join(dir, 'pids');
		const watch = start(['watch', '--db', url, '--channel', 'bugs', '--json', '--settle', '500ms', '--batch', '5'], {SIFT_CODEX: FAKE_CODEX, FAKE_CODEX_PIDFILE: pids});
		await until('sift watch to start', () => watch.stderr().includes('sift: watching'));
		await cluster.restart();
		// Alive is shown by what follows: an item created after the restart goes out in a run.
		const added = sift(['add', 'ticket=BUG-7001', 'title=After the restart', '--channel', 'bugs', '--db', url, '--json'], env);
		expect(added.code, added.stderr).toBe(0);
		const id = (JSON.parse(added.stdout) as {item: {id: string}}).item.id;
		const started = Date.now();
		await until('a run with the new item', () => {
			const runs = sift(['runs', '--db', url, '--json'], env);
			return runs.code === 0 && (JSON.parse(runs.stdout) as Array<{item_ids: string[]; finished_at: string | null}>).some(run => run.item_ids.includes(id) && run.finished_at !== null);
		}, 30_000);
		measured.push(`watch: alive after pg_ctl restart; the item created after it went out in a run within ${Date.now() - started} ms`);
		expect(watch.child.exitCode).toBeNull();
		expect(watch.stderr()).not.toMatch(CRASH);
		watch.child.kill('SIGINT');
		await until('sift watch to stop', () => watch.child.exitCode !== null);
		expect(watch.child.exitCode).toBe(130);
		expect(readPids(pids).filter(isAlive)).toEqual([]);
	}, 60_000);

	it('the TUI survives the server going down and a restart, keeps taking keys, and shows an edit made after it', async () => {
		const app = launch({args: ['--db', url, '--channel', 'bugs'], cols: 120, rows: 30, env: {...env}});
		apps.push(app);
		await app.waitFor('BUG-0020', 15_000);
		cluster.stopServer();
		// Keys while the store is away: moving and opening an item read it.
		app.press('j', 'j', 'k');
		await app.waitFor(/cannot be reached/, 15_000, 'the TUI to say the store cannot be reached');
		expect(app.exitCode).toBeNull();
		cluster.start();
		await cluster.restart();
		expect(app.exitCode).toBeNull();
		const started = Date.now();
		const edited = sift(['edit', 'BUG-0020', 'status=wont_fix', '--channel', 'bugs', '--db', url], env);
		expect(edited.code, edited.stderr).toBe(0);
		await app.waitFor(screen => /won.t fix/i.test(rowOf(screen, 'BUG-0020')), 15_000, 'BUG-0020 shown as Won\'t fix after the restart');
		measured.push(`TUI: alive through stop, start and pg_ctl restart; an edit from another process shown after ${Date.now() - started} ms`);
		expect(app.raw).not.toMatch(/Unhandled 'error'|57P01/);
		app.press('q');
		expect(await app.exited).toBe(0);
	}, 60_000);
});
