// Items, the edit transaction and events (docs/reference.md#records) on a real file: all-or-nothing edits, idempotency, version conflicts,
// events with their actor, gap-free sequences, ids, and bad input that leaves the file alone.

import {join} from 'node:path';
import {afterAll, afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {MAX_WRITE_BYTES, openStore, type Store} from '../../store/index.js';
import {agent, allEvents, cleanTempDirs, DAY_MS, expectGapFree, expectVersionsMatchEvents, human, kitChannel, kitStore, refusal, snapshot, snapshotBesidesFollowUps, tempDir} from './helpers.js';

afterAll(() => cleanTempDirs());

describe('the edit transaction', () => {
	let store: Store;
	let itemId: string;

	beforeEach(() => {
		store = kitStore();
		itemId = store.createItem('kit', {title: 'target', status: 'new', points: 3}, human).item.id;
	});

	it('applies a 3-field edit as one version bump and one event with from/to', () => {
		const result = store.editItem({channelId: 'kit', itemId, actor: human, values: {status: 'in_progress', points: 5, due: '2025-01-31'}});
		expect(result.item.version).toBe(2);
		expect(result.sequence).toBe(2);
		const events = allEvents(store, 'kit');
		expect(events).toHaveLength(2);
		expect(events[1]).toMatchObject({sequence: 2, type: 'item.updated', item_id: itemId, version: 2, actor: {kind: 'human'}, changes: {
			status: {from: 'new', to: 'in_progress'}, points: {from: 3, to: 5}, due: {from: null, to: '2025-01-31'},
		}});
	});

	it('is all-or-nothing: one bad field of three changes no version, value, event or sequence', () => {
		for (const actor of [human, agent('run-a')]) {
			const before = snapshot(store);
			const beforeBesides = snapshotBesidesFollowUps(store);
			const body = refusal(() => store.editItem({channelId: 'kit', itemId, actor, values: {status: 'in_progress', points: 5, due: 'Friday'}}));
			expect(body).toEqual({error: 'validation_failed', fields: [{key: 'due', message: 'values.due must be a date as YYYY-MM-DD, got "Friday"; sift edit/add and the TUI also read today, +3d or friday'}]});
			if (actor.kind === 'human') {
				expect(snapshot(store)).toEqual(before);
			} else {
				// The agent's refusal is kept as a follow-up; nothing else moved.
				expect(snapshotBesidesFollowUps(store)).toEqual(beforeBesides);
				expect(store.listFollowUps({itemId})).toMatchObject([{key: 'due', attempted: 'Friday', status: 'open'}]);
			}
		}

		const item = store.readItem('kit', itemId);
		expect(item.version).toBe(1);
		expect(item.values).toMatchObject({status: 'new', points: 3, due: null});
		expect(store.latestSequence('kit')).toBe(1);
	});

	it('an edit rewrites no channel row: the next sequence comes from the events, so the commit writes one page fewer', () => {
		// A temporary trigger lives on this connection only: any write to a channel row aborts the edit.
		store.db.exec("CREATE TEMP TRIGGER channel_row_written BEFORE UPDATE ON main.channels BEGIN SELECT raise(ABORT, 'channel row written'); END");
		const first = store.editItem({channelId: 'kit', itemId, actor: human, values: {points: 5}});
		const second = store.editItem({channelId: 'kit', itemId, actor: human, values: {points: 8}});
		expect([first.sequence, second.sequence]).toEqual([2, 3]);
		expect(store.latestSequence('kit')).toBe(3);
		expect(store.channelSummary('kit')).toMatchObject({latest_sequence: 3});
	});

	it('an edit that changes nothing bumps nothing and appends no event', () => {
		const result = store.editItem({channelId: 'kit', itemId, actor: human, values: {status: 'new', points: 3}});
		expect(result.item.version).toBe(1);
		expect(result.sequence).toBe(1);
		expect(allEvents(store, 'kit')).toHaveLength(1);
	});

	describe('idempotency', () => {
		it('the same key and arguments return the original result: one event, one version bump', () => {
			const request = {channelId: 'kit', itemId, actor: agent(), values: {status: 'in_progress', points: 5}, expectedVersion: 1, idempotencyKey: 'k-1'};
			const first = store.editItem(request);
			const again = store.editItem({...request, values: {points: 5, status: 'in_progress'}});
			const third = store.editItem(request);
			expect(again).toEqual(first);
			expect(third).toEqual(first);
			expect(store.readItem('kit', itemId).version).toBe(2);
			expect(allEvents(store, 'kit').filter(event => event.type === 'item.updated')).toHaveLength(1);
			expect(store.latestSequence('kit')).toBe(2);
		});

		it('the replay answers even after the item moved on (no version_conflict for the stale expected_version)', () => {
			const request = {channelId: 'kit', itemId, actor: agent(), values: {points: 5}, expectedVersion: 1, idempotencyKey: 'k-2'};
			const first = store.editItem(request);
			store.editItem({channelId: 'kit', itemId, actor: human, values: {points: 8}});
			expect(store.editItem(request)).toEqual(first);
			expect(store.readItem('kit', itemId)).toMatchObject({version: 3, values: {points: 8}});
		});

		it('the same key with different arguments is refused and writes nothing', () => {
			store.editItem({channelId: 'kit', itemId, actor: agent(), values: {points: 5}, idempotencyKey: 'k-3'});
			const other = store.createItem('kit', {title: 'other'}, human).item.id;
			const before = snapshot(store);
			for (const changed of [
				{values: {points: 6}},
				{values: {points: 5, status: 'new'}},
				{itemId: other},
				{expectedVersion: 2},
			]) {
				const body = refusal(() => store.editItem({channelId: 'kit', itemId, actor: agent(), values: {points: 5}, idempotencyKey: 'k-3', ...changed}));
				expect(body).toEqual({error: 'idempotency_key_reused', message: 'idempotency_key "k-3" was already used with different arguments; use a new key for a new edit'});
			}

			expect(snapshot(store)).toEqual(before);
		});

		it('a refused edit stores no result, so the same key can be used once the values are fixed', () => {
			refusal(() => store.editItem({channelId: 'kit', itemId, actor: human, values: {status: 'New'}, idempotencyKey: 'k-4'}));
			expect(store.editItem({channelId: 'kit', itemId, actor: human, values: {status: 'new', points: 4}, idempotencyKey: 'k-4'}).item.version).toBe(2);
		});
	});

	describe('version conflicts', () => {
		beforeEach(() => {
			store.editItem({channelId: 'kit', itemId, actor: human, values: {status: 'in_progress'}}); // v2
			store.editItem({channelId: 'kit', itemId, actor: agent(), values: {points: 5, title: 'renamed'}}); // v3
			store.editItem({channelId: 'kit', itemId, actor: human, values: {status: 'wont_fix', title: 'target'}}); // v4
		});

		it('names the current version and folds changed_since from the first from to the last to', () => {
			const before = snapshot(store);
			expect(refusal(() => store.editItem({channelId: 'kit', itemId, actor: agent(), expectedVersion: 1, values: {points: 8}}))).toEqual({
				error: 'version_conflict',
				message: `item ${itemId} is at version 4, not 1: read it again and merge`,
				current_version: 4,
				changed_since: {status: {from: 'new', to: 'wont_fix'}, points: {from: 3, to: 5}, title: {from: 'target', to: 'target'}},
			});
			expect(refusal(() => store.editItem({channelId: 'kit', itemId, actor: agent(), expectedVersion: 3, values: {points: 8}}))).toMatchObject({
				error: 'version_conflict', current_version: 4, changed_since: {status: {from: 'in_progress', to: 'wont_fix'}, title: {from: 'renamed', to: 'target'}},
			});
			expect(snapshot(store)).toEqual(before);
			expect(store.editItem({channelId: 'kit', itemId, actor: agent(), expectedVersion: 4, values: {points: 8}}).item.version).toBe(5);
		});

		it('a conflicting agent edit opens no follow-up even with bad values', () => {
			refusal(() => store.editItem({channelId: 'kit', itemId, actor: agent(), expectedVersion: 2, values: {status: 'Done'}}));
			expect(store.listFollowUps({channelId: 'kit'})).toEqual([]);
		});

		it('deletes take expected_version too', () => {
			expect(refusal(() => store.deleteItem('kit', itemId, human, 2))).toMatchObject({error: 'version_conflict', current_version: 4});
			expect(store.deleteItem('kit', itemId, human, 4)).toMatchObject({ok: true, item_id: itemId, sequence: 5});
		});

		it('refuses an expected_version that is not a whole number', () => {
			for (const expectedVersion of ['4', 0, 1.5, -1, null]) {
				expect(refusal(() => store.editItem({channelId: 'kit', itemId, actor: human, values: {points: 1}, expectedVersion: expectedVersion as number}))).toEqual({
					error: 'invalid_argument', message: `expected_version must be a whole number 1 or greater, got ${JSON.stringify(expectedVersion)}`,
				});
			}
		});
	});
});

describe('events and sequences', () => {
	it('record the actor kind and run id of every create, edit and delete', () => {
		const store = kitStore([{values: {title: 'imported'}}]);
		const created = store.createItem('kit', {title: 'made', points: 2}, agent('run-7')).item.id;
		store.editItem({channelId: 'kit', itemId: created, actor: human, values: {points: 3}});
		store.editItem({channelId: 'kit', itemId: created, actor: agent('run-8'), values: {points: 4}});
		store.deleteItem('kit', created, human);
		const events = allEvents(store, 'kit');
		expect(events.map(event => [event.sequence, event.type, event.version, event.actor])).toEqual([
			[1, 'item.created', 1, {kind: 'import'}],
			[2, 'item.created', 1, {kind: 'agent', run_id: 'run-7'}],
			[3, 'item.updated', 2, {kind: 'human'}],
			[4, 'item.updated', 3, {kind: 'agent', run_id: 'run-8'}],
			[5, 'item.deleted', 4, {kind: 'human'}],
		]);
		expect(events[1]!.changes).toEqual({title: {from: null, to: 'made'}, points: {from: null, to: 2}});
		expect(events[4]!.changes).toEqual({title: {from: 'made', to: null}, points: {from: 4, to: null}});
		expect(events.every(event => !Number.isNaN(Date.parse(event.at)))).toBe(true);
	});

	it('stay gap-free per channel through refusals, conflicts, replays, no-ops and a failed import', () => {
		const store = kitStore([{values: {title: 'a'}}, {values: {title: 'b'}}]);
		store.importChannel({channel: {...kitChannel, id: 'other', fields: kitChannel.fields.filter(field => field.type !== 'relation')}, items: [{values: {title: 'x'}}]});
		const [a, b] = store.listPage('kit').items.map(item => item.id) as [string, string];
		const attempts: Array<() => unknown> = [
			() => store.editItem({channelId: 'kit', itemId: a, actor: human, values: {points: 1}}),
			() => store.editItem({channelId: 'kit', itemId: a, actor: agent(), values: {points: 99}}),
			() => store.editItem({channelId: 'kit', itemId: a, actor: human, values: {points: 2}, expectedVersion: 1}),
			() => store.editItem({channelId: 'kit', itemId: a, actor: human, values: {points: 2}, idempotencyKey: 'i'}),
			() => store.editItem({channelId: 'kit', itemId: a, actor: human, values: {points: 2}, idempotencyKey: 'i'}),
			() => store.editItem({channelId: 'kit', itemId: a, actor: human, values: {points: 2}}),
			() => store.createItem('kit', {points: 1}, human),
			() => store.createItem('kit', {title: 'c'}, human),
			() => store.deleteItem('kit', b, human),
			() => store.deleteItem('kit', b, human),
			() => store.editItem({channelId: 'kit', itemId: 'it_zzzzzzzzzz', actor: human, values: {points: 2}}),
			() => store.importChannel({channel: {...kitChannel, id: 'third'}, items: [{values: {title: 'ok'}}, {values: {}}]}),
			() => store.editItem({channelId: 'other', itemId: store.listPage('other').items[0]!.id, actor: human, values: {points: 5}}),
		];
		for (const attempt of attempts) {
			try {
				attempt();
			} catch {}
		}

		// kit: 2 imports, edit, replayed edit, create c, delete b = 6.
		expect(expectGapFree(store, 'kit')).toBe(6);
		expect(expectGapFree(store, 'other')).toBe(2);
		expectVersionsMatchEvents(store, 'kit');
		expect(store.listChannels()).toEqual([
			{id: 'kit', name: 'Kit', item_count: 2, latest_sequence: 6},
			{id: 'other', name: 'Kit', item_count: 1, latest_sequence: 2},
		]);
	});

	it('pollEvents pages from a reader-held cursor', () => {
		const store = kitStore(Array.from({length: 150}, (_, index) => ({values: {title: `t${index}`}})));
		const first = store.pollEvents('kit', {afterSequence: 0});
		expect(first.events.map(event => event.sequence)).toEqual(Array.from({length: 100}, (_, index) => index + 1));
		expect(first).toMatchObject({next_after_sequence: 100, has_more: true});
		const second = store.pollEvents('kit', {afterSequence: first.next_after_sequence});
		expect(second.events).toHaveLength(50);
		expect(second).toMatchObject({next_after_sequence: 150, has_more: false});
		expect(store.pollEvents('kit', {afterSequence: 150})).toEqual({events: [], next_after_sequence: 150, has_more: false});
		expect(refusal(() => store.pollEvents('kit', {afterSequence: -1}))).toMatchObject({error: 'invalid_argument'});
		expect(refusal(() => store.pollEvents('kit', {limit: 101}))).toMatchObject({error: 'invalid_argument'});
		expect(refusal(() => store.pollEvents('nope'))).toEqual({error: 'not_found', message: 'channel "nope" does not exist'});
	});
});

describe('ids', () => {
	it('sort by creation, and are never reused after a delete (not even of the newest)', () => {
		const store = kitStore();
		const a = store.createItem('kit', {title: 'a'}, human).item.id;
		const b = store.createItem('kit', {title: 'b'}, human).item.id;
		expect(a < b).toBe(true);
		store.deleteItem('kit', b, human);
		const c = store.createItem('kit', {title: 'c'}, human).item.id;
		expect(c > b).toBe(true);
		// Reopening the file does not reuse it either.
		const path = store.path;
		store.close();
		const reopened = openStore(path);
		const d = reopened.createItem('kit', {title: 'd'}, human).item.id;
		expect(d > c).toBe(true);
		expect(refusal(() => reopened.readItem('kit', b))).toEqual({error: 'not_found', message: `item "${b}" does not exist in channel kit`});
	});
});

describe('bad input gets a clear error and leaves the file unchanged', () => {
	let store: Store;
	let itemId: string;

	beforeEach(() => {
		store = kitStore();
		itemId = store.createItem('kit', {title: 'target'}, human).item.id;
	});

	it('values that are not an object', () => {
		const before = snapshot(store);
		for (const values of ['status=new', ['new'], null, 5, undefined]) {
			expect(refusal(() => store.editItem({channelId: 'kit', itemId, actor: human, values}))).toEqual({error: 'invalid_argument', message: 'values must be an object of field keys to values'});
			expect(refusal(() => store.createItem('kit', values, human))).toEqual({error: 'invalid_argument', message: 'values must be an object of field keys to values'});
		}

		expect(snapshot(store)).toEqual(before);
	});

	it('__proto__ and constructor keys are unknown fields and never touch a prototype', () => {
		const before = snapshot(store);
		for (const text of ['{"__proto__": {"polluted": true}}', '{"constructor": {"prototype": {"polluted": true}}}', '{"prototype": 1, "title": "x"}']) {
			const values = JSON.parse(text) as Record<string, unknown>;
			const body = refusal(() => store.editItem({channelId: 'kit', itemId, actor: agent(), values}));
			expect(body.error).toBe('validation_failed');
			const key = Object.keys(values)[0]!;
			expect(body.error === 'validation_failed' && body.fields[0]).toMatchObject({key, message: `values.${key} is not a field of this channel`});
			expect(refusal(() => store.createItem('kit', {title: 'new', ...values}, human))).toMatchObject({error: 'validation_failed'});
		}

		expect(snapshot(store)).toEqual(before);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(store.readItem('kit', itemId).values).not.toHaveProperty('polluted');
	});

	it('wrong types for ids and channels', () => {
		const before = snapshot(store);
		expect(refusal(() => store.editItem({channelId: 'nope', itemId, actor: human, values: {points: 1}}))).toEqual({error: 'not_found', message: 'channel "nope" does not exist'});
		expect(refusal(() => store.editItem({channelId: 'kit', itemId: 42 as unknown as string, actor: human, values: {points: 1}}))).toEqual({error: 'not_found', message: 'item 42 does not exist in channel kit'});
		expect(refusal(() => store.editItem({channelId: 'kit', itemId: 'it_zzzzzzzzzz', actor: human, values: {points: 1}}))).toEqual({error: 'not_found', message: 'item "it_zzzzzzzzzz" does not exist in channel kit'});
		expect((refusal(() => store.readItem('kit', 'x'.repeat(10_000))) as {message: string}).message.length).toBeLessThan(200);
		expect(refusal(() => store.deleteItem('kit', 'it_zzzzzzzzzz', human))).toMatchObject({error: 'not_found'});
		expect(snapshot(store)).toEqual(before);
	});

	it('1 MB strings are refused with a short message', () => {
		const before = snapshotBesidesFollowUps(store);
		const megabyte = 'x'.repeat(MAX_WRITE_BYTES + 1);
		for (const values of [{summary: megabyte}, {notes: megabyte}, {meta: {blob: megabyte}}]) {
			const body = refusal(() => store.editItem({channelId: 'kit', itemId, actor: human, values}));
			expect(body).toEqual({error: 'invalid_argument', message: `values is larger than ${MAX_WRITE_BYTES} bytes as JSON`});
		}

		// Under the payload cap, the text cap answers.
		const body = refusal(() => store.editItem({channelId: 'kit', itemId, actor: agent(), values: {summary: 'y'.repeat(1024 * 1024 + 1)}}));
		expect(body).toEqual({error: 'validation_failed', fields: [{key: 'summary', message: 'values.summary must be at most 1048576 bytes (1 MiB) as UTF-8, got 1048577', max: 1024 * 1024}]});
		expect(refusal(() => store.createItem('kit', {title: megabyte}, human))).toMatchObject({error: 'invalid_argument'});
		// The agent's follow-up keeps the attempt, but the item and the events are untouched.
		expect(snapshotBesidesFollowUps(store)).toEqual(before);
		expect(store.listFollowUps({itemId})).toMatchObject([{key: 'summary', status: 'open'}]);
	});
});

describe('formulas are computed on read', () => {
	afterEach(() => {
		vi.useRealTimers();
	});

	it('age_days counts from created_at to today and grows by the day; other formulas follow their inputs', () => {
		const createdAt = new Date(Date.now() - 10 * DAY_MS).toISOString();
		const store = kitStore([{values: {title: 'old', points: 4}, created_at: createdAt}]);
		const itemId = store.listPage('kit').items[0]!.id;
		const item = store.readItem('kit', itemId);
		expect(item.created_at).toBe(createdAt);
		expect(item.values).toMatchObject({age_days: 10, double_points: 8});
		expect(store.listPage('kit').items[0]!.preview).toMatchObject({age_days: 10, double_points: 8});
		expect(store.editItem({channelId: 'kit', itemId, actor: human, values: {points: null}}).item.values).toMatchObject({age_days: 10, double_points: null});

		vi.useFakeTimers({toFake: ['Date']});
		vi.setSystemTime(Date.now() + DAY_MS);
		expect(store.readItem('kit', itemId).values.age_days).toBe(11);
		// Nothing is stored for a formula.
		const stored = JSON.parse((store.db.prepare('SELECT data FROM items WHERE id = ?').get(itemId) as {data: string}).data) as object;
		expect(stored).not.toHaveProperty('age_days');
	});

	it('a reopened file computes the same way', () => {
		const dir = tempDir();
		const path = join(dir, 'f.db');
		const first = openStore(path, {create: true});
		first.importChannel({channel: kitChannel, items: [{values: {title: 'x', points: 6}, created_at: new Date(Date.now() - 3 * DAY_MS).toISOString()}]});
		first.close();
		const second = openStore(path);
		const [item] = second.listPage('kit').items;
		expect(second.readItem('kit', item!.id).values).toMatchObject({age_days: 3, double_points: 12});
	});
});
