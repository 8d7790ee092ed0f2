// `sift serve` under load (docs/team-mode.md), on SQLite and on PostgreSQL, against the built CLI
// in its own process: 50 MCP clients × 200 calls each on loopback (a mix of list, read and edit);
// 16 agent sessions editing the same few items (read, edit, retry on version_conflict); and what
// HTTP adds over stdio for one read_record_item call. Bounded: a fixed number of calls, and a time
// limit per table after which the load stops and says so. The PostgreSQL store is a fresh database
// on the test server (test/support/pg.ts), dropped afterwards; without a reachable server those
// rows are left out, saying why. On SQLite, the same load while another process holds the write
// lock for 5 s: how reads fare while edits wait (SIFT_BENCH_SERVE_BEFORE=path/to/old/cli.js adds
// a row for another build, to compare).

import {spawn, type ChildProcess} from 'node:child_process';
import {Agent, request} from 'node:http';
import {copyFileSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {bugsChannel, generateBugItems} from '../../demo-data/generate.js';
import {openAsyncStore} from '../../store/index.js';
import {itemIdOf, seqOfItemId} from '../../store/items.js';
import {PG_OFF} from '../support/pg.js';
import {holdWriteLock} from '../support/lock-holder.js';
import {benchDatabase} from './pg-support.js';
import {BENCH_NOW, cachedBugDatabase, median, percentile, printTable, type Row} from './support.js';
import {siftEntry} from '../../source/codex/paths.js';

const SIFT_ENTRY = siftEntry();
const ITEMS = 1000;
const TIME_LIMIT_MS = 120_000;
const STATUSES = ['triaged', 'in_progress'];
/** The items the 16 agents fight over: few enough that their edits conflict. */
const HOT_ITEMS = 8;

type Call = (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;

/** A store of ITEMS demo bugs on one backend, and how to remove it. */
type BenchStore = {backend: 'sqlite' | 'postgres'; location: string; remove: () => Promise<void>};

async function httpClient(url: string, token: string): Promise<Client> {
	const client = new Client({name: 'sift-bench', version: '1.0.0'});
	await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {requestInit: {headers: {Authorization: `Bearer ${token}`}}}));
	return client;
}

const caller = (client: Client): Call => async (name, args = {}) => (await client.callTool({name, arguments: args})) as CallToolResult;
const json = (result: CallToolResult) => JSON.parse((result.content[0] as {text: string}).text);

/** `sift serve` on a free port; resolves with its URL once it listens. */
async function startServe(location: string, entry = SIFT_ENTRY): Promise<{url: string; child: ChildProcess}> {
	const child = spawn(process.execPath, [entry, 'serve', '--db', location, '--listen', '127.0.0.1:0', '--rate', '1000000'], {stdio: ['ignore', 'ignore', 'pipe']});
	let stderr = '';
	const url = await new Promise<string>((resolve, reject) => {
		child.stderr!.on('data', chunk => {
			stderr += String(chunk);
			const match = /sift serve: (http:\/\/\S+)\/mcp/.exec(stderr);
			if (match) resolve(match[1]!);
			// Only the start-up line is kept; the per-request lines are drained unread.
			if (match) stderr = '';
		});
		child.once('exit', code => reject(new Error(`sift serve exited ${code}: ${stderr}`)));
	});
	return {url, child};
}

async function stop(child: ChildProcess): Promise<void> {
	const exited = new Promise(resolve => child.once('exit', resolve));
	child.kill('SIGTERM');
	await exited;
}

/** Tokens for `count` clients, and every item id of the channel, through the store's interface. */
async function prepare(location: string, count: number, prefix: string): Promise<{tokens: string[]; ids: string[]}> {
	const store = await openAsyncStore(location);
	try {
		const tokens: string[] = [];
		for (let index = 0; index < count; index++) tokens.push((await store.tokens.create({name: `${prefix}-${index}`, grants: ['bugs']})).token);
		// One import into a fresh store numbers its items without gaps, oldest first.
		const newest = seqOfItemId((await store.listPage('bugs', {limit: 1})).items[0]!.id, 'newest');
		const ids = Array.from({length: ITEMS}, (_, index) => itemIdOf(newest - ITEMS + 1 + index));
		return {tokens, ids};
	} finally {
		await store.close();
	}
}

/** One client's calls: pages, reads, and edits of items of its own (so edits do not conflict). */
async function clientLoad(call: Call, ids: string[], calls: number, latencies: number[], deadline: number): Promise<{errors: number; done: number}> {
	let errors = 0;
	let done = 0;
	for (let index = 0; index < calls && Date.now() < deadline; index++) {
		const id = ids[index % ids.length]!;
		const kind = index % 10;
		const started = performance.now();
		try {
			let result: CallToolResult;
			if (kind < 3) {
				result = await call('list_record_items', {record_channel_id: 'bugs', limit: 20});
			} else if (kind < 8) {
				result = await call('read_record_item', {record_channel_id: 'bugs', item_id: id});
			} else {
				const item = json(await call('read_record_item', {record_channel_id: 'bugs', item_id: id}));
				result = await call('edit_record_item', {record_channel_id: 'bugs', item_id: id, values: {status: STATUSES[index % 2]}, expected_version: item.version, idempotency_key: `bench-${id}-${index}`});
			}

			if (result.isError) errors++;
		} catch {
			errors++;
		}

		latencies.push(performance.now() - started);
		done++;
	}

	return {errors, done};
}

async function load(bench: BenchStore, url: string, clients: number, callsEach: number): Promise<Row> {
	const {tokens, ids} = await prepare(bench.location, clients, 'load');
	const sessions = await Promise.all(tokens.map(async token => httpClient(url, token)));
	const latencies: number[] = [];
	const started = performance.now();
	const deadline = Date.now() + TIME_LIMIT_MS;
	const perClient = Math.floor(ids.length / clients);
	const outcomes = await Promise.all(sessions.map(async (client, index) => clientLoad(caller(client), ids.slice(index * perClient, (index + 1) * perClient), callsEach, latencies, deadline)));
	const seconds = (performance.now() - started) / 1000;
	await Promise.all(sessions.map(async client => client.close()));
	const done = outcomes.reduce((sum, outcome) => sum + outcome.done, 0);
	return {
		backend: bench.backend,
		clients,
		'calls (edit = read + edit)': done,
		errors: outcomes.reduce((sum, outcome) => sum + outcome.errors, 0),
		'p50 ms': median(latencies),
		'p99 ms': percentile(latencies, 0.99),
		'calls/s': Math.round(done / seconds),
		's': seconds,
		'stopped by time limit': done < clients * callsEach ? 'yes' : 'no',
	};
}

/**
 * One agent: `edits` times, read a hot item and edit it with the version read; a version_conflict
 * (another agent got there first) is counted and retried with a fresh read.
 */
async function agentEdits(call: Call, agent: number, hot: string[], edits: number, latencies: number[], deadline: number) {
	let applied = 0;
	let conflicts = 0;
	let errors = 0;
	// Bounded in attempts too: an agent that keeps failing stops.
	for (let index = 0; applied < edits && index < edits * 20 && Date.now() < deadline; index++) {
		const id = hot[(agent + applied) % hot.length]!;
		try {
			const item = json(await call('read_record_item', {record_channel_id: 'bugs', item_id: id}));
			const started = performance.now();
			const result = await call('edit_record_item', {record_channel_id: 'bugs', item_id: id, values: {points: (agent + index) % 14}, expected_version: item.version, idempotency_key: `agent-${agent}-${index}`});
			latencies.push(performance.now() - started);
			if (!result.isError) applied++;
			else if (json(result).error === 'version_conflict') conflicts++;
			else errors++;
		} catch {
			errors++;
		}
	}

	return {applied, conflicts, errors};
}

async function contention(bench: BenchStore, url: string, agents: number, editsEach: number): Promise<Row> {
	const {tokens, ids} = await prepare(bench.location, agents, 'agent');
	const hot = ids.slice(0, HOT_ITEMS);
	const sessions = await Promise.all(tokens.map(async token => httpClient(url, token)));
	const latencies: number[] = [];
	const deadline = Date.now() + TIME_LIMIT_MS;
	const started = performance.now();
	const outcomes = await Promise.all(sessions.map(async (client, index) => agentEdits(caller(client), index, hot, editsEach, latencies, deadline)));
	const seconds = (performance.now() - started) / 1000;
	await Promise.all(sessions.map(async client => client.close()));
	const sum = (key: 'applied' | 'conflicts' | 'errors') => outcomes.reduce((total, outcome) => total + outcome[key], 0);
	return {
		backend: bench.backend,
		agents,
		'edits applied': sum('applied'),
		conflicts: sum('conflicts'),
		errors: sum('errors'),
		'edits/s': Math.round(sum('applied') / seconds),
		'edit p50 ms': median(latencies),
		'edit p99 ms': percentile(latencies, 0.99),
		's': seconds,
		'stopped by time limit': sum('applied') < agents * editsEach ? 'yes' : 'no',
	};
}

/** Median µs of `repeats` sequential read_record_item calls. */
async function readMedianUs(call: Call, id: string, repeats: number): Promise<number> {
	for (let index = 0; index < 20; index++) await call('read_record_item', {record_channel_id: 'bugs', item_id: id});
	const samples: number[] = [];
	for (let index = 0; index < repeats; index++) {
		const started = process.hrtime.bigint();
		await call('read_record_item', {record_channel_id: 'bugs', item_id: id});
		samples.push(Number(process.hrtime.bigint() - started) / 1000);
	}

	return median(samples);
}

async function httpOverStdio(bench: BenchStore, url: string, repeats: number): Promise<Row[]> {
	const {tokens: [token], ids: [id]} = await prepare(bench.location, 1, 'single');
	const http = await httpClient(url, token!);
	const httpUs = await readMedianUs(caller(http), id!, repeats);
	await http.close();
	const rawUs = await readMedianUs(rawCaller(url, token!), id!, repeats);
	const stdio = new Client({name: 'sift-bench', version: '1.0.0'});
	await stdio.connect(new StdioClientTransport({command: process.execPath, args: [SIFT_ENTRY, 'mcp', '--db', bench.location, '--grant', 'bugs'], stderr: 'ignore'}));
	const stdioUs = await readMedianUs(caller(stdio), id!, repeats);
	await stdio.close();
	return [
		{backend: bench.backend, client: 'SDK client (fetch)', 'stdio µs': stdioUs, 'HTTP µs': httpUs, 'HTTP adds µs': httpUs - stdioUs, repeats},
		{backend: bench.backend, client: 'node:http keep-alive, raw JSON-RPC', 'stdio µs': stdioUs, 'HTTP µs': rawUs, 'HTTP adds µs': rawUs - stdioUs, repeats},
	];
}

/** tools/call as one plain POST on a kept-alive connection: the server's share without the SDK client's. */
function rawCaller(url: string, token: string): Call {
	const agent = new Agent({keepAlive: true, maxSockets: 1});
	const target = new URL(`${url}/mcp`);
	return async (name, args = {}) => {
		const body = JSON.stringify({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name, arguments: args}});
		const text = await new Promise<string>((resolve, reject) => {
			const sent = request(target, {method: 'POST', agent, headers: {'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}`, 'Content-Length': Buffer.byteLength(body)}}, response => {
				let received = '';
				response.setEncoding('utf8');
				response.on('data', chunk => {
					received += chunk;
				});
				response.on('end', () => resolve(received));
			});
			sent.on('error', reject);
			sent.end(body);
		});
		return (JSON.parse(text) as {result: CallToolResult}).result;
	};
}

function sqliteStore(): BenchStore {
	const dir = mkdtempSync(join(tmpdir(), 'sift-bench-serve-'));
	const location = join(dir, 'serve.db');
	copyFileSync(cachedBugDatabase(ITEMS).path, location);
	return {backend: 'sqlite', location, remove: async () => rmSync(dir, {recursive: true, force: true})};
}

async function postgresStore(): Promise<BenchStore> {
	const database = await benchDatabase('The serve bench on PostgreSQL');
	if (!database) throw new Error('no PostgreSQL server');
	try {
		const store = await openAsyncStore(database.url, {create: true});
		try {
			await store.importChannel({channel: bugsChannel, items: generateBugItems({count: ITEMS, seed: 1, now: BENCH_NOW})});
		} finally {
			await store.close();
		}
	} catch (error) {
		await database.drop();
		throw error;
	}

	return {backend: 'postgres', location: database.url, remove: async () => database.drop()};
}

/** Runs `measure` against `sift serve` on each backend's store; a backend that cannot be measured is named in `left`. */
async function onEachBackend<T>(measure: (bench: BenchStore, url: string) => Promise<T>, left: string[]): Promise<T[]> {
	const results: T[] = [];
	for (const make of [async () => sqliteStore(), postgresStore]) {
		let bench: BenchStore | undefined;
		let child: ChildProcess | undefined;
		try {
			if (make === postgresStore && PG_OFF) throw new Error('SIFT_TEST_PG=off');
			bench = await make();
			const served = await startServe(bench.location);
			child = served.child;
			results.push(await measure(bench, served.url));
		} catch (error) {
			left.push(`${bench?.backend ?? (make === postgresStore ? 'postgres' : 'sqlite')} left out: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
		} finally {
			if (child) await stop(child);
			await bench?.remove();
		}
	}

	return results;
}

export async function benchServe(quick = false): Promise<void> {
	const clients = quick ? 10 : 50;
	const calls = quick ? 40 : 200;
	const agents = 16;
	const editsEach = quick ? 10 : 50;
	const repeats = quick ? 100 : 500;

	const loadLeft: string[] = [];
	const loadRows = await onEachBackend(async (bench, url) => load(bench, url, clients, calls), loadLeft);
	printTable(`sift serve: ${clients} MCP clients × ${calls} calls on loopback (30% list, 50% read, 20% read+edit; ${ITEMS} items)`, loadRows, [
		'One token per client, the rate limit lifted (--rate 1000000) to measure capacity; the server is the built CLI in its own process.',
		...loadLeft,
	]);

	await benchServeUnderLock(clients, calls);

	const contentionLeft: string[] = [];
	const contentionRows = await onEachBackend(async (bench, url) => contention(bench, url, agents, editsEach), contentionLeft);
	printTable(`${agents} agent sessions over HTTP editing the same ${HOT_ITEMS} items, ${editsEach} applied edits each (read, edit with the version read, retry on version_conflict)`, contentionRows, [
		'edits/s counts applied edits over the wall time; p50/p99 are of edit_record_item calls, conflicts included.',
		...contentionLeft,
	]);

	const stdioLeft: string[] = [];
	const stdioRows = await onEachBackend(async (bench, url) => httpOverStdio(bench, url, repeats), stdioLeft);
	printTable('What HTTP adds over stdio for one read_record_item call, sequential (median)', stdioRows.flat(), [
		'HTTP: a new transport per request (stateless; MCP servers reused per token), the token checked against the store on each request.',
		...stdioLeft,
	]);
}

const HOLD_MS = 5000;

/** One call of the lock-hold load: when it started, how long it took, what it was. */
type Timed = {at: number; ms: number; read: boolean; error: boolean};

/**
 * The lock-hold load of one client: the mix of clientLoad, except that an edit is not waited for
 * (its read is): the client goes on reading while its write waits for the lock, as an agent that
 * reads on does, so reads keep arriving during the hold. Its edits are awaited at the end.
 */
async function clientLoadReadingOn(call: Call, ids: string[], calls: number, timeline: Timed[], deadline: number): Promise<void> {
	const edits: Array<Promise<void>> = [];
	/** An item's pending edit: the next edit of that item reads after it, so edits of one client never conflict. */
	const pending = new Map<string, Promise<void>>();
	const timed = async (read: boolean, work: () => Promise<CallToolResult>) => {
		const at = performance.now();
		let error: boolean;
		try {
			error = (await work()).isError === true;
		} catch {
			error = true;
		}

		timeline.push({at, ms: performance.now() - at, read, error});
	};

	for (let index = 0; index < calls && Date.now() < deadline; index++) {
		const id = ids[index % ids.length]!;
		const kind = index % 10;
		if (kind < 3) {
			await timed(true, async () => call('list_record_items', {record_channel_id: 'bugs', limit: 20}));
		} else if (kind < 8) {
			await timed(true, async () => call('read_record_item', {record_channel_id: 'bugs', item_id: id}));
		} else {
			await pending.get(id);
			let version = 0;
			await timed(true, async () => {
				const result = await call('read_record_item', {record_channel_id: 'bugs', item_id: id});
				version = (json(result) as {version: number}).version;
				return result;
			});
			const edit = timed(false, async () => call('edit_record_item', {record_channel_id: 'bugs', item_id: id, values: {status: STATUSES[index % 2]}, expected_version: version, idempotency_key: `held-${id}-${index}`}));
			pending.set(id, edit);
			edits.push(edit);
		}
	}

	await Promise.all(edits);
}

/**
 * The load on SQLite while another process holds the write lock for HOLD_MS, then lets go. The
 * clients connect and warm up first (a few reads each); the lock is taken; the load starts. Calls
 * are reported by when they started: during the hold, or after it.
 */
async function loadUnderLock(location: string, url: string, tokens: string[], ids: string[], callsEach: number, build: string, hold = true): Promise<Row[]> {
	const sessions = await Promise.all(tokens.map(async token => httpClient(url, token)));
	const perClient = Math.floor(ids.length / tokens.length);
	const slices = sessions.map((_, index) => ids.slice(index * perClient, (index + 1) * perClient));
	await Promise.all(sessions.map(async (client, index) => {
		for (let warm = 0; warm < 5; warm++) await caller(client)('read_record_item', {record_channel_id: 'bugs', item_id: slices[index]![warm]!});
	}));
	const timeline: Timed[] = [];
	const holder = hold ? await holdWriteLock(location) : undefined;
	const holdStart = performance.now();
	let holdEnd = Number.POSITIVE_INFINITY;
	// Without a holder (the baseline), the same first HOLD_MS are counted as "during".
	const released = new Promise<void>(resolve => setTimeout(() => void (holder?.release() ?? Promise.resolve()).then(() => {
		holdEnd = performance.now();
		resolve();
	}), HOLD_MS));
	const deadline = Date.now() + TIME_LIMIT_MS;
	try {
		await Promise.all(sessions.map(async (client, index) => clientLoadReadingOn(caller(client), slices[index]!, callsEach, timeline, deadline)));
	} finally {
		await released;
		holder?.kill();
	}

	await Promise.all(sessions.map(async client => client.close()));
	const errors = timeline.filter(call => call.error).length;
	const row = (read: boolean, during: boolean): Row => {
		const chosen = timeline.filter(call => call.read === read && (during ? call.at >= holdStart && call.at < holdEnd : call.at >= holdEnd)).map(call => call.ms);
		const phase = hold ? (during ? `during the ${HOLD_MS / 1000} s hold` : 'after release') : (during ? `first ${HOLD_MS / 1000} s, no lock held` : 'the rest, no lock held');
		const none = chosen.length === 0;
		return {build, calls: read ? 'reads (list, read)' : 'edits', started: phase, count: chosen.length, 'p50 ms': none ? '-' : median(chosen), 'p99 ms': none ? '-' : percentile(chosen, 0.99), 'max ms': none ? '-' : Math.max(...chosen), 'errors (all calls)': errors};
	};

	return [row(true, true), row(true, false), row(false, true), row(false, false)];
}

/**
 * A store for the lock-hold load with its tokens made; for another build, brought back to the
 * schema that build reads (5: tokens without a scope), as it would have made it.
 */
async function lockBenchStore(clients: number, before: boolean): Promise<BenchStore & {tokens: string[]; ids: string[]}> {
	const bench = sqliteStore();
	const {tokens, ids} = await prepare(bench.location, clients, 'held');
	if (before) {
		const {default: Database} = await import('better-sqlite3');
		const db = new Database(bench.location);
		db.exec('ALTER TABLE tokens DROP COLUMN scope');
		db.pragma('user_version = 5');
		db.close();
	}

	return {...bench, tokens, ids};
}

/** The load table on SQLite while another process holds the write lock (this build, and SIFT_BENCH_SERVE_BEFORE's if given). */
export async function benchServeUnderLock(clients: number, calls: number): Promise<void> {
	const lockLeft: string[] = [];
	const builds: Array<[string, string, boolean]> = [['this build, no lock held', SIFT_ENTRY, false], ['this build', SIFT_ENTRY, true]];
	if (process.env.SIFT_BENCH_SERVE_BEFORE) builds.unshift(['before (SIFT_BENCH_SERVE_BEFORE)', process.env.SIFT_BENCH_SERVE_BEFORE, true]);
	const lockRows: Row[] = [];
	for (const [build, entry, hold] of builds) {
		let bench: Awaited<ReturnType<typeof lockBenchStore>> | undefined;
		let child: ChildProcess | undefined;
		try {
			bench = await lockBenchStore(clients, entry !== SIFT_ENTRY);
			const served = await startServe(bench.location, entry);
			child = served.child;
			lockRows.push(...await loadUnderLock(bench.location, served.url, bench.tokens, bench.ids, calls, build, hold));
		} catch (error) {
			lockLeft.push(`${build} left out: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
		} finally {
			if (child) await stop(child);
			await bench?.remove();
		}
	}

	printTable(`sift serve on SQLite, ${clients} clients × ${calls} calls, while another process holds the write lock for ${HOLD_MS / 1000} s, then releases it`, lockRows, [
		'The clients connect and warm up, then the lock is taken and the load starts (30% list, 50% read, 20% read+edit). A client does not wait for its edit: it reads on while the edit waits for the lock (a later edit of the same item waits for the earlier one).',
		'Calls are counted by when they started; the first rows are the same load with no lock held, for the machine\'s baseline. Goal: reads during the hold p99 ≤ 50 ms.',
		...lockLeft,
	]);
}
