// The PostgreSQL store: importing 1k and 1M demo items (streamed in batches, one transaction), then
// page latency through listPage: the first page and a deep page (90% down), in the default order
// by before_id with and without a status filter, and for the query-latency bench's sorted and
// filtered queries by keyset cursor (plus the last page, from:'end'); then what the per-channel
// order indexes cost an edit. Runs in a fresh bench database (pg-support.ts), dropped afterwards. Without a reachable server the bench says so and is left out.
// --quick: 1k and 100k items instead of 1k and 1M.

import pg from 'pg';
import {bugsChannel, generateBugItems} from '../../demo-data/generate.js';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {itemIdOf, seqOfItemId} from '../../store/items.js';
import {parseQuery} from '../../store/query/parse.js';
import {numbered, pgChannelIndexes, postgresDialect} from '../../store/postgres/query.js';
import type {Query} from '../../store/query/types.js';
import {newestItemIds} from '../support/item-ids.js';
import {sixFields} from './store-edit.js';
import {cursorAfter, depthStatement, QUERIES} from './store-query-latency.js';
import {benchDatabase, withPgClient} from './pg-support.js';
import {BENCH_NOW, median, printTable, type Row} from './support.js';

const FILTER = {status: 'fixed'};

const withClient = withPgClient;

/**
 * Median ms of each read, measured in alternating turns (a, b, c, a, b, c, …) so that the load
 * of a shared machine, and what the server has cached, weigh on each alike.
 */
async function medians(reads: Array<(() => Promise<unknown>) | undefined>, repeats: number): Promise<number[]> {
	const times = reads.map(() => [] as number[]);
	for (let turn = -1; turn < repeats; turn++) {
		for (const [index, read] of reads.entries()) {
			if (!read) continue;
			const start = process.hrtime.bigint();
			await read();
			// Turn -1 warms each read once.
			if (turn >= 0) times[index]!.push(Number(process.hrtime.bigint() - start) / 1e6);
		}
	}

	return times.map(list => (list.length > 0 ? median(list) : Number.NaN));
}

/** First and deep page in the default order, by before_id. */
async function beforeIdRows(store: AsyncStore, size: number, repeats: number): Promise<Row[]> {
	const newest = (await store.listPage('bugs', {limit: 1})).items[0]!.id;
	const depth = Math.floor((size * 0.9) / 50) * 50;
	// One import into a fresh database numbers its items without gaps: the cursor 90% down is computable.
	const cursor = itemIdOf(seqOfItemId(newest, 'newest') - (depth - 1));
	const rows: Row[] = [];
	for (const filter of [undefined, FILTER]) {
		const [first, deep] = await medians([() => store.listPage('bugs', {filter}), () => store.listPage('bugs', {filter, beforeId: cursor})], repeats);
		rows.push({items: size, query: filter ? `filter status=${filter.status}` : '(default order)', 'deep page at': depth, 'first ms': first, 'deep ms': deep, 'deep/first': (deep / first).toFixed(2), 'from end ms': ''});
	}

	return rows;
}

/** The cursor a reader holds after paging to `depth` matches. */
async function cursorAt(client: pg.Client, store: AsyncStore, query: Query, depth: number): Promise<string> {
	const statement = numbered(depthStatement(postgresDialect, await store.loadedChannel('bugs'), query, depth));
	return cursorAfter(query, (await client.query<{seq: number; value: number | string | null}>(statement.sql, statement.params)).rows[0]!);
}

/** First page, deep page (keyset cursor 90% through the matches) and last page of each query. */
async function queryRows(client: pg.Client, store: AsyncStore, size: number, repeats: number): Promise<Row[]> {
	const channel = await store.loadedChannel('bugs');
	const rows: Row[] = [];
	for (const text of QUERIES) {
		const query = parseQuery(text, channel, {now: BENCH_NOW}) as Query;
		const matches = await store.countMatches('bugs', text, BENCH_NOW);
		const depth = Math.floor((matches * 0.9) / 50) * 50;
		const cursor = depth > 0 ? await cursorAt(client, store, query, depth) : null;
		const [first, deep, last] = await medians([
			() => store.listPage('bugs', {where: text, now: BENCH_NOW}),
			cursor ? () => store.listPage('bugs', {where: text, cursor, now: BENCH_NOW}) : undefined,
			() => store.listPage('bugs', {where: text, from: 'end', now: BENCH_NOW}),
		], repeats);
		rows.push({items: size, query: `${text} (${matches} match)`, 'deep page at': depth, 'first ms': first, 'deep ms': deep, 'deep/first': (deep / first).toFixed(2), 'from end ms': last});
	}

	return rows;
}

/** Median ms per 6-field edit with and without `indexes`, in alternating rounds. */
async function indexCost(client: pg.Client, store: AsyncStore, indexes: Array<{name: string; sql: string}>, ids: string[], counter: {n: number}, rounds: number, perRound: number): Promise<{with: number; without: number}> {
	const times = {with: [] as number[], without: [] as number[]};
	for (let round = 0; round < rounds; round++) {
		for (const side of round % 2 === 0 ? ['with', 'without'] as const : ['without', 'with'] as const) {
			for (const index of indexes) {
				await client.query(side === 'with' ? index.sql : `DROP INDEX IF EXISTS "${index.name}"`);
			}

			for (let n = 0; n < perRound; n++, counter.n++) {
				const itemId = ids[counter.n % ids.length]!;
				const start = process.hrtime.bigint();
				await store.editItem({channelId: 'bugs', itemId, values: sixFields(1 + Math.floor(counter.n / ids.length)), actor: {kind: 'human'}});
				// The first edits of a round warm the plan cache after the index change.
				if (n >= 20) times[side].push(Number(process.hrtime.bigint() - start) / 1e6);
			}
		}
	}

	for (const index of indexes) await client.query(index.sql);
	return {with: median(times.with), without: median(times.without)};
}

async function indexCostRows(url: string, store: AsyncStore, quick: boolean): Promise<Row[]> {
	const ids = await newestItemIds(store, 'bugs', 500);
	const indexes = pgChannelIndexes(bugsChannel).filter(index => !index.sql.includes("(data->'"));
	const rounds = quick ? 2 : 4;
	const perRound = quick ? 150 : 400;
	const counter = {n: 0};
	return withClient(url, async client => {
		const rows: Row[] = [];
		for (const index of indexes) {
			const cost = await indexCost(client, store, [index], ids, counter, rounds, perRound);
			rows.push({index: index.sql.slice(index.sql.indexOf('ON items(') + 9, index.sql.lastIndexOf(', seq)')).slice(0, 60), 'ms/edit with': cost.with, 'ms/edit without': cost.without, 'cost µs': Math.round((cost.with - cost.without) * 1000)});
		}

		const all = await indexCost(client, store, indexes, ids, counter, rounds, perRound);
		rows.push({index: `all ${indexes.length} order indexes`, 'ms/edit with': all.with, 'ms/edit without': all.without, 'cost µs': Math.round((all.with - all.without) * 1000)});
		return rows;
	});
}

export async function benchPgStore(quick: boolean): Promise<Row[]> {
	const database = await benchDatabase('PostgreSQL store bench');
	if (!database) return [];
	const url = new URL(database.url);
	const sizes = quick ? [1000, 100_000] : [1000, 1_000_000];
	const rows: Row[] = [];
	const imports: Row[] = [];
	let costs: Row[] = [];
	try {
		for (const size of sizes) {
			const store = await openAsyncStore(url.toString(), {create: true});
			const started = process.hrtime.bigint();
			await store.importChannel({channel: bugsChannel, items: generateBugItems({count: size, seed: 1, now: BENCH_NOW})});
			imports.push({items: size, 'import s': Number(process.hrtime.bigint() - started) / 1e9});
			const repeats = size >= 500_000 ? 21 : 31;
			rows.push(...await beforeIdRows(store, size, repeats));
			rows.push(...await withClient(url.toString(), client => queryRows(client, store, size, repeats)));
			if (size === sizes[0]) costs = await indexCostRows(url.toString(), store, quick);
			await store.close();
			// Empties the bench database between sizes, so each import starts from a new store.
			await database.reset();
		}
	} finally {
		await database.drop();
	}

	const largest = rows.filter(row => row.items === sizes.at(-1) && row['deep ms'] !== '' && !Number.isNaN(row['deep ms']));
	const worst = Math.max(...largest.map(row => Number(row['deep/first'])));
	printTable('PostgreSQL store: import', imports, [`goal: ${sizes.at(-1)} items imported in ≤ 120 s: ${Number(imports.at(-1)?.['import s']) <= 120 ? 'met' : 'NOT met'}`]);
	printTable('PostgreSQL store: page latency through listPage, 50 items a page (ms, median of alternating turns); deep = 90% through the matches (before_id, or keyset cursor with where)', rows, [
		`goal: deep/first ≤ 1.5 at ${sizes.at(-1)} items, sorted and filtered included: ${worst <= 1.5 ? 'met' : 'NOT met'} (worst ${worst.toFixed(2)})`,
	]);
	printTable(`PostgreSQL store: what each order index costs a 6-field edit (${sizes[0]} items, alternating rounds with and without it)`, costs, [
		'Every edit rewrites the item\'s jsonb row, so each expression index is updated whatever fields change.',
	]);
	return rows;
}

// Run alone: node dist/test/bench/pg-store.js [--quick]
if (import.meta.url === `file://${process.argv[1]}`) {
	await benchPgStore(process.argv.includes('--quick'));
}
