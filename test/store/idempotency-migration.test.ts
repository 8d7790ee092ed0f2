// A SQLite file from before idempotency keys were scoped to a channel and an actor is migrated.
// What keys and grants mean on both backends is test/contract/grants.contract.test.ts.

import {join} from 'node:path';
import Database from 'better-sqlite3';
import {afterAll, beforeEach, describe, expect, it} from 'vitest';
import {openStore, type Store} from '../../store/index.js';
import {cleanTempDirs, human, scopeChannels, tempDir} from './helpers.js';

afterAll(() => cleanTempDirs());


let store: Store;
let path: string;
let bug: string;
let secret: string;

beforeEach(() => {
	path = join(tempDir(), 'scopes.db');
	store = openStore(path, {create: true});
	store.importChannel({channel: scopeChannels.secret, items: [{values: {title: 'hidden'}}]});
	store.importChannel({channel: scopeChannels.bugs, items: [{values: {title: 'a'}}, {values: {title: 'b'}}]});
	secret = store.listPage('secret').items[0]!.id;
	bug = store.listPage('bugs').items[0]!.id;
	return () => store.close();
});

describe('idempotency keys are scoped to a channel and an actor', () => {
	it('a version-2 file (one global key table) is migrated: the table is rebuilt scoped, the data kept', () => {
		store.close();
		const old = new Database(path);
		old.exec(`DROP TABLE idempotency;
			CREATE TABLE idempotency (key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, result TEXT NOT NULL, at TEXT NOT NULL);
			INSERT INTO idempotency VALUES ('k', 'f', '{}', '2026-01-01T00:00:00.000Z');`);
		old.pragma('user_version = 2');
		old.close();
		store = openStore(path);
		const columns = (store.db.prepare("SELECT name FROM pragma_table_info('idempotency')").all() as Array<{name: string}>).map(row => row.name);
		expect(columns).toEqual(['channel_id', 'actor', 'key', 'fingerprint', 'result', 'at']);
		expect(store.editItem({channelId: 'bugs', itemId: bug, values: {title: 'after'}, actor: human, idempotencyKey: 'k'}).item.version).toBe(2);
		expect(store.readItem('secret', secret).values.title).toBe('hidden');
		expect(store.db.pragma('user_version', {simple: true})).toBeGreaterThanOrEqual(3);
	});
});
