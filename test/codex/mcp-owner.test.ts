// `sift mcp --owner-pid` exits when its owner dies.

import {spawn} from 'node:child_process';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {afterEach, describe, expect, it} from 'vitest';
import {openStore} from '../../store/index.js';
import {builtCli, makeDatabase, RUN_ID, snapshot} from '../mcp/fixtures.js';
import {isAlive, tempDir} from './support.js';
import {eventually} from '../support/wait.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {jsonOf} from '../mcp/fixtures.js';

const clients: Client[] = [];
afterEach(async () => {
	for (const client of clients.splice(0)) await client.close().catch(() => undefined);
});

async function connect(db: string, extra: string[] = []) {
	const transport = new StdioClientTransport({
		command: process.execPath,
		args: [builtCli(), 'mcp', '--db', db, '--grant', 'bugs', '--actor', 'agent', '--run', RUN_ID, ...extra],
		stderr: 'pipe',
	});
	let stderr = '';
	transport.stderr!.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	const client = new Client({name: 'sift-owner-test', version: '1.0.0'});
	await client.connect(transport);
	clients.push(client);
	return {client, pid: transport.pid!, stderr: () => stderr};
}

function freshDatabase(): string {
	const db = path.join(tempDir(), 'sift.db');
	makeDatabase(db);
	return db;
}

const gone = async (pid: number, withinMs: number) => eventually(() => !isAlive(pid), {timeoutMs: withinMs, intervalMs: 50});

describe('sift mcp', () => {
	it('advertises a tool list that never changes (tools.listChanged false) at initialize', async () => {
		const {client} = await connect(freshDatabase());
		expect(client.getServerCapabilities()?.tools).toEqual({listChanged: false});
	});

	it('--owner-pid: once the owner is gone, a request is never served and the server exits within 2 s', async () => {
		const db = freshDatabase();
		const owner = spawn('sleep', ['60'], {stdio: 'ignore'});
		const ownerExited = new Promise(resolve => owner.once('exit', resolve));
		const server = await connect(db, ['--owner-pid', String(owner.pid)]);
		const listed = await server.client.callTool({name: 'list_record_items', arguments: {record_channel_id: 'bugs', limit: 1}});
		const [first] = jsonOf<{items: Array<{id: string; version: number}>}>(listed as CallToolResult).items;
		const store = openStore(db);
		const before = snapshot(store);

		owner.kill('SIGKILL');
		// Reaped by this process: only then is the owner's pid really gone.
		await ownerExited;
		// Sent at once, before the server's next poll: the check before every message refuses it.
		const edit = server.client.callTool({name: 'edit_record_item', arguments: {record_channel_id: 'bugs', item_id: first!.id, values: {owner: 'orphan'}, expected_version: first!.version, idempotency_key: 'after-owner'}}, undefined, {timeout: 5000});
		await expect(edit).rejects.toThrow();
		expect(await gone(server.pid, 2000)).toBe(true);
		expect(snapshot(store)).toEqual(before);
		store.close();
		expect(server.stderr()).toContain(`pid ${owner.pid}) is gone`);
	});

	it('refuses a bad --owner-pid as a usage error', async () => {
		const result = spawn(process.execPath, [builtCli(), 'mcp', '--db', freshDatabase(), '--grant', 'bugs', '--owner-pid', '-3'], {stdio: ['ignore', 'ignore', 'pipe']});
		let stderr = '';
		result.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		const code = await new Promise(resolve => result.once('exit', resolve));
		expect(code).toBe(2);
		expect(stderr).toContain('--owner-pid');
	});
});
