// Sorted and filtered page latency at 1k, 100k and 1M items: the first page of a query and a deep
// page 90% of the way through its matches, through store.listPage with the query's keyset cursor.
// The deep cursor is made from the item at that depth (found once with a slow OFFSET query), as a
// reader who paged that far would hold it. Bench files are cached for the run (support.ts: acrossBugDatabases).

import type {Store} from '../../store/index.js';
import {encodeCursor} from '../../store/query/cursor.js';
import {parseQuery} from '../../store/query/parse.js';
import type {LoadedChannel} from '../../store/channels.js';
import {sqliteDialect} from '../../store/sqlite/query.js';
import {orderKeySql, sqlString, whereSql, type Dialect, type SqlPart} from '../../store/query/sql.js';
import {sortName, type Query} from '../../store/query/types.js';
import {acrossBugDatabases, BENCH_NOW, medianMs, printTable, repeatsFor, storeBenchSizes, type Row} from './support.js';

/** Sorted, sorted and filtered, and filtered in the default order. */
export const QUERIES = [
	'sort:-severity',
	'sort:due',
	'-status:fixed,wont_fix sort:-severity',
	'owner:aiko sort:due',
	'status:triaged,in_progress sort:-points',
	'severity:s1,s2 area:sync',
];

/**
 * The statement that finds the item `depth` matches into a query's order, in either database's
 * dialect: with OFFSET, slow, run once per query. `items` may carry a hint (NOT INDEXED).
 */
export function depthStatement(dialect: Dialect, channel: LoadedChannel, query: Query, depth: number, items = 'items'): SqlPart {
	const field = channel.fieldsByKey.get(query.sort.key);
	const key = field ? orderKeySql(dialect, field) : 'CAST(NULL AS integer)';
	const where = whereSql(dialect, channel, query.terms);
	const direction = query.sort.descending ? 'DESC' : 'ASC';
	return {sql: `SELECT seq, ${key} AS value FROM ${items} WHERE channel_id = ${sqlString(channel.id)}${where.sql} ORDER BY (${key}) IS NULL, ${key} ${direction}, seq ${direction} LIMIT 1 OFFSET ?`, params: [...where.params, depth - 1]};
}

/** The cursor a reader holds after paging to the item at `row`: its position in the query's order. */
export const cursorAfter = (query: Query, row: {seq: number | string; value: number | string | null}) => encodeCursor({order: sortName(query.sort), side: 'after', position: {value: row.value, seq: Number(row.seq)}});

function cursorAt(store: Store, query: Query, depth: number): string {
	const statement = depthStatement(sqliteDialect(store.loadedChannel('bugs')), store.loadedChannel('bugs'), query, depth, 'items NOT INDEXED');
	return cursorAfter(query, store.db.prepare(statement.sql).get(...statement.params) as {seq: number; value: number | string | null});
}

function measure(store: Store, size: number, text: string): Row {
	const query = parseQuery(text, store.loadedChannel('bugs'), {now: BENCH_NOW}) as Query;
	const matches = store.countMatches('bugs', text, BENCH_NOW);
	const depth = Math.floor((matches * 0.9) / 50) * 50;
	const cursor = depth > 0 ? cursorAt(store, query, depth) : null;
	const repeats = repeatsFor(size);
	const first = medianMs(() => store.listPage('bugs', {where: text, now: BENCH_NOW}), repeats);
	const deep = cursor ? medianMs(() => store.listPage('bugs', {where: text, cursor, now: BENCH_NOW}), repeats) : Number.NaN;
	const last = medianMs(() => store.listPage('bugs', {where: text, from: 'end', now: BENCH_NOW}), repeats);
	return {
		items: size,
		query: text,
		matches,
		'deep page at': depth,
		'first ms': first,
		'deep ms': deep,
		'deep/first': (deep / first).toFixed(2),
		'from end ms': last,
	};
}

export function benchQueryLatency(quick: boolean): Row[] {
	const sizes = storeBenchSizes(quick);
	const {rows, notes} = acrossBugDatabases(sizes, (store, size) => QUERIES.map(text => measure(store, size, text)));

	const largest = rows.filter(row => row.items === sizes.at(-1) && String(row.query).includes('sort:'));
	const met = largest.every(row => Number(row['deep/first']) <= 1.5);
	notes.push(`goal: sorted (and filtered) deep/first ≤ 1.5 at ${sizes.at(-1)} items: ${met ? 'met' : 'NOT met'} (worst ${Math.max(...largest.map(row => Number(row['deep/first']))).toFixed(2)})`);
	printTable('Query page latency: 50 items a page through store.listPage(where); deep = 90% through the matches by keyset cursor', rows, notes);
	return rows;
}
