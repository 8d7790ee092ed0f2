// The store's contract, run against both backends (SQLite and PostgreSQL) through the one
// asynchronous interface: validation and its rejection shapes, all-or-nothing writes, versions,
// idempotency, cursors, gap-free events, follow-ups and runs (grants: grants.contract.test.ts).

import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import type {AsyncStore} from '../../store/api.js';
import {notePgOff} from '../support/pg.js';
import {MAX_WRITE_BYTES} from '../../store/index.js';
import {agent, DAY_MS, human, KIT_WRITABLE, kitChannel, STATUS_ALLOWED} from '../store/helpers.js';
import {allEvents, allItemIds, BACKENDS, expectGapFree, expectVersionsMatchEvents, kitStore, refusalOf, stateOf, type Backend} from './backends.js';

const today = new Date().toISOString().slice(0, 10);

/** One accepted value per field type (formulas are computed, never written). */
const ACCEPTED: Record<string, unknown> = {
	title: 'A title',
	code: 'C-1',
	summary: 'x'.repeat(300),
	notes: 'long notes',
	points: 13,
	ratio: -2.5,
	due: '2024-02-29',
	done: false,
	reporter: 'ana@example.com',
	phone: '+1 (555) 010-9999',
	site: 'https://example.com/a?b=c',
	status: 'wont_fix',
	tags: ['ui', 'api'],
	price: 999.99,
	pct: 100,
	stars: 5,
	attachment: {name: 'log.txt', url: 'https://example.com/log.txt'},
	meta: {nested: [1, 'two', null]},
};

/** One refused value per field type and the start of its message. */
const REFUSED: Array<[string, unknown, string]> = [
	['title', 'x'.repeat(21), 'values.title must be at most 20 characters'],
	['points', 20, 'values.points must be between 0 and 13, got 20'],
	['points', 2.5, 'values.points must be an integer'],
	['ratio', '3', 'values.ratio must be a number'],
	['due', 'Friday', 'values.due must be a date as YYYY-MM-DD, got "Friday"; sift edit/add and the TUI also read today, +3d or friday'],
	['due', '2023-02-29', 'values.due'],
	['done', 'true', 'values.done must be true or false'],
	['reporter', 'not an email', 'values.reporter'],
	['phone', '12', 'values.phone'],
	['site', 'ftp://example.com', 'values.site'],
	['status', 'In progress', 'values.status must be one of the option values, got "In progress"'],
	['tags', ['ui', 'ui'], 'values.tags'],
	['price', 1.234, 'values.price'],
	['pct', 101, 'values.pct'],
	['stars', 6, 'values.stars'],
	['parent', 'it_zzzzzzzzzz', 'values.parent'],
	['attachment', {name: 'x'}, 'values.attachment'],
	['meta', 'x'.repeat(70_000), 'values.meta'],
	['age_days', 3, 'values.age_days is a formula field and is computed, not written'],
];

describe.each(BACKENDS)('store contract on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const open: AsyncStore[] = [];
	const track = (store: AsyncStore) => {
		open.push(store);
		return store;
	};

	const kit = async (items: unknown[] = []) => track(await kitStore(backend, items));

	beforeAll(() => backend.setUp());
	afterEach(async () => {
		await Promise.all(open.splice(0).map(store => store.close()));
	});
	afterAll(() => backend.tearDown());

	describe('channel names', () => {
		it('give each channel\'s id, name and creation time (what tells a channel made again apart)', async () => {
			const store = await kit();
			const [row] = await store.listChannelNames();
			expect(row).toEqual({id: 'kit', name: expect.any(String), created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/)});
		});
	});

	describe('field types', () => {
		it('accepts a valid value of every field type and reads it back unchanged, formulas computed', async () => {
			const store = await kit();
			const {item} = await store.createItem('kit', ACCEPTED, human);
			expect(item.version).toBe(1);
			const read = await store.readItem('kit', item.id);
			for (const [key, value] of Object.entries(ACCEPTED)) {
				expect(read.values[key], key).toEqual(value);
			}

			expect(read.values.parent).toBeNull();
			expect(read.values.double_points).toBe(26);
			expect(read.values.age_days).toBe(0);
			const {item: child} = await store.createItem('kit', {title: 'child', parent: item.id}, human);
			expect((await store.readItem('kit', child.id)).values.parent).toBe(item.id);
		});

		it.each(REFUSED.map(([key, value, message]) => ({key, value, message, shown: JSON.stringify(value).slice(0, 30)})))('refuses $key = $shown and names the field', async ({key, value, message}) => {
			const store = await kit([{values: {title: 'seed'}}]);
			const [id] = await allItemIds(store, 'kit');
			const body = await refusalOf(() => store.editItem({channelId: 'kit', itemId: id!, values: {[key]: value}, actor: human}));
			expect(body.error).toBe('validation_failed');
			const fields = (body as {fields: Array<{key: string; message: string}>}).fields;
			expect(fields).toHaveLength(1);
			expect(fields[0]!.key).toBe(key);
			expect(fields[0]!.message.startsWith(message), fields[0]!.message).toBe(true);
		});
	});

	describe('rejection shapes', () => {
		it('reports every failing field at once, with allowed values and labels, bounds and known keys', async () => {
			const store = await kit([{values: {title: 'seed'}}]);
			const [id] = await allItemIds(store, 'kit');
			const body = await refusalOf(() => store.editItem({channelId: 'kit', itemId: id!, actor: human, values: {status: 'In progress', points: 20, due: 'Friday', age_days: 1, colour: 'red'}}));
			expect(body).toEqual({
				error: 'validation_failed',
				fields: [
					{key: 'status', message: 'values.status must be one of the option values, got "In progress"', allowed: STATUS_ALLOWED},
					{key: 'points', message: 'values.points must be between 0 and 13, got 20', min: 0, max: 13},
					{key: 'due', message: 'values.due must be a date as YYYY-MM-DD, got "Friday"; sift edit/add and the TUI also read today, +3d or friday'},
					{key: 'age_days', message: 'values.age_days is a formula field and is computed, not written'},
					{key: 'colour', message: 'values.colour is not a field of this channel', known: KIT_WRITABLE},
				],
			});
		});

		it('refuses a missing required field, a cleared required field, an empty edit and a taken unique value', async () => {
			const store = await kit([{values: {title: 'one', code: 'C-1'}}, {values: {title: 'two'}}]);
			const [second, first] = await allItemIds(store, 'kit');
			expect(await refusalOf(() => store.createItem('kit', {code: 'C-9'}, human))).toEqual({error: 'validation_failed', fields: [{key: 'title', message: 'values.title is required'}]});
			expect(await refusalOf(() => store.editItem({channelId: 'kit', itemId: first!, values: {title: null}, actor: human})))
				.toEqual({error: 'validation_failed', fields: [{key: 'title', message: 'values.title is required and cannot be cleared'}]});
			expect(await refusalOf(() => store.editItem({channelId: 'kit', itemId: first!, values: {}, actor: human})))
				.toEqual({error: 'validation_failed', fields: [{key: 'values', message: 'values must set at least one field, got {}'}]});
			expect(await refusalOf(() => store.editItem({channelId: 'kit', itemId: second!, values: {code: 'C-1'}, actor: human})))
				.toEqual({error: 'validation_failed', fields: [{key: 'code', message: `values.code must be unique, but item ${first} already has "C-1"`, item_id: first}]});
			// Setting an item's own unique value again is no conflict.
			await expect(store.editItem({channelId: 'kit', itemId: first!, values: {code: 'C-1', title: 'one again'}, actor: human})).resolves.toMatchObject({ok: true});
		});

		it('refuses bad arguments with invalid_argument or not_found and changes nothing', async () => {
			const store = await kit([{values: {title: 'seed'}}]);
			const [id] = await allItemIds(store, 'kit');
			const before = await stateOf(store, 'kit');
			expect((await refusalOf(() => store.editItem({channelId: 'kit', itemId: id!, values: [1] as unknown, actor: human}))).error).toBe('invalid_argument');
			expect((await refusalOf(() => store.editItem({channelId: 'kit', itemId: id!, values: {title: 'x'}, expectedVersion: 0, actor: human}))).error).toBe('invalid_argument');
			expect((await refusalOf(() => store.editItem({channelId: 'kit', itemId: id!, values: {summary: 'x'.repeat(MAX_WRITE_BYTES)}, actor: human}))).error).toBe('invalid_argument');
			expect((await refusalOf(() => store.editItem({channelId: 'kit', itemId: 'it_zzzzzzzzzz', values: {title: 'x'}, actor: human}))).error).toBe('not_found');
			expect((await refusalOf(() => store.readItem('nope', id!))).error).toBe('not_found');
			expect((await refusalOf(() => store.listPage('kit', {beforeId: 'bogus'}))).error).toBe('invalid_argument');
			expect((await refusalOf(() => store.listPage('kit', {limit: 51}))).error).toBe('invalid_argument');
			expect((await refusalOf(() => store.listPage('kit', {filter: {status: 'New'}}))).error).toBe('invalid_argument');
			expect((await refusalOf(() => store.pollEvents('kit', {afterSequence: -1}))).error).toBe('invalid_argument');
			expect(await stateOf(store, 'kit')).toEqual(before);
		});
	});

	describe('all or nothing', () => {
		it('a refused edit with one good and one bad field changes nothing', async () => {
			const store = await kit([{values: {title: 'seed', points: 3}}]);
			const [id] = await allItemIds(store, 'kit');
			const before = await stateOf(store, 'kit');
			await refusalOf(() => store.editItem({channelId: 'kit', itemId: id!, values: {title: 'changed', points: 99}, actor: human}));
			expect(await stateOf(store, 'kit')).toEqual(before);
		});

		it('an import with one bad item creates nothing, not even the channel, and names the item', async () => {
			const store = track(await backend.open());
			async function* items() {
				for (let n = 0; n < 30; n++) {
					yield {values: {title: n === 25 ? 'x'.repeat(30) : `item ${n}`}};
				}
			}

			const body = await refusalOf(() => store.importChannel({channel: {...kitChannelCopy(), id: 'kit'}, items: items()}));
			expect(body.error).toBe('invalid_import');
			expect((body as {message: string}).message).toMatch(/^items\[25\]: values\.title/);
			expect(await store.listChannelNames()).toEqual([]);
			// The channel id is free again: a good import goes through.
			const ok = await store.importChannel({channel: kitChannelCopy(), items: [{values: {title: 'a'}}, {values: {title: 'b'}, created_at: '2020-01-01T00:00:00.000Z'}]});
			expect(ok.items_created).toBe(2);
			expect(await store.channelSummary('kit')).toEqual({id: 'kit', name: 'Kit', item_count: 2, latest_sequence: 2});
			expect((await refusalOf(() => store.importChannel({channel: kitChannelCopy(), items: []}))).error).toBe('invalid_import');
			expect((await refusalOf(() => store.importChannel({channel: {id: 'Bad Id', name: 'x', fields: []}, items: []}))).error).toBe('invalid_schema');
		});
	});

	it('an import\'s created_at means the same on both backends: ISO 8601 only, kept in one form', async () => {
		const store = track(await backend.open());
		const imported = await store.importChannel({channel: kitChannelCopy(), items: [
			{values: {title: 'offset'}, created_at: '2026-01-31T09:30:00+02:00'},
			{values: {title: 'date'}, created_at: '2026-01-31'},
		]});
		expect(imported.items_created).toBe(2);
		const page = await store.listPage('kit', {limit: 10});
		const createdAt = await Promise.all(page.items.map(async item => (await store.readItem('kit', item.id)).created_at));
		expect(createdAt.sort()).toEqual(['2026-01-31T00:00:00.000Z', '2026-01-31T07:30:00.000Z']);
		// Date.parse would take this; the store does not, on either backend.
		for (const createdAtText of ['January 31 2026', '2026-01-31T09:30:00']) {
			const body = await refusalOf(() => store.importChannel({channel: {...kitChannelCopy(), id: 'kit2'}, items: [{values: {title: 'x'}, created_at: createdAtText}]}));
			expect(body).toMatchObject({error: 'invalid_import', message: expect.stringMatching(/^items\[0\]\.created_at must be an ISO 8601 date/)});
		}
	});

	it('imported values and their created events keep every character, in batches of any size', async () => {
		const store = track(await backend.open());
		const tricky = 'sep\u001erecord "quoted" back\\slash\nline\ttab é 😀 \u202e';
		const count = 12_345;
		async function* items() {
			for (let n = 0; n < count; n++) {
				yield {values: n === 7 ? {title: 'x', summary: tricky, meta: {deep: [tricky, 1.5, null, true]}} : {title: `item ${n}`, points: n % 14}};
			}
		}

		expect((await store.importChannel({channel: kitChannel, items: items()})).items_created).toBe(count);
		const events = await allEvents(store, 'kit');
		expect(events.map(event => event.sequence)).toEqual(events.map((_, index) => index + 1));
		const seventh = events[7]!;
		expect(seventh).toMatchObject({type: 'item.created', version: 1, actor: {kind: 'import'}});
		expect(seventh.changes).toEqual({title: {from: null, to: 'x'}, summary: {from: null, to: tricky}, meta: {from: null, to: {deep: [tricky, 1.5, null, true]}}});
		const item = await store.readItem('kit', seventh.item_id);
		expect(item.values).toMatchObject({summary: tricky, meta: {deep: [tricky, 1.5, null, true]}});
		expect((await store.readItem('kit', events.at(-1)!.item_id)).values).toMatchObject({title: `item ${count - 1}`, points: (count - 1) % 14});
		expect(await store.channelSummary('kit')).toEqual({id: 'kit', name: 'Kit', item_count: count, latest_sequence: count});
	});

	describe('versions and idempotency', () => {
		it('a stale expected_version is refused with what changed since, from the event log', async () => {
			const store = await kit([{values: {title: 'seed', status: 'new'}}]);
			const [id] = await allItemIds(store, 'kit');
			await store.editItem({channelId: 'kit', itemId: id!, values: {status: 'in_progress'}, expectedVersion: 1, actor: human});
			await store.editItem({channelId: 'kit', itemId: id!, values: {status: 'wont_fix', points: 5}, expectedVersion: 2, actor: human});
			const body = await refusalOf(() => store.editItem({channelId: 'kit', itemId: id!, values: {status: 'new'}, expectedVersion: 1, actor: agent()}));
			expect(body).toMatchObject({
				error: 'version_conflict',
				current_version: 3,
				changed_since: {status: {from: 'new', to: 'wont_fix'}, points: {from: null, to: 5}},
			});
			expect((await refusalOf(() => store.deleteItem('kit', id!, human, 2))).error).toBe('version_conflict');
		});

		it('the same key with the same arguments replays the result; with other arguments it is refused', async () => {
			const store = await kit([{values: {title: 'seed'}}]);
			const [id] = await allItemIds(store, 'kit');
			const request = {channelId: 'kit', itemId: id!, values: {points: 3}, expectedVersion: 1, actor: agent(), idempotencyKey: 'k-1'};
			const first = await store.editItem(request);
			const again = await store.editItem({...request, values: {points: 3}});
			expect(again).toEqual(first);
			expect((await store.readItem('kit', id!)).version).toBe(2);
			expect(await expectGapFree(store, 'kit')).toBe(2);
			expect((await refusalOf(() => store.editItem({...request, values: {points: 4}}))).error).toBe('idempotency_key_reused');
		});

		it('idempotency keys are scoped per channel and actor', async () => {
			const store = await kit([{values: {title: 'seed'}}]);
			const [id] = await allItemIds(store, 'kit');
			await store.editItem({channelId: 'kit', itemId: id!, values: {points: 3}, actor: agent('run-a'), idempotencyKey: 'same'});
			const other = await store.editItem({channelId: 'kit', itemId: id!, values: {points: 4}, actor: agent('run-b'), idempotencyKey: 'same'});
			expect(other.item.values.points).toBe(4);
		});

		it('an edit that changes nothing keeps the version and appends no event', async () => {
			const store = await kit([{values: {title: 'seed', points: 2}}]);
			const [id] = await allItemIds(store, 'kit');
			const result = await store.editItem({channelId: 'kit', itemId: id!, values: {points: 2}, actor: human});
			expect(result.item.version).toBe(1);
			expect(result.sequence).toBe(1);
			expect(await expectGapFree(store, 'kit')).toBe(1);
		});
	});

	describe('pages', () => {
		it('the before_id cursor neither repeats nor skips while items are created and deleted', async () => {
			const store = await kit(Array.from({length: 130}, (_, n) => ({values: {title: `item ${n}`}})));
			const initial = new Set(await allItemIds(store, 'kit'));
			const seen: string[] = [];
			const deleted = new Set<string>();
			let beforeId: string | null = null;
			let pages = 0;
			do {
				const page = await store.listPage('kit', {beforeId, limit: 20});
				seen.push(...page.items.map(item => item.id));
				beforeId = page.next_before_id;
				if (++pages % 2 === 1) {
					await store.createItem('kit', {title: 'new while paging'}, human);
					await store.createItem('kit', {title: 'new while paging'}, human);
				} else {
					for (const victim of seen.filter(id => !deleted.has(id)).slice(0, 2)) {
						await store.deleteItem('kit', victim, human);
						deleted.add(victim);
					}
				}
			} while (beforeId !== null);
			expect(new Set(seen).size).toBe(seen.length);
			expect([...initial].filter(id => !seen.includes(id))).toEqual([]);
			expect([...seen].sort().reverse()).toEqual(seen);
		});

		it('filters on select and boolean fields, searches short text, and previews cut long text', async () => {
			const store = await kit([
				{values: {title: 'alpha', status: 'new', done: true, summary: 'y'.repeat(200), notes: 'hidden'}},
				{values: {title: 'beta', status: 'wont_fix', done: false}},
				{values: {title: 'Gamma', status: 'new', done: false}},
			]);
			const titles = async (query: object) => (await store.listPage('kit', query)).items.map(item => item.preview.title);
			expect(await titles({filter: {status: 'new'}})).toEqual(['Gamma', 'alpha']);
			expect(await titles({filter: {status: 'new', done: false}})).toEqual(['Gamma']);
			expect(await titles({search: 'gAm'})).toEqual(['Gamma']);
			const page = await store.listPage('kit', {filter: {done: true}});
			expect(page.items[0]!.preview.summary).toBe(`${'y'.repeat(119)}…`);
			expect(page.items[0]!.preview).not.toHaveProperty('notes');
			expect(page.latest_sequence).toBe(3);
			expect(page.schema.map(field => field.key)).toContain('age_days');
		});
	});

	describe('events', () => {
		it('every create, edit and delete appends an event with a gap-free sequence and its changes', async () => {
			const store = await kit();
			const {item} = await store.createItem('kit', {title: 'one'}, human);
			await store.editItem({channelId: 'kit', itemId: item.id, values: {title: 'two', points: 1}, actor: agent('run-9')});
			await refusalOf(() => store.editItem({channelId: 'kit', itemId: item.id, values: {points: 99}, actor: agent('run-9')}));
			await store.deleteItem('kit', item.id, human, 2);
			const events = await allEvents(store, 'kit');
			expect(events.map(({sequence, type, version, actor, changes}) => ({sequence, type, version, actor, changes}))).toEqual([
				{sequence: 1, type: 'item.created', version: 1, actor: human, changes: {title: {from: null, to: 'one'}}},
				{sequence: 2, type: 'item.updated', version: 2, actor: agent('run-9'), changes: {title: {from: 'one', to: 'two'}, points: {from: null, to: 1}}},
				{sequence: 3, type: 'item.deleted', version: 3, actor: human, changes: {title: {from: 'two', to: null}, points: {from: 1, to: null}}},
			]);
			const page = await store.pollEvents('kit', {afterSequence: 1, limit: 1});
			expect(page).toMatchObject({next_after_sequence: 2, has_more: true});
		});

		it('concurrent writers on one channel get gap-free sequences and lose no update', async () => {
			const store = await kit(Array.from({length: 4}, (_, n) => ({values: {title: `item ${n}`, points: 0}})));
			const ids = await allItemIds(store, 'kit');
			const second = track(await openSame(backend));
			const bump = async (writer: AsyncStore, itemId: string) => {
				for (;;) {
					const item = await writer.readItem('kit', itemId);
					try {
						return await writer.editItem({channelId: 'kit', itemId, values: {points: ((item.values.points as number) + 1) % 14}, expectedVersion: item.version, actor: human});
					} catch (error) {
						if ((error as {code?: string}).code !== 'version_conflict') {
							throw error;
						}
					}
				}
			};

			await Promise.all(Array.from({length: 24}, (_, n) => bump(n % 2 === 0 ? store : second, ids[n % ids.length]!)));
			expect(await expectGapFree(store, 'kit')).toBe(4 + 24);
			await expectVersionsMatchEvents(store, 'kit');
			expect((await Promise.all(ids.map(async id => (await store.readItem('kit', id)).version))).reduce((a, b) => a + b)).toBe(4 + 24);
		});
	});

	it('concurrent writers of one unique value: exactly one wins, the others are told who holds it', async () => {
		const store = await kit(Array.from({length: 8}, (_, n) => ({values: {title: `item ${n}`}})));
		const ids = await allItemIds(store, 'kit');
		const second = track(await openSame(backend));
		const outcomes = await Promise.allSettled(ids.map((itemId, n) => (n % 2 === 0 ? store : second).editItem({channelId: 'kit', itemId, values: {code: 'SAME'}, actor: human})));
		const winners = outcomes.flatMap((outcome, n) => (outcome.status === 'fulfilled' ? [ids[n]!] : []));
		expect(winners).toHaveLength(1);
		for (const outcome of outcomes.filter(each => each.status === 'rejected')) {
			expect((outcome as PromiseRejectedResult).reason.body).toMatchObject({error: 'validation_failed', fields: [{key: 'code', item_id: winners[0]}]});
		}
	});

	describe('follow-ups', () => {
		it('an agent refusal opens one per settable field; a repeat refreshes it; setting resolves; a person dismisses', async () => {
			const store = await kit([{values: {title: 'one'}}, {values: {title: 'two'}}]);
			const [second, first] = await allItemIds(store, 'kit');
			await refusalOf(() => store.editItem({channelId: 'kit', itemId: first!, values: {status: 'In progress', points: 20, colour: 'red', age_days: 1}, actor: agent('run-1')}));
			let open = await store.listFollowUps({channelId: 'kit', status: 'open'});
			expect(open.map(({key, attempted, run_id, item_id}) => ({key, attempted, run_id, item_id}))).toEqual([
				{key: 'status', attempted: 'In progress', run_id: 'run-1', item_id: first},
				{key: 'points', attempted: 20, run_id: 'run-1', item_id: first},
			]);
			expect(open[0]!.allowed).toEqual(STATUS_ALLOWED);
			expect(open[1]).toMatchObject({min: 0, max: 13});
			await refusalOf(() => store.editItem({channelId: 'kit', itemId: first!, values: {points: 30}, actor: agent('run-2')}));
			open = await store.listFollowUps({channelId: 'kit', status: 'open'});
			expect(open).toHaveLength(2);
			expect(open[1]).toMatchObject({key: 'points', attempted: 30, run_id: 'run-2', message: 'values.points must be between 0 and 13, got 30'});
			expect(await store.countOpenFollowUps('kit')).toBe(2);

			await store.editItem({channelId: 'kit', itemId: first!, values: {points: 8}, actor: human});
			const resolved = await store.listFollowUps({channelId: 'kit', status: 'resolved'});
			expect(resolved.map(followUp => [followUp.key, followUp.resolution])).toEqual([['points', 'set']]);

			const dismissed = await store.dismissFollowUp(open[0]!.id);
			expect(dismissed).toMatchObject({status: 'dismissed', resolution: 'dismissed'});
			expect((await refusalOf(() => store.dismissFollowUp(open[0]!.id))).error).toBe('invalid_argument');
			expect((await refusalOf(() => store.dismissFollowUp(9999))).error).toBe('not_found');

			// A person's refusal opens nothing; deleting the item closes what is open.
			await refusalOf(() => store.editItem({channelId: 'kit', itemId: second!, values: {points: 20}, actor: human}));
			expect(await store.countOpenFollowUps('kit')).toBe(0);
			await refusalOf(() => store.editItem({channelId: 'kit', itemId: second!, values: {due: 'Friday'}, actor: agent()}));
			await store.deleteItem('kit', second!, human);
			expect((await store.listFollowUps({itemId: second!})).map(followUp => followUp.resolution)).toEqual(['item_deleted']);
			expect(await store.countOpenFollowUps('kit')).toBe(0);
		});
	});

	describe('runs', () => {
		it('runs start, end and list newest first', async () => {
			const store = await kit();
			await store.runs.start({id: 'run-2026-01', channelId: 'kit', itemIds: ['it_1'], instruction: 'triage', startedAt: '2026-01-01T00:00:00.000Z', logPath: null});
			await store.runs.start({id: 'run-2026-02', channelId: 'kit', itemIds: [], instruction: 'again', startedAt: '2026-01-02T00:00:00.000Z', logPath: '/tmp/x.log'});
			expect(await store.runs.end('run-2026-01', {finishedAt: '2026-01-01T00:01:00.000Z', outcome: 'completed', usage: {input_tokens: 10}, editsApplied: 2, rejections: 1, followupsOpened: 1, error: null})).toBe(true);
			expect(await store.runs.end('missing', {finishedAt: 'x', outcome: 'failed', usage: null, editsApplied: 0, rejections: 0, followupsOpened: 0, error: 'boom'})).toBe(false);
			const runs = await store.runs.list();
			expect(runs.map(run => run.id)).toEqual(['run-2026-02', 'run-2026-01']);
			expect(await store.runs.get('run-2026-01')).toEqual({
				id: 'run-2026-01', channel_id: 'kit', item_ids: ['it_1'], instruction: 'triage', started_at: '2026-01-01T00:00:00.000Z',
				finished_at: '2026-01-01T00:01:00.000Z', outcome: 'completed', usage: {input_tokens: 10}, edits_applied: 2, rejections: 1,
				followups_opened: 1, error: null, log_path: null, owner_pid: null, process_group: null,
				// The kit channel as imported: no edit since, so its latest sequence at both ends.
				start_sequence: 0, end_sequence: 0,
				// Runs apply unless started in propose mode (docs/review.md).
				mode: 'apply', proposals: 0, accepted: 0, declined: 0,
			});
			expect(await store.runs.get('nope')).toBeUndefined();
			expect((await store.runs.list({limit: 1})).map(run => run.finished_at)).toEqual([null]);
		});
	});

	it('formulas are computed when read, from created_at', async () => {
		const store = await kit([{values: {title: 'old', points: 4}, created_at: new Date(Date.now() - 3 * DAY_MS).toISOString()}]);
		const [id] = await allItemIds(store, 'kit');
		const item = await store.readItem('kit', id!);
		expect(item.values).toMatchObject({age_days: 3, double_points: 8});
		expect(item.created_at.slice(0, 10) < today).toBe(true);
	});

	/** A second store on the same location: another connection pool, or another handle on the file. */
	async function openSame(which: Backend): Promise<AsyncStore> {
		const {openAsyncStore} = await import('../../store/api.js');
		return openAsyncStore(which.lastLocation());
	}
});

const kitChannelCopy = () => structuredClone(kitChannel);
