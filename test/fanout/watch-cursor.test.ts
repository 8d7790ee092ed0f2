// The watch cursor: what waits, what is due, never an item version twice, the cursor file.

import {existsSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import type {StoreEvent} from '../../store/index.js';
import {admit, emptyCursor, giveBack, loadWatchCursor, parseSettle, saveWatchCursor, settleEndsAt, takeDue, touchesOf, watchCursorPath, type WatchCursor} from '../../source/codex/watch.js';
import {tempDir} from '../codex/support.js';

const event = (sequence: number, item: string, version: number, type: StoreEvent['type'] = version === 1 ? 'item.created' : 'item.updated', actor: StoreEvent['actor'] = {kind: 'human'}): StoreEvent =>
	({sequence, type, item_id: item, version, actor, changes: {}, at: '2026-01-01T00:00:00Z'});

const all = (...ids: string[]) => new Set(ids);

describe('parseSettle', () => {
	it('reads ms, s, m and bare seconds', () => {
		expect(parseSettle('5s')).toBe(5000);
		expect(parseSettle('500ms')).toBe(500);
		expect(parseSettle('2m')).toBe(120_000);
		expect(parseSettle('3')).toBe(3000);
		expect(parseSettle('0s')).toBe(0);
	});

	it('refuses anything else, and more than an hour', () => {
		for (const bad of ['', 'soon', '-1s', '1.5s', '5 h', '2h', '61m']) expect(parseSettle(bad), bad).toBeNull();
	});
});

describe('touchesOf', () => {
	it('folds a poll per item: the last version, a delete, and whether only agents touched it', () => {
		const touches = touchesOf([
			event(1, 'a', 1),
			event(2, 'b', 1),
			event(3, 'a', 2, 'item.updated', {kind: 'agent', run_id: 'r'}),
			event(4, 'c', 5, 'item.updated', {kind: 'agent', run_id: 'r'}),
			event(5, 'b', 1, 'item.deleted'),
		]);
		expect(touches).toEqual([
			{id: 'a', version: 2, deleted: false, byAgent: false},
			{id: 'b', version: 1, deleted: true, byAgent: false},
			{id: 'c', version: 5, deleted: false, byAgent: true},
		]);
	});

	it('a schema change (channel.updated) touches no item', () => {
		expect(touchesOf([event(1, 'a', 1), event(2, '', 0, 'channel.updated')])).toEqual([{id: 'a', version: 1, deleted: false, byAgent: false}]);
	});

	it('review events touch no item: a proposal or a person declining it changes nothing (an accept is an item.updated of its own)', () => {
		expect(touchesOf([event(1, 'a', 1), event(2, 'b', 1, 'proposal.created', {kind: 'agent', run_id: 'r'}), event(3, 'b', 1, 'proposal.declined', {kind: 'human'}), event(4, 'a', 1, 'proposal.accepted', {kind: 'human'})]))
			.toEqual([{id: 'a', version: 1, deleted: false, byAgent: false}]);
	});
});

describe('admit and takeDue', () => {
	const size = {batchSize: 3, settleMs: 1000, slots: 2};

	it('a new matching item waits; one that does not match, or an agent\'s edit, does not', () => {
		const cursor = admit(emptyCursor(0), touchesOf([event(1, 'a', 1), event(2, 'b', 1), event(3, 'c', 4, 'item.updated', {kind: 'agent'})]), all('a', 'c'), 3, 100);
		expect(cursor).toEqual({sequence: 3, sent: {}, pending: [{id: 'a', version: 1, since: 100}]});
	});

	it('full batches go at once, at most one per free slot; a short one only after the settle', () => {
		let cursor = emptyCursor(0);
		const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
		cursor = admit(cursor, touchesOf(ids.map((id, index) => event(index + 1, id, 1))), all(...ids), 7, 0);
		const first = takeDue(cursor, {...size, slots: 1, now: 10});
		expect(first.batches.map(batch => batch.map(item => item.id))).toEqual([['a', 'b', 'c']]);
		expect(first.cursor.sent).toEqual({a: 1, b: 1, c: 1});
		const second = takeDue(first.cursor, {...size, now: 10});
		expect(second.batches.map(batch => batch.map(item => item.id))).toEqual([['d', 'e', 'f']]);
		expect(second.cursor.pending.map(item => item.id)).toEqual(['g']);
		expect(takeDue(second.cursor, {...size, now: 999}).batches).toEqual([]);
		expect(settleEndsAt(second.cursor, 1000)).toBe(1000);
		expect(takeDue(second.cursor, {...size, now: 1000}).batches.map(batch => batch.map(item => item.id))).toEqual([['g']]);
		expect(takeDue(second.cursor, {...size, slots: 0, now: 5000}).batches).toEqual([]);
	});

	it('never sends an item version twice: a sent item still matching is not sent again, whatever is edited', () => {
		let cursor = admit(emptyCursor(0), touchesOf([event(1, 'a', 1)]), all('a'), 1, 0);
		cursor = takeDue(cursor, {...size, now: 5000}).cursor;
		expect(cursor.sent).toEqual({a: 1});
		cursor = admit(cursor, touchesOf([event(2, 'a', 2), event(3, 'a', 3)]), all('a'), 3, 6000);
		expect(cursor.pending).toEqual([]);
		// Replaying the same events (a restart from an older cursor) changes nothing either.
		expect(admit(cursor, touchesOf([event(1, 'a', 1)]), all('a'), 1, 7000)).toEqual({...cursor});
	});

	it('an item that stops matching and matches again is newly matching: it goes again, at its new version', () => {
		let cursor = takeDue(admit(emptyCursor(0), touchesOf([event(1, 'a', 1)]), all('a'), 1, 0), {...size, now: 5000}).cursor;
		cursor = admit(cursor, touchesOf([event(2, 'a', 2)]), all(), 2, 6000);
		expect(cursor.sent).toEqual({});
		cursor = admit(cursor, touchesOf([event(3, 'a', 3)]), all('a'), 3, 7000);
		expect(cursor.pending).toEqual([{id: 'a', version: 3, since: 7000}]);
	});

	it('a waiting item keeps its place with its newest version; deleted or no longer matching, it drops out', () => {
		let cursor = admit(emptyCursor(0), touchesOf([event(1, 'a', 1), event(2, 'b', 1), event(3, 'c', 1)]), all('a', 'b', 'c'), 3, 0);
		cursor = admit(cursor, touchesOf([event(4, 'a', 2), event(5, 'b', 1, 'item.deleted'), event(6, 'c', 2)]), all('a'), 6, 500);
		expect(cursor.pending).toEqual([{id: 'a', version: 2, since: 0}]);
	});

	it('a batch given back waits again at the version it was sent at; one changed since, or waiting already, is left as it is', () => {
		let cursor = admit(emptyCursor(0), touchesOf([event(1, 'a', 1), event(2, 'b', 3), event(3, 'c', 1)]), all('a', 'b', 'c'), 3, 0);
		cursor = takeDue(cursor, {...size, now: 5000}).cursor;
		expect(cursor.pending).toEqual([]);
		// c stopped matching after it was sent: the cursor no longer counts it as sent.
		cursor = admit(cursor, touchesOf([event(4, 'c', 2)]), all('a', 'b'), 4, 5500);
		const back = giveBack(cursor, ['a', 'b', 'c'], 6000);
		expect(back.pending).toEqual([{id: 'a', version: 1, since: 6000}, {id: 'b', version: 3, since: 6000}]);
		expect(back.sent).toEqual({});
		expect(giveBack(back, ['a'], 7000)).toBe(back);
		// Sent again from there, as any waiting item is.
		expect(takeDue(back, {...size, now: 12_000}).batches.flat().map(item => item.id)).toEqual(['a', 'b']);
	});
});

describe('the cursor file', () => {
	it('is private, written whole, read back as written; one per database, channel and query', () => {
		const dir = tempDir();
		const file = watchCursorPath(dir, {location: '/x/sift.db', channelId: 'bugs', where: 'status:new'});
		expect(file).not.toBe(watchCursorPath(dir, {location: '/x/sift.db', channelId: 'bugs', where: undefined}));
		expect(file).not.toBe(watchCursorPath(dir, {location: '/y/sift.db', channelId: 'bugs', where: 'status:new'}));
		expect(loadWatchCursor(file)).toBeUndefined();
		const cursor: WatchCursor = {sequence: 42, sent: {a: 3}, pending: [{id: 'b', version: 1, since: 1}]};
		saveWatchCursor(file, cursor);
		expect(loadWatchCursor(file)).toEqual(cursor);
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(readFileSync(file, 'utf8').endsWith('\n')).toBe(true);
	});

	it('a damaged file is refused, not silently restarted from scratch', () => {
		const file = path.join(tempDir(), 'watch.json');
		writeFileSync(file, '{"sequence": "x"');
		expect(() => loadWatchCursor(file)).toThrow(/damaged; remove it/);
		expect(existsSync(file)).toBe(true);
	});
});
