// A held SQLite write lock never freezes `sift serve`: an edit that waits for another process's
// lock waits off the event loop, so /healthz and other clients' reads go on; the wait is bounded
// (then `busy`, nothing written); SIGTERM during a wait exits at once. The built CLI, real HTTP,
// the SDK client, and another process holding BEGIN IMMEDIATE on the store file.

import {rmSync} from 'node:fs';
import path from 'node:path';
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {openStore} from '../../store/index.js';
import {ensureBuilt, tempDir} from '../support/cli.js';
import {holdWriteLock, type LockHolder} from '../support/lock-holder.js';
import {makeDatabase} from '../mcp/fixtures.js';
import {waitUntil} from '../support/wait.js';
import {databaseHash, httpClient, MCP_HEADERS, rawRequest, spawnServe, toolCall} from './support.js';

const dir = tempDir('sift-serve-lock-');
beforeAll(() => ensureBuilt());
afterAll(() => rmSync(dir, {recursive: true, force: true}));

let counter = 0;
let db: string;
let token: string;
let item: {id: string; version: number};
let holder: LockHolder | undefined;
let server: Awaited<ReturnType<typeof spawnServe>> | undefined;
const clients: Client[] = [];

beforeEach(() => {
	db = path.join(dir, `lock-${counter++}.db`);
	makeDatabase(db);
	const store = openStore(db);
	token = store.createToken({grants: ['bugs'], name: 'agent'}).token;
	const first = store.listPage('bugs').items[0]!;
	item = {id: first.id, version: first.version};
	store.close();
});

afterEach(async () => {
	for (const client of clients.splice(0)) await client.close().catch(() => {});
	holder?.kill();
	server?.kill();
});

const editCall = (client: Client, owner: string, key: string) => client.callTool({name: 'edit_record_item', arguments: {record_channel_id: 'bugs', item_id: item.id, values: {title: owner}, expected_version: item.version, idempotency_key: key}}) as Promise<CallToolResult>;

/** Whether `work` has settled yet, read without waiting. */
function watched<T>(work: Promise<T>): {promise: Promise<T>; settled: () => boolean} {
	let settled = false;
	const promise = work.finally(() => {
		settled = true;
	});
	return {promise, settled: () => settled};
}

/** Until sift serve reports a request in flight (the edit has reached the store and waits). */
async function untilInFlight(url: string): Promise<void> {
	await waitUntil(async () => (JSON.parse((await rawRequest(url, {method: 'GET', path: '/healthz'})).body) as {in_flight: number}).in_flight > 0, 'the edit to reach the server', {intervalMs: 10});
}

describe('sift serve while another process holds the write lock', () => {
	it('/healthz and another client\'s read answer while an edit waits; release lets the edit through', async () => {
		server = await spawnServe(db);
		const writer = await httpClient(server.url, token);
		const reader = await httpClient(server.url, token);
		clients.push(writer, reader);
		holder = await holdWriteLock(db);
		const waiting = watched(editCall(writer, 'ren', 'k1'));
		await untilInFlight(server.url);

		// Answers that come while the edit still waits and the lock is still held: a wait that held the
		// event loop would answer them only after the edit itself had given up.
		for (let round = 0; round < 3; round++) {
			const health = await rawRequest(server.url, {method: 'GET', path: '/healthz'});
			expect(health.status).toBe(200);
			expect(JSON.parse(health.body)).toMatchObject({status: 'ok', in_flight: 1});
		}

		const read = await (reader.callTool({name: 'read_record_item', arguments: {record_channel_id: 'bugs', item_id: item.id}}) as Promise<CallToolResult>);
		expect(read.isError).toBeFalsy();
		expect((read.structuredContent as {version: number}).version).toBe(item.version);
		expect(waiting.settled()).toBe(false);

		await holder.release();
		const edited = await waiting.promise;
		expect(edited.isError, JSON.stringify(edited.content)).toBeFalsy();
		expect(edited.structuredContent).toMatchObject({version: item.version + 1, changed: {title: 'ren'}});
		server.process.kill('SIGTERM');
		expect(await server.exited).toBe(0);
	});

	it('the wait is bounded (SIFT_LOCK_WAIT): the edit answers busy, nothing is written, and it goes through once the lock is free', async () => {
		server = await spawnServe(db, {SIFT_LOCK_WAIT: '1'});
		const writer = await httpClient(server.url, token);
		clients.push(writer);
		holder = await holdWriteLock(db);
		const before = databaseHash(db);
		const waiting = watched(editCall(writer, 'ren', 'k2'));
		// It waits (the server reports it in flight) and then gives up by itself, the lock still held.
		await untilInFlight(server.url);
		const refused = await waiting.promise;
		expect(refused.isError).toBe(true);
		const body = JSON.parse((refused.content as Array<{text: string}>)[0]!.text) as {error: string; message: string};
		expect(body).toMatchObject({error: 'busy', message: expect.stringMatching(/write lock for [1-9][0-9]* s/)});
		expect(databaseHash(db)).toBe(before);

		await holder.release();
		// The same key again: the refusal wrote nothing, so this is the first time the edit applies.
		const retried = await editCall(writer, 'ren', 'k2');
		expect(retried.isError, JSON.stringify(retried.content)).toBeFalsy();
		server.process.kill('SIGTERM');
		expect(await server.exited).toBe(0);
	});

	it('SIGTERM during a wait: the waiting edit answers busy and sift serve exits 0 at once', async () => {
		server = await spawnServe(db);
		holder = await holdWriteLock(db);
		const before = databaseHash(db);
		const waiting = rawRequest(server.url, {headers: {...MCP_HEADERS, Authorization: `Bearer ${token}`}, body: toolCall('edit_record_item', {record_channel_id: 'bugs', item_id: item.id, values: {owner: 'ren'}, expected_version: item.version, idempotency_key: 'k3'})});
		await untilInFlight(server.url);
		// "At once": it exits while the lock is still held, not when the wait would have ended (30 s).
		server.process.kill('SIGTERM');
		expect(await server.exited).toBe(0);
		const answered = await waiting;
		expect(answered.status).toBe(200);
		expect(JSON.parse(JSON.parse(answered.body).result.content[0].text)).toMatchObject({error: 'busy', message: expect.stringMatching(/shutting down/)});
		await holder.release();
		expect(databaseHash(db)).toBe(before);
	});
});
