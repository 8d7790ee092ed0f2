// Token scopes over real HTTP with the SDK client, on both backends: a read token lists no
// edit_record_item, and a write through it is refused `forbidden` with nothing written, whether
// it comes as a tools/call of the unlisted tool or reaches the store directly with its grants.
// A write token (the default) edits as before.

import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {Grants, StoreError} from '../../store/index.js';
import {BACKENDS, type Backend} from '../contract/backends.js';
import {notePgOff} from '../support/pg.js';
import {snapshotOf} from '../mcp/fixtures.js';
import {httpClient, MCP_HEADERS, rawRequest, toolCall, useServe} from './support.js';
import {rmSync} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {openStore} from '../../store/index.js';
import {ensureBuilt, sift, siftJson, tempDir} from '../support/cli.js';
import {makeDatabase} from '../mcp/fixtures.js';
import {SCHEMA_VERSION} from '../../store/sqlite/database.js';

const textOf = (result: CallToolResult) => JSON.parse((result.content as Array<{text: string}>)[0]!.text) as {error?: string; message?: string};

describe.each(BACKENDS)('token scopes over HTTP on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const serve = useServe(backend);
	const clients: Client[] = [];
	afterEach(async () => {
		for (const client of clients.splice(0)) await client.close();
	});

	async function clientWith(scope: 'read' | 'write' | undefined) {
		const {token, info} = await serve.store.tokens.create({grants: ['bugs'], scope});
		const client = await httpClient(serve.server.url, token);
		clients.push(client);
		return {client, token, info};
	}

	async function newest(client: Client) {
		const page = (await client.callTool({name: 'list_record_items', arguments: {record_channel_id: 'bugs', limit: 1}})) as CallToolResult;
		return (page.structuredContent as {items: Array<{id: string; version: number}>}).items[0]!;
	}

	const editArgs = (item: {id: string; version: number}, key: string) => ({record_channel_id: 'bugs', item_id: item.id, values: {title: 'written through a read token'}, expected_version: item.version, idempotency_key: key});

	it('a read token lists every tool but edit_record_item, and reads work', async () => {
		const {client, info} = await clientWith('read');
		expect(info.scope).toBe('read');
		const names = (await client.listTools()).tools.map(tool => tool.name).sort();
		expect(names).toEqual(['find_similar_items', 'list_granted_resources', 'list_record_items', 'poll_resource_events', 'read_record_item', 'search_record_items']);
		expect(client.getInstructions()).toMatch(/read-only \(its token has scope read\)/);
		const listing = (await client.listTools()).tools.find(tool => tool.name === 'list_granted_resources')!;
		expect(listing.description).toMatch(/may read \(its token has scope read: no edits\)/);
		expect(listing.description).not.toMatch(/edit:/);
		const item = await newest(client);
		const read = (await client.callTool({name: 'read_record_item', arguments: {record_channel_id: 'bugs', item_id: item.id}})) as CallToolResult;
		expect(read.isError).toBeFalsy();
	});

	it('edit_record_item through a read token is forbidden and writes nothing (SDK client and raw HTTP)', async () => {
		const {client, token} = await clientWith('read');
		const item = await newest(client);
		const before = await snapshotOf(serve.test);
		const refused = (await client.callTool({name: 'edit_record_item', arguments: editArgs(item, 'k1')})) as CallToolResult;
		expect(refused.isError).toBe(true);
		expect(textOf(refused)).toMatchObject({error: 'forbidden', message: expect.stringMatching(/read-only \(scope read\)/)});
		// The same refusal for a call that does not even pass the tool's argument checks.
		const raw = await rawRequest(serve.server.url, {headers: {...MCP_HEADERS, Authorization: `Bearer ${token}`}, body: toolCall('edit_record_item', {})});
		expect(raw.status).toBe(200);
		expect(JSON.parse(JSON.parse(raw.body).result.content[0].text)).toMatchObject({error: 'forbidden'});
		expect(await snapshotOf(serve.test)).toEqual(before);
	});

	it('the store refuses a write under read-only grants itself, whatever called it', async () => {
		const {client} = await clientWith('read');
		const item = await newest(client);
		const before = await snapshotOf(serve.test);
		const error = await serve.store.editItem({channelId: 'bugs', itemId: item.id, values: {title: 'x'}, actor: {kind: 'agent'}, grants: new Grants(['bugs'], 'read')}).catch((caught: unknown) => caught);
		expect((error as StoreError).body).toMatchObject({error: 'forbidden'});
		expect(await snapshotOf(serve.test)).toEqual(before);
	});

	it('a write token (the default scope) lists and uses edit_record_item', async () => {
		const {client, info} = await clientWith(undefined);
		expect(info.scope).toBe('write');
		expect((await client.listTools()).tools.map(tool => tool.name)).toContain('edit_record_item');
		const item = await newest(client);
		const edited = (await client.callTool({name: 'edit_record_item', arguments: editArgs(item, 'k2')})) as CallToolResult;
		expect(edited.isError, JSON.stringify(edited.content)).toBeFalsy();
		expect((edited.structuredContent as {version: number}).version).toBe(item.version + 1);
	});

	it('the scope is stored and listed; an unknown scope is refused', async () => {
		await serve.store.tokens.create({grants: ['bugs'], scope: 'read', name: 'reader'});
		await serve.store.tokens.create({grants: ['bugs'], name: 'writer'});
		const listed = Object.fromEntries((await serve.store.tokens.list()).map(token => [token.name, token.scope]));
		expect(listed).toMatchObject({reader: 'read', writer: 'write'});
		const error = await serve.store.tokens.create({grants: ['bugs'], scope: 'admin' as 'read'}).catch((caught: unknown) => caught);
		expect((error as StoreError).body).toMatchObject({error: 'invalid_argument', message: expect.stringMatching(/scope must be read or write/)});
	});
});

describe('sift token --scope (the built CLI, SQLite)', () => {
	const dir = tempDir('sift-scope-cli-');
	const db = path.join(dir, 'team.db');
	beforeAll(() => {
		ensureBuilt();
		makeDatabase(db);
	});
	afterAll(() => rmSync(dir, {recursive: true, force: true}));

	it('create --scope read makes a read token; the default is write; list shows both (table and --json)', () => {
		const created = sift(['token', 'create', '--grant', 'bugs', '--scope', 'read', '--name', 'reader', '--db', db]);
		expect(created.code, created.stderr).toBe(0);
		expect(created.stdout).toMatch(/scope: read/);
		expect(siftJson(['token', 'create', '--grant', 'bugs', '--name', 'writer', '--db', db])).toMatchObject({name: 'writer', scope: 'write'});
		const listed = siftJson<Array<{name: string; scope: string}>>(['token', 'list', '--db', db]);
		expect(Object.fromEntries(listed.map(token => [token.name, token.scope]))).toEqual({reader: 'read', writer: 'write'});
		const table = sift(['token', 'list', '--db', db]).stdout;
		expect(table).toMatch(/^NAME\s+ACTOR\s+GRANTS\s+SCOPE\s+CREATED/);
		expect(table).toMatch(/reader\s+agent\s+bugs\s+read\s/);
		expect(table).toMatch(/writer\s+agent\s+bugs\s+write\s/);
	});

	it('--scope admin is a usage error and creates nothing', () => {
		const result = sift(['token', 'create', '--grant', 'bugs', '--scope', 'admin', '--name', 'nope', '--db', db]);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/--scope must be read or write, got "admin"/);
		expect(siftJson<Array<{name: string}>>(['token', 'list', '--db', db]).map(token => token.name)).not.toContain('nope');
	});

	it('a store made before scopes is upgraded: its tokens keep writing', () => {
		const old = path.join(dir, 'old.db');
		makeDatabase(old);
		const store = openStore(old);
		store.createToken({grants: ['bugs'], name: 'legacy'});
		store.close();
		const raw = new Database(old);
		raw.exec('ALTER TABLE tokens DROP COLUMN scope');
		raw.pragma('user_version = 5');
		raw.close();
		expect(siftJson<Array<{name: string; scope: string}>>(['token', 'list', '--db', old])).toMatchObject([{name: 'legacy', scope: 'write'}]);
		const reopened = new Database(old, {readonly: true});
		expect(reopened.pragma('user_version', {simple: true})).toBe(SCHEMA_VERSION);
		reopened.close();
	});
});
