// The query language and name lookup, run against both backends (SQLite and PostgreSQL) through the
// one asynchronous interface: every operator compared with a plain JavaScript reading of the same
// items, `none`, relative dates from a fixed now, every sort paged in both directions with keyset
// cursors (also while items come and go), from:'end', match counts, refusals that change nothing,
// and findItemsNamed. (SQLite's index layout and plans: test/store/query.test.ts.)

import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {mulberry32} from '../../demo-data/generate.js';
import type {AsyncStore} from '../../store/api.js';
import type {Page, PageQuery, Values} from '../../store/index.js';
import {notePgOff} from '../support/pg.js';
import {agent, human, KIT_STATUSES, kitItems, QUERY_NOW as NOW} from '../store/helpers.js';
import {allItemIds, BACKENDS, kitStore, refusalOf, stateOf, type Backend} from './backends.js';

type Stored = {id: string; values: Values};

/** Every page of a query, following next_cursor. */
async function listAll(store: AsyncStore, query: PageQuery, limit = 7): Promise<string[]> {
	const ids: string[] = [];
	let cursor: string | null | undefined;
	let pages = 0;
	do {
		const page: Page = await store.listPage('kit', {...query, cursor, limit, now: NOW});
		ids.push(...page.items.map(item => item.id));
		cursor = page.next_cursor;
		expect(++pages).toBeLessThan(1000);
	} while (cursor);
	return ids;
}

/** The imported items, oldest first: ids from the store, values as generated (stored unchanged). */
async function importedItems(store: AsyncStore, items: Array<{values: Values}>): Promise<Stored[]> {
	const ids = (await allItemIds(store, 'kit')).reverse();
	expect(ids).toHaveLength(items.length);
	return ids.map((id, index) => ({id, values: items[index]!.values}));
}

/** The order a sort promises: set values first in the sort's direction, ties by creation the same way, unset last. */
function expectedOrder(items: Stored[], key: string, descending: boolean, rank: (value: unknown) => number | string | boolean): string[] {
	const withIndex = items.map((item, seq) => ({item, seq}));
	// An empty list is unset too (a multi_select sorts by its first value).
	const isUnset = (value: unknown) => value === undefined || (Array.isArray(value) && value.length === 0);
	const set = withIndex.filter(({item}) => !isUnset(item.values[key]));
	const unset = withIndex.filter(({item}) => isUnset(item.values[key]));
	const sign = descending ? -1 : 1;
	set.sort((a, b) => {
		const [x, y] = [rank(a.item.values[key]), rank(b.item.values[key])];
		return (x < y ? -1 : x > y ? 1 : a.seq - b.seq) * sign;
	});
	unset.sort((a, b) => (a.seq - b.seq) * sign);
	return [...set, ...unset].map(({item}) => item.id);
}

const SORTS: Array<[string, (value: unknown) => number | string | boolean]> = [
	['status', value => KIT_STATUSES.indexOf(value as string)],
	['due', value => value as string],
	['points', value => value as number],
	['price', value => value as number],
	['done', value => value as boolean],
	['code', value => value as string],
	// Short text: ASCII letters lowercased ("CRASH in sync" beside "crash on start"), ties by creation.
	['title', value => (value as string).toLowerCase()],
	['reporter', value => (value as string).toLowerCase()],
	// A multi_select: the first of its values in option order (ui before api), so most items tie.
	['tags', value => Math.min(...(value as string[]).map(tag => ['ui', 'api'].indexOf(tag)))],
];

const has = (values: Values, key: string) => values[key] !== undefined && values[key] !== null && !(Array.isArray(values[key]) && (values[key] as unknown[]).length === 0);
const text = (values: Values, key: string) => (typeof values[key] === 'string' ? (values[key] as string).toLowerCase() : '');
/** Full-text search's reading of long text: some word (a run of letters and digits), lowercased, starts with `needle`. */
const startsAWord = (values: Values, key: string, needle: string) => (text(values, key).match(/[\p{L}\p{N}]+/gu) ?? []).some(word => word.startsWith(needle));

const TERM_CASES: Array<[string, (values: Values) => boolean]> = [
	['status:new', v => v.status === 'new'],
	['status:New,"won\'t fix"', v => v.status === 'new' || v.status === 'wont_fix'],
	['-status:new', v => v.status !== 'new'],
	['status:none', v => !has(v, 'status')],
	['-status:none', v => has(v, 'status')],
	['tags:ui', v => Array.isArray(v.tags) && (v.tags as string[]).includes('ui')],
	['tags:ui,api', v => Array.isArray(v.tags) && (v.tags as string[]).length > 0],
	['tags:none', v => !has(v, 'tags')],
	['-tags:api', v => !(Array.isArray(v.tags) && (v.tags as string[]).includes('api'))],
	['done:true', v => v.done === true],
	['done:false', v => v.done === false],
	['-done:true', v => v.done !== true],
	['done:none', v => v.done === undefined],
	['points:>3', v => typeof v.points === 'number' && v.points > 3],
	['points:<3', v => typeof v.points === 'number' && v.points < 3],
	['points:>=3', v => typeof v.points === 'number' && v.points >= 3],
	['points:<=2', v => typeof v.points === 'number' && v.points <= 2],
	['points:2..8', v => typeof v.points === 'number' && v.points >= 2 && v.points <= 8],
	['-points:2..8', v => !(typeof v.points === 'number' && v.points >= 2 && v.points <= 8)],
	['points:0,13', v => v.points === 0 || v.points === 13],
	['points:none', v => v.points === undefined],
	['price:>=10', v => typeof v.price === 'number' && v.price >= 10],
	['price:9.5', v => v.price === 9.5],
	['stars:1..2', v => typeof v.stars === 'number' && v.stars <= 2],
	['due:<today', v => typeof v.due === 'string' && v.due < '2026-01-15'],
	['due:today', v => v.due === '2026-01-15'],
	['due:yesterday..tomorrow', v => typeof v.due === 'string' && v.due >= '2026-01-14' && v.due <= '2026-01-16'],
	['due:tomorrow..+1w', v => typeof v.due === 'string' && v.due >= '2026-01-16' && v.due <= '2026-01-22'],
	['due:<+7d', v => typeof v.due === 'string' && v.due < '2026-01-22'],
	['due:>-2w', v => typeof v.due === 'string' && v.due > '2026-01-01'],
	['due:>=2026-01-22', v => typeof v.due === 'string' && v.due >= '2026-01-22'],
	['due:none', v => !has(v, 'due')],
	// A bare word: a substring of the short text, or the start of a word of the long text (notes).
	['crash', v => text(v, 'title').includes('crash') || text(v, 'code').includes('crash') || text(v, 'reporter').includes('crash') || startsAWord(v, 'notes', 'crash')],
	['"in sync"', v => text(v, 'title').includes('in sync')],
	['-crash', v => !text(v, 'title').includes('crash') && !startsAWord(v, 'notes', 'crash')],
	['title:sync,login', v => text(v, 'title').includes('sync') || text(v, 'title').includes('login')],
	['reporter:DANA', v => text(v, 'reporter').includes('dana')],
	['code:none', v => !has(v, 'code')],
	['status:new done:true points:>0 -tags:ui', v => v.status === 'new' && v.done === true && typeof v.points === 'number' && v.points > 0 && !(Array.isArray(v.tags) && (v.tags as string[]).includes('ui'))],
];

describe.each(BACKENDS)('query language on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const open: AsyncStore[] = [];
	const kit = async (items: unknown[] = []) => {
		const store = await kitStore(backend, items);
		open.push(store);
		return store;
	};

	beforeAll(() => backend.setUp());
	afterAll(async () => {
		await Promise.all(open.splice(0).map(store => store.close()));
		await backend.tearDown();
	});

	describe('terms select the items a plain reading of the values selects', () => {
		let store: AsyncStore;
		let items: Stored[];
		beforeAll(async () => {
			const generated = kitItems(240);
			store = await kit(generated);
			items = await importedItems(store, generated);
			// An agent's refused edit opens a follow-up on the newest item.
			expect(await refusalOf(() => store.editItem({channelId: 'kit', itemId: items.at(-1)!.id, values: {status: 'Done'}, actor: agent()}))).toMatchObject({error: 'validation_failed'});
		}, 30_000);

		for (const [query, holds] of TERM_CASES) {
			it(query, async () => {
				const expected = items.filter(item => holds(item.values)).map(item => item.id).reverse();
				expect(expected.length, 'the case matches something').toBeGreaterThan(0);
				expect(expected.length, 'the case does not match everything').toBeLessThan(items.length);
				expect(await listAll(store, {where: query})).toEqual(expected);
				expect(await store.countMatches('kit', query, NOW)).toBe(expected.length);
			});
		}

		it('has:followup is the items with an open follow-up', async () => {
			const withFollowUp = items.at(-1)!.id;
			expect(await listAll(store, {where: 'has:followup'})).toEqual([withFollowUp]);
			expect(await listAll(store, {where: '-has:followup'})).toHaveLength(items.length - 1);
			await store.editItem({channelId: 'kit', itemId: withFollowUp, values: {status: 'new'}, actor: agent()});
			expect(await listAll(store, {where: 'has:followup'})).toEqual([]);
			expect(await store.countMatches('kit', 'has:followup')).toBe(0);
			// Undo, so the other cases keep reading the generated values.
			await store.editItem({channelId: 'kit', itemId: withFollowUp, values: {status: items.at(-1)!.values.status ?? null}, actor: human});
		});

		it('where, filter and search combine, all holding', async () => {
			const both = await listAll(store, {where: 'points:>3', filter: {status: 'new'}, search: 'crash'});
			const expected = items.filter(({values: v}) => typeof v.points === 'number' && v.points > 3 && v.status === 'new' && (text(v, 'title').includes('crash') || startsAWord(v, 'notes', 'crash'))).map(item => item.id).reverse();
			expect(expected.length).toBeGreaterThan(0);
			expect(both).toEqual(expected);
		});

		it('relative dates count from the now given, not the clock', async () => {
			const later = new Date(2026, 0, 22, 9);
			const expected = items.filter(({values: v}) => v.due === '2026-01-22').length;
			expect(expected).toBeGreaterThan(0);
			expect(await store.countMatches('kit', 'due:today', later)).toBe(expected);
			const page = await store.listPage('kit', {where: 'due:today', now: later, limit: 50});
			expect(page.items.every(item => item.preview.due === '2026-01-22')).toBe(true);
		});
	});

	describe('sorted pages', () => {
		let store: AsyncStore;
		let items: Stored[];
		beforeAll(async () => {
			const generated = kitItems(150, 3);
			store = await kit(generated);
			items = await importedItems(store, generated);
		}, 30_000);

		for (const [key, rank] of SORTS) {
			for (const descending of [false, true]) {
				const sort = `${descending ? '-' : ''}${key}`;
				it(`sort:${sort} pages forward in option/value order, unset last; filtered too`, async () => {
					const expected = expectedOrder(items, key, descending, rank);
					expect(await listAll(store, {where: `sort:${sort}`})).toEqual(expected);
					expect(await listAll(store, {sort}, 50)).toEqual(expected);
					const filtered = expectedOrder(items.filter(item => item.values.done === true), key, descending, rank);
					expect(await listAll(store, {where: `done:true sort:${sort}`}, 4)).toEqual(filtered);
				});

				it(`sort:${sort} from the end, paged backward with prev_cursor, gives the same order`, async () => {
					const expected = expectedOrder(items, key, descending, rank);
					const pages: string[][] = [];
					let page = await store.listPage('kit', {sort, from: 'end', limit: 9});
					expect(page.next_cursor).toBeNull();
					pages.unshift(page.items.map(item => item.id));
					while (page.prev_cursor) {
						page = await store.listPage('kit', {sort, cursor: page.prev_cursor, limit: 9});
						pages.unshift(page.items.map(item => item.id));
					}

					expect(pages.flat()).toEqual(expected);
					expect(pages.at(-1)).toEqual(expected.slice(-9));
				});
			}
		}

		it('default order: newest first; sort:id oldest first; from end gives the oldest page', async () => {
			const newest = items.map(item => item.id).reverse();
			expect(await listAll(store, {where: ''})).toEqual(newest);
			expect(await listAll(store, {where: 'sort:-id'})).toEqual(newest);
			expect(await listAll(store, {where: 'sort:id'})).toEqual([...newest].reverse());
			const oldest = await store.listPage('kit', {from: 'end', limit: 10});
			expect(oldest.items.map(item => item.id)).toEqual(newest.slice(-10));
			expect(oldest.next_cursor).toBeNull();
			expect(oldest.next_before_id).toBeNull();
			const before = await store.listPage('kit', {cursor: oldest.prev_cursor, limit: 10});
			expect(before.items.map(item => item.id)).toEqual(newest.slice(-20, -10));
			expect((await store.listPage('kit', {cursor: before.next_cursor, limit: 10})).items.map(item => item.id)).toEqual(newest.slice(-10));
			expect((await store.listPage('kit', {where: '', limit: 10})).prev_cursor).toBeNull();
		});

		it('from:end of a filtered sort is the last page of its matches', async () => {
			const expected = expectedOrder(items.filter(item => item.values.status === 'new'), 'due', true, value => value as string);
			const last = await store.listPage('kit', {where: 'status:new sort:-due', from: 'end', limit: 6});
			expect(last.items.map(item => item.id)).toEqual(expected.slice(-6));
			expect(last.next_cursor).toBeNull();
			expect(last.prev_cursor).toEqual(expect.any(String));
		});

		it('a cursor made on one page reads the same next page every time, and pages have the latest sequence', async () => {
			const first = await store.listPage('kit', {sort: '-points', limit: 5});
			const again = await store.listPage('kit', {sort: '-points', cursor: first.next_cursor, limit: 5});
			expect((await store.listPage('kit', {sort: '-points', cursor: first.next_cursor, limit: 5})).items).toEqual(again.items);
			expect(first.latest_sequence).toBe(await store.latestSequence('kit'));
		});

		it('before_id pages the default order of a where query; next_before_id follows', async () => {
			const expected = items.filter(item => item.values.status === 'new').map(item => item.id).reverse();
			const first = await store.listPage('kit', {where: 'status:new', limit: 5});
			expect(first.next_before_id).toBe(expected[4]);
			expect((await store.listPage('kit', {where: 'status:new', beforeId: first.next_before_id, limit: 5})).items.map(item => item.id)).toEqual(expected.slice(5, 10));
			const sorted = await store.listPage('kit', {where: 'sort:due', limit: 5});
			expect(sorted.next_before_id).toBeNull();
			expect(sorted.next_cursor).toEqual(expect.any(String));
		});

		it('cursors are checked: other orders, garbage, and mixed cursors are refused', async () => {
			const page = await store.listPage('kit', {sort: 'due', limit: 5});
			expect(await refusalOf(() => store.listPage('kit', {sort: '-due', cursor: page.next_cursor}))).toEqual({error: 'invalid_argument', message: 'cursor belongs to the order sort:due, not sort:-due; start again without a cursor'});
			for (const cursor of ['nonsense', Buffer.from('{"o":"due","d":"x","v":1,"s":2}').toString('base64url'), Buffer.from('{"o":"due","d":"a","v":{},"s":2}').toString('base64url'), 42]) {
				expect(await refusalOf(() => store.listPage('kit', {sort: 'due', cursor: cursor as string}))).toMatchObject({error: 'invalid_argument', message: expect.stringMatching(/^cursor must be a cursor from a previous page/) as string});
			}

			expect(await refusalOf(() => store.listPage('kit', {where: 'sort:due', beforeId: items[5]!.id}))).toEqual({error: 'invalid_argument', message: 'before_id pages the default order (newest first); with sort:due use cursor'});
			expect(await refusalOf(() => store.listPage('kit', {cursor: page.next_cursor, beforeId: items[5]!.id}))).toEqual({error: 'invalid_argument', message: 'give at most one of cursor, before_id and from'});
			expect(await refusalOf(() => store.listPage('kit', {sort: 'due', cursor: page.next_cursor, from: 'end'}))).toEqual({error: 'invalid_argument', message: 'give at most one of cursor, before_id and from'});
			expect(await refusalOf(() => store.listPage('kit', {from: 'middle' as 'end'}))).toEqual({error: 'invalid_argument', message: 'from must be "start" or "end", got "middle"'});
			expect(await refusalOf(() => store.listPage('kit', {sort: 'due desc'}))).toEqual({error: 'invalid_argument', message: 'sort must be a field key or -key, got "due desc"'});
			expect(await refusalOf(() => store.listPage('kit', {where: 'sort:due', sort: 'points'}))).toMatchObject({error: 'bad_query', term: 'sort:points', message: 'a query takes one sort term'});
			expect(await refusalOf(() => store.listPage('kit', {sort: 'notes'}))).toMatchObject({error: 'bad_query', term: 'sort:notes', message: expect.stringMatching(/^notes cannot be sorted \(a long text field\); sortable: id, title, code, /) as string});
		});
	});

	it('sort:title ignores ASCII case and pages across ties by creation, one item a page, both ways', async () => {
		const titles = ['b', 'B', 'a', 'A', 'b', 'Éa', 'ab'];
		const store = await kit(titles.map(title => ({values: {title}})));
		const ids = (await allItemIds(store, 'kit')).reverse();
		const byTitle = (...indexes: number[]) => indexes.map(index => ids[index]!);
		const ascending = byTitle(2, 3, 6, 0, 1, 4, 5);
		expect(await listAll(store, {where: 'sort:title'}, 1)).toEqual(ascending);
		expect(await listAll(store, {sort: '-title'}, 2)).toEqual([...ascending].reverse());
		expect(await listAll(store, {where: 'title:b sort:title'}, 1)).toEqual(byTitle(6, 0, 1, 4));
	});

	describe('sorted paging under change', () => {
		for (const sort of ['-status', 'due', '-points', 'code', 'done', 'reporter', '-tags']) {
			it(`sort:${sort}: creates, deletes and edits of other fields between pages never repeat or skip an item`, async () => {
				const random = mulberry32(sort.length);
				const generated = kitItems(200, 11);
				const store = await kit(generated);
				const initial = new Set(await allItemIds(store, 'kit'));
				const live = [...initial];
				const deleted = new Set<string>();
				const seen: string[] = [];
				let cursor: string | null | undefined;
				let pages = 0;
				let created = 0;
				do {
					const page = await store.listPage('kit', {where: `sort:${sort}`, cursor, limit: 10});
					seen.push(...page.items.map(item => item.id));
					cursor = page.next_cursor;
					pages++;
					// Between pages: 2 creates (with and without the sort field), 2 deletes anywhere, 2
					// edits of fields other than the sort field.
					for (const values of [{title: `late ${pages}`, status: 'new', due: '2026-01-15', points: 3, done: true, code: `L-${++created}`}, {title: `late bare ${pages}`}]) {
						const result = await store.createItem('kit', values, human);
						live.push(result.item.id);
					}

					for (let n = 0; n < 2; n++) {
						const victim = live.splice(Math.floor(random() * live.length), 1)[0]!;
						await store.deleteItem('kit', victim, human);
						deleted.add(victim);
					}

					for (let n = 0; n < 2; n++) {
						await store.editItem({channelId: 'kit', itemId: live[Math.floor(random() * live.length)]!, values: {title: `edited ${pages}.${n}`}, actor: human});
					}
				} while (cursor);

				expect(pages).toBeGreaterThan(15);
				expect(new Set(seen).size, 'no item read twice').toBe(seen.length);
				const seenSet = new Set(seen);
				expect([...initial].filter(id => !deleted.has(id) && !seenSet.has(id)), 'every item there throughout is seen').toEqual([]);
			}, 60_000);
		}
	});

	describe('refusals change nothing', () => {
		it('a bad query term is a bad_query naming the term, what is wrong and what is allowed', async () => {
			const store = await kit(kitItems(20));
			const before = await stateOf(store, 'kit');
			expect(await refusalOf(() => store.listPage('kit', {where: 'status:new stauts:new'}))).toMatchObject({error: 'bad_query', term: 'stauts:new', message: expect.stringMatching(/^stauts is not a field of this channel; known: title, code,/) as string});
			expect(await refusalOf(() => store.countMatches('kit', 'points:>lots'))).toEqual({error: 'bad_query', term: 'points:>lots', message: 'points is a number field: use a number, got "lots"'});
			expect(await refusalOf(() => store.countMatches('kit', 'status:done'))).toMatchObject({error: 'bad_query', term: 'status:done', allowed: [{value: 'new', label: 'New'}, {value: 'in_progress', label: 'In progress'}, {value: 'wont_fix', label: "Won't fix"}]});
			expect(await refusalOf(() => store.listPage('kit', {where: 'x'.repeat(2001)}))).toEqual({error: 'invalid_argument', message: 'where must be query text of at most 2000 characters'});
			expect(await refusalOf(() => store.countMatches('nope', 'status:new'))).toMatchObject({error: 'not_found'});
			await expect(store.listPage('kit', {where: 'owner:none'})).rejects.toThrow(/^bad query term "owner:none": owner is not a field of this channel; known: /);
			expect(await stateOf(store, 'kit')).toEqual(before);
		});

		it('unknown filter keys (__proto__ and constructor included) are refused naming the filterable fields', async () => {
			const store = await kit(kitItems(20));
			const before = await stateOf(store, 'kit');
			for (const key of ['colour', '__proto__', 'constructor', 'title', 'points']) {
				const filter = JSON.parse(`{"status": "new", ${JSON.stringify(key)}: "x"}`) as Record<string, unknown>;
				expect(await refusalOf(() => store.listPage('kit', {filter})), key).toEqual({error: 'invalid_argument', message: `filter.${key} is not a select or boolean field of channel kit; filterable: done, status`});
			}

			expect(await stateOf(store, 'kit')).toEqual(before);
		});
	});

	it('text terms ignore the case of ASCII letters only, on both backends alike', async () => {
		const store = await kit([{values: {title: 'CAFÉ crash'}}, {values: {title: 'café crash'}}, {values: {title: 'tea'}}]);
		const [, lower, upper] = (await store.listPage('kit', {limit: 10})).items.map(item => item.id);
		expect(await listAll(store, {where: 'caf'})).toEqual([lower, upper]);
		expect(await listAll(store, {where: 'title:CAFé'})).toEqual([lower]);
		expect(await listAll(store, {where: 'É'})).toEqual([lower]);
		expect(await store.countMatches('kit', '-é')).toBe(2);
	});

	it('option values with quotes, backslashes and question marks are matched and sorted as written', async () => {
		const store = await backend.open();
		open.push(store);
		const options = ["it's", 'back\\slash', '?', "\\'; --"].map(value => ({value, label: `L ${value}`}));
		await store.importChannel({
			channel: {id: 'odd', name: 'Odd', fields: [
				{key: 'title', label: 'Title', type: 'text', is_required: true, is_unique: false, config: {}},
				{key: 'pick', label: 'Pick', type: 'select', is_required: false, is_unique: false, config: {options}},
			]},
			items: options.map(option => ({values: {title: option.value, pick: option.value}})),
		});
		const titles = async (where: string) => (await store.listPage('odd', {where, limit: 10})).items.map(item => item.preview.title);
		expect(await titles('sort:pick')).toEqual(options.map(option => option.value));
		expect(await titles('sort:-pick')).toEqual(options.map(option => option.value).reverse());
		for (const option of options) {
			expect(await titles(`pick:"${option.value}"`)).toEqual([option.value]);
			expect(await store.countMatches('odd', `-pick:"${option.value}" ?`)).toBe(option.value === '?' ? 0 : 1);
		}
	});

	describe('findItemsNamed', () => {
		const namedChannel = {
			id: 'named',
			name: 'Named',
			fields: [
				{key: 'title', label: 'Title', type: 'text', is_required: true, is_unique: false, config: {}},
				{key: 'ticket', label: 'Ticket', type: 'text', is_required: false, is_unique: true, config: {}},
				{key: 'number', label: 'Number', type: 'number', is_required: false, is_unique: true, config: {}},
				{key: 'price', label: 'Price', type: 'currency', is_required: false, is_unique: true, config: {currency: 'EUR'}},
			],
		};

		it('finds an item by id, by a unique text field and by a unique number field, and says which', async () => {
			const store = await backend.open();
			open.push(store);
			await store.importChannel({channel: namedChannel, items: [
				{values: {title: 'one', ticket: 'BUG-0042', number: 42}},
				{values: {title: 'two', ticket: '42', number: 7, price: 42}},
				{values: {title: 'three'}},
			]});
			const [third, second, first] = (await store.listPage('named', {limit: 10})).items.map(item => item.id);
			expect(await store.findItemsNamed('named', first!)).toEqual([{item_id: first, by: 'id'}]);
			expect(await store.findItemsNamed('named', 'BUG-0042')).toEqual([{item_id: first, by: {field: 'ticket'}}]);
			// "42" is one item's ticket and another's number: both are named, each with how.
			expect(await store.findItemsNamed('named', '42')).toEqual([{item_id: second, by: {field: 'ticket'}}, {item_id: first, by: {field: 'number'}}]);
			expect(await store.findItemsNamed('named', '7.0')).toEqual([{item_id: second, by: {field: 'number'}}]);
			// Text is matched exactly, and a currency field is not probed with a number.
			expect(await store.findItemsNamed('named', 'bug-0042')).toEqual([]);
			expect(await store.findItemsNamed('named', 'three')).toEqual([]);
			expect(await store.findItemsNamed('named', first!.toUpperCase())).toEqual([]);
			expect(third).toBeDefined();
			expect(await refusalOf(() => store.findItemsNamed('nope', 'x'))).toMatchObject({error: 'not_found'});
		});
	});
});
