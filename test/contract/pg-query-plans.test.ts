// PostgreSQL only: every phase of a sorted page walks the order's own index, with no sort, bitmap
// or sequential scan, whatever else the terms could use: what keeps a deep page as cheap as the
// first (the PostgreSQL side of test/store/query.test.ts's SQLite plans).

import pg from 'pg';
import {afterAll, beforeAll, expect, it} from 'vitest';
import {openAsyncStore} from '../../store/api.js';
import {planPage} from '../../store/pages.js';
import {CHANNEL_TIME_INDEXES_SQL, PLAN_SETTINGS, pgChannelIndexes, pgPageStatements} from '../../store/postgres/query.js';
import {createTestDatabase, describePg, type TestDatabase} from '../support/pg.js';
import {kitChannel, kitItems, QUERY_NOW} from '../store/helpers.js';

describePg('PostgreSQL page plans', () => {
	let database: TestDatabase;
	let url: string;
	beforeAll(async () => {
		database = await createTestDatabase();
		url = await database.freshSchemaUrl();
		const store = await openAsyncStore(url, {create: true});
		await store.importChannel({channel: kitChannel, items: kitItems(3000)});
		await store.close();
	}, 60_000);
	afterAll(() => database?.drop());

	/** The plan of every phase statement of each request, under the page read's settings. */
	async function plansOf(where: string, requests: Array<Record<string, unknown>>): Promise<{plans: string[]; indexOf: (key: string) => string}> {
		const store = await openAsyncStore(url);
		const client = new pg.Client({connectionString: url});
		await client.connect();
		try {
			const channel = await store.loadedChannel('kit');
			const first = await store.listPage('kit', {where, limit: 20, now: QUERY_NOW});
			const plans: string[] = [];
			await client.query(`BEGIN; ${PLAN_SETTINGS}`);
			for (const request of requests) {
				const cursor = request.cursor === 'next' ? first.next_cursor : undefined;
				const plan = planPage(channel, {where, limit: 20, now: QUERY_NOW, ...request, cursor});
				for (const statement of pgPageStatements(channel, plan.query, plan.forward, plan.start.position, 21)) {
					const {rows} = await client.query<{'QUERY PLAN': string}>(`EXPLAIN ${statement.sql}`, statement.params);
					plans.push(rows.map(row => row['QUERY PLAN']).join('\n'));
				}
			}

			await client.query('ROLLBACK');
			return {plans, indexOf: key => pgChannelIndexes(channel).find(index => index.sql.includes(`(data->>'${key}')`))!.name};
		} finally {
			await client.end();
			await store.close();
		}
	}

	it('each phase of a sorted, filtered page (first, deep, from the end) is one walk of the sort field\'s index', async () => {
		const {plans, indexOf} = await plansOf('status:new,in_progress -done:true sort:-due', [{}, {cursor: 'next'}, {from: 'end'}]);
		expect(plans.length).toBeGreaterThan(5);
		for (const plan of plans) {
			expect(plan).toMatch(new RegExp(`Index Scan (Backward )?using ${indexOf('due')} on items`));
			expect(plan).not.toMatch(/Sort|Bitmap|Seq Scan|Gather/);
		}
	});

	it('with a field:value term on a field other than the axis, the items without a sort value (only they) are walked in that term\'s index', async () => {
		const {plans, indexOf} = await plansOf('done:true sort:-due', [{}, {from: 'end'}, {cursor: 'next'}]);
		const store = await openAsyncStore(url);
		const done = pgChannelIndexes(await store.loadedChannel('kit')).find(index => index.sql.includes("ON items(((data->'done')::boolean::int), seq)"))!.name;
		await store.close();
		// First page: the set values, then the unset ones; from the end: the unset ones, then the
		// set; after a cursor: the set values after it (still the sort's own index, although the
		// term's index could also yield items of one due date by seq), then the unset ones.
		expect(plans).toHaveLength(6);
		for (const plan of [plans[1]!, plans[2]!, plans[5]!]) expect(plan).toMatch(new RegExp(`Index Scan (Backward )?using ${done} on items`));
		for (const plan of [plans[0]!, plans[3]!, plans[4]!]) expect(plan).toMatch(new RegExp(`using ${indexOf('due')} on items`));
		for (const plan of plans) expect(plan).not.toMatch(/Sort|Bitmap|Seq Scan|Gather/);
	});

	it('an exact text match (summary:=…) walks the field\'s exact index: its items by seq, first page, deep and from the end, no sort', async () => {
		const {plans} = await plansOf('summary:=item', [{}, {cursor: 'next'}, {from: 'end'}]);
		const store = await openAsyncStore(url);
		// Not the sort's index on the same prefix (COLLATE "C", sort:summary): the exact one.
		const exact = pgChannelIndexes(await store.loadedChannel('kit')).find(index => index.sql.includes("translate((data->>'summary')") && !index.sql.includes('COLLATE'))!.name;
		await store.close();
		expect(plans).toHaveLength(3);
		for (const plan of plans) {
			expect(plan).toMatch(new RegExp(`Index Scan (Backward )?using ${exact} on items`));
			expect(plan).not.toMatch(/Sort|Bitmap|Seq Scan|Gather/);
		}
	});

	it('one value of the axis (status:new) sorted by another field walks (status, that field, seq): every phase, first page, deep and from the end', async () => {
		const {plans} = await plansOf('status:new sort:-due', [{}, {from: 'end'}, {cursor: 'next'}]);
		const store = await openAsyncStore(url);
		const channel = await store.loadedChannel('kit');
		await store.close();
		const composite = pgChannelIndexes(channel).find(index => /\(\(CASE \(data->>'status'\).*\(data->>'due'\)/.test(index.sql))!.name;
		expect(plans).toHaveLength(6);
		for (const plan of plans) {
			expect(plan).toMatch(new RegExp(`Index Scan (Backward )?using ${composite} on items`));
			expect(plan).not.toMatch(/Sort|Bitmap|Seq Scan|Gather/);
		}
	});

	it('sort:-updated and sort:created walk the channel\'s timestamp indexes, first page and deep, with created:/updated: terms', async () => {
		const {plans} = await plansOf('created:>2020-01-01 sort:-updated', [{}, {cursor: 'next'}, {from: 'end'}]);
		const store = await openAsyncStore(url);
		const channel = await store.loadedChannel('kit');
		await store.close();
		const named = (column: string) => pgChannelIndexes(channel).find(index => index.name.endsWith(`_${column}`))!.name;
		for (const plan of plans) {
			expect(plan).toMatch(new RegExp(`Index Scan (Backward )?using ${named('updated_at')} on items`));
			expect(plan).not.toMatch(/Sort|Bitmap|Seq Scan|Gather/);
		}

		for (const plan of (await plansOf('sort:created', [{}, {cursor: 'next'}])).plans) {
			expect(plan).toMatch(new RegExp(`Index Scan (Backward )?using ${named('created_at')} on items`));
		}
	});

	it('CHANNEL_TIME_INDEXES_SQL gives a channel made before them exactly the timestamp indexes an import makes', async () => {
		const client = new pg.Client({connectionString: url});
		await client.connect();
		try {
			const definitions = async () => (await client.query<{indexname: string; indexdef: string}>("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'items' AND indexname LIKE '%\\_at' ORDER BY indexname")).rows;
			const made = await definitions();
			expect(made.map(row => row.indexname)).toHaveLength(2);
			for (const {indexname} of made) await client.query(`DROP INDEX "${indexname}"`);
			expect(await definitions()).toEqual([]);
			await client.query(CHANNEL_TIME_INDEXES_SQL);
			await client.query(CHANNEL_TIME_INDEXES_SQL);
			expect(await definitions()).toEqual(made);
		} finally {
			await client.end();
		}
	});
});
