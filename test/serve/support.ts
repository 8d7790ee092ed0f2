// Minting tokens, raw HTTP, an SDK client that reaches the server under another Host name, JSON log
// parsing; the built `sift serve` on a free port.

import {createHash} from 'node:crypto';
import {existsSync, readFileSync} from 'node:fs';
import {request as httpRequest} from 'node:http';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {afterAll, afterEach, beforeAll, beforeEach} from 'vitest';
import {startServe, type ServeOptions, type SiftHttpServer} from '../../source/serve/http.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import type {Actor, AsyncStore} from '../../store/index.js';
import {openMcpStore, type Caller, type McpStore} from '../mcp/fixtures.js';
import type {Backend} from '../contract/backends.js';

/** A token for `grants` and `actor`, minted straight in the store. */
export async function mintToken(store: AsyncStore, grants: string[], actor: Actor = {kind: 'agent'}, extra: {name?: string; expiresAt?: string; now?: Date} = {}): Promise<string> {
	return (await store.tokens.create({grants, actor: actor.kind === 'human' ? 'human' : 'agent', runId: actor.run_id, ...extra})).token;
}

const endpoints = new WeakMap<Client, {url: string; token: string}>();

/** An MCP client over HTTP with the SDK's own transport, sending `token` as a bearer token. */
export async function httpClient(url: string, token: string): Promise<Client> {
	const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {requestInit: {headers: {Authorization: `Bearer ${token}`}}});
	const client = new Client({name: 'sift-http-test', version: '1.0.0'});
	await client.connect(transport);
	endpoints.set(client, {url, token});
	return client;
}

/**
 * test/mcp/fixtures.ts `callerFor` over HTTP. Arguments nested deeper than JSON.stringify can
 * recurse (the SDK client serialises with it) are sent as raw JSON text instead, so the server
 * still gets to refuse them.
 */
export function httpCallerFor(client: Client): Caller {
	return async (name, args = {}) => {
		try {
			return (await client.callTool({name, arguments: args})) as CallToolResult;
		} catch (error) {
			const endpoint = endpoints.get(client);
			if (!(error instanceof RangeError) || !endpoint) throw error;
			const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${encodeDeep(args)}}}`;
			const response = await fetch(`${endpoint.url}/mcp`, {method: 'POST', headers: {...MCP_HEADERS, Authorization: `Bearer ${endpoint.token}`}, body});
			return ((await response.json()) as {result: CallToolResult}).result;
		}
	};
}

/** Text to emit as is while encoding. */
class Raw {
	constructor(readonly text: string) {}
}

/** JSON text of plain data without recursion, for values nested too deep for JSON.stringify. */
function encodeDeep(value: unknown): string {
	const out: string[] = [];
	const stack: unknown[] = [value];
	while (stack.length > 0) {
		const next = stack.pop();
		if (next instanceof Raw) {
			out.push(next.text);
		} else if (Array.isArray(next)) {
			out.push('[');
			stack.push(new Raw(']'));
			for (let index = next.length - 1; index >= 0; index--) {
				stack.push(next[index]);
				if (index > 0) stack.push(new Raw(','));
			}
		} else if (next && typeof next === 'object') {
			out.push('{');
			stack.push(new Raw('}'));
			const entries = Object.entries(next);
			for (let index = entries.length - 1; index >= 0; index--) {
				stack.push(entries[index]![1], new Raw(`${JSON.stringify(entries[index]![0])}:`));
				if (index > 0) stack.push(new Raw(','));
			}
		} else {
			out.push(JSON.stringify(next) ?? 'null');
		}
	}

	return out.join('');
}

/**
 * What test/mcp/fixtures.ts `connectInProcess` gives, over HTTP: `sift serve` on a free port
 * with a token for these grants and this actor, and the SDK client talking to it.
 */
export async function connectOverHttp(store: AsyncStore, actor: Actor = {kind: 'agent', run_id: 'run-mcp-test'}, grants = ['bugs'], options: Partial<ServeOptions> = {}) {
	const logs: string[] = [];
	const server = await startServe({store, port: 0, log: line => logs.push(line), ...options});
	const client = await httpClient(server.url, await mintToken(store, grants, actor));
	return {
		client,
		logs,
		server,
		async close() {
			await client.close();
			await server.drain(2000);
		},
	};
}

/** sha256 of the database file and its write-ahead log: any write shows up in one of them. */
export function databaseHash(file: string): string {
	const hash = createHash('sha256');
	for (const part of [file, `${file}-wal`]) hash.update(existsSync(part) ? readFileSync(part) : Buffer.alloc(0));
	return hash.digest('hex');
}

export type RawResponse = {status: number; headers: Record<string, string | string[] | undefined>; body: string};

/** One raw HTTP request, headers exactly as given (fetch would not let a test set Host). */
export async function rawRequest(url: string, options: {method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean}): Promise<RawResponse> {
	const target = new URL(url);
	return new Promise((resolve, reject) => {
		const request = httpRequest({host: target.hostname, port: target.port, method: options.method ?? 'POST', path: options.path ?? '/mcp', headers: options.headers, agent: false}, response => {
			const chunks: Buffer[] = [];
			response.on('data', chunk => chunks.push(chunk as Buffer));
			response.on('end', () => resolve({status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString('utf8')}));
			response.on('error', reject);
		});
		// The server may answer (413) and close before the whole body is sent; the answer is what counts.
		request.on('error', reject);
		if (options.body !== undefined && options.chunked) {
			const body = Buffer.from(options.body);
			const step = 64 * 1024;
			const writeFrom = (offset: number): void => {
				if (offset >= body.length) {
					request.end();
					return;
				}

				if (request.write(body.subarray(offset, offset + step))) writeFrom(offset + step);
				else request.once('drain', () => writeFrom(offset + step));
			};

			writeFrom(0);
		} else {
			request.end(options.body);
		}
	});
}

/** A JSON-RPC tools/call body. */
export function toolCall(name: string, args: Record<string, unknown> = {}, id = 1): string {
	return JSON.stringify({jsonrpc: '2.0', id, method: 'tools/call', params: {name, arguments: args}});
}

export const MCP_HEADERS = {'Content-Type': 'application/json', Accept: 'application/json, text/event-stream'};

/**
 * A fetch for the SDK client that connects to `target` (host:port on loopback) whatever name the
 * URL has, and sends that name in Host as a client on another machine would: the server sees a
 * request for `http://sift.internal:PORT/mcp` although no resolver knows that name.
 */
export function fetchVia(target: URL): typeof fetch {
	return async (input, init) => {
		const url = new URL(input instanceof Request ? input.url : String(input));
		const headers = Object.fromEntries(new Headers(init?.headers).entries());
		const body = init?.body === undefined || init.body === null ? undefined : String(init.body);
		const answer = await rawRequest(target.origin, {method: init?.method ?? 'GET', path: url.pathname, headers: {...headers, Host: url.host}, body});
		const responseHeaders = new Headers();
		for (const [name, value] of Object.entries(answer.headers)) if (typeof value === 'string') responseHeaders.set(name, value);
		return new Response(answer.status === 202 || answer.body === '' ? null : answer.body, {status: answer.status, headers: responseHeaders});
	};
}

/** An MCP client (the SDK's) for `url`, reaching the server at `target` through fetchVia. */
export async function httpClientVia(url: string, target: string, token: string): Promise<Client> {
	const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {fetch: fetchVia(new URL(target)), requestInit: {headers: {Authorization: `Bearer ${token}`}}});
	const client = new Client({name: 'sift-http-test', version: '1.0.0'});
	await client.connect(transport);
	return client;
}

/** Log lines as objects; throws on a line that is not one JSON object. */
export function parseLogLines(lines: string[]): Array<Record<string, unknown>> {
	return lines.flatMap(chunk => chunk.split('\n')).filter(line => line !== '').map(line => {
		const parsed = JSON.parse(line) as unknown;
		if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`not a JSON object: ${line}`);
		return parsed as Record<string, unknown>;
	});
}

/** `sift serve` (the built CLI) on a free port of 127.0.0.1; resolves with its URL once it listens. */
export async function spawnServe(location: string, env: Record<string, string> = {}) {
	const {spawn} = await import('node:child_process');
	const {SIFT_ENTRY} = await import('../support/cli.js');
	const started = spawn(process.execPath, [SIFT_ENTRY, 'serve', '--db', location, '--listen', '127.0.0.1:0'], {env: {...process.env, ...env}, stdio: ['ignore', 'pipe', 'pipe']});
	let stderr = '';
	const exited = new Promise<number | null>(resolve => started.once('exit', code => resolve(code)));
	const url = await new Promise<string>((resolve, reject) => {
		started.stderr.on('data', chunk => {
			stderr += String(chunk);
			const match = /sift serve: (http:\/\/[^\s]+)\/mcp/.exec(stderr);
			if (match) resolve(match[1]!);
		});
		void exited.then(code => reject(new Error(`sift serve exited ${code}: ${stderr}`)));
	});
	return {
		url,
		exited,
		stderr: () => stderr,
		process: started,
		kill() {
			if (started.exitCode === null && started.signalCode === null) started.kill('SIGKILL');
		},
	};
}

/** A `sift serve` started in this process for each test, on a fresh MCP test store. */
export type ServeHarness = {
	readonly test: McpStore;
	readonly store: AsyncStore;
	readonly server: SiftHttpServer;
	/** This server's log lines, from its last start. */
	readonly logs: string[];
	/** A write token for channel bugs, named as asked (empty when no token was asked for). */
	readonly token: string;
	/** Drains the running server and starts another on the same store, with these options. */
	restart(options?: Partial<ServeOptions>): Promise<void>;
};

/**
 * Registers the hooks every serve suite repeated: the backend set up once, then for each test a
 * fresh store, a token named `tokenName` (when given) and a server on a free port, drained and
 * closed afterwards.
 */
export function useServe(backend: Backend, options: {tokenName?: string} = {}): ServeHarness {
	let test: McpStore;
	let server: SiftHttpServer;
	let logs: string[] = [];
	let token = '';
	const start = async (serveOptions: Partial<ServeOptions> = {}) => {
		logs = [];
		server = await startServe({store: test.store, port: 0, log: line => logs.push(line), ...serveOptions});
	};

	beforeAll(() => backend.setUp());
	afterAll(() => backend.tearDown());
	beforeEach(async () => {
		test = await openMcpStore(backend);
		token = options.tokenName === undefined ? '' : await mintToken(test.store, ['bugs'], {kind: 'agent'}, {name: options.tokenName});
		await start();
	});
	afterEach(async () => {
		await server.drain(2000);
		await test.close();
	});

	return {
		get test() {
			return test;
		},
		get store() {
			return test.store;
		},
		get server() {
			return server;
		},
		get logs() {
			return logs;
		},
		get token() {
			return token;
		},
		async restart(serveOptions) {
			await server.drain(1000);
			await start(serveOptions);
		},
	};
}
