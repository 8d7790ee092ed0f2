// What only the PostgreSQL backend has to prove: several processes editing one channel lose no
// update; an accept and edits of its items at once never deadlock; a writer killed mid-edit leaves
// nothing half-applied; migrations under a lock (and the text index remade by migration 14); push after commit; and a bad URL, an unreachable
// server or a refused login as one clear line.

import {hostname} from 'node:os';
import pg from 'pg';
import {afterAll, afterEach, beforeAll, expect, it} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {pgChannelIndexes, pgParserTextIndexName} from '../../store/postgres/query.js';
import {MIGRATIONS} from '../../store/postgres/schema.js';
import type {Channel} from '../../store/index.js';
import {createTestDatabase, describePg, PG_ADMIN_URL, type TestDatabase} from '../support/pg.js';
import {allItemIds, expectGapFree, expectVersionsMatchEvents, refusalOf} from './backends.js';
import {raceChannel} from '../store/helpers.js';
import {raceIncrements, runEditor} from '../store/workers/launch.js';

describePg('PostgreSQL store only', () => {
	let database: TestDatabase;
	const open: AsyncStore[] = [];
	const openStore = async (url: string) => {
		const store = await openAsyncStore(url, {create: true});
		open.push(store);
		return store;
	};

	beforeAll(async () => {
		database = await createTestDatabase();
	});
	afterEach(async () => {
		await Promise.all(open.splice(0).map(store => store.close()));
	});
	afterAll(async () => {
		await database?.drop();
	});

	async function raceStore(items: number): Promise<{store: AsyncStore; url: string; ids: string[]}> {
		const url = await database.freshSchemaUrl();
		const store = await openStore(url);
		await store.importChannel({channel: raceChannel, items: Array.from({length: items}, (_, n) => ({values: {title: `item ${n}`, counter: 0}}))});
		return {store, url, ids: await allItemIds(store, 'race')};
	}

	/** A race store whose every item has an open proposal of a propose-mode run's (counter: 1), in item order. */
	async function raceStoreWithProposals(items: number): Promise<{store: AsyncStore; ids: string[]; proposals: number[]}> {
		const {store, ids} = await raceStore(items);
		await store.runs.start({id: 'run-p', channelId: 'race', itemIds: [], instruction: 'count', startedAt: new Date().toISOString(), logPath: null, mode: 'propose'});
		const proposals: number[] = [];
		for (const id of ids) {
			proposals.push((await store.editItem({channelId: 'race', itemId: id, values: {counter: 1}, actor: {kind: 'agent', run_id: 'run-p'}})).proposal_id!);
		}

		return {store, ids, proposals};
	}

	/** Every item of the race channel deleted: none listed, a count of 0, and the event log gap-free. */
	async function expectAllDeleted(store: AsyncStore): Promise<void> {
		expect(await allItemIds(store, 'race')).toEqual([]);
		expect((await store.channelSummary('race')).item_count).toBe(0);
		await expectGapFree(store, 'race');
	}

	it('4 processes x 500 conflicting read-then-edit increments lose no update', async () => {
		// Few items for many writers: collisions are certain, yet most attempts still land.
		const {store, url, ids} = await raceStore(6);
		const workers = 4;
		const edits = 500;
		const reports = await raceIncrements(url, ids, workers, edits);
		expect(reports.map(report => report.edits)).toEqual([edits, edits, edits, edits]);
		const counters = await Promise.all(ids.map(async id => (await store.readItem('race', id)).values.counter as number));
		expect(counters.reduce((a, b) => a + b)).toBe(workers * edits);
		expect(await expectGapFree(store, 'race')).toBe(ids.length + workers * edits);
		await expectVersionsMatchEvents(store, 'race');
		// The writers really did collide, and every collision was a clean version_conflict.
		expect(reports.reduce((sum, report) => sum + report.conflicts, 0)).toBeGreaterThan(0);
	}, 120_000);

	it('an accept of 40 proposals and people\'s edits of the same items at once queue, never deadlock: every write lands, gap-free', async () => {
		const {store, ids, proposals} = await raceStoreWithProposals(40);

		// The edits take the items newest first, the accept oldest first: locks taken item by item around the channel's would cross.
		const edits = [...ids].reverse().map(async id => store.editItem({channelId: 'race', itemId: id, values: {title: `renamed ${id}`}, actor: {kind: 'human'}}));
		const [accepted] = await Promise.all([store.proposals.accept({ids: proposals}), ...edits]);
		expect(accepted.accepted).toHaveLength(ids.length);
		for (const id of ids) {
			expect(await store.readItem('race', id)).toMatchObject({version: 3, values: {counter: 1, title: `renamed ${id}`}});
		}

		await expectGapFree(store, 'race');
	}, 60_000);

	it('deletes of 40 items and a decline of their proposals at once queue, never deadlock: every write lands, the count is right', async () => {
		const {store, ids, proposals} = await raceStoreWithProposals(40);

		// A decline locks its proposals, then the channel row; a delete its item, then the item's
		// proposals, then the channel row (the item count with the event): never the other way round.
		const deletes = ids.map(async id => store.deleteItem('race', id, {kind: 'human'}));
		const [declined] = await Promise.all([store.proposals.decline(proposals), ...deletes]);
		expect(declined.declined.length + declined.skipped.length).toBe(ids.length);
		await expectAllDeleted(store);
	}, 60_000);

	it('deletes of 40 items and an accept of their proposals at once queue, never deadlock: each item is deleted, each proposal accepted first or skipped after', async () => {
		const {store, ids, proposals} = await raceStoreWithProposals(40);

		// An accept locks its proposals, then their items; a delete locks the item's open proposals
		// before the item, so the two take their locks in one order (store/postgres/writes.ts).
		const deletes = [...ids].reverse().map(async id => store.deleteItem('race', id, {kind: 'human'}));
		const [accepted] = await Promise.all([store.proposals.accept({ids: proposals}), ...deletes]);
		expect(accepted.accepted.length + accepted.skipped.length).toBe(ids.length);
		expect(accepted.conflicts).toEqual([]);
		expect(accepted.refused).toEqual([]);
		await expectAllDeleted(store);
	}, 60_000);

	it('a writer SIGKILLed mid-edit 10 times leaves no half-applied edit, no gap, no held lock', async () => {
		const {store, url, ids} = await raceStore(2);
		for (let round = 0; round < 10; round++) {
			const result = await runEditor(['churn', url, ids.join(',')], control => {
				// Kill after a few committed edits, at whatever point of the next one it has reached.
				const timer = setInterval(() => {
					if (control.stdout().split('edit\n').length > 3 + (round % 4)) {
						clearInterval(timer);
						control.kill();
					}
				}, 2);
			});
			expect(result.signal).toBe('SIGKILL');
		}

		for (const id of ids) {
			const item = await store.readItem('race', id);
			expect(item.values.a, 'a and b are always written together').toBe(item.values.b);
		}

		await expectGapFree(store, 'race');
		await expectVersionsMatchEvents(store, 'race');
		// No lock survived its killed owner: a new edit goes straight through.
		await store.editItem({channelId: 'race', itemId: ids[0]!, values: {a: 'after', b: 'after'}, actor: {kind: 'human'}});
		expect((await store.readItem('race', ids[0]!)).values.a).toBe('after');
	}, 120_000);

	it('NOTIFY after commit reaches a listener on another connection, with the new sequence', async () => {
		const {store, url, ids} = await raceStore(1);
		const other = await openStore(url);
		const heard: number[] = [];
		const unlisten = await other.listen!('race', sequence => heard.push(sequence));
		const {sequence} = await store.editItem({channelId: 'race', itemId: ids[0]!, values: {a: 'x'}, actor: {kind: 'human'}});
		await expect.poll(() => heard, {timeout: 5000}).toEqual([sequence]);
		// A refused edit commits no event and notifies nothing.
		await refusalOf(() => store.editItem({channelId: 'race', itemId: ids[0]!, values: {counter: -1}, actor: {kind: 'human'}}));
		await store.editItem({channelId: 'race', itemId: ids[0]!, values: {a: 'y'}, actor: {kind: 'human'}});
		await expect.poll(() => heard, {timeout: 5000}).toEqual([sequence, sequence + 1]);
		await unlisten();
		expect((await refusalOf(() => other.listen!('nope', () => {}))).error).toBe('not_found');
	});

	it('a listener whose connection is killed reconnects and hears later commits', async () => {
		const {store, url, ids} = await raceStore(1);
		const other = await openStore(url);
		const heard: number[] = [];
		const unlisten = await other.listen!('race', sequence => heard.push(sequence));
		const admin = new pg.Client({connectionString: url});
		await admin.connect();
		const killed = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'");
		expect(killed.rowCount).toBe(1);
		// Commits keep coming; once the listener is back, it hears them.
		await expect.poll(async () => {
			await store.editItem({channelId: 'race', itemId: ids[0]!, values: {a: String(Date.now())}, actor: {kind: 'human'}});
			return heard.length;
		}, {timeout: 10_000, interval: 200}).toBeGreaterThan(0);
		await admin.end();
		await unlisten();
	});

	it('opening the same new database from several stores at once migrates it once', async () => {
		const url = await database.freshSchemaUrl();
		const stores = await Promise.all(Array.from({length: 4}, () => openStore(url)));
		expect(stores).toHaveLength(4);
		const client = new pg.Client({connectionString: url});
		await client.connect();
		const {rows} = await client.query('SELECT version FROM schema_version ORDER BY version');
		await client.end();
		expect(rows.map(row => row.version as number)).toEqual(MIGRATIONS.map(step => step.version));
	});

	it('opening a current store runs no DDL: an event trigger that refuses every DDL statement lets it open, read and write', async () => {
		const {url, ids} = await raceStore(2);
		const admin = new pg.Client({connectionString: url});
		await admin.connect();
		try {
			await admin.query(`CREATE FUNCTION public.refuse_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'DDL refused: %', tg_tag; END $$`);
			await admin.query('CREATE EVENT TRIGGER refuse_ddl ON ddl_command_start EXECUTE FUNCTION public.refuse_ddl()');
			try {
				const store = await openAsyncStore(url);
				open.push(store);
				await store.editItem({channelId: 'race', itemId: ids[0]!, values: {counter: 1}, actor: {kind: 'human'}});
				expect((await store.listPage('race')).items).toHaveLength(2);
				// The trigger is live: DDL through the same server is refused.
				await expect(admin.query('CREATE TABLE should_fail (x int)')).rejects.toThrow(/DDL refused/);
			} finally {
				await admin.query('DROP EVENT TRIGGER refuse_ddl');
				await admin.query('DROP FUNCTION public.refuse_ddl()');
			}
		} finally {
			await admin.end();
		}
	});

	it('a schema without sift\'s tables is not_a_store unless created, and opening it adds nothing', async () => {
		const url = await database.freshSchemaUrl();
		const body = await refusalOf(() => openAsyncStore(url));
		expect(body).toMatchObject({error: 'not_a_store', message: expect.stringMatching(/is not a sift store \(it has no sift tables\); nothing was changed/) as string});
		const client = new pg.Client({connectionString: url});
		await client.connect();
		try {
			expect((await client.query("SELECT count(*)::int AS n FROM pg_class WHERE relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())")).rows[0].n).toBe(0);
		} finally {
			await client.end();
		}
	});

	it('a schema newer than this code is refused with a clear message, and left alone', async () => {
		const url = await database.freshSchemaUrl();
		await (await openStore(url)).close();
		open.length = 0;
		const client = new pg.Client({connectionString: url});
		await client.connect();
		await client.query("INSERT INTO schema_version (version, name, applied_at) VALUES (999, 'from the future', 'x')");
		const body = await refusalOf(() => openAsyncStore(url));
		expect((body as {message: string}).message).toMatch(/has schema version 999, newer than this sift knows \(\d+\): upgrade sift/);
		expect((await client.query('SELECT max(version) AS v FROM schema_version')).rows[0].v).toBe(999);
		await client.end();
	});

	it('migration 14: a store whose text index held the parser\'s words gets one of words cut as on SQLite, and a word inside a dotted name is found', async () => {
		const url = await database.freshSchemaUrl();
		const store = await openStore(url);
		const channel: Channel = {id: 'traces', name: 'Traces', fields: [
			{key: 'title', label: 'Title', type: 'text', is_required: false, is_unique: false, config: {}},
			{key: 'body', label: 'Body', type: 'text', is_required: false, is_unique: false, config: {long: true}},
		]};
		await store.importChannel({channel, items: [{values: {title: 'NPE', body: 'at org.apache.hadoop.fs.FileSystem.getLocal'}}]});
		await store.close();
		open.length = 0;
		const wordsIndex = pgChannelIndexes(channel).find(index => index.sql.includes('to_tsvector'))!;
		const client = new pg.Client({connectionString: url});
		await client.connect();
		const indexes = async () => (await client.query<{name: string}>("SELECT relname AS name FROM pg_class WHERE relkind = 'i'")).rows.map(row => row.name);
		try {
			// The store as version 13 left it: the parser's words under the old name.
			await client.query(`DROP INDEX "${wordsIndex.name}"`);
			await client.query(`CREATE INDEX "${pgParserTextIndexName('traces')}" ON items USING gin (to_tsvector('simple'::regconfig, left(coalesce(data->>'body', ''), 262144))) WHERE channel_id = 'traces'`);
			await client.query('DELETE FROM schema_version WHERE version >= 14');
			const migrated = await openStore(url);
			expect(await indexes()).toContain(wordsIndex.name);
			expect(await indexes()).not.toContain(pgParserTextIndexName('traces'));
			expect((await migrated.listPage('traces', {where: 'getlocal'})).items).toHaveLength(1);
		} finally {
			await client.end();
		}
	});

	it('a bad URL, an unreachable server, a refused login or a missing database is one line naming the host', async () => {
		const admin = new URL(PG_ADMIN_URL);
		// A server that cannot be reached is `unavailable` (try again later); a bad URL, login or database is the caller's to fix.
		const cases: Array<[string, RegExp, string]> = [
			['postgres://', /PostgreSQL store URL/, 'invalid_argument'],
			['postgres://127.0.0.1:1/sift', /^cannot open the PostgreSQL store at 127\.0\.0\.1:1\/sift: connection refused/, 'unavailable'],
			[`postgres://no_such_role_x@${admin.host}/postgres`, new RegExp(`^cannot open the PostgreSQL store at ${admin.hostname}:${admin.port || 5432}/postgres: .*no_such_role_x`), 'invalid_argument'],
			[`postgres://${admin.username}@${admin.host}/sift_no_such_db`, /^cannot open the PostgreSQL store at .*\/sift_no_such_db: database "sift_no_such_db" does not exist/, 'invalid_argument'],
		];
		for (const [url, message, code] of cases) {
			const body = await refusalOf(() => openAsyncStore(url));
			expect(body.error).toBe(code);
			expect((body as {message: string}).message).toMatch(message);
			expect((body as {message: string}).message).not.toContain('\n');
		}

		const secret = await refusalOf(() => openAsyncStore('postgres://someone:s3cret@127.0.0.1:1/sift'));
		expect((secret as {message: string}).message).not.toContain('s3cret');
	});

	it('unfinished runs are those owned by this host: another machine\'s pid means nothing here', async () => {
		const url = await database.freshSchemaUrl();
		const store = await openStore(url);
		const start = (id: string) => ({id, channelId: 'race', itemIds: [], instruction: 'triage', startedAt: '2026-01-01T00:00:00.000Z', logPath: null, ownerPid: 4242});
		await store.runs.start(start('run-here'));
		await store.runs.start(start('run-there'));
		const client = new pg.Client({connectionString: url});
		await client.connect();
		try {
			expect((await client.query("SELECT owner_host FROM runs WHERE id = 'run-here'")).rows[0].owner_host).toBe(hostname());
			await client.query("UPDATE runs SET owner_host = 'another-machine' WHERE id = 'run-there'");
		} finally {
			await client.end();
		}

		expect(await store.runs.unfinished()).toEqual([{id: 'run-here', owner_pid: 4242, process_group: null, log_path: null}]);
		// Still listed and readable by everyone: only reaping is local.
		expect((await store.runs.list()).map(run => run.id).sort()).toEqual(['run-here', 'run-there']);
	});
});
