// The query language against a real store file: every operator compared with a plain JavaScript
// reading of the same items, every sort paged in both directions with keyset cursors (also while
// items come and go), match counts, refusals that change nothing, and the per-channel indexes.

import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {mulberry32} from '../../demo-data/generate.js';
import {MAX_VALUE_NESTING, openStore, StoreError, type Page, type PageQuery, type Store, type Values} from '../../store/index.js';
import {agent, cleanTempDirs, human, kitChannel, kitStore, refusal, snapshot, tempDir} from './helpers.js';
import {join} from 'node:path';

afterAll(() => cleanTempDirs());

const NOW = new Date(2026, 0, 15, 12);
const STATUSES = ['new', 'in_progress', 'wont_fix'];
const DAYS = ['2026-01-01', '2026-01-10', '2026-01-15', '2026-01-16', '2026-01-22', '2026-02-28'];
const WORDS = ['Sync stalls', 'crash on start', 'Login loops', 'CRASH in sync', 'slow list'];

/** n items with every queried field sometimes set, sometimes not. */
function kitItems(count: number, seed = 7): Array<{values: Values}> {
	const random = mulberry32(seed);
	const maybe = <T>(value: T) => (random() < 0.7 ? value : undefined);
	const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
	return Array.from({length: count}, (_, index) => {
		const values: Values = {
			title: `${pick(WORDS)} ${index}`,
			code: maybe(`C-${String(count - index).padStart(4, '0')}`),
			status: maybe(pick(STATUSES)),
			tags: maybe(pick([[], ['ui'], ['api'], ['ui', 'api']])),
			points: maybe(pick([0, 1, 2, 3, 5, 8, 13])),
			due: maybe(pick(DAYS)),
			done: maybe(random() < 0.5),
			price: maybe(pick([0, 9.5, 10, 250.25])),
			stars: maybe(pick([1, 2, 3, 4, 5])),
			reporter: maybe(pick(['dana@example.com', 'lee.wong@example.org'])),
			notes: maybe('crash details in the long notes'),
		};
		return {values: Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined))};
	});
}

type Stored = {id: string; values: Values};

/** Every page of a query, following next_cursor. */
function listAll(store: Store, query: PageQuery, limit = 7): string[] {
	const ids: string[] = [];
	let cursor: string | null | undefined;
	let pages = 0;
	do {
		const page: Page = store.listPage('kit', {...query, cursor, limit, now: NOW});
		ids.push(...page.items.map(item => item.id));
		cursor = page.next_cursor;
		expect(++pages).toBeLessThan(1000);
	} while (cursor);
	return ids;
}

function storedItems(store: Store): Stored[] {
	return (store.db.prepare("SELECT id, data FROM items WHERE channel_id = 'kit' ORDER BY seq").all() as Array<{id: string; data: string}>)
		.map(row => ({id: row.id, values: JSON.parse(row.data) as Values}));
}

describe('terms select the items a plain reading of the values selects', () => {
	let store: Store;
	let items: Stored[];
	beforeAll(() => {
		store = kitStore(kitItems(240));
		items = storedItems(store);
		// An agent's refused edit opens a follow-up on the newest item.
		expect(refusal(() => store.editItem({channelId: 'kit', itemId: items.at(-1)!.id, values: {status: 'Done'}, actor: agent()}))).toMatchObject({error: 'validation_failed'});
	}, 30_000);

	const has = (values: Values, key: string) => values[key] !== undefined && values[key] !== null && !(Array.isArray(values[key]) && (values[key] as unknown[]).length === 0);
	const text = (values: Values, key: string) => (typeof values[key] === 'string' ? (values[key] as string).toLowerCase() : '');
	const cases: Array<[string, (values: Values, id: string) => boolean]> = [
		['status:new', v => v.status === 'new'],
		['status:New,"won\'t fix"', v => v.status === 'new' || v.status === 'wont_fix'],
		['-status:new', v => v.status !== 'new'],
		['status:none', v => !has(v, 'status')],
		['-status:none', v => has(v, 'status')],
		['tags:ui', v => Array.isArray(v.tags) && (v.tags as string[]).includes('ui')],
		['tags:none', v => !has(v, 'tags')],
		['-tags:api', v => !(Array.isArray(v.tags) && (v.tags as string[]).includes('api'))],
		['done:true', v => v.done === true],
		['done:false', v => v.done === false],
		['-done:true', v => v.done !== true],
		['points:>3', v => typeof v.points === 'number' && v.points > 3],
		['points:<=2', v => typeof v.points === 'number' && v.points <= 2],
		['points:2..8', v => typeof v.points === 'number' && v.points >= 2 && v.points <= 8],
		['-points:2..8', v => !(typeof v.points === 'number' && v.points >= 2 && v.points <= 8)],
		['points:0,13', v => v.points === 0 || v.points === 13],
		['price:>=10', v => typeof v.price === 'number' && v.price >= 10],
		['stars:1..2', v => typeof v.stars === 'number' && v.stars <= 2],
		['due:<today', v => typeof v.due === 'string' && v.due < '2026-01-15'],
		['due:today', v => v.due === '2026-01-15'],
		['due:tomorrow..+1w', v => typeof v.due === 'string' && v.due >= '2026-01-16' && v.due <= '2026-01-22'],
		['due:>-2w', v => typeof v.due === 'string' && v.due > '2026-01-01'],
		['due:none', v => !has(v, 'due')],
		['crash', v => text(v, 'title').includes('crash') || text(v, 'code').includes('crash') || text(v, 'reporter').includes('crash')],
		['"in sync"', v => text(v, 'title').includes('in sync')],
		['-crash', v => !text(v, 'title').includes('crash')],
		['title:sync,login', v => text(v, 'title').includes('sync') || text(v, 'title').includes('login')],
		['reporter:DANA', v => text(v, 'reporter').includes('dana')],
		['code:none', v => !has(v, 'code')],
		['status:new done:true points:>0 -tags:ui', v => v.status === 'new' && v.done === true && typeof v.points === 'number' && v.points > 0 && !(Array.isArray(v.tags) && (v.tags as string[]).includes('ui'))],
	];

	for (const [query, holds] of cases) {
		it(query, () => {
			const expected = items.filter(item => holds(item.values, item.id)).map(item => item.id).reverse();
			expect(expected.length, 'the case matches something').toBeGreaterThan(0);
			expect(expected.length, 'the case does not match everything').toBeLessThan(items.length);
			expect(listAll(store, {where: query})).toEqual(expected);
			expect(store.countMatches('kit', query, NOW)).toBe(expected.length);
		});
	}

	it('has:followup is the items with an open follow-up', () => {
		const withFollowUp = items.at(-1)!.id;
		expect(listAll(store, {where: 'has:followup'})).toEqual([withFollowUp]);
		expect(listAll(store, {where: '-has:followup'})).toHaveLength(items.length - 1);
		store.editItem({channelId: 'kit', itemId: withFollowUp, values: {status: 'new'}, actor: agent()});
		expect(listAll(store, {where: 'has:followup'})).toEqual([]);
		expect(store.countMatches('kit', 'has:followup')).toBe(0);
	});

	it('where, filter and search combine, all holding', () => {
		const both = listAll(store, {where: 'points:>3', filter: {status: 'new'}, search: 'crash'});
		const expected = items.filter(({values: v}) => typeof v.points === 'number' && v.points > 3 && v.status === 'new' && text(v, 'title').includes('crash')).map(item => item.id).reverse();
		expect(both).toEqual(expected);
	});
});

/** The order a sort promises: set values first in the sort's direction, ties by creation the same way, unset last. */
function expectedOrder(items: Stored[], key: string, descending: boolean, rank: (value: unknown) => number | string | boolean): string[] {
	const withIndex = items.map((item, seq) => ({item, seq}));
	const set = withIndex.filter(({item}) => item.values[key] !== undefined);
	const unset = withIndex.filter(({item}) => item.values[key] === undefined);
	const sign = descending ? -1 : 1;
	set.sort((a, b) => {
		const [x, y] = [rank(a.item.values[key]), rank(b.item.values[key])];
		return (x < y ? -1 : x > y ? 1 : a.seq - b.seq) * sign;
	});
	unset.sort((a, b) => (a.seq - b.seq) * sign);
	return [...set, ...unset].map(({item}) => item.id);
}

const SORTS: Array<[string, (value: unknown) => number | string | boolean]> = [
	['status', value => STATUSES.indexOf(value as string)],
	['due', value => value as string],
	['points', value => value as number],
	['price', value => value as number],
	['done', value => value as boolean],
	['code', value => value as string],
];

describe('sorted pages', () => {
	let store: Store;
	let items: Stored[];
	beforeAll(() => {
		store = kitStore(kitItems(150, 3));
		items = storedItems(store);
	});

	for (const [key, rank] of SORTS) {
		for (const descending of [false, true]) {
			const sort = `${descending ? '-' : ''}${key}`;
			it(`sort:${sort} pages forward in option/value order, unset last`, () => {
				const expected = expectedOrder(items, key, descending, rank);
				expect(listAll(store, {where: `sort:${sort}`})).toEqual(expected);
				expect(listAll(store, {sort}, 50)).toEqual(expected);
				// Filtered as well.
				const filtered = expectedOrder(items.filter(item => item.values.done === true), key, descending, rank);
				expect(listAll(store, {where: `done:true sort:${sort}`}, 4)).toEqual(filtered);
			});

			it(`sort:${sort} from the end, paged backward with prev_cursor, gives the same order`, () => {
				const expected = expectedOrder(items, key, descending, rank);
				const pages: string[][] = [];
				let page = store.listPage('kit', {sort, from: 'end', limit: 9});
				expect(page.next_cursor).toBeNull();
				pages.unshift(page.items.map(item => item.id));
				while (page.prev_cursor) {
					page = store.listPage('kit', {sort, cursor: page.prev_cursor, limit: 9});
					pages.unshift(page.items.map(item => item.id));
				}

				expect(pages.flat()).toEqual(expected);
				// The last page holds the last items of the order.
				expect(pages.at(-1)).toEqual(expected.slice(-9));
			});
		}
	}

	it('default order: newest first; sort:id oldest first; from end gives the oldest page', () => {
		const newest = items.map(item => item.id).reverse();
		expect(listAll(store, {where: ''})).toEqual(newest);
		expect(listAll(store, {where: 'sort:-id'})).toEqual(newest);
		expect(listAll(store, {where: 'sort:id'})).toEqual([...newest].reverse());
		const oldest = store.listPage('kit', {from: 'end', limit: 10});
		expect(oldest.items.map(item => item.id)).toEqual(newest.slice(-10));
		expect(oldest.next_cursor).toBeNull();
		expect(oldest.next_before_id).toBeNull();
		const before = store.listPage('kit', {cursor: oldest.prev_cursor, limit: 10});
		expect(before.items.map(item => item.id)).toEqual(newest.slice(-20, -10));
		// Going forward again from a page reached backward.
		expect(store.listPage('kit', {cursor: before.next_cursor, limit: 10}).items.map(item => item.id)).toEqual(newest.slice(-10));
		// The first page has nothing before it.
		expect(store.listPage('kit', {where: '', limit: 10}).prev_cursor).toBeNull();
	});

	it('before_id pages the default order of a where query; next_before_id follows', () => {
		const expected = items.filter(item => item.values.status === 'new').map(item => item.id).reverse();
		const first = store.listPage('kit', {where: 'status:new', limit: 5});
		expect(first.next_before_id).toBe(expected[4]);
		expect(store.listPage('kit', {where: 'status:new', beforeId: first.next_before_id, limit: 5}).items.map(item => item.id)).toEqual(expected.slice(5, 10));
		// A sorted page has no before_id cursor: only next_cursor.
		const sorted = store.listPage('kit', {where: 'sort:due', limit: 5});
		expect(sorted.next_before_id).toBeNull();
		expect(sorted.next_cursor).toEqual(expect.any(String));
	});

	it('cursors are checked: other orders, garbage, and mixed cursors are refused', () => {
		const page = store.listPage('kit', {sort: 'due', limit: 5});
		expect(refusal(() => store.listPage('kit', {sort: '-due', cursor: page.next_cursor}))).toEqual({error: 'invalid_argument', message: 'cursor belongs to the order sort:due, not sort:-due; start again without a cursor'});
		for (const cursor of ['nonsense', Buffer.from('{"o":"due","d":"x","v":1,"s":2}').toString('base64url'), Buffer.from('{"o":"due","d":"a","v":{},"s":2}').toString('base64url'), 42]) {
			expect(refusal(() => store.listPage('kit', {sort: 'due', cursor: cursor as string}))).toMatchObject({error: 'invalid_argument', message: expect.stringMatching(/^cursor must be a cursor from a previous page/) as string});
		}

		expect(refusal(() => store.listPage('kit', {where: 'sort:due', beforeId: items[5]!.id}))).toEqual({error: 'invalid_argument', message: 'before_id pages the default order (newest first); with sort:due use cursor'});
		expect(refusal(() => store.listPage('kit', {cursor: page.next_cursor, beforeId: items[5]!.id}))).toEqual({error: 'invalid_argument', message: 'give at most one of cursor, before_id and from'});
		expect(refusal(() => store.listPage('kit', {sort: 'due', cursor: page.next_cursor, from: 'end'}))).toEqual({error: 'invalid_argument', message: 'give at most one of cursor, before_id and from'});
		expect(refusal(() => store.listPage('kit', {from: 'middle' as 'end'}))).toEqual({error: 'invalid_argument', message: 'from must be "start" or "end", got "middle"'});
		expect(refusal(() => store.listPage('kit', {sort: 'due desc'}))).toEqual({error: 'invalid_argument', message: 'sort must be a field key or -key, got "due desc"'});
		expect(refusal(() => store.listPage('kit', {where: 'sort:due', sort: 'points'}))).toMatchObject({error: 'bad_query', term: 'sort:points', message: 'a query takes one sort term'});
	});
});

describe('sorted paging under change', () => {
	for (const sort of ['-status', 'due', '-points', 'code']) {
		it(`sort:${sort}: creates, deletes and edits of other fields between pages never repeat or skip an item`, () => {
			const random = mulberry32(sort.length);
			const store = kitStore(kitItems(200, 11));
			const live = () => storedItems(store).map(item => item.id);
			const initial = new Set(live());
			const deleted = new Set<string>();
			const seen: string[] = [];
			let cursor: string | null | undefined;
			let pages = 0;
			let created = 0;
			do {
				const page = store.listPage('kit', {where: `sort:${sort}`, cursor, limit: 10});
				seen.push(...page.items.map(item => item.id));
				cursor = page.next_cursor;
				pages++;
				// Between pages: 2 creates (with and without the sort field), 2 deletes anywhere, 2
				// edits of fields other than the sort field.
				store.createItem('kit', {title: `late ${pages}`, status: 'new', due: '2026-01-15', points: 3, code: `L-${++created}`}, human);
				store.createItem('kit', {title: `late bare ${pages}`}, human);
				const ids = live();
				for (let n = 0; n < 2; n++) {
					const victim = ids.splice(Math.floor(random() * ids.length), 1)[0]!;
					store.deleteItem('kit', victim, human);
					deleted.add(victim);
				}

				for (let n = 0; n < 2; n++) {
					store.editItem({channelId: 'kit', itemId: ids[Math.floor(random() * ids.length)]!, values: {title: `edited ${pages}.${n}`}, actor: human});
				}
			} while (cursor);

			expect(pages).toBeGreaterThan(15);
			expect(new Set(seen).size, 'no item read twice').toBe(seen.length);
			const seenSet = new Set(seen);
			expect([...initial].filter(id => !deleted.has(id) && !seenSet.has(id)), 'every item there throughout is seen').toEqual([]);
		});
	}
});

describe('refusals change nothing', () => {
	it('a bad query term is a bad_query StoreError naming the term; the file is unchanged', () => {
		const store = kitStore(kitItems(20));
		const before = snapshot(store);
		expect(refusal(() => store.listPage('kit', {where: 'status:new stauts:new'}))).toMatchObject({error: 'bad_query', term: 'stauts:new', message: expect.stringMatching(/^stauts is not a field of this channel; known: title, code,/) as string});
		expect(refusal(() => store.countMatches('kit', 'points:>lots'))).toEqual({error: 'bad_query', term: 'points:>lots', message: 'points is a number field: use a number, got "lots"'});
		try {
			store.listPage('kit', {where: 'owner:none'});
		} catch (error) {
			expect((error as StoreError).message).toMatch(/^bad query term "owner:none": owner is not a field of this channel; known: /);
		}

		expect(refusal(() => store.listPage('kit', {where: 'x'.repeat(2001)}))).toEqual({error: 'invalid_argument', message: 'where must be query text of at most 2000 characters'});
		expect(snapshot(store)).toEqual(before);
	});

	it('unknown filter keys (__proto__ and constructor included) are refused naming the filterable fields; the file is unchanged', () => {
		const store = kitStore(kitItems(20));
		const before = snapshot(store);
		for (const key of ['colour', '__proto__', 'constructor', 'title', 'points']) {
			const filter = JSON.parse(`{"status": "new", ${JSON.stringify(key)}: "x"}`) as Record<string, unknown>;
			expect(refusal(() => store.listPage('kit', {filter})), key).toEqual({error: 'invalid_argument', message: `filter.${key} is not a select or boolean field of channel kit; filterable: done, status`});
		}

		expect(snapshot(store)).toEqual(before);
	});
});

describe('per-channel indexes', () => {
	const indexes = (store: Store) => store.db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'items' AND sql IS NOT NULL ORDER BY name").all() as Array<{name: string; sql: string}>;

	it('every field index is partial to its channel, one per sortable field plus unique lookups', () => {
		const store = kitStore();
		const names = indexes(store).map(index => index.name);
		expect(names).toEqual(['items:kit:code', 'items:kit:done', 'items:kit:due', 'items:kit:pct', 'items:kit:points', 'items:kit:price', 'items:kit:ratio', 'items:kit:stars', 'items:kit:status', 'items_by_channel']);
		for (const index of indexes(store).filter(candidate => candidate.name !== 'items_by_channel')) {
			expect(index.sql).toMatch(/ WHERE channel_id = 'kit'$/);
		}
	});

	it('one channel\'s deeply nested JSON does not break another channel\'s indexes', () => {
		const store = openStore(join(tempDir(), 'two.db'), {create: true});
		store.importChannel({channel: {id: 'alpha', name: 'Alpha', fields: [{key: 'x', label: 'X', type: 'select', is_required: false, is_unique: false, config: {options: [{value: 'a', label: 'A'}]}}]}, items: [{values: {x: 'a'}}]});
		// As deep as the store accepts (deeper values are refused before they reach an index).
		const deep = JSON.parse('['.repeat(MAX_VALUE_NESTING) + ']'.repeat(MAX_VALUE_NESTING)) as unknown;
		const result = store.importChannel({channel: {id: 'beta', name: 'Beta', fields: [{key: 'x', label: 'X', type: 'json', is_required: false, is_unique: false, config: {}}]}, items: [{values: {x: deep}}]});
		expect(result.items_created).toBe(1);
		store.createItem('alpha', {x: 'a'}, human);
		expect(store.listPage('alpha', {where: 'x:a'}).items).toHaveLength(2);
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
		expect(reopened.db.pragma('user_version', {simple: true})).toBe(3);
		expect(indexes(reopened).map(index => index.name)).toEqual(indexes(kitStore()).map(index => index.name));
		expect(reopened.listPage('kit', {where: 'sort:-status status:new', limit: 50}).items.length).toBeGreaterThan(0);
		reopened.close();
	});

	it('uniqueness checks read through the channel\'s partial index on the unique field', () => {
		const imported = kitStore(kitItems(20));
		const taken = storedItems(imported).find(item => typeof item.values.code === 'string')!.values.code;
		// A fresh store on the file: its writer prepares the lookup on first use, watched here.
		const store = openStore(imported.path);
		const plans: string[] = [];
		const prepare = store.db.prepare.bind(store.db);
		store.db.prepare = ((sql: string) => {
			if (sql.includes('AND id != ?')) {
				plans.push(...(prepare(`EXPLAIN QUERY PLAN ${sql}`).all('x', 'y') as Array<{detail: string}>).map(row => row.detail));
			}

			return prepare(sql);
		}) as typeof store.db.prepare;
		expect(refusal(() => store.createItem('kit', {title: 'twin', code: taken}, human))).toMatchObject({error: 'validation_failed', fields: [{key: 'code'}]});
		store.db.prepare = prepare;
		expect(plans).toEqual([expect.stringMatching(/^SEARCH items USING INDEX items:kit:code \(<expr>=\?\)/) as string]);
	});

	it('sorted pages read through the sort field\'s index (no sort of the whole channel)', () => {
		const store = kitStore(kitItems(50));
		const plans: string[] = [];
		const prepare = store.db.prepare.bind(store.db);
		store.db.prepare = ((sql: string) => {
			if (sql.startsWith('SELECT items.*')) {
				plans.push(...(prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from({length: (sql.match(/\?/g) ?? []).length}, () => 1)) as Array<{detail: string}>).map(row => row.detail));
			}

			return prepare(sql);
		}) as typeof store.db.prepare;
		const first = store.listPage('kit', {where: 'sort:-due done:true', limit: 3});
		store.listPage('kit', {where: 'sort:-due done:true', cursor: first.next_cursor, limit: 3});
		store.db.prepare = prepare;
		expect(plans.length).toBeGreaterThan(0);
		for (const plan of plans) {
			expect(plan).toMatch(/^SEARCH items USING INDEX items:kit:due \(<expr>/);
		}
	});
});
