// Stores made before the kept item count (SQLite schema 9, PostgreSQL migration 8) get each
// channel's count filled on open, and keep it from then on; a summary reads it, not a count(*).

import path from 'node:path';
import Database from 'better-sqlite3';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {MIGRATIONS} from '../../store/postgres/schema.js';
import {tempDir} from '../codex/support.js';
import {createTestDatabase, describePg, type TestDatabase} from '../support/pg.js';
import {afterUpgrade, human, kitChannel, onPostgres, onSqlite} from './helpers.js';
import {SCHEMA_VERSION} from '../../store/sqlite/database.js';

const titled = (count: number, prefix: string) => Array.from({length: count}, (_, index) => ({values: {title: `${prefix} ${index}`}}));

/** Two channels of 5 and 3 items, made by this sift. */
async function twoChannels(location: string): Promise<void> {
	const made = await openAsyncStore(location, {create: true});
	try {
		await made.importChannel({channel: kitChannel, items: titled(5, 'kit')});
		await made.importChannel({channel: {...kitChannel, id: 'kit2', name: 'Kit 2'}, items: titled(3, 'two')});
	} finally {
		await made.close();
	}
}

/** The counts after the upgrade, and after one create and one delete on the upgraded store. */
async function countsAfterUpgrade(store: AsyncStore): Promise<void> {
	expect((await store.listChannels()).map(channel => [channel.id, channel.item_count])).toEqual([['kit', 5], ['kit2', 3]]);
	await store.createItem('kit2', {title: 'later'}, human);
	const [first] = (await store.listPage('kit')).items;
	await store.deleteItem('kit', first!.id, human);
	expect((await store.listChannels()).map(channel => [channel.id, channel.item_count])).toEqual([['kit', 4], ['kit2', 4]]);
}

describe('a SQLite store of schema 9', () => {
	it('is upgraded to 10 on open: each channel\'s count filled, then kept', async () => {
		const file = path.join(tempDir(), 'v9.db');
		await twoChannels(file);
		// What schema 10 adds, taken back: the store as schema 9 left it.
		onSqlite(file, 'DROP TRIGGER items_counted_in; DROP TRIGGER items_counted_out; ALTER TABLE channels DROP COLUMN item_count; PRAGMA user_version = 9');
		await afterUpgrade(file, countsAfterUpgrade);

		const reopened = new Database(file, {readonly: true});
		expect(reopened.pragma('user_version', {simple: true})).toBe(SCHEMA_VERSION);
		// The summary reads the kept column: a count set by hand is what it reports.
		reopened.close();
		onSqlite(file, "UPDATE channels SET item_count = 41 WHERE id = 'kit'");
		const store2 = await openAsyncStore(file);
		try {
			expect((await store2.channelSummary('kit')).item_count).toBe(41);
		} finally {
			await store2.close();
		}
	});
});

describePg('a PostgreSQL store at migration 8', () => {
	let database: TestDatabase;
	beforeAll(async () => {
		database = await createTestDatabase();
	});
	afterAll(async () => database?.drop());

	it('gets migration 9 on open: each channel\'s count filled, then kept by bulk and single writes', async () => {
		const url = await database.freshSchemaUrl();
		await twoChannels(url);
		await onPostgres(url, 'DROP TRIGGER items_counted_in ON items; DROP TRIGGER items_counted_out ON items; ALTER TABLE channels DROP COLUMN item_count; DELETE FROM schema_version WHERE version >= 9');

		const store = await openAsyncStore(url);
		try {
			await countsAfterUpgrade(store);
			// The summary reads the kept column: a count set by hand is what it reports.
			await onPostgres(url, "UPDATE channels SET item_count = 41 WHERE id = 'kit'");

			expect((await store.channelSummary('kit')).item_count).toBe(41);
		} finally {
			await store.close();
		}

		expect(MIGRATIONS.find(migration => migration.version === 9)).toMatchObject({name: 'each channel\'s item count, kept per write'});
	});
});
