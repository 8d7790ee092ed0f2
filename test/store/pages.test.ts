// Pages on a real file: before_id cursors that stay correct while items come and go,
// equality filters on select and boolean fields, previews, the schema and latest_sequence.

import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openStore, PAGE_LIMIT, PREVIEW_TEXT_LENGTH, previewValues, type Field, type Store} from '../../store/index.js';
import {mulberry32} from '../../demo-data/generate.js';
import {cleanTempDirs, human, kitChannel, kitStore, refusal} from './helpers.js';

afterAll(() => cleanTempDirs());

describe('cursor stability (before_id)', () => {
	for (const seed of [1, 2, 3]) {
		it(`pages through while items are inserted and deleted between pages (seed ${seed})`, () => {
			const random = mulberry32(seed);
			const store = kitStore(Array.from({length: 300}, (_, index) => ({values: {title: `item ${index}`}})));
			const allIds = () => (store.db.prepare("SELECT id FROM items WHERE channel_id = 'kit'").all() as Array<{id: string}>).map(row => row.id);
			const initial = new Set(allIds());
			const deleted = new Set<string>();
			const seen: string[] = [];
			let beforeId: string | null = null;
			let pages = 0;

			do {
				const page = store.listPage('kit', {beforeId, limit: 20});
				pages++;
				seen.push(...page.items.map(item => item.id));
				beforeId = page.next_before_id;
				// Between pages: 3 inserts, and 4 deletes anywhere (seen, unseen, the cursor's own item).
				for (let n = 0; n < 3; n++) {
					store.createItem('kit', {title: `late ${pages}.${n}`}, human);
				}

				const live = allIds();
				for (let n = 0; n < 4 && live.length > 0; n++) {
					const victim = live.splice(Math.floor(random() * live.length), 1)[0]!;
					store.deleteItem('kit', victim, human);
					deleted.add(victim);
				}
			} while (beforeId !== null);

			expect(pages).toBeGreaterThan(10);
			expect(new Set(seen).size, 'no item seen twice').toBe(seen.length);
			// Newest first: strictly decreasing ids within and across pages.
			expect(seen).toEqual([...seen].sort().reverse());
			const throughout = [...initial].filter(id => !deleted.has(id));
			const seenSet = new Set(seen);
			expect(throughout.filter(id => !seenSet.has(id)), 'every item that existed throughout is seen').toEqual([]);
			// Items created after the pass began are newer than every cursor: never seen.
			expect(seen.every(id => initial.has(id))).toBe(true);
		});
	}

	it('a cursor whose own item was deleted still works', () => {
		const store = kitStore(Array.from({length: 30}, (_, index) => ({values: {title: `i${index}`}})));
		const first = store.listPage('kit', {limit: 10});
		store.deleteItem('kit', first.next_before_id!, human);
		const second = store.listPage('kit', {beforeId: first.next_before_id, limit: 10});
		expect(second.items.map(item => item.id)[0]! < first.next_before_id!).toBe(true);
		expect(second.items).toHaveLength(10);
	});

	it('the last page has next_before_id null; limits and cursors are checked', () => {
		const store = kitStore(Array.from({length: 5}, (_, index) => ({values: {title: `i${index}`}})));
		expect(store.listPage('kit', {limit: 5}).next_before_id).toBeNull();
		expect(store.listPage('kit', {limit: 4}).next_before_id).not.toBeNull();
		expect(store.listPage('kit').items).toHaveLength(5);
		for (const limit of [0, PAGE_LIMIT + 1, 2.5, '10']) {
			expect(refusal(() => store.listPage('kit', {limit: limit as number}))).toEqual({error: 'invalid_argument', message: `limit must be a whole number from 1 to ${PAGE_LIMIT}, got ${JSON.stringify(limit)}`});
		}

		for (const beforeId of ['42', 'it_', "it_0' OR 1=1", 7]) {
			expect(refusal(() => store.listPage('kit', {beforeId: beforeId as string}))).toMatchObject({error: 'invalid_argument', message: expect.stringMatching(/^before_id must be an item id like it_0000000016, got /) as string});
		}

		expect(refusal(() => store.listPage('nope'))).toEqual({error: 'not_found', message: 'channel "nope" does not exist'});
	});
});

describe('filters', () => {
	const statuses = ['new', 'in_progress', 'wont_fix'];
	let store: Store;
	beforeAll(() => {
		store = kitStore(Array.from({length: 120}, (_, index) => ({values: {title: `i${index}`, status: statuses[index % 3], done: index % 4 === 0}})));
	});

	it('select equality, paged with before_id', () => {
		const ids: string[] = [];
		let beforeId: string | null = null;
		do {
			const page = store.listPage('kit', {filter: {status: 'wont_fix'}, limit: 15, beforeId});
			for (const item of page.items) {
				expect(item.preview.status).toBe('wont_fix');
			}

			ids.push(...page.items.map(item => item.id));
			beforeId = page.next_before_id;
		} while (beforeId !== null);

		expect(ids).toHaveLength(40);
		expect(new Set(ids).size).toBe(40);
	});

	it('boolean equality, and filters combine', () => {
		const trues = store.listPage('kit', {filter: {done: true}, limit: 50}).items;
		expect(trues).toHaveLength(30);
		expect(trues.every(item => item.preview.done === true)).toBe(true);
		const falses = store.listPage('kit', {filter: {done: false}, limit: 50});
		expect(falses.items.every(item => item.preview.done === false)).toBe(true);
		expect(falses.next_before_id).not.toBeNull();
		// index % 3 === 0 and index % 4 === 0: every 12th of 120.
		expect(store.listPage('kit', {filter: {status: 'new', done: true}}).items).toHaveLength(10);
	});

	it('a label is not an option value: no conversion; the refusal lists the values with labels', () => {
		const body = refusal(() => store.listPage('kit', {filter: {status: 'New'}}));
		expect(body).toMatchObject({error: 'invalid_argument'});
		expect((body as {message: string}).message).toMatch(/^filter\.status must be one of the option values, got "New"; allowed: new \(New\)/);
	});

	it('a bad filter key or value gets a clear error', () => {
		const filterable = 'filterable: done, status';
		expect(refusal(() => store.listPage('kit', {filter: {colour: 'red'}}))).toEqual({error: 'invalid_argument', message: `filter.colour is not a select or boolean field of channel kit; ${filterable}`});
		expect(refusal(() => store.listPage('kit', {filter: {title: 'i1'}}))).toEqual({error: 'invalid_argument', message: `filter.title is not a select or boolean field of channel kit; ${filterable}`});
		expect(refusal(() => store.listPage('kit', {filter: JSON.parse('{"__proto__": "x"}') as Record<string, unknown>}))).toEqual({error: 'invalid_argument', message: `filter.__proto__ is not a select or boolean field of channel kit; ${filterable}`});
		expect(refusal(() => store.listPage('kit', {filter: {done: 'yes'}}))).toEqual({error: 'invalid_argument', message: 'filter.done must be true or false, got "yes"'});
		expect(refusal(() => store.listPage('kit', {filter: {status: 3}}))).toEqual({error: 'invalid_argument', message: 'filter.status must be an option value, got 3'});
		expect(refusal(() => store.listPage('kit', {filter: 'status=new' as unknown as Record<string, unknown>}))).toEqual({error: 'invalid_argument', message: 'filter must be an object of {field key: value}'});
	});
});

describe('previews and page metadata', () => {
	it('text cut to 120 characters, long text and json left out, formulas present, the schema on every page', () => {
		const long = 'a'.repeat(300);
		const store = kitStore();
		const created = store.createItem('kit', {title: 'short', summary: long, notes: 'a long note', meta: {x: 1}, points: 2, site: `https://example.com/${'p'.repeat(200)}`, status: 'new', done: false}, human);
		store.createItem('kit', {title: 'exact', summary: 'b'.repeat(PREVIEW_TEXT_LENGTH)}, human);
		const page = store.listPage('kit');
		expect(page.schema).toEqual(kitChannel.fields);
		expect(page.latest_sequence).toBe(2);
		const [exact, first] = page.items;
		expect(exact!.preview.summary).toBe('b'.repeat(PREVIEW_TEXT_LENGTH));
		const preview = first!.preview;
		expect(first).toMatchObject({id: created.item.id, version: 1, updated_at: created.item.updated_at});
		expect(preview.summary).toHaveLength(PREVIEW_TEXT_LENGTH);
		expect((preview.summary as string).startsWith('a'.repeat(PREVIEW_TEXT_LENGTH - 1))).toBe(true);
		expect(preview.summary).toMatch(/…$/);
		expect(preview.site).toHaveLength(PREVIEW_TEXT_LENGTH);
		expect(preview).not.toHaveProperty('notes');
		expect(preview).not.toHaveProperty('meta');
		expect(preview).toMatchObject({title: 'short', points: 2, status: 'new', done: false, age_days: 0, double_points: 4});
		// The full read still has it all.
		expect(store.readItem('kit', created.item.id).values).toMatchObject({summary: long, notes: 'a long note', meta: {x: 1}});
	});

	it('previews leave out empty values and cut every value to 120 characters, not only text', () => {
		const store = kitStore();
		const reporter = `${'r'.repeat(130)}@example.com`;
		const attachment = {name: `${'n'.repeat(100)}.pdf`, url: `https://example.com/${'u'.repeat(150)}`};
		const {item} = store.createItem('kit', {title: 'cut', summary: null, reporter, attachment, points: null, tags: ['ui', 'api']}, human);
		const {preview} = store.listPage('kit').items[0]!;
		expect(preview).not.toHaveProperty('summary');
		expect(preview).not.toHaveProperty('points');
		expect(preview.reporter).toBe(`${'r'.repeat(PREVIEW_TEXT_LENGTH - 1)}…`);
		// A file's name and url share the 120 characters.
		expect(preview.attachment).toEqual({name: `${'n'.repeat(59)}…`, url: `https://example.com/${'u'.repeat(39)}…`});
		expect(preview.tags).toEqual(['ui', 'api']);
		expect(store.readItem('kit', item.id).values).toMatchObject({summary: null, reporter, attachment, points: null});
	});

	it('a list longer than 120 characters keeps the entries that fit, then "…"', () => {
		const options = Array.from({length: 20}, (_, index) => ({value: `option_number_${index}`, label: `Option ${index}`}));
		const fields: Field[] = [{key: 'tags', label: 'Tags', type: 'multi_select', is_required: false, is_unique: false, config: {options}}];
		const all = options.map(option => option.value);
		const {tags} = previewValues(fields, {tags: all}) as {tags: string[]};
		expect(JSON.stringify(tags).length).toBeLessThanOrEqual(PREVIEW_TEXT_LENGTH);
		expect(tags.at(-1)).toBe('…');
		expect(tags.slice(0, -1)).toEqual(all.slice(0, tags.length - 1));
		expect(previewValues(fields, {tags: all.slice(0, 3)})).toEqual({tags: all.slice(0, 3)});
	});

	it('latest_sequence is read in the same snapshot as the items, even when another process commits in between', () => {
		const store = kitStore([{values: {title: 'a', points: 1}}]);
		const itemId = store.listPage('kit').items[0]!.id;
		const other = openStore(store.path);
		// Let another connection commit an edit right after the page's items were read: the moment
		// the store prepares its latest_sequence query.
		const prepare = store.db.prepare.bind(store.db);
		let interleaved = false;
		store.db.prepare = ((sql: string) => {
			if (!interleaved && sql.includes('last_sequence') && !sql.includes('UPDATE')) {
				interleaved = true;
				other.editItem({channelId: 'kit', itemId, actor: human, values: {points: 2}});
			}

			return prepare(sql);
		}) as typeof store.db.prepare;
		const page = store.listPage('kit');
		store.db.prepare = prepare;
		expect(interleaved).toBe(true);
		// The page shows version 1, so a reader polling from its latest_sequence must get the edit.
		expect(page.items[0]).toMatchObject({version: 1, preview: {points: 1}});
		const {events} = store.pollEvents('kit', {afterSequence: page.latest_sequence});
		expect(events.map(event => [event.type, event.version])).toEqual([['item.updated', 2]]);
		other.close();
	});

	it('latest_sequence on a page lets a reader poll from there', () => {
		const store = kitStore([{values: {title: 'a'}}]);
		const page = store.listPage('kit');
		store.createItem('kit', {title: 'b'}, human);
		const {events} = store.pollEvents('kit', {afterSequence: page.latest_sequence});
		expect(events.map(event => event.type)).toEqual(['item.created']);
	});
});
