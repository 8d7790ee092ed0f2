// Stores made before review (SQLite schema 6, PostgreSQL migration 5) gain the proposals table, an
// event's cause and a run's mode and proposal count, keep what they held, and then propose.

import path from 'node:path';
import Database from 'better-sqlite3';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {MIGRATIONS} from '../../store/postgres/schema.js';
import {tempDir} from '../codex/support.js';
import {createTestDatabase, describePg, type TestDatabase} from '../support/pg.js';
import {afterUpgrade, kitChannel, onPostgres, onSqlite} from './helpers.js';
import {SCHEMA_VERSION} from '../../store/sqlite/database.js';

/** A run in propose mode proposes on the upgraded store; the run's older edits are still read. */
async function proposesAfterUpgrade(store: AsyncStore): Promise<void> {
	const [item] = (await store.listPage('kit')).items;
	expect(await store.runs.get('run-old')).toMatchObject({mode: 'apply', proposals: 0});
	await store.runs.start({id: 'run-new', channelId: 'kit', itemIds: [], instruction: 'x', startedAt: new Date().toISOString(), logPath: null, mode: 'propose'});
	const result = await store.editItem({channelId: 'kit', itemId: item!.id, values: {points: 5}, actor: {kind: 'agent', run_id: 'run-new'}});
	expect(result.proposed).toBe(true);
	expect((await store.pollEvents('kit')).events.map(event => event.type)).toEqual(['item.created', 'item.updated', 'proposal.created']);
	expect((await store.runs.diff('run-old')).items).toHaveLength(1);
}

describe('a SQLite store of schema 6', () => {
	it('is upgraded to 7 on open, keeps its events and runs, and proposes', async () => {
		const file = path.join(tempDir(), 'v6.db');
		const made = await openAsyncStore(file, {create: true});
		await made.importChannel({channel: kitChannel, items: [{values: {title: 'one'}}]});
		await made.runs.start({id: 'run-old', channelId: 'kit', itemIds: [], instruction: 'x', startedAt: new Date().toISOString(), logPath: null});
		const [item] = (await made.listPage('kit')).items;
		await made.editItem({channelId: 'kit', itemId: item!.id, values: {points: 3}, actor: {kind: 'agent', run_id: 'run-old'}});
		await made.close();
		// Back to what schema 6 had: no cause, no mode, no proposals.
		onSqlite(file, 'DROP TABLE proposals; ALTER TABLE events DROP COLUMN cause; ALTER TABLE runs DROP COLUMN mode; ALTER TABLE runs DROP COLUMN proposals; PRAGMA user_version = 6');

		await afterUpgrade(file, proposesAfterUpgrade);

		const reopened = new Database(file, {readonly: true});
		expect(reopened.pragma('user_version', {simple: true})).toBe(SCHEMA_VERSION);
		reopened.close();
	});
});

describePg('a PostgreSQL store at migration 5', () => {
	let database: TestDatabase;
	beforeAll(async () => {
		database = await createTestDatabase();
	});
	afterAll(async () => database?.drop());

	it('gets migration 6 on open, keeps its events and runs, and proposes', async () => {
		const url = await database.freshSchemaUrl();
		const made = await openAsyncStore(url, {create: true});
		await made.importChannel({channel: kitChannel, items: [{values: {title: 'one'}}]});
		await made.runs.start({id: 'run-old', channelId: 'kit', itemIds: [], instruction: 'x', startedAt: new Date().toISOString(), logPath: null});
		const [item] = (await made.listPage('kit')).items;
		await made.editItem({channelId: 'kit', itemId: item!.id, values: {points: 3}, actor: {kind: 'agent', run_id: 'run-old'}});
		await made.close();
		// What migration 6 adds, taken back (and the later ones: indexes, and 9's item count): the store as migration 5 left it.
		await onPostgres(url, 'DROP TABLE proposals; ALTER TABLE events DROP COLUMN cause; ALTER TABLE runs DROP COLUMN mode, DROP COLUMN proposals; DROP TRIGGER items_counted_in ON items; DROP TRIGGER items_counted_out ON items; ALTER TABLE channels DROP COLUMN item_count; DELETE FROM schema_version WHERE version >= 6');

		await afterUpgrade(url, proposesAfterUpgrade);

		expect(MIGRATIONS.find(migration => migration.version === 6)).toMatchObject({name: 'review: proposals, event causes, run modes'});
	});
});
