// 401/403/413/429, health, logging, on both backends.

import {describe, expect, it} from 'vitest';
import {BACKENDS, type Backend} from '../contract/backends.js';
import {notePgOff} from '../support/pg.js';
import {waitUntil} from '../support/wait.js';
import {callerFor, jsonOf, snapshotOf, textOf} from '../mcp/fixtures.js';
import {httpClient, MCP_HEADERS, mintToken, rawRequest, toolCall, useServe} from './support.js';

describe.each(BACKENDS)('sift serve over HTTP on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const serve = useServe(backend, {tokenName: 'triager'});

	const auth = (secret = serve.token) => ({...MCP_HEADERS, Authorization: `Bearer ${secret}`});
	const post = async (body: string, headers: Record<string, string> = auth()) => rawRequest(serve.server.url, {headers, body});
	/** Log lines as objects. */
	const logged = () => serve.logs.map(line => JSON.parse(line) as Record<string, unknown>);

	/** Every table a request could write, and the tokens, once the server has finished what it was doing. */
	async function state() {
		// A request is in flight until the token's last use is written, too.
		await waitUntil(() => serve.server.inFlight() === 0, 'no request in flight', {intervalMs: 10});
		return {tables: await snapshotOf(serve.test), tokens: await serve.store.tokens.list()};
	}

	/** Runs `work`, then checks that the store is what it was. */
	async function unchanged<T>(work: () => Promise<T>): Promise<T> {
		const before = await state();
		const result = await work();
		expect(await state()).toEqual(before);
		return result;
	}

	describe('authentication: every /mcp request needs a valid bearer token', () => {
		const cases: Array<[string, () => Record<string, string> | Promise<Record<string, string>>]> = [
			['no Authorization header', () => MCP_HEADERS],
			['an unknown token', () => auth(`sift_${'A'.repeat(43)}`)],
			['a token of another shape', () => auth('hunter2')],
			['Basic instead of Bearer', () => ({...MCP_HEADERS, Authorization: `Basic ${serve.token}`})],
			['an expired token', async () => auth(await mintToken(serve.store, ['bugs'], {kind: 'agent'}, {now: new Date(Date.now() - 86_400_000), expiresAt: new Date(Date.now() - 1000).toISOString()}))],
			['a revoked token', async () => {
				const revoked = await mintToken(serve.store, ['bugs'], {kind: 'agent'}, {name: 'gone'});
				await serve.store.tokens.revoke('gone');
				return auth(revoked);
			}],
		];

		it.each(cases)('%s → 401, nothing written', async (_label, headers) => {
			const prepared = await headers();
			const response = await unchanged(async () => post(toolCall('edit_record_item', {record_channel_id: 'bugs', item_id: 'x', values: {status: 'fixed'}, expected_version: 1, idempotency_key: 'k'}), prepared));
			expect(response.status).toBe(401);
			expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
			expect(logged().at(-1)).toMatchObject({status: 401, outcome: 'unauthorized', token: null});
		});

		it('a token revoked while its client is connected stops working on the next request', async () => {
			const client = await httpClient(serve.server.url, serve.token);
			expect((await client.listTools()).tools).toHaveLength(7);
			await serve.store.tokens.revoke('triager');
			await expect(client.listTools()).rejects.toThrow(/401|unauthorized/i);
			await client.close();
		});
	});

	describe('grants and actor come from the token', () => {
		it('a channel outside the grants is not_granted, the same whether it exists or not', async () => {
			const call = callerFor(await httpClient(serve.server.url, serve.token));
			const secret = await call('list_record_items', {record_channel_id: 'secrets'});
			const missing = await call('list_record_items', {record_channel_id: 'nope'});
			expect(secret.isError).toBe(true);
			expect(jsonOf(secret).error).toBe('not_granted');
			expect(textOf(missing).replaceAll('nope', 'secrets')).toBe(textOf(secret));
			const granted = jsonOf(await call('list_granted_resources'));
			expect(granted.channels.map((channel: {id: string}) => channel.id)).toEqual(['bugs']);
			expect(logged().at(-2)).toMatchObject({tool: 'list_record_items', outcome: 'not_granted', token: 'triager'});
		});

		it('an edit is recorded with the token\'s actor and run id', async () => {
			const runToken = await mintToken(serve.store, ['bugs'], {kind: 'agent', run_id: 'run-from-token'});
			const call = callerFor(await httpClient(serve.server.url, runToken));
			const page = jsonOf(await call('list_record_items', {record_channel_id: 'bugs', limit: 1}));
			const item = page.items[0];
			const result = jsonOf(await call('edit_record_item', {record_channel_id: 'bugs', item_id: item.id, values: {points: 5}, expected_version: item.version, idempotency_key: 'from-token'}));
			expect(result.ok).toBe(true);
			const {events} = await serve.store.pollEvents('bugs', {afterSequence: result.sequence - 1});
			expect(events[0]!.actor).toEqual({kind: 'agent', run_id: 'run-from-token'});
		});
	});

	describe('Host and Origin (DNS rebinding)', () => {
		const list = toolCall('list_granted_resources');

		it.each([
			['a foreign Host', {Host: 'evil.example:7345'}],
			['the right port under another name', {Host: 'rebind.example'}],
			['a foreign Origin', {Origin: 'http://evil.example'}],
			['the null Origin', {Origin: 'null'}],
			['an Origin on another port', {Origin: 'http://127.0.0.1:1'}],
		])('%s → 403 even with a valid token, nothing written', async (_label, extra) => {
			const headers: Record<string, string> = {...auth(), ...extra};
			const response = await unchanged(async () => post(toolCall('edit_record_item', {record_channel_id: 'bugs', item_id: 'x', values: {}, expected_version: 1, idempotency_key: 'k'}), headers));
			expect(response.status).toBe(403);
			expect(logged().at(-1)).toMatchObject({status: 403, outcome: 'forbidden_host'});
		});

		it('the listen address, localhost and the same Origin are allowed', async () => {
			const port = serve.server.port;
			for (const headers of <Array<Record<string, string>>>[{Host: `127.0.0.1:${port}`}, {Host: `localhost:${port}`}, {Host: `127.0.0.1:${port}`, Origin: `http://localhost:${port}`}]) {
				expect((await post(list, {...auth(), ...headers})).status).toBe(200);
			}
		});

		it('--allow-host adds a name (any port) or a name:port', async () => {
			await serve.restart({allowHosts: ['sift.internal', 'proxy.internal:8443']});
			for (const host of ['sift.internal', 'sift.internal:80', 'proxy.internal:8443']) {
				expect((await post(list, {...auth(), Host: host})).status).toBe(200);
			}

			expect((await post(list, {...auth(), Host: 'proxy.internal:9999'})).status).toBe(403);
		});
	});

	describe('body limit', () => {
		const bigEdit = (size: number) => toolCall('edit_record_item', {record_channel_id: 'bugs', item_id: 'x', values: {description: 'y'.repeat(size)}, expected_version: 1, idempotency_key: 'big'});

		it('a 3 MiB body with its length declared → 413, nothing written', async () => {
			const response = await unchanged(async () => rawRequest(serve.server.url, {headers: auth(), body: bigEdit(3 * 1024 * 1024)}));
			expect(response.status).toBe(413);
			expect(logged().at(-1)).toMatchObject({status: 413, outcome: 'too_large', token: 'triager'});
		});

		it('a 3 MiB chunked body (no length) is cut off while streaming → 413, nothing written', async () => {
			const response = await unchanged(async () => rawRequest(serve.server.url, {headers: auth(), body: bigEdit(3 * 1024 * 1024), chunked: true}));
			expect(response.status).toBe(413);
		});

		it('a body just under 2 MiB is read and answered by the tool', async () => {
			const response = await post(bigEdit(2 * 1024 * 1024 - 1024));
			expect(response.status).toBe(200);
			expect(JSON.parse(response.body).result.isError).toBe(true);
		});
	});

	describe('rate limit per token', () => {
		// The buckets' clock stands still: nothing refills during a burst, however slow the machine.
		const still = {rate: 5, rateClock: () => 0};

		it('a burst over the rate → 429 with Retry-After, nothing written; another token is not held back', async () => {
			await serve.restart(still);
			const list = toolCall('list_granted_resources');
			expect((await post(list)).status).toBe(200);
			const other = await mintToken(serve.store, ['bugs'], {kind: 'agent'}, {name: 'other'});
			expect((await post(list, auth(other))).status).toBe(200);
			const responses = await unchanged(async () => Promise.all(Array.from({length: 20}, async () => post(list))));
			const limited = responses.filter(response => response.status === 429);
			// One of the five went on the first call: four more pass, the other sixteen wait.
			expect(limited.length).toBe(16);
			expect(responses.filter(response => response.status === 200).length).toBe(4);
			for (const response of limited) expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
			expect(logged().filter(line => line.outcome === 'rate_limited').length).toBe(limited.length);
			expect((await post(list, auth(other))).status).toBe(200);
		});

		it('every answer carries RateLimit-Limit, -Remaining and -Reset; the token\'s bucket once it is known', async () => {
			await serve.restart(still);
			const list = toolCall('list_granted_resources');
			const first = await post(list);
			expect(first.status).toBe(200);
			expect(first.headers['ratelimit-limit']).toBe('5');
			expect(Number(first.headers['ratelimit-remaining'])).toBe(4);
			expect(Number(first.headers['ratelimit-reset'])).toBe(1);
			const burst = await Promise.all(Array.from({length: 12}, async () => post(list)));
			const limited = burst.filter(response => response.status === 429);
			expect(limited.length).toBe(8);
			for (const response of limited) expect(response.headers).toMatchObject({'ratelimit-limit': '5', 'ratelimit-remaining': '0', 'ratelimit-reset': '1'});
			const refused = await post(list, MCP_HEADERS);
			expect(refused.status).toBe(401);
			expect(refused.headers).toMatchObject({'ratelimit-limit': '5', 'ratelimit-remaining': '5', 'ratelimit-reset': '0'});
			const health = await rawRequest(serve.server.url, {method: 'GET', path: '/healthz'});
			expect(health.headers['ratelimit-limit']).toBe('5');
		});

		it('a batch costs one request per message', async () => {
			await serve.restart(still);
			const batch = (size: number) => JSON.stringify(Array.from({length: size}, (_, index) => JSON.parse(toolCall('list_granted_resources', {}, index + 1))));
			expect((await post(batch(4))).status).toBe(200);
			expect((await post(batch(2))).status).toBe(429);
		});
	});

	describe('the rest of the HTTP surface', () => {
		it('GET /healthz answers without a token; other paths 404; GET /mcp 405', async () => {
			const health = await rawRequest(serve.server.url, {method: 'GET', path: '/healthz'});
			expect(health.status).toBe(200);
			expect(JSON.parse(health.body)).toEqual({status: 'ok', store: 'ok', in_flight: 0});
			expect((await rawRequest(serve.server.url, {method: 'GET', path: '/', headers: auth()})).status).toBe(404);
			expect((await rawRequest(serve.server.url, {method: 'GET', path: '/mcp', headers: auth()})).status).toBe(405);
		});

		it('a body that is not JSON → 400 parse error', async () => {
			const response = await post('{"jsonrpc": ');
			expect(response.status).toBe(400);
			expect(JSON.parse(response.body).error.code).toBe(-32700);
		});

		it('logs one JSON line per request with token name, tool, outcome and ms; never the secret or a value', async () => {
			const call = callerFor(await httpClient(serve.server.url, serve.token));
			const page = jsonOf(await call('list_record_items', {record_channel_id: 'bugs', limit: 1}));
			const item = jsonOf(await call('read_record_item', {record_channel_id: 'bugs', item_id: page.items[0].id}));
			await call('edit_record_item', {record_channel_id: 'bugs', item_id: item.id, values: {status: 'MARKER-VALUE-NOT-AN-OPTION'}, expected_version: item.version, idempotency_key: 'log-1'});
			const lines = logged();
			const text = serve.logs.join('\n');
			expect(text).not.toContain(serve.token);
			expect(text).not.toContain(serve.token.slice(5, 20));
			expect(text).not.toContain('MARKER-VALUE');
			expect(text).not.toContain(String(item.values.title));
			const edit = lines.find(line => line.tool === 'edit_record_item')!;
			expect(edit).toMatchObject({status: 200, token: 'triager', method: 'tools/call', outcome: 'validation_failed'});
			expect(typeof edit.ms).toBe('number');
			expect(lines.find(line => line.tool === 'read_record_item')).toMatchObject({outcome: 'ok'});
			expect(lines.find(line => line.method === 'initialize')).toMatchObject({status: 200, tool: null});
		});

		it('drain waits for the token\'s last use to be written, not only for the answer', async () => {
			// The same store, with the last-use write held until the test lets it go (after the answer).
			let entered = false;
			let letGo = () => {};
			const gate = new Promise<void>(resolve => {
				letGo = resolve;
			});
			const slowTouch = new Proxy(serve.store.tokens, {
				get: (target, key) => key === 'touch'
					? async (...args: Parameters<typeof target.touch>) => {
						entered = true;
						await gate;
						return target.touch(...args);
					}
					: Reflect.get(target, key),
			});
			const slowStore = new Proxy(serve.store, {get: (target, key) => (key === 'tokens' ? slowTouch : Reflect.get(target, key))});
			await serve.restart({store: slowStore});
			expect((await post(toolCall('list_granted_resources'))).status).toBe(200);
			await waitUntil(() => entered, 'the last-use write to start');
			let drained = false;
			const draining = serve.server.drain(30_000).then(done => {
				drained = true;
				return done;
			});
			// Answered, yet still in flight while its last use is written: the drain waits on it.
			expect(serve.server.inFlight()).toBe(1);
			expect(drained).toBe(false);
			letGo();
			expect(await draining).toBe(true);
			expect((await serve.store.tokens.list()).find(listed => listed.name === 'triager')?.last_used_at).toEqual(expect.any(String));
		});
	});
});
