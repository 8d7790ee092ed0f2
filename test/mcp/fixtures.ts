import {execFileSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {InMemoryTransport} from '@modelcontextprotocol/sdk/inMemory.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {bugsChannel, generateBugItems} from '../../demo-data/generate.js';
import {createSiftServer} from '../../source/mcp/server.js';
import {Grants, openStore, type Actor, type Store} from '../../store/index.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const NOW = new Date('2025-06-18T12:00:00.000Z');
export const RUN_ID = 'run-mcp-test';

/** A channel the server is never granted: "not_granted" must look the same as for a channel that does not exist. */
export const secretsChannel = {
	id: 'secrets',
	name: 'Secrets',
	fields: [{key: 'note', label: 'Note', type: 'text', is_required: false, is_unique: false, config: {}}],
};

/** A fresh database file: the demo bugs channel with `count` items and a small other channel. */
export function makeDatabase(file: string, count = 30): void {
	const store = openStore(file, {create: true});
	try {
		store.importChannel({channel: bugsChannel, items: generateBugItems({count, seed: 11, now: NOW})});
		store.importChannel({channel: secretsChannel, items: [{values: {note: 'not for agents'}}]});
	} finally {
		store.close();
	}
}

/** Everything an MCP call could change, read straight from the tables. */
export function snapshot(store: Store) {
	const all = (sql: string) => store.db.prepare(sql).all();
	return {
		channels: store.listChannels(),
		items: all('SELECT id, channel_id, version, updated_at, data FROM items ORDER BY seq'),
		events: all('SELECT channel_id, sequence FROM events ORDER BY channel_id, sequence').length,
		followups: all('SELECT * FROM followups ORDER BY id'),
		idempotency: all('SELECT key FROM idempotency ORDER BY key').length,
	};
}

export async function connectInProcess(store: Store, actor: Actor = {kind: 'agent', run_id: RUN_ID}, grants = ['bugs']) {
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

/** The text of a result (every sift result is one text block of JSON, or a plain message for bad arguments). */
export function textOf(result: CallToolResult): string {
	const [first] = result.content;
	if (first?.type !== 'text') {
		throw new Error(`expected a text result, got ${JSON.stringify(result).slice(0, 200)}`);
	}

	return first.text;
}

export function jsonOf<T = any>(result: CallToolResult): T {
	return JSON.parse(textOf(result)) as T;
}

/** The built CLI (`node dist/source/cli.js`), built with tsc first when it is missing. */
export function builtCli(): string {
	const entry = path.join(ROOT, 'dist', 'source', 'cli.js');
	if (!existsSync(entry)) {
		try {
			execFileSync('npx', ['tsc', '-p', 'tsconfig.json'], {cwd: ROOT, stdio: 'pipe'});
		} catch {
			// Type errors elsewhere still emit; the check below is what matters.
		}
	}

	if (!existsSync(entry)) {
		throw new Error(`${entry} is missing after building`);
	}

	return entry;
}
