// Shared MCP test set-up: seeded stores on either backend, table snapshots, the in-process client.

import {execFileSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {InMemoryTransport} from '@modelcontextprotocol/sdk/inMemory.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {bugsChannel} from '../../demo-data/generate.js';
import {siftEntry} from '../../source/codex/paths.js';
import {createSiftServer} from '../../source/mcp/server.js';
import {Grants, openStore, type Actor, type AsyncStore, type Store} from '../../store/index.js';
import type {Backend} from '../contract/backends.js';
import {demoItems} from '../support/stores.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const NOW = new Date('2025-06-18T12:00:00.000Z');
export const RUN_ID = 'run-mcp-test';

/** A channel the server is never granted: "not_granted" must look the same as for a channel that does not exist. */
export const secretsChannel = {
	id: 'secrets',
	name: 'Secrets',
	fields: [{key: 'note', label: 'Note', type: 'text', is_required: false, is_unique: false, config: {}}],
};

/** What every MCP test store holds: the demo bugs channel with `count` items and a small other channel. */
function seedSources(count: number) {
	return [
		{channel: bugsChannel, items: demoItems(count, 11, NOW)},
		{channel: secretsChannel, items: [{values: {note: 'not for agents'}}]},
	];
}

/** A fresh database file with the seed, for tests that start the built CLI on a file. */
export function makeDatabase(file: string, count = 30): void {
	const store = openStore(file, {create: true});
	try {
		for (const source of seedSources(count)) store.importChannel(source);
	} finally {
		store.close();
	}
}

/** A seeded store on one backend, and its tables read directly (a second connection), for snapshots. */
export type McpStore = {
	store: AsyncStore;
	/** Where it lives: a file, or a postgres:// URL (its own schema), for a `sift` process to open. */
	location: string;
	rows(sql: string): Promise<unknown[]>;
	close(): Promise<void>;
};

/** A new store of `backend` (test/contract/backends.ts) with the seed. */
export async function openMcpStore(backend: Backend, count = 30): Promise<McpStore> {
	const store = await backend.open();
	for (const source of seedSources(count)) await store.importChannel(source);
	const location = backend.lastLocation();
	if (backend.name === 'sqlite') {
		const db = new Database(location, {readonly: true, fileMustExist: true});
		return {
			store,
			location,
			rows: async sql => db.prepare(sql).all(),
			async close() {
				db.close();
				await store.close();
			},
		};
	}

	const client = new pg.Client({connectionString: location});
	await client.connect();
	return {
		store,
		location,
		rows: async sql => (await client.query(sql)).rows,
		async close() {
			await client.end();
			await store.close();
		},
	};
}

/** The tables an MCP call could change; the same SQL on both backends. */
const SNAPSHOT_SQL = {
	items: 'SELECT id, channel_id, version, updated_at, data FROM items ORDER BY channel_id, seq',
	events: 'SELECT channel_id, sequence FROM events ORDER BY channel_id, sequence',
	followups: 'SELECT * FROM followups ORDER BY id',
	idempotency: 'SELECT key FROM idempotency ORDER BY key',
};

type SnapshotRows = Record<keyof typeof SNAPSHOT_SQL, unknown[]>;

function snapshotOfRows(channels: unknown, rows: SnapshotRows) {
	return {channels, items: rows.items, events: rows.events.length, followups: rows.followups, idempotency: rows.idempotency.length};
}

/** Everything an MCP call could change, read straight from the tables of a SQLite file. */
export function snapshot(store: Store) {
	const rows = Object.fromEntries(Object.entries(SNAPSHOT_SQL).map(([key, sql]) => [key, store.db.prepare(sql).all()])) as SnapshotRows;
	return snapshotOfRows(store.listChannels(), rows);
}

/** `snapshot` on either backend. */
export async function snapshotOf(test: McpStore) {
	// One query at a time: a pg client runs one statement at once.
	const rows: Record<string, unknown[]> = {};
	for (const [key, sql] of Object.entries(SNAPSHOT_SQL)) rows[key] = await test.rows(sql);
	return snapshotOfRows(await test.store.listChannels(), rows as SnapshotRows);
}

export async function connectInProcess(store: AsyncStore, actor: Actor = {kind: 'agent', run_id: RUN_ID}, grants = ['bugs']) {
	const logs: string[] = [];
	const server = createSiftServer({store, grants: new Grants(grants), actor, log: line => logs.push(line)});
	const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
	await server.connect(serverTransport);
	const client = new Client({name: 'sift-test', version: '1.0.0'});
	await client.connect(clientTransport);
	return {
		client,
		logs,
		async close() {
			await client.close();
			await server.close();
		},
	};
}

export type Caller = (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;

export function callerFor(client: Client): Caller {
	return async (name, args = {}) => (await client.callTool({name, arguments: args})) as CallToolResult;
}

/** The text of a result: a refusal's JSON or a plain message for bad arguments (a success's text only points at its structuredContent). */
export function textOf(result: CallToolResult): string {
	const [first] = result.content;
	if (first?.type !== 'text') {
		throw new Error(`expected a text result, got ${JSON.stringify(result).slice(0, 200)}`);
	}

	return first.text;
}

/** The answer of a result: its structuredContent when it has one (the text then only points at it), else its text as JSON. */
export function jsonOf<T = any>(result: CallToolResult): T {
	return (result.structuredContent ?? JSON.parse(textOf(result))) as T;
}

/** The built CLI (`node dist/bin/sift.js`), built first when it is missing. */
export function builtCli(): string {
	const entry = siftEntry();
	if (!existsSync(entry)) {
		try {
			execFileSync('npm', ['run', 'build', '--silent'], {cwd: ROOT, stdio: 'pipe'});
		} catch {
			// Type errors elsewhere still emit; the check below is what matters.
		}
	}

	if (!existsSync(entry)) {
		throw new Error(`${entry} is missing after building`);
	}

	return entry;
}
