// A filtered, sorted first page as the channel grows: `status:new sort:due` (and its neighbours)
// at 1k, 100k and 1M items: the rows of the first page read by the plan before the (status, sort
// key, seq) index (the sort field's own index, walked past every row of another status) and by the
// plan now (that index: store/query/sql.ts axisOf), on the same file; and the whole first page
// through store.listPage (parse, plan, read, previews).
// The goal: the first page stays flat as the channel grows. Bench files are cached (support.ts: acrossBugDatabases).

import type {Store} from '../../store/index.js';
import {parseQuery} from '../../store/query/parse.js';
import type {Query} from '../../store/query/types.js';
import {orderIndexName, orderOf, pageStatements, whereSql, type Order} from '../../store/sqlite/query.js';
import {acrossBugDatabases, BENCH_NOW, medianMs, printTable, repeatsFor, storeBenchSizes, type Row} from './support.js';

export const AXIS_QUERIES = ['status:new sort:due', 'status:triaged sort:-points', 'status:new sort:-severity'];

const PAGE = 50;

/** Reads the first page's rows through `order`'s statements in one transaction, as the store does. */
function firstPageRows(store: Store, query: Query, order: Order): number {
	const channel = store.loadedChannel('bugs');
	const statements = pageStatements(channel, whereSql(channel, query.terms), order, true, null, PAGE + 1);
	return store.db.transaction(() => {
		let read = 0;
		for (const statement of statements) {
			const wanted = PAGE + 1 - read;
			if (wanted <= 0) break;
			statement.params[statement.params.length - 1] = wanted;
			read += store.db.prepare(statement.sql).all(...statement.params).length;
		}

		return read;
	})();
}

/** The plan before the axis indexes: the sort field's own index for the set values, the status index for the unset ones. */
const orderBefore = (store: Store, query: Query): Order => ({...orderOf(store.loadedChannel('bugs'), query.sort), unsetIndex: orderIndexName('bugs', 'status')});

/** The plan now (store/sqlite/query.ts orderOf with the terms). */
const orderNow = (store: Store, query: Query): Order => orderOf(store.loadedChannel('bugs'), query.sort, query.terms);

function measure(store: Store, size: number, text: string): Row {
	const query = parseQuery(text, store.loadedChannel('bugs'), {now: BENCH_NOW}) as Query;
	const repeats = repeatsFor(size);
	const before = medianMs(() => firstPageRows(store, query, orderBefore(store, query)), repeats);
	const after = medianMs(() => firstPageRows(store, query, orderNow(store, query)), repeats);
	const page = medianMs(() => store.listPage('bugs', {where: text, limit: PAGE, now: BENCH_NOW}), repeats);
	return {items: size, query: text, matches: store.countMatches('bugs', text, BENCH_NOW), 'before ms': before, 'after ms': after, 'before/after': (before / after).toFixed(1), 'listPage ms': page};
}

export function benchAxisPage(quick: boolean): Row[] {
	const sizes = !quick && process.env.SIFT_BENCH_AXIS_1M === 'off' ? [1000, 100_000] : storeBenchSizes(quick);
	const {rows, notes} = acrossBugDatabases(sizes, (store, size) => AXIS_QUERIES.map(text => measure(store, size, text)));
	const largest = rows.filter(row => row.items === sizes.at(-1));
	const smallest = rows.filter(row => row.items === sizes[0]);
	const flat = largest.every((row, index) => Number(row['listPage ms']) <= Math.max(3 * Number(smallest[index]!['listPage ms']), 5));
	notes.push(`goal: the first page stays flat as the channel grows (listPage at ${sizes.at(-1)} ≤ 3× at ${sizes[0]}, or ≤ 5 ms): ${flat ? 'met' : 'NOT met'}`);
	printTable(`Filtered, sorted first page (${PAGE} items) through the (status, sort key) index, and before it (the sort field's own index), SQLite`, rows, notes);
	return rows;
}
