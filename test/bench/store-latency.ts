// Page latency at 1k, 100k and 1M items: the first page and a deep page (90% down), with and
// without a status filter, through store.listPage (before_id); and a raw LIMIT/OFFSET query at
// the same depth for contrast. Bench files are cached for the run (support.ts: acrossBugDatabases).

import type {Store} from '../../store/index.js';
import {acrossBugDatabases, medianMs, printTable, storeBenchSizes, type Row} from './support.js';

const FILTER = {status: 'fixed'};

function measure(store: Store, size: number): Row[] {
	const depth = Math.floor((size * 0.9) / 50) * 50;
	const cursor = store.db.prepare("SELECT id, seq FROM items WHERE channel_id = 'bugs' ORDER BY seq DESC LIMIT 1 OFFSET ?").get(depth - 1) as {id: string; seq: number};
	const filteredDepth = (store.db.prepare("SELECT count(*) AS n FROM items WHERE channel_id = 'bugs' AND json_extract(data, '$.status') = ? AND seq >= ?").get(FILTER.status, cursor.seq) as {n: number}).n;
	const offsetAll = store.db.prepare("SELECT * FROM items WHERE channel_id = 'bugs' ORDER BY seq DESC LIMIT 50 OFFSET ?");
	const offsetFiltered = store.db.prepare("SELECT * FROM items WHERE channel_id = 'bugs' AND json_extract(data, '$.status') = ? ORDER BY seq DESC LIMIT 50 OFFSET ?");
	const fast = 31;
	const slow = size >= 500_000 ? 5 : 15;
	const rows: Row[] = [];
	for (const filter of [undefined, FILTER]) {
		const first = medianMs(() => store.listPage('bugs', {filter}), fast);
		const deep = medianMs(() => store.listPage('bugs', {filter, beforeId: cursor.id}), fast);
		const offsetFirst = filter ? medianMs(() => offsetFiltered.all(filter.status, 0), fast) : medianMs(() => offsetAll.all(0), fast);
		const offsetDeep = filter ? medianMs(() => offsetFiltered.all(filter.status, filteredDepth), slow) : medianMs(() => offsetAll.all(depth), slow);
		rows.push({
			items: size,
			filter: filter ? `status=${filter.status}` : 'none',
			'deep page at': filter ? `${depth} (${filteredDepth} matching)` : String(depth),
			'before_id first ms': first,
			'before_id deep ms': deep,
			'deep/first': (deep / first).toFixed(2),
			'offset first ms': offsetFirst,
			'offset deep ms': offsetDeep,
			'offset deep/first': (offsetDeep / offsetFirst).toFixed(1),
		});
	}

	return rows;
}

export function benchPageLatency(quick: boolean): Row[] {
	const sizes = storeBenchSizes(quick);
	const {rows, notes} = acrossBugDatabases(sizes, measure);

	const largest = rows.filter(row => row.items === sizes.at(-1));
	const met = largest.every(row => Number(row['deep/first']) <= 1.5);
	notes.push(`goal: before_id deep/first ≤ 1.5 at ${sizes.at(-1)} items: ${met ? 'met' : 'NOT met'} (${largest.map(row => `${row.filter}: ${row['deep/first']}`).join(', ')})`);
	printTable('Page latency: 50 items a page, newest first; store.listPage (previews, schema, latest_sequence) vs a raw offset query', rows, notes);
	return rows;
}
