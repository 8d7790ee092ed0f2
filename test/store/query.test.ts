// The query language's SQLite layout: per-channel partial indexes, their migration, and the plans
// that read through them. What queries mean, on both backends: test/contract/query.contract.test.ts.

import {afterAll, describe, expect, it} from 'vitest';
import {openStore, type Store, type Values} from '../../store/index.js';
import {cleanTempDirs, human, kitChannel, kitItems, kitStore, refusal, tempDir} from './helpers.js';
import {join} from 'node:path';
import {ITEM_COLUMNS} from '../../store/sqlite/value-columns.js';

afterAll(() => cleanTempDirs());

type Stored = {id: string; values: Values};

function storedItems(store: Store): Stored[] {
	return (store.db.prepare("SELECT id, data FROM items WHERE channel_id = 'kit' ORDER BY seq").all() as Array<{id: string; data: string}>)
		.map(row => ({id: row.id, values: JSON.parse(row.data) as Values}));
}

/** The query plans of the statements `watched` picks that `store` prepares while `work` runs (each explained with `params`). */
function plansWhile(store: Store, watched: (sql: string) => boolean, params: (sql: string) => unknown[], work: () => void): string[] {
	const plans: string[] = [];
	const prepare = store.db.prepare.bind(store.db);
	store.db.prepare = ((sql: string) => {
		if (watched(sql)) {
			plans.push(...(prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params(sql)) as Array<{detail: string}>).map(row => row.detail));
		}

		return prepare(sql);
	}) as typeof store.db.prepare;
	try {
		work();
	} finally {
		store.db.prepare = prepare;
	}

	return plans;
}

describe('per-channel indexes', () => {
	const indexes = (store: Store) => store.db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'items' AND sql IS NOT NULL ORDER BY name").all() as Array<{name: string; sql: string}>;

	it('every field index is partial to its channel, one per sortable field plus unique lookups, and one per sort key on the axis (status) and that key', () => {
		const store = kitStore();
		const names = indexes(store).map(index => index.name);
		const sortKeys = ['code', 'created_at', 'done', 'due', 'pct', 'points', 'price', 'ratio', 'stars'];
		// Short text and multi_select sort by their own index alone: no (axis, key) one.
		const textAndListKeys = ['phone', 'reporter', 'site', 'summary', 'tags', 'title'];
		// No index on a text field's whole value (`title:=…`): on SQLite it would read the item's JSON, rewritten by every edit.
		expect(names).toEqual([...sortKeys, ...textAndListKeys, 'status', ...sortKeys.map(key => `status.${key}`), 'updated_at'].map(key => `items:kit:${key}`).sort().concat('items_by_channel'));
		for (const index of indexes(store).filter(candidate => candidate.name !== 'items_by_channel')) {
			expect(index.sql).toMatch(/ WHERE channel_id = 'kit'$/);
		}
	});

	it('one channel\'s deeply nested JSON does not break another channel\'s indexes', () => {
		const store = openStore(join(tempDir(), 'two.db'), {create: true});
		store.importChannel({channel: {id: 'alpha', name: 'Alpha', fields: [{key: 'x', label: 'X', type: 'select', is_required: false, is_unique: false, config: {options: [{value: 'a', label: 'A'}]}}]}, items: [{values: {x: 'a'}}]});
		store.importChannel({channel: {id: 'beta', name: 'Beta', fields: [{key: 'x', label: 'X', type: 'json', is_required: false, is_unique: false, config: {}}]}, items: [{values: {x: 1}}]});
		// Writes refuse such depth now; a database written by an older sift (or another tool) can still hold it.
		store.db.prepare("UPDATE items SET data = ? WHERE channel_id = 'beta'").run(JSON.stringify({x: JSON.parse('['.repeat(1500) + ']'.repeat(1500)) as unknown}));
		store.createItem('alpha', {x: 'a'}, human);
		store.importChannel({channel: {id: 'gamma', name: 'Gamma', fields: [{key: 's', label: 'S', type: 'select', is_required: false, is_unique: false, config: {options: [{value: 'a', label: 'A'}]}}]}, items: [{values: {s: 'a'}}]});
		expect(store.listPage('alpha', {where: 'x:a'}).items).toHaveLength(2);
		expect(store.listPage('gamma', {where: 's:a'}).items).toHaveLength(1);
	});

	it('the migration drops the indexes over every channel and creates the partial ones', () => {
		const path = join(tempDir(), 'old.db');
		const store = openStore(path, {create: true});
		store.importChannel({channel: kitChannel, items: kitItems(30)});
		// The layout before: one index per field over all channels' rows, schema version 2.
		for (const index of indexes(store).filter(candidate => candidate.name.startsWith('items:'))) {
			store.db.exec(`DROP INDEX "${index.name}"`);
		}

		for (const key of ['code', 'status', 'done']) {
			store.db.exec(`CREATE INDEX items_kit_${key} ON items(channel_id, json_extract(data, '$.${key}'), seq)`);
		}

		store.db.pragma('user_version = 2');
		store.close();
		const reopened = openStore(path);
		expect(reopened.db.pragma('user_version', {simple: true})).toBeGreaterThanOrEqual(3);
		expect(indexes(reopened).map(index => index.name)).toEqual(indexes(kitStore()).map(index => index.name));
		expect(reopened.listPage('kit', {where: 'sort:-status status:new', limit: 50}).items.length).toBeGreaterThan(0);
		reopened.close();
	});

	it('uniqueness checks read through the channel\'s partial index on the unique field', () => {
		const imported = kitStore(kitItems(20));
		const taken = storedItems(imported).find(item => typeof item.values.code === 'string')!.values.code;
		// A fresh store on the file: its writer prepares the lookup on first use, watched here.
		const store = openStore(imported.path);
		const plans = plansWhile(store, sql => sql.includes('AND id != ?'), () => ['x', 'y'], () => {
			expect(refusal(() => store.createItem('kit', {title: 'twin', code: taken}, human))).toMatchObject({error: 'validation_failed', fields: [{key: 'code'}]});
		});
		expect(plans).toEqual([expect.stringMatching(/^SEARCH items USING INDEX items:kit:code \(v\d+=\?\)/) as string]);
	});

	// Each query's first page, the next by its cursor, and (where named) the last: every statement that reads the page's items.
	it.each([
		{
			name: 'sorted pages read through the sort field\'s index (no sort of the whole channel)',
			where: 'sort:-due done:true', fromEnd: false, minPlans: 1,
			plan: /^SEARCH items USING INDEX items:kit:due \(v\d+/,
		},
		{
			// Equality on status and a range (or IS NULL) on due: one range of the composite index, in its order.
			name: 'one value of the axis sorted by another field reads through (status, that field, seq): set and unset phases, first page and deep',
			where: 'status:new sort:due', fromEnd: true, minPlans: 3,
			plan: /^SEARCH items USING INDEX items:kit:status\.due \(<expr>=\? AND v\d+/,
		},
	])('$name', ({where, fromEnd, minPlans, plan}) => {
		const store = kitStore(kitItems(50));
		const plans = plansWhile(store, sql => sql.startsWith(`SELECT ${ITEM_COLUMNS}`), sql => Array.from({length: (sql.match(/\?/g) ?? []).length}, () => 1), () => {
			const first = store.listPage('kit', {where, limit: 3});
			store.listPage('kit', {where, cursor: first.next_cursor, limit: 3});
			if (fromEnd) store.listPage('kit', {where, from: 'end', limit: 3});
		});
		expect(plans.length).toBeGreaterThanOrEqual(minPlans);
		for (const detail of plans) expect(detail).toMatch(plan);
	});
});
