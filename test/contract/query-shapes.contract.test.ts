// Real-shaped queries on both backends alike: multi_select membership (an indexed table on SQLite,
// a GIN index on PostgreSQL) kept in step by every write, author substrings, phrases, list terms
// bounded alike, and searchItems ranked by relevance (bm25, ts_rank_cd) or in the query's order.

import {describe, expect, it} from 'vitest';
import type {AsyncStore} from '../../store/api.js';
import {MAX_LIST_VALUES} from '../../store/query/parse.js';
import {notePgOff} from '../support/pg.js';
import {human, QUERY_NOW as NOW} from '../store/helpers.js';
import {BACKENDS, refusalOf, storesOn, type Backend} from './backends.js';

const LABELS = ['bug', 'docs', 'ice', 'perf', 'ui'];

const ISSUES = {
	id: 'issues', name: 'Issues', fields: [
		{key: 'number', label: 'Number', type: 'number', is_unique: true, is_required: true, config: {integer: true}},
		{key: 'title', label: 'Title', type: 'text'},
		{key: 'body', label: 'Body', type: 'text', config: {long: true}},
		{key: 'state', label: 'State', type: 'select', config: {options: [{value: 'open', label: 'Open'}, {value: 'closed', label: 'Closed'}]}},
		{key: 'labels', label: 'Labels', type: 'multi_select', config: {options: LABELS.map(value => ({value, label: value.toUpperCase()}))}},
		{key: 'author', label: 'Author', type: 'text'},
		{key: 'meta', label: 'Meta', type: 'json'},
	],
};

type Values = Record<string, unknown>;

describe.each(BACKENDS)('real-shaped queries on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const {fresh} = storesOn(backend);

	async function issues(items: Values[]): Promise<AsyncStore> {
		const store = await fresh();
		await store.importChannel({channel: ISSUES, items: items.map(values => ({values}))});
		return store;
	}

	/** The numbers `where` matches, newest first, read page by page with before_id; the count agrees. */
	async function numbers(store: AsyncStore, where: string, limit = 50): Promise<number[]> {
		const seen: number[] = [];
		let beforeId: string | null = null;
		do {
			const page = await store.listPage('issues', {where, limit, beforeId, now: NOW});
			seen.push(...page.items.map(item => Number(item.preview.number)));
			beforeId = page.next_before_id;
		} while (beforeId);

		expect(await store.countMatches('issues', where, NOW)).toBe(seen.length);
		return seen;
	}

	const labelsOf = (n: number) => LABELS.filter((_, index) => n % (index + 2) === 0);
	const many = (count: number) => Array.from({length: count}, (_, index) => ({number: index + 1, title: `issue ${index + 1}`, state: index % 3 === 0 ? 'open' : 'closed', labels: labelsOf(index + 1), author: ['aiko', 'bram', 'aikon'][index % 3]}));
	const expected = (count: number, keep: (n: number) => boolean) => Array.from({length: count}, (_, index) => count - index).filter(keep);

	it('labels:X, labels:a,b, -labels:X and labels:none match the items holding the values, newest first, paged by before_id', async () => {
		const store = await issues(many(60));
		expect(await numbers(store, 'labels:bug', 7)).toEqual(expected(60, n => labelsOf(n).includes('bug')));
		expect(await numbers(store, 'labels:ice,ui')).toEqual(expected(60, n => labelsOf(n).some(label => label === 'ice' || label === 'ui')));
		expect(await numbers(store, '-labels:bug')).toEqual(expected(60, n => !labelsOf(n).includes('bug')));
		expect(await numbers(store, 'labels:none')).toEqual(expected(60, n => labelsOf(n).length === 0));
		expect(await numbers(store, 'labels:docs labels:perf')).toEqual(expected(60, n => labelsOf(n).includes('docs') && labelsOf(n).includes('perf')));
		// With another term and another order: the same items, in that order.
		const sorted = (await store.listPage('issues', {where: 'labels:bug state:open sort:-number', now: NOW})).items.map(item => Number(item.preview.number));
		expect(sorted).toEqual(expected(60, n => labelsOf(n).includes('bug') && (n - 1) % 3 === 0));
	});

	it('membership follows every write: create, edit, delete, upsert, and a multi_select added by a schema change', async () => {
		const store = await issues([{number: 1, labels: ['bug']}, {number: 2, labels: ['docs']}, {number: 3}]);
		const created = await store.createItem('issues', {number: 4, labels: ['bug', 'ui']}, human);
		expect(await numbers(store, 'labels:bug')).toEqual([4, 1]);
		const [second] = (await store.listPage('issues', {where: 'number:2'})).items;
		await store.editItem({channelId: 'issues', itemId: second!.id, values: {labels: ['bug']}, expectedVersion: second!.version, actor: human});
		expect(await numbers(store, 'labels:bug')).toEqual([4, 2, 1]);
		expect(await numbers(store, 'labels:docs')).toEqual([]);
		await store.deleteItem('issues', created.item.id, human);
		expect(await numbers(store, 'labels:ui')).toEqual([]);
		await store.upsertItems({channelId: 'issues', key: 'number', rows: [{values: {number: 1, labels: ['perf']}, at: 'row 1'}, {values: {number: 5, labels: ['perf', 'bug']}, at: 'row 2'}]});
		expect(await numbers(store, 'labels:perf')).toEqual([5, 1]);
		expect(await numbers(store, 'labels:bug')).toEqual([5, 2]);
		await store.changeChannel('issues', {kind: 'add_field', key: 'teams', type: 'multi_select', config: {options: [{value: 'core', label: 'Core'}]}});
		const [third] = (await store.listPage('issues', {where: 'number:3'})).items;
		await store.editItem({channelId: 'issues', itemId: third!.id, values: {teams: ['core']}, expectedVersion: third!.version, actor: human});
		expect(await numbers(store, 'teams:core')).toEqual([3]);
	});

	it('author:X is a substring of the author, a phrase its words in a row', async () => {
		const store = await issues([
			{number: 1, author: 'aiko', body: 'Expected behavior: it saves the file.'},
			{number: 2, author: 'Aikon', body: 'The behavior expected here differs.'},
			{number: 3, author: 'bram', body: 'expected  behaviour, spelled otherwise'},
		]);
		expect(await numbers(store, 'author:aiko')).toEqual([2, 1]);
		expect(await numbers(store, 'author:bram')).toEqual([3]);
		expect(await numbers(store, '"expected behavior"')).toEqual([1]);
		expect(await numbers(store, 'expected behavior')).toEqual([2, 1]);
	});

	it('author:=X is the whole author, ignoring the case of ASCII letters: not a substring; lists, negation; an empty value is refused', async () => {
		const store = await issues([
			{number: 1, author: 'aiko'},
			{number: 2, author: 'Aikon'},
			{number: 3, author: 'AIKO'},
			{number: 4, author: 'bram'},
			{number: 5},
		]);
		expect(await numbers(store, 'author:=aiko')).toEqual([3, 1]);
		expect(await numbers(store, 'author:=Aikon')).toEqual([2]);
		expect(await numbers(store, 'author:=aik')).toEqual([]);
		expect(await numbers(store, 'author:=aiko,bram')).toEqual([4, 3, 1]);
		expect(await numbers(store, '-author:=aiko')).toEqual([5, 4, 2]);
		expect(await numbers(store, 'author:=aiko sort:number')).toEqual([1, 3]);
		// The substring form keeps its meaning.
		expect(await numbers(store, 'author:aik')).toEqual([3, 2, 1]);
		expect(await refusalOf(() => store.listPage('issues', {where: 'author:='}))).toMatchObject({error: 'bad_query', term: 'author:='});
	});

	it('a 1 MiB cell comes in whole, by an import and by an upsert, and its words are found', async () => {
		const cell = `needle ${'é'.repeat(262_144)}${'x'.repeat(524_281)}`;
		const store = await issues([{number: 1, body: cell}]);
		await store.upsertItems({channelId: 'issues', key: 'number', rows: [{at: 'line 2', values: {number: 2, title: cell}}]});
		const byNumber = async (number: number) => store.readItem('issues', (await store.listPage('issues', {where: `number:${number}`})).items[0]!.id);
		expect(Buffer.byteLength((await byNumber(1)).values.body as string)).toBe(1 << 20);
		expect((await byNumber(1)).values.body).toBe(cell);
		expect((await byNumber(2)).values.title).toBe(cell);
		expect(await numbers(store, 'needle')).toEqual([2, 1]);
		// The exact index holds a prefix of each title (an index entry is bounded: the megabyte title above fits); the whole value decides.
		const long = 'é'.repeat(300);
		await store.upsertItems({channelId: 'issues', key: 'number', rows: [{at: 'line 3', values: {number: 3, title: `${long}b`}}, {at: 'line 4', values: {number: 4, title: `${long}c`}}]});
		expect(await numbers(store, `title:=${long}C`)).toEqual([4]);
		expect(await numbers(store, `title:=${long}`)).toEqual([]);
	});

	it(`a list takes at most ${MAX_LIST_VALUES} values on both backends: more is a bad_query naming the term`, async () => {
		const store = await issues(many(3));
		// One-letter values: 996 of them fit the 2000 characters of query text.
		const list = (count: number, key: string, value = 'q') => `${key}:${Array.from({length: count}, () => value).join(',')}`;
		expect(await store.countMatches('issues', list(MAX_LIST_VALUES, 'author'), NOW)).toBe(0);
		expect(await store.countMatches('issues', list(MAX_LIST_VALUES, 'author', 'k'), NOW)).toBe(2);
		const refusal = await refusalOf(() => store.listPage('issues', {where: list(996, 'author')}));
		expect(refusal).toMatchObject({error: 'bad_query', term: list(996, 'author')});
		expect((refusal as {message: string}).message).toContain(`author takes at most ${MAX_LIST_VALUES} values in one list, got 996`);
		expect(await refusalOf(() => store.countMatches('issues', list(MAX_LIST_VALUES + 1, 'number', '1'), NOW))).toMatchObject({error: 'bad_query'});
	});

	it('a json value keeps its key order on both backends, nested too, through create, import, edit and every read', async () => {
		const value = {b: 1, a: 2, nested: {z: [{d: 1, c: 2}], y: null}, $sift_json: 'not a marker'};
		const marker = {$sift_json: '{"looks":"like one"}'};
		const store = await issues([{number: 1, meta: value}, {number: 2, meta: marker}, {number: 3, meta: [3, 'x']}]);
		const created = await store.createItem('issues', {number: 4, meta: value}, human);
		const text = async (itemId: string) => JSON.stringify((await store.readItem('issues', itemId)).values.meta);
		expect(await text(created.item.id)).toBe(JSON.stringify(value));
		const ids = new Map((await store.listPage('issues')).items.map(item => [Number(item.preview.number), item.id]));
		expect(await text(ids.get(1)!)).toBe(JSON.stringify(value));
		expect(await text(ids.get(2)!)).toBe(JSON.stringify(marker));
		expect(await text(ids.get(3)!)).toBe('[3,"x"]');
		const edited = {y: 1, x: {q: 1, p: 2}};
		const item = await store.readItem('issues', ids.get(3)!);
		await store.editItem({channelId: 'issues', itemId: item.id, values: {meta: edited}, expectedVersion: item.version, actor: human});
		expect(await text(item.id)).toBe(JSON.stringify(edited));
		const exported = (await store.readItems('issues', {where: 'meta:none -meta:none number:1..4'})).items;
		expect(exported).toEqual([]);
		expect((await store.readItems('issues')).items.map(whole => JSON.stringify(whole.values.meta))).toEqual([value, marker, edited, value].map(meta => JSON.stringify(meta)));
		expect(await store.countMatches('issues', 'meta:none', NOW)).toBe(0);
	});

	it('searchItems ranks by relevance when the query has words: more of the words ranks higher, every match once over the pages', async () => {
		const store = await issues([
			{number: 1, title: 'one', body: 'a crash when saving'},
			{number: 2, title: 'two', body: 'crash crash crash: the crash repeats, crash after crash'},
			{number: 3, title: 'three', body: 'nothing to see'},
			{number: 4, title: 'four', body: 'crash and a second crash'},
			{number: 5, title: 'crash in the title only', body: 'quiet'},
		]);
		const first = await store.searchItems('issues', {query: 'crash', limit: 2, now: NOW});
		expect(first.ranked).toBe(true);
		expect(first.items.map(item => item.preview.number)).toEqual([2, 4]);
		expect(first.items[0]!.score!).toBeGreaterThan(first.items[1]!.score!);
		const rest = await store.searchItems('issues', {query: 'crash', limit: 50, beforeId: first.next_before_id, now: NOW});
		// The title's match has no long-text relevance: last, with score 0.
		expect(rest.items.map(item => item.preview.number)).toEqual([1, 5]);
		expect(rest.items.at(-1)!.score).toBe(0);
		expect(rest.next_before_id).toBeNull();
		expect(rest.candidates).toBe(4);
		expect(rest.more_matches).toBe(false);
		// A phrase ranks too; other terms narrow the candidates.
		expect((await store.searchItems('issues', {query: '"second crash" -number:2', now: NOW})).items.map(item => item.preview.number)).toEqual([4]);
	});

	it('searchItems without words, or with a sort term, follows the query\'s order with score null, paged by before_id', async () => {
		const store = await issues(many(12));
		const first = await store.searchItems('issues', {query: 'state:closed sort:number', limit: 3, now: NOW});
		expect(first.ranked).toBe(false);
		expect(first.items.map(item => [item.preview.number, item.score])).toEqual([[2, null], [3, null], [5, null]]);
		const second = await store.searchItems('issues', {query: 'state:closed sort:number', limit: 3, beforeId: first.next_before_id, now: NOW});
		expect(second.items.map(item => item.preview.number)).toEqual([6, 8, 9]);
		const newest = await store.searchItems('issues', {query: 'author:bram', limit: 2, now: NOW});
		expect(newest.items.map(item => item.preview.number)).toEqual([11, 8]);
		const older = await store.searchItems('issues', {query: 'author:bram', limit: 2, beforeId: newest.next_before_id, now: NOW});
		expect(older.items.map(item => item.preview.number)).toEqual([5, 2]);
		expect(await refusalOf(() => store.searchItems('issues', {query: 'crash', limit: 51}))).toMatchObject({error: 'invalid_argument'});
		expect(await refusalOf(() => store.searchItems('issues', {query: 'nosuch:1'}))).toMatchObject({error: 'bad_query', term: 'nosuch:1'});
	});
});
