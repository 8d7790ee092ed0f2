// Each channel's item count on both backends: kept by the store on every write (SQLite schema 10,
// PostgreSQL migration 9) in the channel's row, which listChannels and channelSummary read. Every
// count is checked against the stored column and the items a listing finds, through every path
// that inserts or deletes items (a create, a delete, an import, one taken back and inserted again,
// an upsert), a write that is refused or rolled back, and writers on two connections at once.

import Database from 'better-sqlite3';
import pg from 'pg';
import {describe, expect, it} from 'vitest';
import type {AsyncStore, UpsertRow} from '../../store/api.js';
import {notePgOff} from '../support/pg.js';
import {human, kitChannel} from '../store/helpers.js';
import {allItemIds, BACKENDS, refusalOf, storesOn, type Backend} from './backends.js';

/** A second channel like kit (its relation points at kit, which every test imports first). */
const other = {...kitChannel, id: 'other', name: 'Other'};

/** More than two of PostgreSQL's import batches (5,000 items). */
const MANY = 12_001;

/**
 * `count` items; from `outOfOrderAt` on, each is created before the one before it, so the import
 * takes back what it inserted and inserts everything again in created_at order.
 */
async function* manyItems(count: number, {outOfOrderAt = count, badAt = -1} = {}) {
	const start = Date.UTC(2024, 0, 1);
	for (let n = 0; n < count; n++) {
		const minutes = n < outOfOrderAt ? n : outOfOrderAt - (n - outOfOrderAt) - 1;
		yield {values: n === badAt ? {title: 'x'.repeat(30)} : {title: `item ${n}`, code: `C-${n}`}, created_at: new Date(start + minutes * 60_000).toISOString()};
	}
}

const row = (at: string, values: Record<string, unknown>): UpsertRow => ({at, values});

/** SQL on the backend's last store, on a connection of its own (not the store's). */
async function rawSql(backend: Backend, sql: string): Promise<Array<Record<string, unknown>>> {
	if (backend.name === 'sqlite') {
		const db = new Database(backend.lastLocation());
		try {
			const statement = db.prepare(sql);
			if (statement.reader) return statement.all() as Array<Record<string, unknown>>;
			statement.run();
			return [];
		} finally {
			db.close();
		}
	}

	const client = new pg.Client({connectionString: backend.lastLocation()});
	await client.connect();
	try {
		return (await client.query(sql)).rows as Array<Record<string, unknown>>;
	} finally {
		await client.end();
	}
}

/** Each channel's stored count, as the column holds it. */
const storedCounts = async (backend: Backend) => Object.fromEntries((await rawSql(backend, 'SELECT id, item_count FROM channels ORDER BY id')).map(row => [row.id, Number(row.item_count)]));

/**
 * What the channels' rows hold, what listChannels and channelSummary say each channel has, and
 * that a listing finds exactly that many items.
 */
async function expectCounts(backend: Backend, store: AsyncStore, expected: Record<string, number>): Promise<void> {
	expect(await storedCounts(backend)).toEqual(expected);
	const listed = await store.listChannels();
	expect(Object.fromEntries(listed.map(channel => [channel.id, channel.item_count]))).toEqual(expected);
	for (const [id, count] of Object.entries(expected)) {
		expect((await store.channelSummary(id)).item_count, `channelSummary(${id})`).toBe(count);
		expect(await allItemIds(store, id), `the items of ${id}`).toHaveLength(count);
	}
}

describe.each(BACKENDS)('each channel\'s item count on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const {fresh, again} = storesOn(backend);

	it('follows imports, creates and deletes, per channel, and another connection reads the same', async () => {
		const store = await fresh();
		await store.importChannel({channel: kitChannel, items: [{values: {title: 'one'}}, {values: {title: 'two'}}, {values: {title: 'three'}}]});
		await expectCounts(backend, store, {kit: 3});
		await store.importChannel({channel: other, items: [{values: {title: 'a'}}, {values: {title: 'b'}}]});
		await expectCounts(backend, store, {kit: 3, other: 2});
		const created = await store.createItem('kit', {title: 'four'}, human);
		await store.createItem('kit', {title: 'five'}, human);
		await expectCounts(backend, store, {kit: 5, other: 2});
		await store.deleteItem('kit', created.item.id, human);
		const [otherItem] = await allItemIds(store, 'other');
		await store.deleteItem('other', otherItem!, human, 1);
		await expectCounts(backend, store, {kit: 4, other: 1});
		// An edit neither adds nor removes an item.
		await store.editItem({channelId: 'kit', itemId: (await allItemIds(store, 'kit'))[0]!, values: {title: 'renamed'}, actor: human});
		await expectCounts(backend, await again(), {kit: 4, other: 1});
		await store.importChannel({channel: {...kitChannel, id: 'empty', name: 'Empty'}, items: []});
		await expectCounts(backend, store, {kit: 4, other: 1, empty: 0});
	});

	it('an import across batches, taken back and inserted again in created_at order, counts each item once', async () => {
		const store = await fresh();
		await store.importChannel({channel: kitChannel, items: [{values: {title: 'one'}}]});
		expect((await store.importChannel({channel: other, items: manyItems(MANY, {outOfOrderAt: 6000})})).items_created).toBe(MANY);
		await expectCounts(backend, store, {kit: 1, other: MANY});
	}, 60_000);

	it('a refused import, even one refused after it took its items back, leaves every count as it was', async () => {
		const store = await fresh();
		await store.importChannel({channel: kitChannel, items: [{values: {title: 'one'}}, {values: {title: 'two'}}]});
		expect((await refusalOf(() => store.importChannel({channel: other, items: manyItems(MANY, {badAt: 11_000})}))).error).toBe('invalid_import');
		expect((await refusalOf(() => store.importChannel({channel: other, items: manyItems(MANY, {outOfOrderAt: 6000, badAt: 11_000})}))).error).toBe('invalid_import');
		// The channel exists already: refused before any item.
		expect((await refusalOf(() => store.importChannel({channel: kitChannel, items: [{values: {title: 'again'}}]}))).error).toBe('invalid_import');
		await expectCounts(backend, store, {kit: 2});
		// What keeps the count came back with the rollback: later writes are counted.
		await store.createItem('kit', {title: 'three'}, human);
		await store.importChannel({channel: other, items: manyItems(3)});
		await expectCounts(backend, store, {kit: 3, other: 3});
	}, 60_000);

	it('an upsert counts the rows it creates, not the ones it edits; a refused upsert or a dry run counts nothing', async () => {
		const store = await fresh();
		await store.importChannel({channel: kitChannel, items: [{values: {title: 'one', code: 'A'}}]});
		const first = await store.upsertItems({channelId: 'kit', key: 'code', rows: [row('line 2', {code: 'A', title: 'changed'}), row('line 3', {code: 'B', title: 'two'}), row('line 4', {code: 'C', title: 'three'})]});
		expect(first).toMatchObject({created: 2, updated: 1, written: true});
		await expectCounts(backend, store, {kit: 3});
		const refused = await store.upsertItems({channelId: 'kit', key: 'code', rows: [row('line 2', {code: 'D', title: 'four'}), row('line 3', {code: 'E', title: 'x'.repeat(30)})]});
		expect(refused).toMatchObject({created: 1, refused: 1, written: false});
		const dryRun = await store.upsertItems({channelId: 'kit', key: 'code', rows: [row('line 2', {code: 'D', title: 'four'})], dryRun: true});
		expect(dryRun).toMatchObject({created: 1, written: false});
		await expectCounts(backend, store, {kit: 3});
		await store.deleteItem('kit', (await allItemIds(store, 'kit'))[0]!, human);
		await expectCounts(backend, store, {kit: 2});
	});

	it('a refused create or delete leaves the count as it was', async () => {
		const store = await fresh();
		await store.importChannel({channel: kitChannel, items: [{values: {title: 'one', code: 'A'}}, {values: {title: 'two'}}]});
		const [newest] = await allItemIds(store, 'kit');
		expect((await refusalOf(() => store.createItem('kit', {title: 'x'.repeat(30)}, human))).error).toBe('validation_failed');
		expect((await refusalOf(() => store.createItem('kit', {title: 'three', code: 'A'}, human))).error).toBe('validation_failed');
		expect((await refusalOf(() => store.deleteItem('kit', newest!, human, 7))).error).toBe('version_conflict');
		expect((await refusalOf(() => store.deleteItem('kit', 'it_zzzzzzzzzz', human))).error).toBe('not_found');
		await expectCounts(backend, store, {kit: 2});
	});

	it('writers on two connections creating and deleting at once: the count is the items there are', async () => {
		const store = await fresh();
		await store.importChannel({channel: kitChannel, items: Array.from({length: 20}, (_, n) => ({values: {title: `item ${n}`}}))});
		await store.importChannel({channel: other, items: Array.from({length: 20}, (_, n) => ({values: {title: `item ${n}`}}))});
		const second = await again();
		const kitIds = await allItemIds(store, 'kit');
		const otherIds = await allItemIds(store, 'other');
		const writes = Array.from({length: 20}, async (_, n) => {
			const writer = n % 2 === 0 ? store : second;
			const channelId = n % 4 < 2 ? 'kit' : 'other';
			await writer.createItem(channelId, {title: `new ${n}`}, human);
			await writer.deleteItem('kit', kitIds[n]!, human);
			if (n % 3 === 0) await writer.deleteItem('other', otherIds[n]!, human);
			await writer.createItem(channelId, {title: `newer ${n}`}, human);
		});
		await Promise.all(writes);
		// kit: 20 - 20 deleted + 20 created (10 writers × 2); other: 20 - 7 deleted + 20 created.
		await expectCounts(backend, store, {kit: 20, other: 33});
		await expectCounts(backend, second, {kit: 20, other: 33});
	});

	it('a summary reads the stored count, not the items: a count set by hand is what it says', async () => {
		const store = await fresh();
		await store.importChannel({channel: kitChannel, items: [{values: {title: 'one'}}, {values: {title: 'two'}}]});
		await rawSql(backend, "UPDATE channels SET item_count = 1000000 WHERE id = 'kit'");
		expect((await store.channelSummary('kit')).item_count).toBe(1_000_000);
		expect((await store.listChannels()).map(channel => channel.item_count)).toEqual([1_000_000]);
		// Writes go on from the stored count.
		await store.createItem('kit', {title: 'three'}, human);
		expect((await store.channelSummary('kit')).item_count).toBe(1_000_001);
	});
});
