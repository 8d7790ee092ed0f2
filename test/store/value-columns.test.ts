// SQLite's value columns (store/sqlite/value-columns.ts): each indexed field's value is copied into
// a column of its own, which the channel's indexes read, so that an edit rewrites only the indexes
// of the fields it changes. The copy must always equal json_extract of `data`, in value and type.

import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {openStore, type Store} from '../../store/index.js';
import type {Field, ItemPreview} from '../../store/types.js';
import {columnValue, valueColumnOf} from '../../store/sqlite/value-columns.js';
import {cleanTempDirs, human, kitChannel, kitItems, kitStore, tempDir} from './helpers.js';
import {SCHEMA_VERSION} from '../../store/sqlite/database.js';

afterAll(cleanTempDirs);

const kit = {fields: kitChannel.fields as Field[]};

/** Every kit field that has a column, with the number of its rows whose copy differs from `data`. */
function mismatches(store: Store): Record<string, number> {
	const found: Record<string, number> = {};
	for (const field of kitChannel.fields) {
		const column = valueColumnOf(kit, field.key);
		if (!column) continue;
		const json = `json_extract(data, '$.${field.key}')`;
		found[field.key] = (store.db.prepare(`SELECT count(*) AS n FROM items WHERE channel_id = 'kit' AND (${column} IS NOT ${json} OR typeof(${column}) != typeof(${json}))`).get() as {n: number}).n;
	}

	return found;
}

/** WAL frames (pages) the commit of `write` appends. */
function framesOf(store: Store, write: () => void): number {
	store.db.pragma('wal_checkpoint(TRUNCATE)');
	write();
	return (store.db.pragma('wal_checkpoint(PASSIVE)') as Array<{log: number}>)[0]!.log;
}

/** Every item the query gives, page by page. */
function allPages(store: Store, where: string): ItemPreview[] {
	const items: ItemPreview[] = [];
	let cursor: string | undefined;
	do {
		const page = store.listPage('kit', {where, limit: 50, ...(cursor ? {cursor} : {})});
		items.push(...page.items);
		cursor = page.next_cursor ?? undefined;
	} while (cursor);
	return items;
}

const idsOf = (store: Store, count: number) => (store.db.prepare("SELECT id FROM items WHERE channel_id = 'kit' ORDER BY seq LIMIT ?").all(count) as Array<{id: string}>).map(row => row.id);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

describe('value columns on SQLite', () => {
	it('the kit channel\'s sortable and unique fields (short text and lists too) have columns, in field order; long text and json do not', () => {
		const columned = kitChannel.fields.filter(field => valueColumnOf(kit, field.key)).map(field => [field.key, valueColumnOf(kit, field.key)]);
		const keys = ['title', 'code', 'summary', 'points', 'ratio', 'due', 'done', 'reporter', 'phone', 'site', 'status', 'tags', 'price', 'pct', 'stars'];
		expect(columned).toEqual(keys.map((key, index) => [key, `v${index + 1}`]));
	});

	it('a bound value is what json_extract gives for the same JSON, in value and type, at the edges of numbers too', () => {
		const store = kitStore();
		const values = [0, -0, 1, -7, 0.1, 1e-7, 5e-324, 1.7976931348623157e308, 123.456, 2 ** 53, 2 ** 53 + 2, 837_463_708_841_756_928, 2 ** 63, -(2 ** 63), 1e21, -1e21, true, false, 'text', '', null];
		const differing = values.filter(value => (store.db.prepare("SELECT json_extract(?, '$.x') IS ? AND typeof(json_extract(?, '$.x')) = typeof(?) AS same")
			.get(JSON.stringify({x: value}), columnValue(value), JSON.stringify({x: value}), columnValue(value)) as {same: number}).same !== 1);
		expect(differing).toEqual([]);
		store.close();
	});

	it('hold what json_extract gives after an import, creates, edits that set, change and unset, and a delete', () => {
		const store = kitStore(kitItems(120));
		expect(mismatches(store)).toEqual(Object.fromEntries(Object.keys(mismatches(store)).map(key => [key, 0])));
		const created = store.createItem('kit', {title: 'fresh', code: 'C-NEW', points: 5, ratio: 0.25, done: false, status: 'new', price: 9.5}, human);
		const ids = idsOf(store, 30);
		for (const [index, id] of ids.entries()) {
			const values = [
				{points: 8, done: true, status: 'wont_fix'},
				{points: null, due: null, status: null, code: null},
				{title: 'retitled only'},
				{ratio: 1e-7, price: 250.25, pct: 99.5, stars: 4, due: '2026-02-28'},
			][index % 4]!;
			store.editItem({channelId: 'kit', itemId: id, values, actor: human});
		}

		store.deleteItem('kit', created.item.id, human);
		expect(Object.values(mismatches(store)).every(count => count === 0)).toBe(true);
		// What the columns are for: a filter and a sort through them give what the values say.
		const wontFix = allPages(store, 'status:wont_fix sort:points');
		expect(wontFix.length).toBeGreaterThanOrEqual(8);
		expect(wontFix.every(item => item.preview.status === 'wont_fix')).toBe(true);
		const points = wontFix.map(item => item.preview.points).filter(value => value !== undefined) as number[];
		expect(points).toEqual([...points].sort((a, b) => a - b));
		store.close();
	});

	it('an edit of a field without an index writes no index page; one of an indexed field rewrites that index alone', () => {
		const store = kitStore(kitItems(400));
		const ids = idsOf(store, 200);
		let n = 0;
		const edit = (values: (n: number) => Record<string, unknown>) => () => {
			n++;
			store.editItem({channelId: 'kit', itemId: ids[n % ids.length]!, values: values(n), actor: human});
		};

		// The item's page, the events' last page and events_by_item: 3, and the updated_at index
		// (sort:-updated) its old and new entry: 5. With indexes over `data`, all nine of the kit's
		// field indexes were rewritten too (14 or more).
		// A json field has no index (a title has one now: sort:title; long notes have their full-text table).
		const unindexed = median(Array.from({length: 9}, () => framesOf(store, edit(k => ({meta: {k}})))));
		const status = median(Array.from({length: 9}, () => framesOf(store, edit(k => ({status: ['new', 'in_progress', 'wont_fix'][k % 3]})))));
		expect(unindexed).toBeLessThanOrEqual(5);
		// A status edit moves the item in the status index and in each (status, sort key) index of
		// the channel's axis (store/query/sql.ts axisOf): its old and new entry in each, at most.
		const axisIndexes = (store.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'index' AND name LIKE 'items:kit:status.%'").get() as {n: number}).n;
		expect(axisIndexes).toBeGreaterThan(0);
		expect(status).toBeLessThanOrEqual(unindexed + 2 + 2 * axisIndexes);
		store.close();
	});

	it('a schema-4 store (indexes over data, no value columns) is migrated once: columns filled, indexes on them, nothing else changed', () => {
		const path = join(tempDir(), 'v4.db');
		const store = openStore(path, {create: true});
		store.importChannel({channel: kitChannel, items: kitItems(60)});
		const before = allPages(store, 'sort:-due status:new');
		// Schema 4: the indexes read json_extract(data, …), and items has no value columns.
		const indexes = store.db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'items:kit:%'").all() as Array<{name: string; sql: string}>;
		for (const index of indexes) {
			store.db.exec(`DROP INDEX "${index.name}"`);
		}

		for (let column = 1; column <= 16; column++) {
			store.db.exec(`ALTER TABLE items DROP COLUMN v${column}`);
		}

		// Schema 5 and before had no created_at / updated_at indexes, schema 6 and before no
		// (status, sort key) ones: the upgrade adds them.
		const older = indexes.filter(candidate => !/:(created|updated)_at$/.test(candidate.name) && !candidate.name.includes('.'));
		for (const index of older) {
			const field = kitChannel.fields.find(candidate => valueColumnOf(kit, candidate.key) && new RegExp(`\\b${valueColumnOf(kit, candidate.key)!}\\b`).test(index.sql))!;
			store.db.exec(index.sql.replace(new RegExp(`\\b${valueColumnOf(kit, field.key)!}\\b`, 'g'), `json_extract(data, '$.${field.key}')`));
		}

		store.db.pragma('user_version = 4');
		expect(store.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'items:kit:%' AND sql LIKE '%json_extract%'").get()).toEqual({n: older.length});
		store.close();

		const reopened = openStore(path);
		expect(reopened.db.pragma('user_version', {simple: true})).toBe(SCHEMA_VERSION);
		expect(reopened.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'items:kit:%' AND sql LIKE '%json_extract%'").get()).toEqual({n: 0});
		expect((reopened.db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'items:kit:%' ORDER BY name").all() as Array<{name: string}>).map(row => row.name))
			.toEqual(indexes.map(index => index.name).sort());
		expect(Object.values(mismatches(reopened)).every(count => count === 0)).toBe(true);
		expect(allPages(reopened, 'sort:-due status:new')).toEqual(before);
		expect(before.length).toBeGreaterThan(5);
		reopened.close();
	});

	it('a schema-13 store (short text and lists without columns or indexes) is migrated once: every column filled in the new layout, sort:title and sort:tags indexed', () => {
		const path = join(tempDir(), 'v13.db');
		const store = openStore(path, {create: true});
		store.importChannel({channel: kitChannel, items: kitItems(60)});
		// Schema 13: the columns held another layout (here: emptied) and short text and lists had no index.
		for (const key of ['title', 'summary', 'reporter', 'phone', 'site', 'tags']) store.db.exec(`DROP INDEX "items:kit:${key}"`);
		store.db.exec(`UPDATE items SET ${Array.from({length: 16}, (_, index) => `v${index + 1} = NULL`).join(', ')}`);
		store.db.pragma('user_version = 13');
		store.close();
		const reopened = openStore(path);
		expect(reopened.db.pragma('user_version', {simple: true})).toBe(SCHEMA_VERSION);
		expect(Object.values(mismatches(reopened)).every(count => count === 0)).toBe(true);
		const titles = allPages(reopened, 'sort:title').map(item => String(item.preview.title).toLowerCase());
		expect(titles).toEqual([...titles].sort());
		expect(reopened.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name IN ('items:kit:title', 'items:kit:tags')").get()).toEqual({n: 2});
		reopened.close();
	});

	it('a channel with more indexed fields than columns keeps the further ones indexed on data, and they still sort and filter', () => {
		const fields = Array.from({length: 18}, (_, index) => ({key: `n${index + 1}`, label: `N${index + 1}`, type: 'number', is_required: false, is_unique: false, config: {}})) as Field[];
		const store = openStore(join(tempDir(), 'wide.db'), {create: true});
		store.importChannel({channel: {id: 'wide', name: 'Wide', fields}, items: Array.from({length: 40}, (_, index) => ({values: {n1: index, n17: index % 5, n18: 40 - index}}))});
		const indexSql = (key: string) => (store.db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(`items:wide:${key}`) as {sql: string}).sql;
		expect(indexSql('n16')).toContain('(v16, seq)');
		expect(indexSql('n17')).toContain("json_extract(data, '$.n17')");
		const ids = (store.db.prepare("SELECT id FROM items WHERE channel_id = 'wide' ORDER BY seq").all() as Array<{id: string}>).map(row => row.id);
		store.editItem({channelId: 'wide', itemId: ids[0]!, values: {n17: 9, n18: -1}, actor: human});
		const page = store.listPage('wide', {where: 'n17:>=4 sort:n18', limit: 50});
		expect(page.items.map(item => item.preview.n18)).toEqual([-1, 1, 6, 11, 16, 21, 26, 31, 36]);
		store.close();
	});

	it('a channel imported again after a refused import, with other fields, fills its own columns', () => {
		const store = openStore(join(tempDir(), 'again.db'), {create: true});
		const number = (key: string) => ({key, label: key, type: 'number', is_required: false, is_unique: false, config: {}});
		const first = {id: 'x', name: 'X', fields: [number('a'), number('b')] as Field[]};
		expect(() => store.importChannel({channel: first, items: [{values: {a: 1, b: 2}}, {values: {a: 'not a number'}}]})).toThrow();
		const second = {id: 'x', name: 'X', fields: [number('b'), {key: 'c', label: 'c', type: 'boolean', is_required: false, is_unique: false, config: {}}] as Field[]};
		store.importChannel({channel: second, items: [{values: {b: 7, c: true}}, {values: {b: 3, c: false}}]});
		expect(store.db.prepare("SELECT v1, v2 FROM items WHERE channel_id = 'x' ORDER BY seq").all()).toEqual([{v1: 7, v2: 1}, {v1: 3, v2: 0}]);
		expect(store.listPage('x', {where: 'c:true sort:b', limit: 5}).items.map(item => item.preview.b)).toEqual([7]);
		store.close();
	});

	it('a store made by a newer sift is refused, naming both schema versions, and left as it was', () => {
		const path = join(tempDir(), 'newer.db');
		const store = openStore(path, {create: true});
		store.importChannel({channel: kitChannel, items: kitItems(3)});
		store.db.pragma('user_version = 99');
		store.close();
		expect(() => openStore(path)).toThrow(`the store at ${path} has schema version 99, newer than this sift knows (${SCHEMA_VERSION}): upgrade sift to open it`);
	});
});
