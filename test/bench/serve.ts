// `sift serve` under load (docs/team-mode.md): 50 MCP clients × 200 calls each on loopback
// (a mix of list, read and edit), against the built CLI in its own process; then what HTTP adds
// over stdio for one read_record_item call. Bounded: a fixed number of calls, and a time limit
// after which the load stops and says so.

import {spawn, type ChildProcess} from 'node:child_process';
import {Agent, request} from 'node:http';
import {copyFileSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {openStore} from '../../store/index.js';
import {cachedBugDatabase, median, percentile, printTable} from './support.js';

const SIFT_ENTRY = fileURLToPath(new URL('../../source/cli.js', import.meta.url));
const ITEMS = 1000;
const TIME_LIMIT_MS = 180_000;
const STATUSES = ['triaged', 'in_progress'];

type Call = (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;

async function httpClient(url: string, token: string): Promise<Client> {
	const client = new Client({name: 'sift-bench', version: '1.0.0'});
	await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {requestInit: {headers: {Authorization: `Bearer ${token}`}}}));
	return client;
}

const caller = (client: Client): Call => async (name, args = {}) => (await client.callTool({name, arguments: args})) as CallToolResult;
const json = (result: CallToolResult) => JSON.parse((result.content[0] as {text: string}).text);

/** `sift serve` on a free port; resolves with its URL once it listens. */
async function startServe(db: string): Promise<{url: string; child: ChildProcess}> {
	const child = spawn(process.execPath, [SIFT_ENTRY, 'serve', '--db', db, '--listen', '127.0.0.1:0', '--rate', '1000000'], {stdio: ['ignore', 'ignore', 'pipe']});
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

async function load(url: string, db: string, clients: number, callsEach: number) {
	const store = openStore(db);
	const tokens = Array.from({length: clients}, (_, index) => store.createToken({name: `bench-${index}`, grants: ['bugs']}).token);
	const ids = (store.db.prepare("SELECT id FROM items WHERE channel_id = 'bugs' ORDER BY seq").all() as Array<{id: string}>).map(row => row.id);
	store.close();
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

async function httpOverStdio(url: string, db: string, repeats: number) {
	const store = openStore(db);
	const {token} = store.createToken({name: 'bench-single', grants: ['bugs']});
	const id = (store.db.prepare("SELECT id FROM items WHERE channel_id = 'bugs' LIMIT 1").get() as {id: string}).id;
	store.close();
	const http = await httpClient(url, token);
	const httpUs = await readMedianUs(caller(http), id, repeats);
	await http.close();
	const rawUs = await readMedianUs(rawCaller(url, token), id, repeats);
	const stdio = new Client({name: 'sift-bench', version: '1.0.0'});
	await stdio.connect(new StdioClientTransport({command: process.execPath, args: [SIFT_ENTRY, 'mcp', '--db', db, '--grant', 'bugs'], stderr: 'ignore'}));
	const stdioUs = await readMedianUs(caller(stdio), id, repeats);
	await stdio.close();
	return [
		{client: 'SDK client (fetch)', 'stdio µs': stdioUs, 'HTTP µs': httpUs, 'HTTP adds µs': httpUs - stdioUs, repeats},
		{client: 'node:http keep-alive, raw JSON-RPC', 'stdio µs': stdioUs, 'HTTP µs': rawUs, 'HTTP adds µs': rawUs - stdioUs, repeats},
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

export async function benchServe(quick = false): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), 'sift-bench-serve-'));
	const db = join(dir, 'serve.db');
	copyFileSync(cachedBugDatabase(ITEMS).path, db);
	const {url, child} = await startServe(db);
	try {
		const clients = quick ? 10 : 50;
		const calls = quick ? 40 : 200;
		printTable(`sift serve: ${clients} MCP clients × ${calls} calls on loopback (30% list, 50% read, 20% read+edit; ${ITEMS} items, SQLite)`, [await load(url, db, clients, calls)], [
			'One token per client, the rate limit lifted (--rate 1000000) to measure capacity; the server is the built CLI in its own process.',
		]);
		printTable('What HTTP adds over stdio for one read_record_item call, sequential (median)', await httpOverStdio(url, db, quick ? 100 : 500), [
			'HTTP: a new transport per request (stateless; MCP servers reused per token), the token checked against the store on each request.',
		]);
	} finally {
		await stop(child);
		rmSync(dir, {recursive: true, force: true});
	}
}
