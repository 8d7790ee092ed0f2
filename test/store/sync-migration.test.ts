// Stores made before the sync engine (SQLite schema 10, PostgreSQL migration 9) gain its tables
// and the follow-ups' kind on open: their follow-ups read as refusals, and a link works at once.

import path from 'node:path';
import {afterAll, beforeAll, expect, it, describe} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {tempDir} from '../codex/support.js';
import {createTestDatabase, describePg, type TestDatabase} from '../support/pg.js';
import {afterUpgrade, agent, human, kitChannel, onPostgres, onSqlite} from './helpers.js';

/** A kit store with one agent follow-up (a refused status). */
async function withFollowUp(location: string): Promise<void> {
	const store = await openAsyncStore(location, {create: true});
	try {
		await store.importChannel({channel: kitChannel, items: [{values: {title: 'one', code: 'C1'}}]});
		const [item] = (await store.listPage('kit')).items;
		await store.editItem({channelId: 'kit', itemId: item!.id, values: {status: 'nope'}, actor: agent('r1')}).catch(() => undefined);
	} finally {
		await store.close();
	}
}

async function upgradedWorks(store: AsyncStore): Promise<void> {
	expect(await store.listFollowUps({channelId: 'kit'})).toEqual([expect.objectContaining({kind: 'refused', key: 'status'})]);
	await store.sync.link({channel_id: 'kit', tracker: 'github', remote: 'acme/app', key_field: 'code', fields: [{key: 'title', remote: 'title', kind: 'scalar'}]});
	const [item] = (await store.listPage('kit')).items;
	await store.editItem({channelId: 'kit', itemId: item!.id, values: {title: 'two'}, actor: human});
	expect((await store.sync.outbox('kit')).map(entry => [entry.field, entry.value, entry.remote_id])).toEqual([['title', 'two', 'C1']]);
}

describe('a SQLite store of schema 10', () => {
	it('is upgraded to 11 on open: the sync tables, follow-ups with their kind', async () => {
		const file = path.join(tempDir(), 'v10.db');
		await withFollowUp(file);
		onSqlite(file, 'DROP TABLE sync_links; DROP TABLE sync_bases; DROP TABLE sync_outbox; DROP TABLE item_comments; ALTER TABLE followups DROP COLUMN kind; ALTER TABLE followups DROP COLUMN base; ALTER TABLE followups DROP COLUMN ours; ALTER TABLE followups DROP COLUMN theirs; PRAGMA user_version = 10');
		await afterUpgrade(file, upgradedWorks);
	});
});

describePg('a PostgreSQL store at migration 9', () => {
	let database: TestDatabase;
	beforeAll(async () => {
		database = await createTestDatabase();
	});
	afterAll(async () => database?.drop());

	it('gets migration 10 on open: the sync tables, follow-ups with their kind', async () => {
		const url = await database.freshSchemaUrl();
		await withFollowUp(url);
		await onPostgres(url, 'DROP TABLE sync_links, sync_bases, sync_outbox, item_comments; ALTER TABLE followups DROP COLUMN kind, DROP COLUMN base, DROP COLUMN ours, DROP COLUMN theirs; DELETE FROM schema_version WHERE version >= 10');

		await afterUpgrade(url, upgradedWorks);
	});
});
