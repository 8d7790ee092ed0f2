// Opening a file: WAL, the busy timeout, and migration of a database made by an older sift.

import {join} from 'node:path';
import Database from 'better-sqlite3';
import {describe, expect, it} from 'vitest';
import {openStore} from '../../store/index.js';
import {tempDir} from '../support/temp.js';

const tables = (db: Database.Database) => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{name: string}>).map(row => row.name);

describe('opening a store file', () => {
	it('uses WAL and a busy timeout', () => {
		const store = openStore(join(tempDir('sift-db-'), 's.db'), {create: true});
		expect(store.db.pragma('journal_mode', {simple: true})).toBe('wal');
		expect(store.db.pragma('busy_timeout', {simple: true})).toBeGreaterThanOrEqual(5000);
		store.close();
	});

	it('sets the page cache asked for (sift export asks for 2 MiB), else keeps the 16 MiB default', () => {
		const path = join(tempDir('sift-db-'), 's.db');
		const store = openStore(path, {create: true});
		expect(store.db.pragma('cache_size', {simple: true})).toBe(-16_000);
		store.close();
		const small = openStore(path, {pageCacheKiB: 2048});
		expect(small.db.pragma('cache_size', {simple: true})).toBe(-2048);
		small.close();
	});

	it('adds what a version-1 file lacks (the runs table) and keeps its data', () => {
		const path = join(tempDir('sift-db-'), 'old.db');
		const store = openStore(path, {create: true});
		store.importChannel({channel: {id: 'c', name: 'C', fields: [{key: 't', label: 'T', type: 'text'}]}, items: [{values: {t: 'kept'}}]});
		store.close();
		const old = new Database(path);
		old.exec('DROP TABLE runs');
		old.pragma('user_version = 1');
		old.close();

		const reopened = openStore(path);
		expect(tables(reopened.db)).toContain('runs');
		expect(reopened.listPage('c').items[0]!.preview).toEqual({t: 'kept'});
		reopened.close();
	});
});

describe('channel listings', () => {
	it('names without counts, one summary, and all summaries agree', () => {
		const store = openStore(join(tempDir('sift-db-'), 'c.db'), {create: true});
		const field = {key: 't', label: 'T', type: 'text'};
		store.importChannel({channel: {id: 'a', name: 'A', fields: [field]}, items: [{values: {t: '1'}}, {values: {t: '2'}}]});
		store.importChannel({channel: {id: 'b', name: 'B', fields: [field]}, items: [{values: {t: '3'}}]});
		expect(store.listChannelNames()).toEqual([{id: 'a', name: 'A', created_at: expect.any(String)}, {id: 'b', name: 'B', created_at: expect.any(String)}]);
		expect(store.channelSummary('b')).toEqual({id: 'b', name: 'B', item_count: 1, latest_sequence: 1});
		expect(store.listChannels()).toEqual([{id: 'a', name: 'A', item_count: 2, latest_sequence: 2}, store.channelSummary('b')]);
		expect(() => store.channelSummary('nope')).toThrow(/does not exist/);
		store.close();
	});
});
