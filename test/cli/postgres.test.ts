// The command line on PostgreSQL: the built CLI, spawned with `--db postgres://…` (or SIFT_DB) against
// a fresh schema of this file's test database. Every command a person types works there, and a
// store that cannot be reached is one line naming the host and the reason, exit 1, nothing written.

import {readdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {openAsyncStore} from '../../store/index.js';
import {ensureBuilt, sift, siftJson, tempDir} from '../support/cli.js';
import {describePg, PG_ADMIN_URL, useTestDatabase} from '../support/pg.js';
import {FAKE_CODEX} from '../codex/support.js';

const HOSTS = {
	id: 'hosts', name: 'Hosts', fields: [
		{key: 'name', label: 'Name', type: 'text', is_unique: true, is_required: true},
		{key: 'role', label: 'Role', type: 'select', config: {options: [{value: 'web', label: 'Web'}, {value: 'db', label: 'Database'}]}},
	],
};

function importFile(items: unknown[], channel: unknown = HOSTS): string {
	const file = path.join(tempDir('sift-pg-import-'), 'import.json');
	writeFileSync(file, JSON.stringify({channel, items}));
	return file;
}

/** Every item `where` matches, through `list --all --json` (JSON Lines). */
function matching(db: string, where: string): Array<{id: string; version: number; values: Record<string, unknown>}> {
	const result = sift(['list', '--all', '--json', '--where', where, '--db', db]);
	expect(result.code, result.stderr).toBe(0);
	return result.stdout.split('\n').filter(Boolean).map(line => JSON.parse(line) as {id: string; version: number; values?: Record<string, unknown>; preview?: Record<string, unknown>}).map(item => ({...item, values: item.values ?? item.preview ?? {}}));
}

/** The admin URL pointed at another host, port or database. */
function elsewhere(change: (url: URL) => void): string {
	const url = new URL(PG_ADMIN_URL);
	change(url);
	return url.toString();
}

describePg('the CLI on PostgreSQL', () => {
	const database = useTestDatabase();
	beforeAll(() => ensureBuilt());

	describe('on the demo channel (200 items)', () => {
		let db: string;
		beforeAll(async () => {
			db = await database.freshSchemaUrl();
			const demo = sift(['demo', '--db', db, '--items', '200', '--no-open', '--json']);
			expect(demo.code, demo.stderr).toBe(0);
			expect(JSON.parse(demo.stdout)).toMatchObject({created: true});
		});

		it('demo filled the schema, and a second demo adds nothing', () => {
			expect(siftJson(['channels', '--db', db])).toEqual([expect.objectContaining({id: 'bugs', item_count: 200, latest_sequence: 200, open_followups: 0})]);
			expect(siftJson(['demo', '--db', db, '--no-open'])).toMatchObject({created: false});
			expect(siftJson(['channels', '--db', db])).toEqual([expect.objectContaining({item_count: 200, latest_sequence: 200})]);
		});

		it('demo --reset is refused on PostgreSQL and changes nothing', () => {
			const reset = sift(['demo', '--db', db, '--reset', '--no-open']);
			expect(reset.code).toBe(2);
			expect(reset.stderr).toMatch(/^sift: --reset rebuilds a SQLite file; on PostgreSQL .* drop the schema or database yourself/);
			expect(siftJson(['channels', '--db', db])).toEqual([expect.objectContaining({item_count: 200, latest_sequence: 200})]);
		});

		it('SIFT_DB=postgres://… works like --db', () => {
			const listed = siftJson<{items: Array<{id: string}>}>(['list', '--limit', '3'], {SIFT_DB: db});
			expect(listed.items.map(item => item.id)).toEqual(['it_000000005k', 'it_000000005j', 'it_000000005i']);
		});

		it('list pages newest first and --all streams every item once', () => {
			const first = siftJson<{items: Array<{id: string}>; next_before_id: string}>(['list', '--db', db, '--limit', '5']);
			expect(first.items).toHaveLength(5);
			const second = siftJson<{items: Array<{id: string}>}>(['list', '--db', db, '--limit', '5', '--before', first.next_before_id]);
			expect(second.items[0]!.id < first.items[4]!.id).toBe(true);
			const all = sift(['list', '--db', db, '--all', '--json']);
			expect(all.code, all.stderr).toBe(0);
			const ids = all.stdout.trim().split('\n').map(line => (JSON.parse(line) as {id: string}).id);
			expect(ids).toHaveLength(200);
			expect(new Set(ids).size).toBe(200);
		});

		it('list --where selects by the query language', () => {
			const triaged = matching(db, 'status:triaged');
			expect(triaged.length).toBeGreaterThan(0);
			expect(triaged.length).toBeLessThan(200);
			expect(triaged.every(item => item.values.status === 'triaged')).toBe(true);
			const page = siftJson<{items: Array<{values?: {points?: number}; preview?: {points?: number}}>}>(['list', '--db', db, '--where', 'status:triaged', '--sort', 'points', '--limit', '10']);
			const points = page.items.map(item => (item.values ?? item.preview)?.points ?? Number.POSITIVE_INFINITY);
			expect(points).toEqual([...points].sort((a, b) => a - b));
		});

		it('show names an item by its ticket and by its id', () => {
			const byTicket = siftJson<{id: string; values: {ticket: string}}>(['show', 'BUG-0002', '--db', db]);
			expect(byTicket.values.ticket).toBe('BUG-0002');
			expect(siftJson(['show', byTicket.id, '--db', db])).toEqual(byTicket);
			const missing = sift(['show', 'BUG-9999', '--db', db]);
			expect(missing.code).toBe(1);
			expect(missing.stderr).toMatch(/^sift: item "BUG-9999" does not exist in channel bugs/);
		});

		it('edit writes a version; a refused value is one line and writes nothing', () => {
			const edited = siftJson<{item: {id: string; version: number; values: {points: number}}}>(['edit', 'BUG-0003', 'points=5', '--db', db]);
			expect(edited.item.values.points).toBe(5);
			const refused = sift(['edit', 'BUG-0003', 'status=bogus', '--db', db]);
			expect(refused.code).toBe(1);
			expect(refused.stderr.split('\n').filter(Boolean)).toHaveLength(1);
			expect(siftJson<{version: number}>(['show', 'BUG-0003', '--db', db]).version).toBe(edited.item.version);
		});

		it('edit --where --yes edits every match, each at the version it had', () => {
			const query = 'status:in_progress';
			const before = matching(db, query);
			expect(before.length).toBeGreaterThan(0);
			const result = siftJson<{ok: number; failed: number; items: Array<{item_id: string; version: number}>}>(['edit', '--where', query, 'status=fixed', '--yes', '--db', db]);
			expect(result).toMatchObject({ok: before.length, failed: 0});
			expect(result.items.map(item => [item.item_id, item.version]).sort()).toEqual(before.map(item => [item.id, item.version + 1]).sort());
			expect(matching(db, query)).toEqual([]);
		});

		it('add creates an item and events lists it after the others', () => {
			const before = siftJson<Array<{latest_sequence: number}>>(['channels', '--db', db])[0]!.latest_sequence;
			const added = siftJson<{item: {id: string}; sequence: number}>(['add', 'ticket=BUG-9000', 'title=Added on PostgreSQL', '--db', db]);
			expect(added.sequence).toBe(before + 1);
			const events = siftJson<{events: Array<{sequence: number; type: string; item_id: string}>; has_more: boolean}>(['events', '--db', db, '--after', String(before)]);
			expect(events.events).toEqual([expect.objectContaining({sequence: before + 1, type: 'item.created', item_id: added.item.id})]);
			expect(events.has_more).toBe(false);
		});

		it('delete removes an item by its ticket; --expect-version refuses a stale one', () => {
			const item = siftJson<{id: string; version: number}>(['show', 'BUG-0010', '--db', db]);
			const stale = sift(['delete', 'BUG-0010', '--expect-version', String(item.version + 1), '--db', db]);
			expect(stale.code).toBe(1);
			expect(siftJson(['delete', 'BUG-0010', '--expect-version', String(item.version), '--db', db])).toMatchObject({ok: true, item_id: item.id});
			expect(sift(['show', item.id, '--db', db]).code).toBe(1);
		});

		it('followups lists an agent\'s refused value and dismiss closes it', async () => {
			const store = await openAsyncStore(db);
			try {
				const {items: [item]} = await store.listPage('bugs', {limit: 1});
				await expect(store.editItem({channelId: 'bugs', itemId: item!.id, values: {severity: 'apocalyptic'}, actor: {kind: 'agent'}})).rejects.toMatchObject({code: 'validation_failed'});
			} finally {
				await store.close();
			}

			const open = siftJson<Array<{id: number; key: string; attempted: unknown}>>(['followups', '--db', db]);
			expect(open).toEqual([expect.objectContaining({key: 'severity', attempted: 'apocalyptic'})]);
			expect(siftJson(['followups', 'dismiss', String(open[0]!.id), '--db', db])).toMatchObject({id: open[0]!.id, status: 'dismissed'});
			expect(siftJson(['followups', '--db', db])).toEqual([]);
			const unknown = sift(['followups', 'dismiss', '999999', '--db', db]);
			expect(unknown.code).toBe(1);
			expect(unknown.stderr).toMatch(/^sift: follow-up 999999 does not exist\n$/);
		});
	});

	describe('import', () => {
		it('imports a channel, refuses it twice, and a bad item leaves nothing behind', async () => {
			const db = await database.freshSchemaUrl();
			const imported = siftJson(['import', importFile([{values: {name: 'alpha', role: 'web'}}, {values: {name: 'beta', role: 'db'}}]), '--db', db]);
			expect(imported).toMatchObject({channel_id: 'hosts', items_created: 2});
			expect(JSON.stringify(imported)).not.toContain('password');

			const again = sift(['import', importFile([]), '--db', db]);
			expect(again.code).toBe(1);
			expect(again.stderr).toBe('sift: channel "hosts" already exists in this database\n');

			const bad = sift(['import', importFile([{values: {name: 'gamma'}}, {values: {name: 'delta', role: 'mainframe'}}], {...HOSTS, id: 'more'}), '--db', db]);
			expect(bad.code).toBe(1);
			expect(bad.stderr).toMatch(/^sift: .*items\[1\]/);
			expect(siftJson<Array<{id: string}>>(['channels', '--db', db]).map(channel => channel.id)).toEqual(['hosts']);
		});
	});

	describe('runs', () => {
		it('sift run records its run in PostgreSQL and hands the URL, unresolved, to the MCP server it configures', async () => {
			const db = await database.freshSchemaUrl();
			expect(sift(['import', importFile([{values: {name: 'alpha'}}]), '--db', db]).code).toBe(0);
			const dir = tempDir('sift-pg-run-');
			const argsFile = path.join(dir, 'args.json');
			const env = {SIFT_STATE_DIR: path.join(dir, 'state'), SIFT_CODEX: FAKE_CODEX, FAKE_CODEX_ARGS_FILE: argsFile};
			const run = sift(['run', 'Look at the hosts', '--db', db, '--json'], env, {cwd: dir});
			expect(run.code, run.stderr).toBe(0);
			const {run_id: runId} = JSON.parse(run.stdout) as {run_id: string};
			const {argv, store_location: location} = JSON.parse(readFileSync(argsFile, 'utf8')) as {argv: string[]; store_location: string};
			const server = argv.find(arg => arg.startsWith('mcp_servers.sift='))!;
			// The URL goes through the environment (it may hold a password), never the argv.
			expect(server).toContain('"--db-env", "SIFT_MCP_DB"');
			expect(argv.join(' ')).not.toContain(db);
			expect(location).toBe(db);
			// Nothing named after the URL was made in the working folder.
			expect(readdirSync(dir).sort()).toEqual(['args.json', 'state']);

			expect(siftJson(['runs', '--db', db], env)).toEqual([expect.objectContaining({id: runId, outcome: 'ok', channel_id: 'hosts', instruction: 'Look at the hosts'})]);
			expect(siftJson(['runs', runId, '--db', db], env)).toMatchObject({id: runId, outcome: 'ok'});
			const unknown = sift(['runs', 'nope', '--db', db], env);
			expect(unknown.code).toBe(1);
			expect(unknown.stderr).toMatch(/^sift: no run "nope" in this database/);
		});
	});

	describe('passwords and doctor', () => {
		it('a password in the URL is never printed, in output or in errors', async () => {
			const schema = new URL(await database.freshSchemaUrl());
			schema.password = 'sekret-pw';
			const db = schema.toString();
			const demo = sift(['demo', '--db', db, '--items', '5', '--no-open', '--json']);
			expect(demo.code, demo.stderr).toBe(0);
			expect(JSON.parse(demo.stdout)).toMatchObject({created: true});
			const imported = sift(['import', importFile([{values: {name: 'alpha'}}]), '--db', db]);
			expect(imported.code, imported.stderr).toBe(0);
			const unreachable = elsewhere(url => { url.hostname = '127.0.0.1'; url.port = '1'; url.password = 'sekret-pw'; });
			const failed = sift(['channels', '--db', unreachable]);
			expect(failed.code).toBe(1);
			for (const result of [demo, imported, failed]) {
				expect(result.stdout + result.stderr).not.toContain('sekret-pw');
			}
		});

		it('doctor opens a PostgreSQL store: OK when it opens, FAIL with the one-line reason when not', async () => {
			const env = {SIFT_CODEX: FAKE_CODEX, SIFT_STATE_DIR: tempDir('sift-pg-doctor-')};
			const databaseCheck = (location: string) => {
				const result = sift(['doctor', '--json'], {...env, SIFT_DB: location});
				return {code: result.code, check: (JSON.parse(result.stdout) as {checks: Array<{name: string; ok: boolean; detail: string}>}).checks.find(check => check.name === 'database')};
			};

			expect(databaseCheck(await database.freshSchemaUrl())).toMatchObject({code: 0, check: {ok: true, detail: expect.stringMatching(/PostgreSQL, reachable/)}});
			// --db names the store as it does for every command.
			const url = await database.freshSchemaUrl();
			expect(sift(['demo', '--db', url, '--items', '3', '--no-open']).code).toBe(0);
			const named = sift(['doctor', '--db', url], env);
			expect(named.code, named.stdout + named.stderr).toBe(0);
			expect(named.stdout).toMatch(/^OK {3}database: \S+ \(PostgreSQL, reachable, 1 channel\)$/m);
			expect(databaseCheck(elsewhere(url => { url.pathname = '/sift_no_such_database'; }))).toMatchObject({
				code: 1,
				check: {ok: false, detail: expect.stringMatching(/^cannot open the PostgreSQL store at [^ ]+\/sift_no_such_database: database "sift_no_such_database" does not exist$/)},
			});
		});
	});

	describe('a store that cannot be opened', () => {
		const cases: Array<[string, () => string, RegExp]> = [
			['a URL that does not parse', () => 'postgres://postgres@127.0.0.1:99999/x', /^sift: the PostgreSQL store URL is not a valid URL; expected postgres:\/\/USER@HOST:PORT\/DATABASE\n$/],
			['a URL without a host', () => 'postgres:///sift', /^sift: the PostgreSQL store URL must look like postgres:\/\/USER@HOST:PORT\/DATABASE/],
			['a server that refuses connections', () => elsewhere(url => { url.hostname = '127.0.0.1'; url.port = '1'; }), /^sift: cannot open the PostgreSQL store at 127\.0\.0\.1:1\/[^ ]+: connection refused \(is PostgreSQL running\?\)\n$/],
			['a host that does not exist', () => elsewhere(url => { url.hostname = 'no-such-host.invalid'; }), /^sift: cannot open the PostgreSQL store at no-such-host\.invalid:\d+\/[^ ]+: host not found\n$/],
			['an unknown database', () => elsewhere(url => { url.pathname = '/sift_no_such_database'; }), /^sift: cannot open the PostgreSQL store at [^ ]+\/sift_no_such_database: database "sift_no_such_database" does not exist\n$/],
			['a refused login', () => elsewhere(url => { url.username = 'sift_no_such_role'; }), /^sift: cannot open the PostgreSQL store at [^ ]+: role "sift_no_such_role" does not exist\n$/],
		];

		it.each(cases)('%s: one line naming the host and the reason, exit 1, nothing written', (_name, location, message) => {
			const dir = tempDir('sift-pg-bad-');
			const file = importFile([{values: {name: 'alpha'}}]);
			for (const args of [['channels'], ['list', '--where', 'role:web'], ['show', 'alpha'], ['edit', 'alpha', 'role=db'], ['add', 'name=beta'], ['events'], ['followups'], ['runs'], ['demo', '--no-open'], ['import', file]]) {
				const result = sift([...args, '--db', location()], {XDG_DATA_HOME: path.join(dir, 'data')}, {cwd: dir});
				expect(result.code, `${args[0]}: ${result.stderr}`).toBe(1);
				expect(result.stderr, args[0]).toMatch(message);
				expect(result.stdout, args[0]).toBe('');
			}

			const viaEnv = sift(['channels'], {SIFT_DB: location(), XDG_DATA_HOME: path.join(dir, 'data')}, {cwd: dir});
			expect(viaEnv.code).toBe(1);
			expect(viaEnv.stderr).toMatch(message);
			// No file was made for the URL, in the working folder or the data folder.
			expect(readdirSync(dir)).toEqual([]);
		});
	});
});
