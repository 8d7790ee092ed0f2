// Append and update (`upsertItems`, behind `sift import --into --key`) on both backends: new key
// values are created, changed rows become versioned edits with actor import, unchanged rows write
// nothing; any refusal or a dry run keeps nothing; options grow only when asked.

import {describe, expect, it} from 'vitest';
import type {AsyncStore, UpsertRow} from '../../store/api.js';
import {notePgOff} from '../support/pg.js';
import {kitChannel} from '../store/helpers.js';
import {allEvents, BACKENDS, expectGapFree, expectVersionsMatchEvents, refusalOf, stateOf, storesOn, type Backend} from './backends.js';

const row = (at: string, values: Record<string, unknown>, created_at?: string): UpsertRow => ({at, values, ...(created_at ? {created_at} : {})});

async function* later(rows: UpsertRow[]) {
	for (const each of rows) {
		await Promise.resolve();
		yield each;
	}
}

async function codes(store: AsyncStore): Promise<Record<string, {version: number; values: Record<string, unknown>}>> {
	const page = await store.listPage('kit', {limit: 50});
	return Object.fromEntries(await Promise.all(page.items.map(async ({id}) => {
		const item = await store.readItem('kit', id);
		return [item.values.code as string, {version: item.version, values: item.values}];
	})));
}

describe.each(BACKENDS)('upsert on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const {fresh} = storesOn(backend);
	const kit = async () => {
		const store = await fresh();
		await store.importChannel({channel: kitChannel, items: []});
		return store;
	};

	it('creates new keys, edits changed rows as versioned events with actor import, leaves unchanged rows alone', async () => {
		const store = await kit();
		const first = await store.upsertItems({channelId: 'kit', key: 'code', rows: [row('line 2', {code: 'A', title: 'one', status: 'new'}, '2024-01-01T00:00:00Z'), row('line 3', {code: 'B', title: 'two'})]});
		expect(first).toMatchObject({created: 2, updated: 0, unchanged: 0, refused: 0, written: true});
		const sequence = await store.latestSequence('kit');
		const second = await store.upsertItems({channelId: 'kit', key: 'code', rows: later([row('line 2', {code: 'A', title: 'one', status: 'in_progress'}), row('line 3', {code: 'B', title: 'two'}), row('line 4', {code: 'C', title: 'three'})])});
		expect(second).toMatchObject({created: 1, updated: 1, unchanged: 1, refused: 0, written: true});
		const items = await codes(store);
		expect(items.A).toMatchObject({version: 2, values: {status: 'in_progress', title: 'one'}});
		expect(items.B!.version).toBe(1);
		const events = (await allEvents(store, 'kit')).filter(event => event.sequence > sequence);
		expect(events.map(event => [event.type, event.actor.kind])).toEqual([['item.updated', 'import'], ['item.created', 'import']]);
		expect(events[0]!.changes).toEqual({status: {from: 'new', to: 'in_progress'}});
		const created = await store.readItem('kit', (await store.listPage('kit')).items.at(-1)!.id);
		expect(created.created_at).toBe('2024-01-01T00:00:00.000Z');
		// A null clears; the same rows again change nothing at all.
		expect(await store.upsertItems({channelId: 'kit', key: 'code', rows: [row('line 2', {code: 'A', title: 'one', status: null})]})).toMatchObject({updated: 1});
		expect((await codes(store)).A!.values.status ?? null).toBeNull();
		const before = await stateOf(store, 'kit');
		expect(await store.upsertItems({channelId: 'kit', key: 'code', rows: [row('line 2', {code: 'A', title: 'one', status: null}), row('line 3', {code: 'B', title: 'two'})]})).toMatchObject({unchanged: 2, updated: 0, created: 0});
		expect(await stateOf(store, 'kit')).toEqual(before);
		await expectGapFree(store, 'kit');
		await expectVersionsMatchEvents(store, 'kit');
	});

	it("takes a row's source times: a new item its created_at and updated_at, an edited one a later updated_at, never an earlier one", async () => {
		const store = await kit();
		const timed = (at: string, values: Record<string, unknown>, created_at: string | undefined, updated_at: string): UpsertRow => ({at, values, ...(created_at ? {created_at} : {}), updated_at});
		await store.upsertItems({channelId: 'kit', key: 'code', rows: [
			timed('line 2', {code: 'A', title: 'one'}, '2023-05-01T10:20:30Z', '2024-02-03T04:05:06+01:00'),
			timed('line 3', {code: 'B', title: 'two'}, undefined, '2024-03-01T12:00:00Z'),
		]});
		const times = async () => Object.fromEntries(await Promise.all((await store.listPage('kit', {limit: 50})).items.map(async ({id}) => {
			const item = await store.readItem('kit', id);
			return [item.values.code as string, [item.created_at, item.updated_at]];
		})));
		// The time of day is kept; an offset is read as the instant; a row without created_at was created by its updated_at at the latest.
		expect(await times()).toEqual({A: ['2023-05-01T10:20:30.000Z', '2024-02-03T03:05:06.000Z'], B: ['2024-03-01T12:00:00.000Z', '2024-03-01T12:00:00.000Z']});
		const sequence = await store.latestSequence('kit');
		// A newer dump: the edit is the source's, at its time; created_at stays.
		await store.upsertItems({channelId: 'kit', key: 'code', rows: [timed('line 2', {code: 'A', title: 'one, later'}, '2023-05-01T10:20:30Z', '2024-06-07T08:09:10Z')]});
		expect((await times()).A).toEqual(['2023-05-01T10:20:30.000Z', '2024-06-07T08:09:10.000Z']);
		const edits = (await allEvents(store, 'kit')).filter(event => event.sequence > sequence);
		expect(edits.map(event => [event.type, event.at])).toEqual([['item.updated', '2024-06-07T08:09:10.000Z']]);
		// An older file over that: the change happens now, and updated_at never goes back.
		const startedAt = new Date().toISOString();
		expect(await store.upsertItems({channelId: 'kit', key: 'code', rows: [timed('line 2', {code: 'A', title: 'one, old file'}, undefined, '2020-01-01T00:00:00Z')]})).toMatchObject({updated: 1});
		expect((await times()).A![1]! >= startedAt).toBe(true);
		// A malformed time refuses its row, naming the column, and keeps nothing.
		const refused = await store.upsertItems({channelId: 'kit', key: 'code', rows: [timed('line 9', {code: 'Z', title: 'bad time'}, undefined, 'last tuesday')]});
		expect(refused).toMatchObject({refused: 1, written: false});
		expect(JSON.stringify(refused.refusals[0]!.error)).toContain('updated_at must be an ISO 8601 date or date-time');
	});

	it('one refused row keeps nothing, and every refusal names its row and field', async () => {
		const store = await kit();
		await store.upsertItems({channelId: 'kit', key: 'code', rows: [row('line 2', {code: 'A', title: 'one'})]});
		const before = await stateOf(store, 'kit');
		const result = await store.upsertItems({channelId: 'kit', key: 'code', rows: [
			row('line 2', {code: 'A', title: 'changed'}),
			row('line 3', {code: 'B', title: 'new'}),
			row('line 4', {code: 'C', title: 'bad', status: 'Blocked'}),
			row('line 5', {code: 'A', title: 'again'}),
			row('line 6', {title: 'no key'}),
			row('line 7', {code: 'D', title: 'x'.repeat(21), points: 20}),
		]});
		expect(result).toMatchObject({created: 1, updated: 1, refused: 4, written: false});
		expect(result.refusals.map(refusal => [refusal.at, refusal.key, refusal.error.error === 'validation_failed' ? refusal.error.fields.map(field => field.key) : refusal.error.error])).toEqual([
			['line 4', 'C', ['status']],
			['line 5', 'A', ['code']],
			['line 6', undefined, ['code']],
			['line 7', 'D', ['title', 'points']],
		]);
		expect(JSON.stringify(result.refusals[0]!.error)).toContain('got \\"Blocked\\"');
		expect(await stateOf(store, 'kit')).toEqual(before);
	});

	it('a dry run counts what would happen and keeps nothing', async () => {
		const store = await kit();
		await store.upsertItems({channelId: 'kit', key: 'code', rows: [row('line 2', {code: 'A', title: 'one'})]});
		const before = await stateOf(store, 'kit');
		expect(await store.upsertItems({channelId: 'kit', key: 'code', dryRun: true, rows: [row('line 2', {code: 'A', title: 'two'}), row('line 3', {code: 'B', title: 'new'})]})).toMatchObject({created: 1, updated: 1, refused: 0, written: false});
		expect(await stateOf(store, 'kit')).toEqual(before);
	});

	it('grows a select\'s options only when asked, in the same transaction, and not on a dry run or a refusal', async () => {
		const store = await kit();
		const rows = () => [row('line 2', {code: 'A', title: 'one', status: 'blocked', tags: ['ui', 'mobile']})];
		expect((await store.upsertItems({channelId: 'kit', key: 'code', rows: rows()})).refused).toBe(1);
		expect((await store.upsertItems({channelId: 'kit', key: 'code', rows: rows(), addOptions: {status: ['blocked'], tags: ['mobile']}, dryRun: true})).options_added).toEqual({status: ['blocked'], tags: ['mobile']});
		expect((await store.getChannel('kit')).fields.find(field => field.key === 'status')!.config.options).toHaveLength(3);
		const refused = await store.upsertItems({channelId: 'kit', key: 'code', rows: [...rows(), row('line 3', {code: 'B', title: 'x'.repeat(30)})], addOptions: {status: ['blocked'], tags: ['mobile']}});
		expect(refused).toMatchObject({refused: 1, written: false});
		expect((await store.getChannel('kit')).fields.find(field => field.key === 'status')!.config.options).toHaveLength(3);
		// The dry run and the refused import appended nothing, not even their schema change.
		expect(await allEvents(store, 'kit')).toEqual([]);
		const grown = await store.upsertItems({channelId: 'kit', key: 'code', rows: rows(), addOptions: {status: ['blocked'], tags: ['mobile']}});
		expect(grown).toMatchObject({created: 1, written: true, options_added: {status: ['blocked'], tags: ['mobile']}});
		// Like every schema change, the grown options are a channel.updated event holding each field before and after, then the rows' events.
		const events = await allEvents(store, 'kit');
		expect(events.map(event => [event.type, event.actor.kind])).toEqual([['channel.updated', 'import'], ['item.created', 'import']]);
		const changes = events[0]!.changes as Record<string, {from: {config: {options: Array<{value: string}>}}; to: {config: {options: Array<{value: string}>}}}>;
		expect(Object.keys(changes)).toEqual(['status', 'tags']);
		expect(changes.status!.from.config.options.map(option => option.value)).toEqual(['new', 'in_progress', 'wont_fix']);
		expect(changes.status!.to.config.options.map(option => option.value)).toEqual(['new', 'in_progress', 'wont_fix', 'blocked']);
		expect(changes.tags!.to.config.options.map(option => option.value)).toContain('mobile');
		expect((await store.getChannel('kit')).fields.find(field => field.key === 'status')!.config.options!.map(option => option.value)).toEqual(['new', 'in_progress', 'wont_fix', 'blocked']);
		// Other writers see the grown schema at once.
		const [item] = (await store.listPage('kit')).items;
		expect((await store.editItem({channelId: 'kit', itemId: item!.id, values: {status: 'blocked'}, actor: {kind: 'human'}})).ok).toBe(true);
	});

	it('the key must be a unique field of the channel', async () => {
		const store = await kit();
		expect((await refusalOf(() => store.upsertItems({channelId: 'kit', key: 'title', rows: []}))).error).toBe('invalid_argument');
		expect((await refusalOf(() => store.upsertItems({channelId: 'kit', key: 'nope', rows: []}))).error).toBe('invalid_argument');
		expect((await refusalOf(() => store.upsertItems({channelId: 'nowhere', key: 'code', rows: []}))).error).toBe('not_found');
		expect((await refusalOf(() => store.upsertItems({channelId: 'kit', key: 'code', rows: [], addOptions: {title: ['x']}}))).error).toBe('invalid_argument');
	});
});
