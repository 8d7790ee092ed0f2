// JSON-RPC codes, batches per version, a cancel inside its batch, a batch over the rate, log
// outcomes (406, 415, aborted, 408, cut off), `--allow-host` with the SDK client at another name.

import {connect, type Socket} from 'node:net';
import {describe, expect, it} from 'vitest';
import {startServe} from '../../source/serve/http.js';
import {BACKENDS} from '../contract/backends.js';
import {jsonOf} from '../mcp/fixtures.js';
import {httpClientVia, MCP_HEADERS, parseLogLines, rawRequest, toolCall, useServe} from './support.js';
import {waitUntil} from '../support/wait.js';

// The protocol of `sift serve` (JSON-RPC codes, batches, cancellation, logs, rate, Host): it lives
// in the transport, so one backend is enough here; test/serve/http.test.ts runs both.
const backend = BACKENDS.find(entry => entry.name === 'sqlite')!;

const serve = useServe(backend, {tokenName: 'proto'});

const auth = (extra: Record<string, string> = {}) => ({...MCP_HEADERS, Authorization: `Bearer ${serve.token}`, ...extra});
const post = async (body: string, headers: Record<string, string> = auth()) => rawRequest(serve.server.url, {headers, body});
const logged = () => parseLogLines(serve.logs);
const request = (id: unknown, method: string, params: Record<string, unknown> = {}) => ({jsonrpc: '2.0', id, method, params});
const call = (id: number, name: string, args: Record<string, unknown> = {}) => request(id, 'tools/call', {name, arguments: args});
const cancel = (requestId: unknown) => ({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId, reason: 'changed my mind'}});

async function health(): Promise<number> {
	return (JSON.parse((await rawRequest(serve.server.url, {method: 'GET', path: '/healthz'})).body) as {in_flight: number}).in_flight;
}

/** Resolves once nothing is in flight. */
async function settled(): Promise<void> {
	await waitUntil(() => serve.server.inFlight() === 0, 'no request in flight', {intervalMs: 10});
}

describe('JSON-RPC error codes over HTTP', () => {
	it.each([
		['an object that is no message', '{"hello":"there"}', null],
		['a number', '42', null],
		['a string', '"tools/list"', null],
		['id: null', JSON.stringify(request(null, 'tools/list')), null],
		['an id past 2^53', '{"jsonrpc":"2.0","id":12345678901234567890,"method":"tools/list"}', null],
		['an id of 1e400', '{"jsonrpc":"2.0","id":1e400,"method":"tools/list"}', null],
		['an empty batch', '[]', null],
		['no jsonrpc member', '{"id":7,"method":"tools/list"}', 7],
	])('%s → 400, -32600 (not -32700)', async (_label, body, id) => {
		const response = await post(body);
		expect(response.status).toBe(400);
		const answer = JSON.parse(response.body) as {id: unknown; error: {code: number}};
		expect(answer).toMatchObject({jsonrpc: '2.0', id, error: {code: -32600}});
		expect(logged().at(-1)).toMatchObject({status: 400, outcome: 'invalid_request'});
	});

	it('-32700 only for text that is not JSON', async () => {
		const response = await post('{"jsonrpc":"2.0","id":1,');
		expect(JSON.parse(response.body).error.code).toBe(-32700);
	});

	it('initialize without protocolVersion → -32602 naming the field, no validator dump', async () => {
		const response = await post(JSON.stringify(request(1, 'initialize', {capabilities: {}, clientInfo: {name: 'x', version: '1'}})));
		const answer = JSON.parse(response.body) as {id: number; error: {code: number; message: string}};
		expect(answer.id).toBe(1);
		expect(answer.error.code).toBe(-32602);
		expect(answer.error.message).toMatch(/^invalid params for initialize: protocolVersion: /);
		expect(answer.error.message.length).toBeLessThan(300);
		expect(answer.error.message).not.toContain('"code"');
	});

	it('tools/call with a __proto__ argument (which the SDK would drop unseen) → -32602', async () => {
		const body = '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"list_record_items","arguments":{"record_channel_id":"bugs","__proto__":{"limit":1}}}}';
		const answer = JSON.parse((await post(body)).body) as {id: number; error: {code: number; message: string}};
		expect(answer).toMatchObject({id: 4, error: {code: -32602, message: 'Invalid arguments for tool list_record_items: Unrecognized key: "__proto__"'}});
	});

	it('tools/call without a tool name → -32602', async () => {
		const answer = JSON.parse((await post(JSON.stringify(request(3, 'tools/call', {arguments: {}})))).body) as {error: {code: number; message: string}};
		expect(answer.error).toMatchObject({code: -32602, message: expect.stringContaining('name')});
	});
});

describe('batches', () => {
	const twoRequests = JSON.stringify([call(1, 'list_granted_resources'), request(2, 'ping')]);

	it('2025-03-26 (and no version header, which means 2025-03-26): a batch is answered with an array, one answer per request', async () => {
		for (const headers of [auth(), auth({'Mcp-Protocol-Version': '2025-03-26'})]) {
			const response = await post(twoRequests, headers);
			expect(response.status).toBe(200);
			const answers = JSON.parse(response.body) as Array<{id: number; result?: {structuredContent?: unknown}}>;
			expect(answers.map(answer => answer.id).sort()).toEqual([1, 2]);
			expect(answers.find(answer => answer.id === 1)!.result!.structuredContent).toMatchObject({channels: [{id: 'bugs'}]});
			expect(answers.find(answer => answer.id === 2)!.result).toEqual({});
		}
	});

	it('a batch of one request is still answered with an array', async () => {
		const answers = JSON.parse((await post(JSON.stringify([request(5, 'ping')]))).body) as unknown;
		expect(answers).toEqual([{jsonrpc: '2.0', id: 5, result: {}}]);
	});

	it('a bad message inside a batch gets its own error; the rest are served', async () => {
		const response = await post(JSON.stringify([request(1, 'ping'), request(null, 'ping'), {foo: 'bar'}, request(1, 'tools/list')]));
		expect(response.status).toBe(200);
		const answers = JSON.parse(response.body) as Array<{id: unknown; result?: unknown; error?: {code: number; message: string}}>;
		expect(answers).toContainEqual({jsonrpc: '2.0', id: 1, result: {}});
		expect(answers.filter(answer => answer.error?.code === -32600 && answer.id === null)).toHaveLength(2);
		expect(answers).toContainEqual({jsonrpc: '2.0', id: 1, error: {code: -32600, message: expect.stringContaining('used twice')}});
	});

	it.each(['2025-06-18', '2025-11-25'])('protocol %s: refused message by message, nothing run', async version => {
		const before = (await serve.store.tokens.list()).find(entry => entry.name === 'proto');
		const response = await post(JSON.stringify([call(1, 'list_granted_resources'), request(2, 'ping'), cancel(9)]), auth({'Mcp-Protocol-Version': version}));
		expect(response.status).toBe(400);
		const answers = JSON.parse(response.body) as Array<{id: unknown; error: {code: number; message: string}}>;
		expect(answers.map(answer => answer.id)).toEqual([1, 2, null]);
		for (const answer of answers) expect(answer.error).toEqual({code: -32600, message: expect.stringContaining(`protocol ${version} has no batches`)});
		expect(logged().at(-1)).toMatchObject({status: 400, outcome: 'invalid_request'});
		expect((await serve.store.tokens.list()).find(entry => entry.name === 'proto')).toEqual(before);
	});

	it('initialize inside a batch is refused', async () => {
		const answers = JSON.parse((await post(JSON.stringify([request(1, 'initialize', {protocolVersion: '2025-03-26', capabilities: {}, clientInfo: {name: 'x', version: '1'}})]))).body) as Array<{error: {code: number}}>;
		expect(answers[0]!.error.code).toBe(-32600);
	});

	it('a request cancelled inside its own batch is answered, and nothing stays in flight', async () => {
		// Each call waits first, so the cancel finds it running.
		await serve.restart({callDelayMs: 50});
		const batch = JSON.stringify([call(1, 'list_granted_resources'), cancel(1)]);
		for (let round = 0; round < 20; round++) {
			const response = await post(batch);
			expect(response.status).toBe(200);
			expect(JSON.parse(response.body)).toEqual([{jsonrpc: '2.0', id: 1, error: {code: -32800, message: expect.stringContaining('cancelled')}}]);
		}

		await settled();
		expect(await health()).toBe(0);
		expect(logged().filter(line => line.method === 'tools/call').map(line => line.outcome)).toEqual(Array.from({length: 20}, () => 'cancelled'));
		// Another request of the batch is still answered.
		const mixed = JSON.parse((await post(JSON.stringify([call(1, 'list_granted_resources'), request(2, 'ping'), cancel(1)]))).body) as Array<{id: number}>;
		expect(mixed.map(answer => answer.id).sort()).toEqual([1, 2]);
		expect(await serve.server.drain(2000)).toBe(true);
	});
});

describe('rate limit and batches', () => {
	it('a batch larger than --rate → 413 that says why, every time (no Retry-After that cannot help)', async () => {
		// The buckets' clock is the test's: a refill is a step of it, not a wait.
		let now = 0;
		await serve.restart({rate: 5, rateClock: () => now});
		const batch = JSON.stringify(Array.from({length: 8}, (_, index) => request(index + 1, 'ping')));
		for (let attempt = 0; attempt < 2; attempt++) {
			const response = await post(batch);
			expect(response.status).toBe(413);
			expect(response.headers['retry-after']).toBeUndefined();
			expect(JSON.parse(response.body)).toMatchObject({error: 'batch_over_rate', message: expect.stringMatching(/batch of 8 messages .* 5 a second .*--rate.* at most 5 messages/)});
			if (attempt === 0) now += 1200;
		}

		expect(logged().at(-1)).toMatchObject({status: 413, outcome: 'batch_over_rate'});
		// A batch the bucket can hold is served (each refusal cost one request: wait for the bucket to
		// fill again), and costs one request per message.
		now += 1100;
		const fits = await post(JSON.stringify(Array.from({length: 5}, (_, index) => request(index + 1, 'ping'))));
		expect(fits.status).toBe(200);
		const over = await post(JSON.stringify([request(1, 'ping'), request(2, 'ping')]));
		expect(over.status).toBe(429);
		expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
	});
});

/** Opens a raw connection and writes `head`; resolves with the socket and everything it reads. */
async function rawSocket(head: string): Promise<{socket: Socket; received: () => string; closed: Promise<void>}> {
	const url = new URL(serve.server.url);
	const socket = connect(Number(url.port), url.hostname);
	let text = '';
	socket.on('data', chunk => (text += String(chunk)));
	socket.on('error', () => undefined);
	const closed = new Promise<void>(resolve => socket.once('close', () => resolve()));
	await new Promise<void>(resolve => socket.once('connect', () => resolve()));
	socket.write(head);
	return {socket, received: () => text, closed};
}

const postHead = (length: number) => `POST /mcp HTTP/1.1\r\nHost: ${new URL(serve.server.url).host}\r\nAuthorization: Bearer ${serve.token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${length}\r\n\r\n`;

async function lastLogWhere(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
	await waitUntil(() => logged().some(match), 'the awaited log line', {intervalMs: 10});
	return logged().reverse().find(match)!;
}

describe('log lines tell the real status and outcome', () => {
	it('406 (Accept without text/event-stream) and 415 (not JSON) are logged as such, not ok', async () => {
		const list = toolCall('list_granted_resources');
		expect((await post(list, auth({Accept: 'application/json'}))).status).toBe(406);
		expect(logged().at(-1)).toMatchObject({status: 406, outcome: 'not_acceptable', token: 'proto'});
		expect((await post(list, auth({'Content-Type': 'text/plain'}))).status).toBe(415);
		expect(logged().at(-1)).toMatchObject({status: 415, outcome: 'unsupported_media_type'});
	});

	it('an upload the client abandons: no status was sent, outcome aborted', async () => {
		const {socket, closed} = await rawSocket(`${postHead(100_000)}{"jsonrpc":"2.0",`);
		// The server has the head and waits for the rest of the body.
		await waitUntil(() => serve.server.inFlight() > 0, 'the upload to be in flight', {intervalMs: 10});
		socket.destroy();
		await closed;
		expect(await lastLogWhere(line => line.http === 'POST /mcp')).toMatchObject({status: null, outcome: 'aborted', token: 'proto'});
		await settled();
	});

	it('a client that leaves while its call runs: logged client_closed with no status; its call settles, nothing stays in flight', async () => {
		await serve.restart({callDelayMs: 300});
		const body = toolCall('list_granted_resources');
		const {socket, closed} = await rawSocket(`${postHead(Buffer.byteLength(body))}${body}`);
		await waitUntil(async () => (await health()) > 0, 'the call in flight', {intervalMs: 10});
		socket.destroy();
		await closed;
		await settled();
		expect(logged().find(line => line.tool === 'list_granted_resources')).toMatchObject({status: null, outcome: 'client_closed', token: 'proto'});
	});

	it('a body that stops arriving → 408 on the wire and in the log', async () => {
		await serve.restart({requestTimeoutMs: 400});
		const {received, closed} = await rawSocket(`${postHead(1000)}{"jsonrpc":`);
		await closed;
		expect(received()).toMatch(/^HTTP\/1\.1 408 /);
		expect(await lastLogWhere(line => line.http === 'POST /mcp')).toMatchObject({status: 408, outcome: 'request_timeout'});
	});

	it('a request cut off by the drain is logged cut_off with no status', async () => {
		await serve.restart({callDelayMs: 3000});
		const slow = post(toolCall('list_granted_resources')).catch((error: Error) => error);
		await waitUntil(async () => (await health()) > 0, 'the call in flight', {intervalMs: 10});
		expect(await serve.server.drain(200)).toBe(false);
		expect(await slow).toBeInstanceOf(Error);
		expect(logged().find(line => line.tool === 'list_granted_resources')).toMatchObject({status: null, outcome: 'cut_off', token: 'proto'});
	});

	it('a tool that fails with a stack trace: the stack is inside one JSON line, not lines of its own', async () => {
				const broken = new Proxy(serve.store, {get: (target, key) => (key === 'listChannels' ? async () => Promise.reject(new Error('disk on fire')) : Reflect.get(target, key))});
		await serve.restart({store: broken});
		const answer = JSON.parse((await post(toolCall('list_granted_resources'))).body) as {result: {isError: boolean}};
		expect(answer.result.isError).toBe(true);
		const lines = logged();
		const failure = lines.find(line => line.level === 'error')!;
		expect(failure.message).toMatch(/^sift mcp: list_granted_resources failed: Error: disk on fire\n\s+at /);
		expect(lines.find(line => line.tool === 'list_granted_resources')).toMatchObject({status: 200, outcome: 'internal_error'});
		for (const line of serve.logs) expect(line).not.toContain('\n');
	});

	it('every line is one JSON object', async () => {
		await post('[]');
		await post(toolCall('list_granted_resources'));
		await rawRequest(serve.server.url, {method: 'GET', path: '/nope'});
		expect(() => parseLogLines(serve.logs)).not.toThrow();
		expect(logged().map(line => line.outcome)).toEqual(['invalid_request', 'ok', 'not_found']);
	});
});

describe('--allow-host: a client that reaches the server by another name', () => {
	it('listening on 0.0.0.0, the real SDK client at http://sift.internal:PORT is served; names are case-insensitive', async () => {
		await serve.restart({host: '0.0.0.0', allowHosts: ['Sift.Internal']});
		const target = `http://127.0.0.1:${serve.server.port}`;
		const client = await httpClientVia(`http://sift.internal:${serve.server.port}`, target, serve.token);
		const listed = await client.callTool({name: 'list_granted_resources', arguments: {}});
		expect(jsonOf(listed as never).channels[0].id).toBe('bugs');
		await client.close();
		const list = toolCall('list_granted_resources');
		for (const host of [`SIFT.INTERNAL:${serve.server.port}`, 'sift.internal', `127.0.0.1:${serve.server.port}`, `localhost:${serve.server.port}`]) {
			expect((await rawRequest(target, {headers: auth({Host: host}), body: list})).status, host).toBe(200);
		}

		for (const host of [`evil.example:${serve.server.port}`, `sift.internal.evil.example:${serve.server.port}`]) {
			expect((await rawRequest(target, {headers: auth({Host: host}), body: list})).status, host).toBe(403);
		}
	});

	it('an entry with a port: a Host without a port is the default port (80 or 443) and matches it', async () => {
		await serve.restart({allowHosts: ['proxy.example:443', 'other.example:8443']});
		const list = toolCall('list_granted_resources');
		const status = async (headers: Record<string, string>) => (await post(list, auth(headers))).status;
		expect(await status({Host: 'proxy.example'})).toBe(200);
		expect(await status({Host: 'proxy.example:443'})).toBe(200);
		expect(await status({Host: 'proxy.example', Origin: 'https://proxy.example'})).toBe(200);
		expect(await status({Host: 'proxy.example:8443'})).toBe(403);
		expect(await status({Host: 'other.example'})).toBe(403);
		expect(await status({Host: 'other.example:8443', Origin: 'https://other.example:8443'})).toBe(200);
	});

	it.each(['HTTP://x', 'https://proxy.example', 'a b', 'x:99999', 'x:0', ':80', '::1', 'x/y'])('a malformed entry %j is refused at start', async entry => {
		await expect(startServe({store: serve.store, port: 0, log: () => undefined, allowHosts: [entry]})).rejects.toThrow(/--allow-host must be HOST or HOST:PORT/);
	});
});
