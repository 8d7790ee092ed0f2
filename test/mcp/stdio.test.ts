// The built `sift mcp` over stdio (the SDK client part on both backends); `--db-env`; batches per
// negotiated version and JSON-RPC codes on the raw wire.

import {spawn, spawnSync, type ChildProcessWithoutNullStreams} from 'node:child_process';
import {rmSync} from 'node:fs';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {openStore, type AsyncStore} from '../../store/index.js';
import {BACKENDS, type Backend} from '../contract/backends.js';
import {notePgOff} from '../support/pg.js';
import {builtCli, callerFor, connectInProcess, jsonOf, makeDatabase, openMcpStore, RUN_ID, snapshot, snapshotOf, textOf, type Caller, type McpStore} from './fixtures.js';
import {tempDir} from '../support/temp.js';
import {expectOneSchemaForm} from './tool-suite.js';

const dir = tempDir('sift-mcp-stdio-');
let cli: string;
let counter = 0;

beforeAll(() => {
	cli = builtCli();
});

afterAll(() => rmSync(dir, {recursive: true, force: true}));

function freshDatabase(): string {
	const file = path.join(dir, `s${counter++}.db`);
	makeDatabase(file);
	return file;
}

const serverArgs = (db: string, ...extra: string[]) => [cli, 'mcp', '--db', db, '--grant', 'bugs', '--actor', 'agent', '--run', RUN_ID, ...extra];

describe.each(BACKENDS)('over stdio with the SDK client on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	let test: McpStore;
	let store: AsyncStore;
	let client: Client;
	let call: Caller;
	let stderr: string;
	const snapshot = async () => snapshotOf(test);

	beforeAll(() => backend.setUp());
	afterAll(() => backend.tearDown());

	beforeEach(async () => {
		test = await openMcpStore(backend);
		store = test.store;
		stderr = '';
		const transport = new StdioClientTransport({command: process.execPath, args: serverArgs(test.location), stderr: 'pipe', cwd: dir});
		transport.stderr!.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		client = new Client({name: 'sift-stdio-test', version: '1.0.0'});
		await client.connect(transport);
		call = callerFor(client);
	});

	afterEach(async () => {
		await client.close();
		await test.close();
	});

	it('lists the same six tools as the in-process server, and logs only to stderr', async () => {
		const {tools} = await client.listTools();
		const local = await connectInProcess(store);
		const expected = await local.client.listTools();
		await local.close();
		expect(tools).toEqual(expected.tools);
		expect(tools.map(tool => tool.name).sort()).toEqual(['edit_record_item', 'find_similar_items', 'list_granted_resources', 'list_record_items', 'poll_resource_events', 'read_record_item', 'search_record_items']);
		expect(stderr).toContain(`sift mcp: serving ${store.location} (grants: bugs; actor: agent, run ${RUN_ID})`);
		expect(client.getServerVersion()).toMatchObject({name: 'sift'});
	});

	it.runIf(backend.name === 'postgres')('refuses a --grant the store lacks, naming the store without the password its URL carries', () => {
		const url = new URL(test.location);
		url.password = 'not-a-real-password';
		const result = spawnSync(process.execPath, [cli, 'mcp', '--db', url.toString(), '--grant', 'tasks'], {cwd: dir, input: '', encoding: 'utf8', timeout: 30_000});
		expect(result.status).toBe(1);
		expect(result.stderr).toContain(`--grant names "tasks", not a channel of ${store.location}; channels: bugs, secrets`);
		expect(result.stderr).not.toContain('not-a-real-password');
		expect(result.stdout).toBe('');
	});

	it('edits through another process: the event carries actor agent and the --run id, a refusal opens a follow-up with the run id', async () => {
		const {channels} = jsonOf(await call('list_granted_resources'));
		expect(channels).toEqual([{id: 'bugs', name: 'Bugs', item_count: 30, latest_sequence: 30}]);
		const page = jsonOf(await call('list_record_items', {record_channel_id: 'bugs', limit: 2}));
		const [first, second] = page.items;
		const item = jsonOf(await call('read_record_item', {record_channel_id: 'bugs', item_id: first.id}));
		const owner = item.values.owner === 'mika' ? 'ren' : 'mika';
		const edited = jsonOf(await call('edit_record_item', {record_channel_id: 'bugs', item_id: first.id, values: {owner}, expected_version: item.version, idempotency_key: 'stdio-1'}));
		expect(edited).toEqual({ok: true, item_id: first.id, sequence: 31, version: item.version + 1, changed: {owner}});

		// The test's own connection to the same file sees the write at once.
		expect(await store.readItem('bugs', first.id)).toMatchObject({version: 2, values: {owner}});
		const [event] = (await store.pollEvents('bugs', {afterSequence: 30})).events;
		expect(event).toMatchObject({sequence: 31, item_id: first.id, actor: {kind: 'agent', run_id: RUN_ID}, changes: {owner: {from: item.values.owner, to: owner}}});
		const polled = jsonOf(await call('poll_resource_events', {resource_type: 'record_channel', resource_id: 'bugs', after_sequence: 30}));
		// The agent's poll says which keys changed; the store's log above keeps the values.
		expect(polled.events).toEqual([{sequence: 31, type: 'item.updated', item_id: first.id, version: 2, actor: {kind: 'agent', run_id: RUN_ID}, changed: ['owner']}]);

		const before = await snapshot();
		const refused = await call('edit_record_item', {record_channel_id: 'bugs', item_id: second.id, values: {points: 20, status: 'Won\'t fix'}, expected_version: 1, idempotency_key: 'stdio-2'});
		expect(refused.isError).toBe(true);
		const body = jsonOf(refused);
		expect(body.error).toBe('validation_failed');
		expect(body.fields.find((field: {key: string}) => field.key === 'status').allowed).toContainEqual({value: 'wont_fix', label: 'Won\'t fix'});
		const after = await snapshot();
		expect(after.items).toEqual(before.items);
		expect(after.events).toBe(before.events);
		const followups = await store.listFollowUps({itemId: second.id});
		expect(followups).toEqual(expect.arrayContaining([
			expect.objectContaining({key: 'points', status: 'open', attempted: 20, min: 0, max: 13, run_id: RUN_ID}),
			expect.objectContaining({key: 'status', status: 'open', attempted: 'Won\'t fix', run_id: RUN_ID}),
		]));
	});

	it('stdin closing with calls queued: the call running finishes before the store closes, the rest never run, exit 0', async () => {
		const session = new RawSession(serverArgs(test.location));
		await session.initialize();
		const item = (await store.listPage('bugs', {limit: 1})).items[0]!;
		for (let index = 0; index < 5; index++) {
			const args = {record_channel_id: 'bugs', item_id: item.id, values: {title: `closing ${index}`}, expected_version: index + 1, idempotency_key: `closing-${index}`};
			session.child.stdin.write(`${JSON.stringify({jsonrpc: '2.0', id: 100 + index, method: 'tools/call', params: {name: 'edit_record_item', arguments: args}})}\n`);
		}

		expect(await session.exit()).toBe(0);
		expect(session.stderr).not.toMatch(/failed|error/i);
		// Whatever ran is the first edits, in order, each whole.
		const {version} = await store.readItem('bugs', item.id);
		const {events} = await store.pollEvents('bugs', {afterSequence: 30});
		expect(events.map(event => [event.item_id, event.version])).toEqual(Array.from({length: version - 1}, (_, index) => [item.id, index + 2]));
	});

	it('list, search and similar answers carry the same compact schema, and only its version to a client holding it', async () => {
		await expectOneSchemaForm(call);
	});

	it('not_granted reads the same for an existing and a missing channel', async () => {
		const existing = await call('list_record_items', {record_channel_id: 'secrets'});
		const missing = await call('list_record_items', {record_channel_id: 'nowhere'});
		expect(jsonOf(existing).error).toBe('not_granted');
		expect(textOf(existing).replace('secrets', 'X')).toBe(textOf(missing).replace('nowhere', 'X'));
	});

	it('refuses bad arguments with a clear isError and changes nothing', async () => {
		const item = jsonOf(await call('list_record_items', {record_channel_id: 'bugs', limit: 1})).items[0].id as string;
		const megabyte = 'z'.repeat(1_000_000);
		let deep: unknown = 'leaf';
		for (let level = 0; level < 2000; level++) deep = {nested: deep};
		const cases: Array<[string, Record<string, unknown>, RegExp]> = [
			['list_record_items', {record_channel_id: 'bugs', limit: 0}, /limit must be a whole number from 1 to 50/],
			['list_record_items', {record_channel_id: 'bugs', limit: 51}, /limit must be a whole number from 1 to 50/],
			['poll_resource_events', {resource_type: 'record_channel', resource_id: 'bugs', after_sequence: -1}, /after_sequence must be a whole number 0 or greater/],
			['read_record_item', {record_channel_id: 'bugs', item_id: item, extra: true}, /Unrecognized key: "extra"/],
			['edit_record_item', {record_channel_id: 'bugs', item_id: item, values: {status: 'fixed'}, expected_version: '1', idempotency_key: 'b1'}, /expected_version must be a whole number 1 or greater/],
			['edit_record_item', {record_channel_id: 'bugs', item_id: item, values: {title: megabyte}, expected_version: 1, idempotency_key: 'b2'}, /at most 65536 characters per string/],
			['edit_record_item', {record_channel_id: 'bugs', item_id: megabyte, values: {status: 'fixed'}, expected_version: 1, idempotency_key: 'b3'}, /item_id must be at most 64 characters/],
			['edit_record_item', {record_channel_id: 'bugs', item_id: item, values: {description: deep}, expected_version: 1, idempotency_key: 'b4'}, /nested too deeply/],
		];
		const before = await snapshot();
		for (const [name, args, message] of cases) {
			const result = await call(name, args);
			expect(result.isError, name).toBe(true);
			expect(textOf(result)).toMatch(message);
		}

		expect(await snapshot()).toEqual(before);
	});
});

/** A raw stdio session: newline-delimited JSON-RPC written by hand, every stdout line kept. */
class RawSession {
	readonly child: ChildProcessWithoutNullStreams;
	readonly lines: string[] = [];
	stderr = '';
	private buffer = '';
	private readonly waiting = new Map<number, (message: any) => void>();
	/** Answers that carry no id (to lines whose id could not be read), in order. */
	private readonly anonymous: Array<(message: any) => void> = [];

	constructor(args: string[]) {
		this.child = spawn(process.execPath, args, {cwd: dir, stdio: 'pipe'});
		this.child.stderr.on('data', (chunk: Buffer) => {
			this.stderr += chunk.toString();
		});
		this.child.stdout.on('data', (chunk: Buffer) => {
			this.buffer += chunk.toString();
			let newline: number;
			while ((newline = this.buffer.indexOf('\n')) >= 0) {
				const line = this.buffer.slice(0, newline);
				this.buffer = this.buffer.slice(newline + 1);
				this.lines.push(line);
				const message = JSON.parse(line) as {id?: number};
				if (message.id === undefined) this.anonymous.shift()?.(message);
				else this.waiting.get(message.id)?.(message);
			}
		});
	}

	async request(id: number, line: string): Promise<any> {
		const answer = new Promise(resolve => this.waiting.set(id, resolve));
		this.child.stdin.write(`${line}\n`);
		return answer;
	}

	/** Writes a line whose answer carries no id, and waits for that answer. */
	async anonymousRequest(line: string): Promise<any> {
		const answer = new Promise(resolve => this.anonymous.push(resolve));
		this.child.stdin.write(`${line}\n`);
		return answer;
	}

	async initialize(protocolVersion = '2025-06-18'): Promise<any> {
		const answer = await this.request(0, JSON.stringify({jsonrpc: '2.0', id: 0, method: 'initialize', params: {protocolVersion, capabilities: {}, clientInfo: {name: 'raw', version: '1'}}}));
		this.child.stdin.write(`${JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'})}\n`);
		return answer;
	}

	async exit(): Promise<number | null> {
		this.child.stdin.end();
		return new Promise(resolve => this.child.once('exit', code => resolve(code)));
	}
}

describe('raw stdio', () => {
	it('writes only JSON-RPC on stdout, survives 100,000 levels of nesting, and exits 0 when stdin closes', async () => {
		const db = freshDatabase();
		const session = new RawSession(serverArgs(db));
		await session.initialize();
		const store = openStore(db);
		const before = snapshot(store);
		const item = store.listPage('bugs', {limit: 1}).items[0]!.id;
		const depth = 100_000;
		const nested = `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;
		const deep = await session.request(1, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"edit_record_item","arguments":{"record_channel_id":"bugs","item_id":${JSON.stringify(item)},"values":{"description":${nested}},"expected_version":1,"idempotency_key":"deep"}}}`);
		expect(deep.result.isError).toBe(true);
		expect(deep.result.content[0].text).toMatch(/more than the maximum of 100000 elements|nested too deeply/);
		const list = await session.request(2, JSON.stringify({jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'list_record_items', arguments: {record_channel_id: 'bugs', limit: 3}}}));
		expect(list.result.structuredContent.items).toHaveLength(3);
		expect(snapshot(store)).toEqual(before);
		store.close();

		expect(await session.exit()).toBe(0);
		expect(session.lines.length).toBeGreaterThanOrEqual(3);
		for (const line of session.lines) {
			expect(JSON.parse(line)).toMatchObject({jsonrpc: '2.0'});
		}

		expect(session.stderr).toContain('sift mcp: serving');
	});
});

describe('messages the transport cannot take', () => {
	const elevenMiB = 11 * 1024 * 1024;

	it('answers a message over 10 MiB from the SDK client with a JSON-RPC error naming the limit, and serves on', async () => {
		const db = freshDatabase();
		const store = openStore(db);
		const before = snapshot(store);
		let stderr = '';
		const transport = new StdioClientTransport({command: process.execPath, args: serverArgs(db), stderr: 'pipe', cwd: dir});
		transport.stderr!.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		const client = new Client({name: 'sift-stdio-test', version: '1.0.0'});
		await client.connect(transport);
		const call = callerFor(client);
		try {
			const item = store.listPage('bugs', {limit: 1}).items[0]!.id;
			const oversized = call('edit_record_item', {record_channel_id: 'bugs', item_id: item, values: {title: 'x'.repeat(elevenMiB)}, expected_version: 1, idempotency_key: 'huge'});
			await expect(oversized).rejects.toMatchObject({code: -32600, message: expect.stringMatching(/message too large: \d+ bytes; one MCP message may be at most 10485760 bytes \(10 MiB\)/)});
			const {channels} = jsonOf(await call('list_granted_resources'));
			expect(channels).toEqual([{id: 'bugs', name: 'Bugs', item_count: 30, latest_sequence: 30}]);
			expect(snapshot(store)).toEqual(before);
			expect(stderr).toMatch(/sift mcp: skipped a message of \d+ bytes, over the limit of 10485760 bytes/);
		} finally {
			await client.close();
			store.close();
		}
	});

	it('answers an oversized line with the id it starts with, a line that is not JSON and one that is not JSON-RPC, then exits 0', async () => {
		const db = freshDatabase();
		const session = new RawSession(serverArgs(db));
		await session.initialize();
		const huge = await session.request(7, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_record_items","arguments":{"record_channel_id":"bugs","filter":{"status":"${'y'.repeat(elevenMiB)}"}}}}`);
		expect(huge.error).toMatchObject({code: -32600, message: expect.stringContaining('10 MiB')});
		const notJson = await session.anonymousRequest('{"jsonrpc":"2.0","id":8,"method":');
		expect(notJson).toMatchObject({jsonrpc: '2.0', error: {code: -32700, message: expect.stringContaining('not JSON')}});
		const notRpc = await session.request(9, '{"id":9,"hello":"there"}');
		expect(notRpc.error).toMatchObject({code: -32600, message: expect.stringContaining('not a JSON-RPC 2.0 message')});
		const list = await session.request(10, JSON.stringify({jsonrpc: '2.0', id: 10, method: 'tools/call', params: {name: 'list_record_items', arguments: {record_channel_id: 'bugs', limit: 2}}}));
		expect(list.result.structuredContent.items).toHaveLength(2);
		expect(await session.exit()).toBe(0);
	});

	it('refuses __proto__ as a filter key over the wire, naming the filterable fields', async () => {
		const db = freshDatabase();
		const session = new RawSession(serverArgs(db));
		await session.initialize();
		const answer = await session.request(1, '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_record_items","arguments":{"record_channel_id":"bugs","filter":{"__proto__":"x"}}}}');
		expect(answer.result.isError).toBe(true);
		expect(JSON.parse(answer.result.content[0].text)).toEqual({error: 'invalid_argument', message: 'filter.__proto__ is not a select or boolean field of channel bugs; filterable: status, owner, severity, area'});
		expect(await session.exit()).toBe(0);
	});
});

describe('JSON-RPC batches and error codes on stdio (the real sift mcp)', () => {
	const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({jsonrpc: '2.0', id, method: 'tools/call', params: {name, arguments: args}});
	const ping = (id: unknown) => ({jsonrpc: '2.0', id, method: 'ping'});

	it('after negotiating 2025-03-26, a batch is answered with one array line; a request cancelled in its batch is answered too', async () => {
		const session = new RawSession(serverArgs(freshDatabase()));
		expect((await session.initialize('2025-03-26')).result.protocolVersion).toBe('2025-03-26');
		const answers = await session.anonymousRequest(JSON.stringify([call(1, 'list_record_items', {record_channel_id: 'bugs', limit: 2}), ping(2), {jsonrpc: '2.0', method: 'notifications/progress', params: {progressToken: 1, progress: 1}}]));
		expect(Array.isArray(answers)).toBe(true);
		expect(answers.map((answer: {id: number}) => answer.id).sort()).toEqual([1, 2]);
		expect(answers.find((answer: {id: number}) => answer.id === 1).result.structuredContent.items).toHaveLength(2);
		const cancelled = await session.anonymousRequest(JSON.stringify([call(3, 'list_granted_resources'), {jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 3}}, ping(4)]));
		expect(cancelled).toHaveLength(2);
		expect(cancelled).toContainEqual({jsonrpc: '2.0', id: 3, error: {code: -32800, message: expect.stringContaining('cancelled')}});
		expect(cancelled).toContainEqual({jsonrpc: '2.0', id: 4, result: {}});
		const mixed = await session.anonymousRequest(JSON.stringify([ping(5), ping(null)]));
		expect(mixed).toContainEqual({jsonrpc: '2.0', id: 5, result: {}});
		expect(mixed).toContainEqual({jsonrpc: '2.0', id: null, error: {code: -32600, message: expect.stringContaining('id is null')}});
		// Served on after all that, and nothing extra was written.
		expect((await session.request(6, JSON.stringify(ping(6)))).result).toEqual({});
		expect(await session.exit()).toBe(0);
		expect(session.lines).toHaveLength(5);
	});

	it('after negotiating 2025-06-18, a batch is refused message by message and nothing runs', async () => {
		const db = freshDatabase();
		const session = new RawSession(serverArgs(db));
		await session.initialize('2025-06-18');
		const store = openStore(db);
		const before = snapshot(store);
		const item = store.listPage('bugs', {limit: 1}).items[0]!;
		const answers = await session.anonymousRequest(JSON.stringify([call(1, 'edit_record_item', {record_channel_id: 'bugs', item_id: item.id, values: {points: 3}, expected_version: item.version, idempotency_key: 'batched'}), ping(2)]));
		expect(answers).toEqual([1, 2].map(id => ({jsonrpc: '2.0', id, error: {code: -32600, message: expect.stringContaining('protocol 2025-06-18 has no batches')}})));
		expect(snapshot(store)).toEqual(before);
		store.close();
		expect(await session.exit()).toBe(0);
	});

	it('-32600 for an empty batch, id null and an id past 2^53; -32602 for initialize without protocolVersion', async () => {
		const session = new RawSession(serverArgs(freshDatabase()));
		const noVersion = await session.request(1, JSON.stringify({jsonrpc: '2.0', id: 1, method: 'initialize', params: {capabilities: {}, clientInfo: {name: 'raw', version: '1'}}}));
		expect(noVersion.error).toEqual({code: -32602, message: expect.stringMatching(/^invalid params for initialize: protocolVersion: /)});
		await session.initialize('2025-03-26');
		for (const line of ['[]', JSON.stringify(ping(null)), '{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}']) {
			expect(await session.anonymousRequest(line)).toMatchObject({jsonrpc: '2.0', error: {code: -32600}});
		}

		expect(await session.exit()).toBe(0);
	});
});

describe('start-up refusals', () => {
	const run = (args: string[]) => spawnSync(process.execPath, [cli, 'mcp', ...args], {cwd: dir, input: '', encoding: 'utf8', timeout: 30_000});

	it('refuses to start without --grant (exit 2)', () => {
		const result = run(['--db', freshDatabase()]);
		expect(result.status).toBe(2);
		expect(result.stderr).toContain('--grant');
		expect(result.stdout).toBe('');
	});

	it('refuses an --actor other than agent or human (exit 2)', () => {
		const result = run(['--db', freshDatabase(), '--grant', 'bugs', '--actor', 'import']);
		expect(result.status).toBe(2);
		expect(result.stderr).toContain('--actor must be agent or human');
		expect(result.stdout).toBe('');
	});

	it('refuses a missing database and a granted channel the database does not have (exit 1)', () => {
		const missing = run(['--db', path.join(dir, 'nothing-here.db'), '--grant', 'bugs']);
		expect(missing.status).toBe(1);
		expect(missing.stderr).toContain('no database at');
		const unknown = run(['--db', freshDatabase(), '--grant', 'tasks']);
		expect(unknown.status).toBe(1);
		expect(unknown.stderr).toContain('"tasks"');
		expect(unknown.stdout).toBe('');
	});

	it('--db-env reads the location from that variable; an unset one, or both --db and --db-env, is a usage error (exit 2)', () => {
		const db = freshDatabase();
		const spawnWith = (args: string[], env: NodeJS.ProcessEnv) => spawnSync(process.execPath, [cli, 'mcp', ...args], {cwd: dir, input: '', encoding: 'utf8', timeout: 30_000, env});
		const served = spawnWith(['--db-env', 'RUN_STORE', '--grant', 'bugs'], {...process.env, RUN_STORE: db, SIFT_DB: path.join(dir, 'not-this.db')});
		expect(served.status, served.stderr).toBe(0);
		expect(served.stderr).toContain(`serving ${db}`);
		const unset = spawnWith(['--db-env', 'RUN_STORE', '--grant', 'bugs'], {...process.env, SIFT_DB: db});
		expect(unset.status).toBe(2);
		expect(unset.stderr).toContain('--db-env names RUN_STORE, which is not set');
		const both = spawnWith(['--db', db, '--db-env', 'RUN_STORE', '--grant', 'bugs'], {...process.env, RUN_STORE: db});
		expect(both.status).toBe(2);
		expect(both.stderr).toContain('either --db or --db-env');
	});

	it('keeps stdout for JSON-RPC even with --json: the refusal goes to stderr', () => {
		const result = run(['--db', freshDatabase(), '--grant', 'tasks', '--json']);
		expect(result.status).toBe(1);
		expect(result.stderr).toContain('"tasks"');
		expect(result.stdout).toBe('');
	});
});
