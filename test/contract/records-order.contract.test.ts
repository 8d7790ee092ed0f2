// Long text, creation order and the created/updated query terms, on both backends through the one
// asynchronous interface: a 1 MiB value is kept whole (and one byte more refused), an import gives
// ids in created_at order (a newest-first file lists its newest item first), an item's own version
// and updated_at survive an import, and sort:created / sort:-updated / created:>… / updated:<… agree
// with a plain reading of the items, paged with cursors.

import {describe, expect, it} from 'vitest';
import type {AsyncStore} from '../../store/api.js';
import type {PageQuery} from '../../store/index.js';
import {human, kitChannel} from '../store/helpers.js';
import {BACKENDS, refusalOf, stateOf, storesOn, allEvents, type Backend} from './backends.js';

const MIB = 1024 * 1024;

/** Every id a query lists, following next_cursor. */
async function idsOf(store: AsyncStore, query: PageQuery): Promise<string[]> {
	const ids: string[] = [];
	let cursor: string | null | undefined;
	do {
		const page = await store.listPage('kit', {...query, cursor, limit: 3});
		ids.push(...page.items.map(item => item.id));
		cursor = page.next_cursor;
	} while (cursor);
	return ids;
}

/** Items created on these days, in this (not chronological) file order. */
const DAYS = ['2024-05-02', '2026-03-01', '2020-01-15', '2025-12-31', '2026-01-01', '2023-07-04'];
const dated = DAYS.map((day, index) => ({values: {title: `T${index}`}, created_at: `${day}T10:00:00Z`, updated_at: `${day}T12:00:00Z`}));

function describeBackend(backend: Backend) {
	describe.skipIf(!backend.enabled)(`records order (${backend.name})`, () => {
		const {fresh} = storesOn(backend);
		const kit = async (items: unknown[] = []) => {
			const store = await fresh();
			await store.importChannel({channel: kitChannel, items});
			return store;
		};

		it('keeps a text value of 1 MiB whole and refuses one byte more, naming the field and writing nothing', async () => {
			const store = await kit([{values: {title: 'big', summary: 'é'.repeat(MIB / 2)}}]);
			const [id] = (await store.listPage('kit')).items.map(item => item.id);
			expect((await store.readItem('kit', id!)).values.summary).toHaveLength(MIB / 2);
			const exact = 'x'.repeat(MIB - 1) + '\n';
			await store.editItem({channelId: 'kit', itemId: id!, actor: human, values: {notes: exact}});
			expect((await store.readItem('kit', id!)).values.notes).toBe(exact);
			// The page's preview leaves long text out and cuts the rest: pages stay small.
			const page = await store.listPage('kit');
			expect(JSON.stringify(page.items).length).toBeLessThan(1000);
			const before = await stateOf(store, 'kit');
			expect(await refusalOf(() => store.editItem({channelId: 'kit', itemId: id!, actor: human, values: {notes: `${exact}y`}}))).toEqual({
				error: 'validation_failed', fields: [{key: 'notes', message: 'values.notes must be at most 1048576 bytes (1 MiB) as UTF-8, got 1048577', max: MIB}],
			});
			expect(await stateOf(store, 'kit')).toEqual(before);
			// A field's max_length (characters) still lowers it.
			expect(await refusalOf(() => store.editItem({channelId: 'kit', itemId: id!, actor: human, values: {title: 'x'.repeat(21)}}))).toMatchObject({fields: [{key: 'title', max: 20}]});
		});

		it('a 227,963-character body in an import is accepted; an import item over 1 MiB is refused by its index', async () => {
			const store = await kit([{values: {title: 'a', notes: 'b'.repeat(227_963)}}]);
			expect((await store.listChannels())[0]!.item_count).toBe(1);
			const other = await fresh();
			expect(await refusalOf(() => other.importChannel({channel: kitChannel, items: [{values: {title: 'ok'}}, {values: {title: 'no', notes: 'z'.repeat(MIB + 1)}}]}))).toMatchObject({
				error: 'invalid_import', message: expect.stringContaining('items[1]: ') as unknown,
			});
			expect(await other.listChannelNames()).toEqual([]);
		});

		it('an import gives ids in created_at order and keeps each item\'s version and updated_at', async () => {
			const store = await kit([...dated.map((item, index) => ({...item, version: index + 1})), {values: {title: 'undated'}}]);
			const newestFirst = (await store.listPage('kit')).items;
			expect(newestFirst.map(item => item.preview.title)).toEqual(['undated', 'T1', 'T4', 'T3', 'T0', 'T5', 'T2']);
			const t1 = await store.readItem('kit', newestFirst[1]!.id);
			expect(t1).toMatchObject({version: 2, created_at: '2026-03-01T10:00:00.000Z', updated_at: '2026-03-01T12:00:00.000Z'});
			const events = await allEvents(store, 'kit');
			expect(events.map(event => event.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
			expect(events.find(event => event.item_id === t1.id)).toMatchObject({type: 'item.created', version: 2, actor: {kind: 'import'}});
			// Ids and event sequences follow creation.
			expect(events.map(event => event.item_id)).toEqual([...newestFirst].reverse().map(item => item.id));
			// Edited after the import, it goes on from its version.
			const edited = await store.editItem({channelId: 'kit', itemId: t1.id, actor: human, values: {title: 'T1 again'}});
			expect(edited.item.version).toBe(3);
		});

		it('an import whose items name each other by a self-relation keeps file order (ids are what the file order gives)', async () => {
			// kit's parent relates kit to itself: the second item names the first by its coming id.
			const store = await fresh();
			await store.importChannel({channel: kitChannel, items: [
				{values: {title: 'late'}, created_at: '2026-01-02T00:00:00Z'},
				{values: {title: 'early'}, created_at: '2020-01-01T00:00:00Z'},
			]});
			// Without links the ids follow created_at: early first.
			expect((await store.listPage('kit')).items.map(item => item.preview.title)).toEqual(['late', 'early']);
			const linked = await fresh();
			// The id the next item gets: one past a probe's.
			await linked.importChannel({channel: {...kitChannel, id: 'probe', fields: kitChannel.fields.filter(field => field.type !== 'relation')}, items: [{values: {title: 'p'}}]});
			const probe = (await linked.listPage('probe')).items[0]!.id;
			const seq = Number.parseInt(probe.slice(3), 36);
			const idOf = (n: number) => `it_${n.toString(36).padStart(probe.length - 3, '0')}`;
			await linked.importChannel({channel: kitChannel, items: [
				{values: {title: 'late'}, created_at: '2026-01-02T00:00:00Z'},
				{values: {title: 'early', parent: idOf(seq + 1)}, created_at: '2020-01-01T00:00:00Z'},
			]});
			const page = (await linked.listPage('kit')).items;
			expect(page.map(item => item.preview.title)).toEqual(['early', 'late']);
			expect((await linked.readItem('kit', page[0]!.id)).values.parent).toBe(page[1]!.id);
		});

		it('values JSON cannot keep (Infinity, 5000 levels deep) are refused by the item\'s index before the import orders items', async () => {
			let deep: unknown = 1;
			for (let level = 0; level < 5000; level++) deep = [deep];
			for (const [values, message] of [
				[{title: 'x', ratio: Number.POSITIVE_INFINITY}, 'items[1]: values.ratio must be a finite number'],
				[{title: 'x', meta: deep}, 'items[1]: values.meta is nested too deeply'],
			] as const) {
				const store = await fresh();
				const body = await refusalOf(() => store.importChannel({channel: kitChannel, items: [{values: {title: 'ok'}, created_at: '2026-01-01'}, {values, created_at: '2020-01-01'}]}));
				expect(body).toMatchObject({error: 'invalid_import', message: expect.stringContaining(message) as unknown});
				expect(await store.listChannelNames()).toEqual([]);
			}
		});

		it('12,000 items in order but the last: what was already written goes back and all are ordered, events gap-free', async () => {
			const day = (n: number) => new Date(Date.UTC(2020, 0, 1) + n * 60_000).toISOString();
			const items = Array.from({length: 12_000}, (_, n) => ({values: {title: `t${n}`}, created_at: day(n + 1), ...(n % 1000 === 0 ? {version: 3} : {})}));
			items.push({values: {title: 'first'}, created_at: day(0)});
			const store = await kit(items);
			const oldest = await store.listPage('kit', {where: 'sort:id', limit: 3});
			expect(oldest.items.map(item => item.preview.title)).toEqual(['first', 't0', 't1']);
			expect((await store.readItem('kit', oldest.items[1]!.id)).version).toBe(3);
			const newest = await store.listPage('kit', {limit: 1});
			expect(newest.items[0]!.preview.title).toBe('t11999');
			expect(await store.latestSequence('kit')).toBe(12_001);
			const summary = await store.channelSummary('kit');
			expect(summary.item_count).toBe(12_001);
			const events = await store.pollEvents('kit', {afterSequence: 0, limit: 2});
			expect(events.events.map(event => [event.sequence, event.item_id])).toEqual([[1, oldest.items[0]!.id], [2, oldest.items[1]!.id]]);
		});

		it('a bad created_at, updated_at or version is refused by its index, and nothing is imported', async () => {
			for (const [bad, message] of [
				[{updated_at: 'yesterday'}, 'items[1].updated_at must be an ISO 8601 date'],
				[{created_at: '2026-02-30'}, 'items[1].created_at must be an ISO 8601 date'],
				[{version: 0}, 'items[1].version must be a whole number 1 or greater, got 0'],
			] as const) {
				const store = await fresh();
				const body = await refusalOf(() => store.importChannel({channel: kitChannel, items: [{values: {title: 'a'}}, {values: {title: 'b'}, ...bad}]}));
				expect(body).toMatchObject({error: 'invalid_import', message: expect.stringContaining(message) as unknown});
				expect(await store.listChannelNames()).toEqual([]);
			}
		});

		it('sort:created, sort:-updated, created: and updated: terms, paged with cursors', async () => {
			const store = await kit(dated);
			const byTitle = new Map((await store.listPage('kit')).items.map(item => [item.preview.title as string, item.id]));
			const ids = (titles: string[]) => titles.map(title => byTitle.get(title));
			const chronological = ['T2', 'T5', 'T0', 'T3', 'T4', 'T1'];
			expect(await idsOf(store, {where: 'sort:created'})).toEqual(ids(chronological));
			expect(await idsOf(store, {where: 'sort:-created'})).toEqual(ids([...chronological].reverse()));
			// An edit moves an item to the front of sort:-updated, not of sort:-created.
			await store.editItem({channelId: 'kit', itemId: byTitle.get('T2')!, actor: human, values: {title: 'T2'}});
			await store.editItem({channelId: 'kit', itemId: byTitle.get('T2')!, actor: human, values: {status: 'new'}});
			expect((await idsOf(store, {where: 'sort:-updated'}))[0]).toBe(byTitle.get('T2'));
			expect((await idsOf(store, {where: 'sort:-created'}))[0]).toBe(byTitle.get('T1'));
			const now = new Date('2026-03-05T12:00:00Z');
			expect(await idsOf(store, {where: 'created:>-7d sort:created', now})).toEqual(ids(['T1']));
			expect(await idsOf(store, {where: 'created:<2026-01-01 sort:created', now})).toEqual(ids(['T2', 'T5', 'T0', 'T3']));
			expect(await idsOf(store, {where: 'created:<=2026-01-01 sort:created', now})).toEqual(ids(['T2', 'T5', 'T0', 'T3', 'T4']));
			expect(await idsOf(store, {where: 'created:2025-12-31..2026-01-01 sort:created', now})).toEqual(ids(['T3', 'T4']));
			expect(await idsOf(store, {where: 'created:2026-01-01 sort:created', now})).toEqual(ids(['T4']));
			expect(await idsOf(store, {where: '-created:>2024-01-01T00:00:00Z sort:created', now})).toEqual(ids(['T2', 'T5']));
			expect(await idsOf(store, {where: 'updated:<2026-01-01 sort:created', now})).toEqual(ids(['T5', 'T0', 'T3']));
			expect(await store.countMatches('kit', 'created:>2025-01-01', now)).toBe(3);
			expect(await refusalOf(() => store.listPage('kit', {where: 'created:soon'}))).toMatchObject({error: 'bad_query', term: 'created:soon', message: expect.stringContaining('created takes a day') as unknown});
			expect(await refusalOf(() => store.listPage('kit', {where: 'sort:colour'}))).toMatchObject({error: 'bad_query', known: expect.arrayContaining(['created', 'updated']) as unknown});
		});
	});
}

for (const backend of BACKENDS) {
	describeBackend(backend);
}
