// A store file another user may read but not write (a read-only file in a read-only directory):
// the built CLI's list and show, and the MCP server's read tools, still serve it; writes are
// refused with a clear message; the file stays byte-identical. Runs the children as nobody when
// the tests run as root (root may write anything).

import {spawnSync} from 'node:child_process';
import {chmodSync, readdirSync} from 'node:fs';
import {join} from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openStore} from '../../store/index.js';
import {ensureBuilt, SIFT_ENTRY} from '../support/cli.js';
import {asOtherUser, letOtherUserReach} from '../support/other-user.js';
import {cleanTempDirs, fileDigest, kitChannel, tempDir} from './helpers.js';
import {SCHEMA_VERSION} from '../../store/sqlite/database.js';


let dir: string;
let db: string;
let ids: string[];

beforeAll(() => {
	ensureBuilt();
	letOtherUserReach(SIFT_ENTRY);
	dir = tempDir();
	chmodSync(dir, 0o755);
	db = join(dir, 'team.db');
	const store = openStore(db, {create: true});
	store.importChannel({channel: kitChannel, items: [{values: {title: 'one'}}, {values: {title: 'two'}}]});
	ids = store.listPage('kit').items.map(item => item.id);
	store.close();
	chmodSync(db, 0o444);
	chmodSync(dir, 0o555);
});

afterAll(() => {
	chmodSync(dir, 0o755);
	cleanTempDirs();
});

function sift(args: string[], file = db) {
	const [command, ...rest] = asOtherUser([process.execPath, SIFT_ENTRY, ...args, '--db', file]);
	const result = spawnSync(command!, rest, {encoding: 'utf8', cwd: '/', env: {...process.env, HOME: '/nonexistent', XDG_DATA_HOME: '/nonexistent', SIFT_DB: ''}, timeout: 60_000});
	return {code: result.status, stdout: result.stdout, stderr: result.stderr};
}

describe('a store this user may read but not write', () => {
	it('serves sift list and show, and refuses sift edit saying why; the file is unchanged', () => {
		const before = fileDigest(db);
		const list = sift(['list', '--json']);
		expect(list.stderr).toBe('');
		expect((JSON.parse(list.stdout) as {items: Array<{id: string}>}).items.map(item => item.id)).toEqual(ids);
		const show = sift(['show', ids[0]!, '--json']);
		expect(JSON.parse(show.stdout)).toMatchObject({id: ids[0], values: {title: 'two'}});
		const edit = sift(['edit', ids[0]!, 'title=changed']);
		expect(edit.code).toBe(1);
		expect(edit.stderr).toContain(`${db} is read-only for this user: reading works, writing needs write access to the file and its directory`);
		expect(fileDigest(db)).toBe(before);
		expect(readdirSync(dir)).toEqual(['team.db']);
	});

	it('serves the MCP read tools over stdio; an edit is refused as read_only', async () => {
		const before = fileDigest(db);
		const [command, ...args] = asOtherUser([process.execPath, SIFT_ENTRY, 'mcp', '--db', db, '--grant', 'kit']);
		const transport = new StdioClientTransport({command: command!, args, cwd: '/', stderr: 'pipe', env: {...process.env, HOME: '/nonexistent', SIFT_DB: ''} as Record<string, string>});
		const client = new Client({name: 'sift-read-only-test', version: '1.0.0'});
		await client.connect(transport);
		try {
			const call = async (name: string, args: Record<string, unknown>) => {
				const result = await client.callTool({name, arguments: args}) as CallToolResult;
				const [first] = result.content;
				// A success is carried once, as structuredContent; an error as its text.
				return {isError: result.isError === true, text: result.structuredContent === undefined ? (first?.type === 'text' ? first.text : '') : JSON.stringify(result.structuredContent)};
			};

			const listed = await call('list_record_items', {record_channel_id: 'kit'});
			expect(listed.isError).toBe(false);
			expect((JSON.parse(listed.text) as {items: Array<{id: string}>}).items.map(item => item.id)).toEqual(ids);
			const read = await call('read_record_item', {record_channel_id: 'kit', item_id: ids[1]!});
			expect(JSON.parse(read.text)).toMatchObject({id: ids[1], values: {title: 'one'}});
			const edit = await call('edit_record_item', {record_channel_id: 'kit', item_id: ids[1]!, values: {title: 'changed'}, expected_version: 1, idempotency_key: 'k'});
			expect(edit.isError).toBe(true);
			expect(JSON.parse(edit.text)).toMatchObject({error: 'read_only'});
		} finally {
			await client.close();
		}

		expect(fileDigest(db)).toBe(before);
	});

	it('one made by an older sift cannot be upgraded here: sift list says so and what to do, and the file is unchanged', () => {
		const oldDir = tempDir();
		chmodSync(oldDir, 0o755);
		const old = join(oldDir, 'old.db');
		const store = openStore(old, {create: true});
		store.importChannel({channel: kitChannel, items: [{values: {title: 'one'}}]});
		store.db.pragma('user_version = 4');
		store.close();
		chmodSync(old, 0o444);
		chmodSync(oldDir, 0o555);
		try {
			const before = fileDigest(old);
			const list = sift(['list', '--json'], old);
			expect(list.code).toBe(1);
			expect(list.stderr).toContain(`the store at ${old} has schema version 4, older than this sift's (${SCHEMA_VERSION}), and is read-only for this user: open it once with write access to upgrade it`);
			expect(fileDigest(old)).toBe(before);
		} finally {
			chmodSync(oldDir, 0o755);
		}
	});
});
