// What one writer's edit may reach: a relation only points into channels the writer is granted
// (asked the same way whether or not the item exists), and idempotency keys belong to one channel
// and one actor, so nobody's key is refused because someone else used it elsewhere.

import {join} from 'node:path';
import Database from 'better-sqlite3';
import {afterAll, beforeEach, describe, expect, it} from 'vitest';
import {Grants, openStore, type Store} from '../../store/index.js';
import {agent, cleanTempDirs, human, refusedUnchanged, tempDir} from './helpers.js';

afterAll(() => cleanTempDirs());

const text = (key: string) => ({key, label: key, type: 'text'});
const secretChannel = {id: 'secret', name: 'Secret', fields: [text('title')]};
const bugsChannel = {id: 'bugs', name: 'Bugs', fields: [
	text('title'),
	{key: 'blocker', label: 'Blocker', type: 'relation', config: {channel_id: 'secret'}},
	{key: 'parent', label: 'Parent', type: 'relation', config: {channel_id: 'bugs'}},
]};

let store: Store;
let path: string;
let bug: string;
let secret: string;

beforeEach(() => {
	path = join(tempDir(), 'scopes.db');
	store = openStore(path, {create: true});
	store.importChannel({channel: secretChannel, items: [{values: {title: 'hidden'}}]});
	store.importChannel({channel: bugsChannel, items: [{values: {title: 'a'}}, {values: {title: 'b'}}]});
	secret = store.listPage('secret').items[0]!.id;
	bug = store.listPage('bugs').items[0]!.id;
	return () => store.close();
});

describe('relations only point into granted channels', () => {
	const bugsOnly = new Grants(['bugs']);

	it('a writer granted only bugs cannot link into secret, nor learn whether an id exists there', () => {
		const missing = 'it_zzzzzzzzzz';
		const refusalFor = (target: string) => refusedUnchanged(path, () => store.editItem({channelId: 'bugs', itemId: bug, values: {blocker: target}, actor: human, grants: bugsOnly}));
		const existing = refusalFor(secret);
		expect(existing).toEqual({error: 'validation_failed', fields: [{key: 'blocker', message: `values.blocker relates to channel secret, which is not granted to this writer, got "${secret}"`}]});
		// The same answer for an id that does not exist, but for the id it echoes.
		expect(JSON.stringify(refusalFor(missing)).replaceAll(missing, secret)).toBe(JSON.stringify(existing));
	});

	it('an agent\'s refused link becomes a follow-up like any other refusal, and links nothing', () => {
		expect(() => store.editItem({channelId: 'bugs', itemId: bug, values: {blocker: secret}, actor: agent(), grants: bugsOnly})).toThrow(/not granted to this writer/);
		expect(store.readItem('bugs', bug).values.blocker).toBeNull();
		expect(store.listFollowUps({}).map(followUp => followUp.key)).toEqual(['blocker']);
	});

	it('relations within granted channels work as before; without grants (a person) every channel is granted', () => {
		const other = store.listPage('bugs').items[1]!.id;
		expect(store.editItem({channelId: 'bugs', itemId: bug, values: {parent: other}, actor: agent(), grants: bugsOnly}).item.values.parent).toBe(other);
		expect(store.editItem({channelId: 'bugs', itemId: bug, values: {blocker: secret}, actor: agent(), grants: new Grants(['bugs', 'secret'])}).item.values.blocker).toBe(secret);
		expect(store.editItem({channelId: 'bugs', itemId: bug, values: {blocker: null}, actor: human}).item.values.blocker).toBeNull();
		expect(store.editItem({channelId: 'bugs', itemId: bug, values: {blocker: secret}, actor: human}).item.values.blocker).toBe(secret);
	});
});

describe('idempotency keys belong to one channel and one actor', () => {
	it('a key used on another channel, or by another actor, does not block this edit', () => {
		const secretItem = secret;
		store.editItem({channelId: 'secret', itemId: secretItem, values: {title: 'x'}, actor: agent('run-1'), idempotencyKey: 'k'});
		const onBugs = store.editItem({channelId: 'bugs', itemId: bug, values: {title: 'y'}, actor: agent('run-1'), idempotencyKey: 'k'});
		expect(onBugs.item.version).toBe(2);
		const otherRun = store.editItem({channelId: 'bugs', itemId: bug, values: {title: 'z'}, actor: agent('run-2'), idempotencyKey: 'k'});
		expect(otherRun.item.version).toBe(3);
		const person = store.editItem({channelId: 'bugs', itemId: bug, values: {title: 'w'}, actor: human, idempotencyKey: 'k'});
		expect(person.item.version).toBe(4);
	});

	it('within one channel and actor, a replay returns the first result and a changed edit is refused, changing nothing', () => {
		const first = store.editItem({channelId: 'bugs', itemId: bug, values: {title: 'y'}, actor: agent('run-1'), idempotencyKey: 'k'});
		expect(store.editItem({channelId: 'bugs', itemId: bug, values: {title: 'y'}, actor: agent('run-1'), idempotencyKey: 'k'})).toEqual(first);
		expect(refusedUnchanged(path, () => store.editItem({channelId: 'bugs', itemId: bug, values: {title: 'other'}, actor: agent('run-1'), idempotencyKey: 'k'})))
			.toEqual({error: 'idempotency_key_reused', message: 'idempotency_key "k" was already used with different arguments; use a new key for a new edit'});
	});

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
