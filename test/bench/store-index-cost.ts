// What each per-channel index costs a write: median µs per valid 6-field edit (status, owner,
// severity, points, area, due) with every index, and with one index dropped, in alternating
// rounds on the same file so drift in machine load hits both alike. Also the layout before
// (one index per select field over every channel's rows) for comparison.

import type {Store} from '../../store/index.js';
import {sixFields} from './store-edit.js';
import {cleanScratch, freshBugStore, human, median, printTable, timeUs, type Row} from './support.js';

type IndexRow = {name: string; sql: string};

function editRound(store: Store, ids: string[], start: number, count: number): number[] {
	const times: number[] = [];
	for (let n = start; n < start + count; n++) {
		const itemId = ids[n % ids.length]!;
		const values = sixFields(1 + Math.floor(n / ids.length));
		times.push(timeUs(() => store.editItem({channelId: 'bugs', itemId, values, actor: human})));
	}

	return times;
}

/** Median µs per edit with `with` applied and with `without` applied, alternating rounds. */
function compare(store: Store, ids: string[], counter: {n: number}, rounds: number, perRound: number, apply: {with: () => void; without: () => void}): {with: number; without: number} {
	const withTimes: number[] = [];
	const withoutTimes: number[] = [];
	for (let round = 0; round < rounds; round++) {
		for (const side of round % 2 === 0 ? ['with', 'without'] as const : ['without', 'with'] as const) {
			apply[side]();
			editRound(store, ids, counter.n, 200);
			counter.n += 200;
			(side === 'with' ? withTimes : withoutTimes).push(...editRound(store, ids, counter.n, perRound));
			counter.n += perRound;
		}
	}

	apply.with();
	return {with: median(withTimes), without: median(withoutTimes)};
}

export function benchIndexCost(quick: boolean): Row[] {
	const rounds = quick ? 2 : 6;
	const perRound = quick ? 400 : 1500;
	const store = freshBugStore(500);
	const ids = (store.db.prepare('SELECT id FROM items ORDER BY seq').all() as Array<{id: string}>).map(row => row.id);
	const indexes = (store.db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'items:bugs:%' ORDER BY name").all() as IndexRow[])
		.map(index => ({...index, sql: index.sql.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS ')}));
	const counter = {n: 0};
	const rows: Row[] = [];
	for (const index of indexes) {
		const result = compare(store, ids, counter, rounds, perRound, {
			with: () => store.db.exec(index.sql),
			without: () => store.db.exec(`DROP INDEX IF EXISTS "${index.name}"`),
		});
		rows.push({index: index.name, on: index.sql.slice(index.sql.indexOf('ON items(') + 9, index.sql.lastIndexOf(', seq)')).slice(0, 48), 'µs/edit with': result.with, 'µs/edit without': result.without, 'cost µs': result.with - result.without});
	}

	const dropAll = () => {
		for (const index of indexes) store.db.exec(`DROP INDEX IF EXISTS "${index.name}"`);
	};

	const createAll = () => {
		for (const index of indexes) store.db.exec(index.sql);
	};

	const all = compare(store, ids, counter, rounds, perRound, {with: createAll, without: dropAll});
	rows.push({index: `all ${indexes.length} field indexes`, on: '', 'µs/edit with': all.with, 'µs/edit without': all.without, 'cost µs': all.with - all.without});
	// The layout before: ticket, status, owner, severity, area over every channel's rows.
	const before = ['ticket', 'status', 'owner', 'severity', 'area'].map(key => ({name: `items_bugs_${key}`, sql: `CREATE INDEX IF NOT EXISTS items_bugs_${key} ON items(channel_id, json_extract(data, '$.${key}'), seq)`}));
	const layouts = compare(store, ids, counter, rounds, perRound, {
		with: () => {
			for (const index of before) store.db.exec(`DROP INDEX IF EXISTS ${index.name}`);
			createAll();
		},
		without: () => {
			dropAll();
			for (const index of before) store.db.exec(index.sql);
		},
	});
	rows.push({index: `these ${indexes.length} vs the 5 before`, on: '', 'µs/edit with': layouts.with, 'µs/edit without': layouts.without, 'cost µs': layouts.with - layouts.without});
	printTable('Index write cost: median µs per 6-field edit on a 500-item file, with vs without each index (alternating rounds)', rows, [
		`last row: "with" is this layout, "without" the one before (5 indexes over every channel's rows: ticket and the 4 selects).`,
		`per index on average: ${((all.with - all.without) / indexes.length).toFixed(1)} µs per edit (all ${indexes.length} vs none).`,
		'Every edit rewrites the item\'s data, so every expression index on it is updated whatever fields change.',
	]);
	store.close();
	cleanScratch();
	return rows;
}
