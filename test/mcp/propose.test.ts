// edit_record_item in propose mode through the real MCP SDK client (docs/review.md): the reason
// argument (described, bounded at 500 characters), a proposing run's valid edit answered
// `proposed: true` with its proposal id (valid against the tool's output schema), the item left
// as it was; and `sift mcp --propose` over stdio, a server of the built CLI, with
// `--auto-accept-above` accepting on arrival the proposals at least that sure (recorded as auto).

import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {openAsyncStore} from '../../store/api.js';
import {sift} from '../support/cli.js';
import {notePgOff} from '../support/pg.js';
import {tempDir} from '../support/temp.js';
import {BACKENDS, storesOn, type Backend} from '../contract/backends.js';
import {builtCli, callerFor, connectInProcess, jsonOf, makeDatabase, openMcpStore, RUN_ID, textOf} from './fixtures.js';

describe.each(BACKENDS)('edit_record_item proposing, on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	storesOn(backend);

	it('describes reason; a proposing run\'s valid edit is a proposal, a reason over 500 characters is refused', async () => {
		const test = await openMcpStore(backend, 3);
		const session = await connectInProcess(test.store);
		try {
			const tool = (await session.client.listTools()).tools.find(candidate => candidate.name === 'edit_record_item')!;
			const reason = (tool.inputSchema.properties as Record<string, {description?: string}>).reason!;
			expect(reason.description).toContain('at most 500 characters');
			expect(tool.inputSchema.required).not.toContain('reason');
			expect(tool.description).toContain('propose mode');

			await test.store.runs.start({id: RUN_ID, channelId: 'bugs', itemIds: [], instruction: 'x', startedAt: new Date().toISOString(), logPath: null, mode: 'propose'});
			const call = callerFor(session.client);
			const [first] = (await test.store.listPage('bugs')).items;
			const result = await call('edit_record_item', {record_channel_id: 'bugs', item_id: first!.id, values: {status: 'triaged'}, expected_version: first!.version, idempotency_key: 'p1', reason: 'the reporter says so'});
			expect(result.isError).toBeFalsy();
			const body = jsonOf(result);
			expect(body).toEqual({ok: true, proposed: true, proposal_id: expect.any(Number), item_id: first!.id, version: first!.version, sequence: expect.any(Number), changed: {status: 'triaged'}});
			expect((await test.store.readItem('bugs', first!.id)).version).toBe(first!.version);
			expect(await test.store.proposals.get(body.proposal_id)).toMatchObject({reason: 'the reporter says so', run_id: RUN_ID, values: {status: 'triaged'}});

			const long = await call('edit_record_item', {record_channel_id: 'bugs', item_id: first!.id, values: {status: 'fixed'}, expected_version: first!.version, idempotency_key: 'p2', reason: 'x'.repeat(501)});
			expect(long.isError).toBe(true);
			expect(textOf(long)).toContain('reason must be at most 500 characters');
			expect(await test.store.proposals.list()).toHaveLength(1);
		} finally {
			await session.close();
			await test.close();
		}
	});
});

describe('sift mcp --propose over stdio', () => {
	it('proposes every valid edit, with or without a run', async () => {
		const dir = tempDir('sift-mcp-propose-');
		const db = path.join(dir, 'store.db');
		makeDatabase(db, 2);
		const transport = new StdioClientTransport({command: process.execPath, args: [builtCli(), 'mcp', '--db', db, '--grant', 'bugs', '--propose'], stderr: 'pipe', cwd: dir});
		const client = new Client({name: 'sift-propose-test', version: '1.0.0'});
		await client.connect(transport);
		const store = await openAsyncStore(db);
		try {
			const [first] = (await store.listPage('bugs')).items;
			const result = await callerFor(client)('edit_record_item', {record_channel_id: 'bugs', item_id: first!.id, values: {points: 2}, expected_version: first!.version, idempotency_key: 'k'});
			expect(jsonOf(result)).toMatchObject({ok: true, proposed: true});
			expect((await store.readItem('bugs', first!.id)).version).toBe(first!.version);
			expect(await store.proposals.list()).toMatchObject([{item_id: first!.id, run_id: null, values: {points: 2}}]);
		} finally {
			await client.close();
			await store.close();
		}
	});
});

describe('sift mcp --propose --auto-accept-above over stdio', () => {
	it('accepts on arrival a proposal at least that sure, as the person\'s accept recorded as auto; a less sure one or one without a confidence waits', async () => {
		const dir = tempDir('sift-mcp-auto-');
		const db = path.join(dir, 'store.db');
		makeDatabase(db, 4);
		const transport = new StdioClientTransport({command: process.execPath, args: [builtCli(), 'mcp', '--db', db, '--grant', 'bugs', '--propose', '--auto-accept-above', '0.95'], stderr: 'pipe', cwd: dir});
		const client = new Client({name: 'sift-auto-accept-test', version: '1.0.0'});
		await client.connect(transport);
		const store = await openAsyncStore(db);
		try {
			const items = (await store.listPage('bugs')).items;
			const call = callerFor(client);
			const edit = async (index: number, confidence?: number) => jsonOf(await call('edit_record_item', {record_channel_id: 'bugs', item_id: items[index]!.id, values: {points: 2}, expected_version: items[index]!.version, idempotency_key: `k${index}`, ...(confidence === undefined ? {} : {confidence})}));
			const sure = await edit(0, 0.97);
			expect(sure).toMatchObject({ok: true, proposed: true, auto_accepted: true, version: items[0]!.version + 1, changed: {points: 2}});
			expect((await store.readItem('bugs', items[0]!.id)).values.points).toBe(2);
			expect(await store.proposals.get(sure.proposal_id)).toMatchObject({status: 'accepted', decided_by: 'auto'});
			// The threshold is inclusive.
			expect(await edit(1, 0.95)).toMatchObject({auto_accepted: true});
			for (const [index, confidence] of [[2, 0.94], [3, undefined]] as const) {
				const body = await edit(index, confidence);
				expect(body).not.toHaveProperty('auto_accepted');
				expect(await store.proposals.get(body.proposal_id)).toMatchObject({status: 'open', decided_by: null});
				expect((await store.readItem('bugs', items[index]!.id)).version).toBe(items[index]!.version);
			}

			expect(await store.proposals.fieldCounts({channelId: 'bugs'})).toEqual([{key: 'points', proposed: 4, accepted: 2, auto_accepted: 2, declined: 0, open: 2}]);
		} finally {
			await client.close();
			await store.close();
		}
	});

	it('refuses a threshold outside (0, 1], and one without --propose', () => {
		const dir = tempDir('sift-mcp-auto-bad-');
		const db = path.join(dir, 'store.db');
		makeDatabase(db, 1);
		for (const bad of ['0', '1.5', 'high']) {
			expect(sift(['mcp', '--db', db, '--grant', 'bugs', '--propose', '--auto-accept-above', bad])).toMatchObject({code: 2, stderr: expect.stringContaining('--auto-accept-above must be a number above 0 and at most 1')});
		}

		expect(sift(['mcp', '--db', db, '--grant', 'bugs', '--auto-accept-above', '0.9'])).toMatchObject({code: 2, stderr: expect.stringContaining('goes with --propose')});
	});
});
