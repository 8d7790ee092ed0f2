// The watch loop shared by `sift watch` and the TUI's W (source/codex/watch-loop.ts), on real
// stores: it sends due batches with the cursor saved first, holds a partial batch until its settle
// ends and a batch until a slot is free, waits out a store it cannot read with doubling waits, is
// woken by PostgreSQL notifications, and stops at once. Time is a stepped clock (support/clock.ts):
// every schedule is checked exactly, and nothing waits on the wall clock.

import {existsSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/index.js';
import {POLL_MS, PUSHED_POLL_MS, retryDelay, startWatchLoop, type WatchLoopOptions} from '../../source/codex/watch-loop.js';
import {emptyCursor, loadWatchCursor, loadWatchedChannel, type WatchCursor} from '../../source/codex/watch.js';
import {watchLockPath} from '../../source/codex/watch-lock.js';
import type {FanoutEvent} from '../../source/codex/fanout.js';
import {SteppedClock} from '../support/clock.js';
import {describePg, useTestDatabase} from '../support/pg.js';
import {tempDir} from '../support/temp.js';
import {waitUntil} from '../support/wait.js';

const CHANNEL = {id: 'bugs', name: 'Bugs', fields: [{key: 'ticket', label: 'Ticket', type: 'text', is_required: true, is_unique: true, config: {}}]};
const human = {kind: 'human'} as const;

/**
 * A fan-out of `slots` that only records what it is given (with the cursor file as it was at that
 * moment); each batch holds a slot until finish() ends the oldest one, as a run's end would.
 */
function recordingFanout(file: string, clock?: SteppedClock, slots = 2) {
	const added: Array<{ids: string[]; savedSent: Record<string, number>; at: number}> = [];
	const listeners = new Set<(event: FanoutEvent) => void>();
	let running = 0;
	let finished = 0;
	const recorder = {
		added,
		cancelAllCalls: 0,
		/** The oldest running batch ends, with this outcome. */
		finish(outcome = 'ok') {
			running--;
			const batch = added[finished++]!;
			const event = {type: 'finished', run: {itemIds: batch.ids}, result: {outcome, error: outcome === 'ok' ? null : `the run ended ${outcome}`}} as unknown as FanoutEvent;
			for (const listener of listeners) listener(event);
		},
		fanout: {
			get free() {
				return slots - running;
			},
			add(itemIds: readonly string[]) {
				running++;
				added.push({ids: [...itemIds], savedSent: (JSON.parse(readFileSync(file, 'utf8')) as WatchCursor).sent, at: clock?.now() ?? Date.now()});
				return undefined as never;
			},
			subscribe(listener: (event: FanoutEvent) => void) {
				listeners.add(listener);
				return () => listeners.delete(listener);
			},
			cancelAll() {
				recorder.cancelAllCalls++;
			},
		} satisfies WatchLoopOptions['fanout'],
	};
	return recorder;
}

const sizes = (added: Array<{ids: string[]}>) => added.map(batch => batch.ids.length);

async function storeWithChannel(location: string): Promise<AsyncStore> {
	const store = await openAsyncStore(location, {create: true});
	await store.importChannel({channel: CHANNEL, items: []});
	return store;
}

describe('the watch loop on SQLite', () => {
	it('sends the batch due, with the cursor saved as sent before the batch is handed over', async () => {
		const dir = tempDir('sift-watch-loop-');
		const store = await storeWithChannel(path.join(dir, 'sift.db'));
		const file = path.join(dir, 'cursor.json');
		const {fanout, added} = recordingFanout(file);
		const passes: WatchCursor[] = [];
		const loop = await startWatchLoop({store, channelId: 'bugs', where: undefined, file, cursor: emptyCursor(await store.latestSequence('bugs')), fanout, batchSize: 2, settleMs: 0, onPass: cursor => passes.push(cursor)});
		try {
			expect(loop.pushed).toBe(false);
			const ids = [(await store.createItem('bugs', {ticket: 'A'}, human)).item.id, (await store.createItem('bugs', {ticket: 'B'}, human)).item.id];
			await waitUntil(() => added.length > 0, 'a batch');
			expect(added[0]!.ids.sort()).toEqual([...ids].sort());
			expect(Object.keys(added[0]!.savedSent).sort()).toEqual([...ids].sort());
			expect(passes.length).toBeGreaterThan(0);
		} finally {
			loop.stop();
			const last = await loop.done;
			expect(Object.keys(last.sent).sort()).toHaveLength(2);
			await store.close();
		}
	});

	it('waits out a store it cannot read, doubling the wait, and goes on once it can', async () => {
		const dir = tempDir('sift-watch-loop-');
		const real = await storeWithChannel(path.join(dir, 'sift.db'));
		let refusals = 2;
		const store = new Proxy(real, {
			get(target, key, receiver) {
				if (key === 'pollEvents') {
					return async (...args: Parameters<AsyncStore['pollEvents']>) => {
						if (refusals-- > 0) throw new Error('database is locked');
						return target.pollEvents(...args);
					};
				}

				return Reflect.get(target, key, receiver) as unknown;
			},
		});
		const file = path.join(dir, 'cursor.json');
		const clock = new SteppedClock();
		const startedAt = clock.now();
		const failures: Array<{message: string; retryMs: number; at: number}> = [];
		const passes: number[] = [];
		const loop = await startWatchLoop({
			store, channelId: 'bugs', where: undefined, file, cursor: emptyCursor(0), fanout: recordingFanout(file, clock).fanout, batchSize: 2, settleMs: 0, clock,
			onReadFailed: (error, retryMs) => failures.push({message: (error as Error).message, retryMs, at: clock.now()}),
			onPass: () => passes.push(clock.now()),
		});
		try {
			// Refused at once, it sleeps POLL_MS; refused again, twice that; then it reads.
			expect(await clock.asleep()).toBe(startedAt + POLL_MS);
			expect(failures).toEqual([{message: 'database is locked', retryMs: POLL_MS, at: startedAt}]);
			clock.advance(POLL_MS);
			expect(await clock.asleep()).toBe(startedAt + 3 * POLL_MS);
			expect(failures.map(({retryMs, at}) => ({retryMs, at}))).toEqual([{retryMs: POLL_MS, at: startedAt}, {retryMs: 2 * POLL_MS, at: startedAt + POLL_MS}]);
			expect(passes).toEqual([]);
			clock.advance(2 * POLL_MS);
			await clock.asleep();
			expect(passes).toEqual([startedAt + 3 * POLL_MS]);
		} finally {
			loop.stop();
			await loop.done;
			await real.close();
		}
	});

	it('sends full batches at once, holds a partial one until its settle ends, and a due one until a slot is free', async () => {
		const dir = tempDir('sift-watch-loop-');
		const store = await storeWithChannel(path.join(dir, 'sift.db'));
		const file = path.join(dir, 'cursor.json');
		const clock = new SteppedClock();
		const recorder = recordingFanout(file, clock, 2);
		// Not a multiple of POLL_MS: the loop must wake for the settle itself, not at the next poll after it.
		const settleMs = 5200;
		const loop = await startWatchLoop({store, channelId: 'bugs', where: undefined, file, cursor: emptyCursor(await store.latestSequence('bugs')), fanout: recorder.fanout, batchSize: 10, settleMs, clock});
		const create = async (count: number, prefix: string) => {
			for (let index = 0; index < count; index++) await store.createItem('bugs', {ticket: `${prefix}-${index}`}, human);
		};

		try {
			expect(await clock.asleep()).toBe(clock.now() + POLL_MS);
			const arrived = clock.now() + POLL_MS;
			await create(25, 'A');
			clock.advance(POLL_MS);
			// Two full batches go at once; the other 5 wait for their settle, and then for a slot.
			expect(await clock.asleep()).toBe(arrived + POLL_MS);
			expect(sizes(recorder.added)).toEqual([10, 10]);
			clock.advanceTo(arrived + settleMs);
			await clock.asleep();
			expect(sizes(recorder.added), 'settled, but no slot is free').toEqual([10, 10]);
			// A run ends: its slot takes the settled 5 without waiting for the next poll.
			recorder.finish();
			await waitUntil(() => recorder.added.length === 3, 'the settled batch, once a slot is free');
			expect(recorder.added[2]!.at).toBe(arrived + settleMs);
			await clock.asleep();

			recorder.finish();
			recorder.finish();
			await clock.asleep();
			const later = clock.now() + POLL_MS;
			await create(3, 'B');
			clock.advance(POLL_MS);
			// A partial batch waits its whole settle: asleep until then (a poll at a time), sent only then.
			let wakesAt = await clock.asleep();
			while (wakesAt < later + settleMs) {
				expect(sizes(recorder.added)).toEqual([10, 10, 5]);
				clock.advanceTo(wakesAt);
				wakesAt = await clock.asleep();
			}

			expect(wakesAt, 'the last sleep ends with the settle').toBe(later + settleMs);
			expect(sizes(recorder.added)).toEqual([10, 10, 5]);
			clock.advanceTo(wakesAt);
			await clock.asleep();
			expect(sizes(recorder.added)).toEqual([10, 10, 5, 3]);
			expect(recorder.added[3]!.at).toBe(later + settleMs);
			const sent = recorder.added.flatMap(batch => batch.ids);
			expect(new Set(sent).size).toBe(28);
		} finally {
			loop.stop();
			await loop.done;
			await store.close();
		}
	});

	it('a batch whose run needed a login gives its items back and halts the watch; the next watch sends them', async () => {
		const dir = tempDir('sift-watch-loop-');
		const store = await storeWithChannel(path.join(dir, 'sift.db'));
		const file = path.join(dir, 'cursor.json');
		const recorder = recordingFanout(file);
		const loop = await startWatchLoop({store, channelId: 'bugs', where: undefined, file, cursor: emptyCursor(await store.latestSequence('bugs')), fanout: recorder.fanout, batchSize: 2, settleMs: 0});
		try {
			const ids = [(await store.createItem('bugs', {ticket: 'A'}, human)).item.id, (await store.createItem('bugs', {ticket: 'B'}, human)).item.id];
			await waitUntil(() => recorder.added.length === 1, 'the batch');
			recorder.finish('auth_required');
			const cursor = await loop.done;
			expect(loop.halted()).toEqual({outcome: 'auth_required', error: 'the run ended auth_required'});
			expect(recorder.cancelAllCalls, 'the batches still queued are skipped').toBe(1);
			expect(cursor.sent).toEqual({});
			expect(cursor.pending.map(item => item.id).sort()).toEqual([...ids].sort());
			expect(loadWatchCursor(file)).toEqual(cursor);

			const next = recordingFanout(file);
			const again = await startWatchLoop({store, channelId: 'bugs', where: undefined, file, cursor, fanout: next.fanout, batchSize: 2, settleMs: 0});
			await waitUntil(() => next.added.length === 1, 'the batch, sent again');
			expect(next.added[0]!.ids.sort()).toEqual([...ids].sort());
			again.stop();
			await again.done;
			expect(again.halted()).toBeNull();
		} finally {
			loop.stop();
			await store.close();
		}
	});

	it('a batch that could not start, or was skipped while queued, gives its items back and the watch goes on', async () => {
		const dir = tempDir('sift-watch-loop-');
		const store = await storeWithChannel(path.join(dir, 'sift.db'));
		const file = path.join(dir, 'cursor.json');
		const listeners = new Set<(event: FanoutEvent) => void>();
		const added: string[][] = [];
		const fanout = {
			free: 1,
			add(itemIds: readonly string[]) {
				added.push([...itemIds]);
				const type = added.length === 1 ? 'unstarted' : (added.length === 2 ? 'skipped' : undefined);
				if (type) queueMicrotask(() => {
					for (const listener of listeners) listener({type, run: {itemIds: [...itemIds]}, error: new Error('no run log')} as unknown as FanoutEvent);
				});
				return undefined as never;
			},
			subscribe(listener: (event: FanoutEvent) => void) {
				listeners.add(listener);
				return () => listeners.delete(listener);
			},
			cancelAll() {},
		} satisfies WatchLoopOptions['fanout'];
		const loop = await startWatchLoop({store, channelId: 'bugs', where: undefined, file, cursor: emptyCursor(await store.latestSequence('bugs')), fanout, batchSize: 5, settleMs: 0});
		try {
			const id = (await store.createItem('bugs', {ticket: 'A'}, human)).item.id;
			await waitUntil(() => added.length === 3, 'the same item sent a third time');
			expect(added).toEqual([[id], [id], [id]]);
			expect(loop.halted()).toBeNull();
		} finally {
			loop.stop();
			await loop.done;
			await store.close();
		}
	});

	it('doubles its wait up to 30 s', () => {
		expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map(failures => retryDelay(failures))).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
	});
});

describe('the watch cursor belongs to one channel, and one watch holds it', () => {
	it('a cursor of a channel made again under the same id (demo --reset) starts over: the new channel\'s items are sent', async () => {
		const dir = tempDir('sift-watch-again-');
		const location = path.join(dir, 'sift.db');
		const file = path.join(dir, 'cursor.json');
		const first = await storeWithChannel(location);
		for (const ticket of ['A', 'B', 'C', 'D', 'E', 'F']) await first.createItem('bugs', {ticket}, human);
		const earlier = recordingFanout(file);
		const before = await startWatchLoop({store: first, channelId: 'bugs', where: undefined, file, cursor: emptyCursor(await first.latestSequence('bugs')), fanout: earlier.fanout, batchSize: 1, settleMs: 0});
		before.stop();
		expect((await before.done).sequence).toBe(6);
		await first.close();
		rmSync(location);
		const again = await storeWithChannel(location);
		const restarts: string[] = [];
		const {fanout, added} = recordingFanout(file);
		const loop = await startWatchLoop({store: again, channelId: 'bugs', where: undefined, file, cursor: loadWatchCursor(file)!, fanout, batchSize: 1, settleMs: 0, onRestarted: why => restarts.push(why)});
		try {
			expect(restarts).toEqual([expect.stringMatching(/^the channel bugs was made again since this watch's cursor \(event 6\); watching from its latest event, 0$/)]);
			const ids = [(await again.createItem('bugs', {ticket: 'NEW-1'}, human)).item.id, (await again.createItem('bugs', {ticket: 'NEW-2'}, human)).item.id];
			await waitUntil(() => added.length === 2, 'both new items sent');
			expect(added.flatMap(batch => batch.ids).sort()).toEqual([...ids].sort());
			expect(loadWatchedChannel(file)).toMatchObject({location, channel_id: 'bugs'});
		} finally {
			loop.stop();
			await loop.done;
			await again.close();
		}
	});

	it('a second watch on the same cursor is refused while the first runs, and may start once it stopped', async () => {
		const dir = tempDir('sift-watch-lock-');
		const store = await storeWithChannel(path.join(dir, 'sift.db'));
		const file = path.join(dir, 'cursor.json');
		const start = async () => startWatchLoop({store, channelId: 'bugs', where: undefined, file, cursor: emptyCursor(0), fanout: recordingFanout(file).fanout, batchSize: 1, settleMs: 0});
		const first = await start();
		try {
			await expect(start()).rejects.toThrow(/^another watch \(pid \d+\) is watching this channel and query; stop it first/);
			expect(existsSync(watchLockPath(file))).toBe(true);
		} finally {
			first.stop();
			await first.done;
		}

		expect(existsSync(watchLockPath(file))).toBe(false);
		const second = await start();
		second.stop();
		await second.done;
		// A lock left by a watch that died is taken over.
		writeFileSync(watchLockPath(file), '999999999\n');
		const third = await start();
		third.stop();
		await third.done;
		await store.close();
	});
});

describePg('the watch loop on PostgreSQL', () => {
	const database = useTestDatabase();

	it('is woken by the channel\'s notification, well before its safety poll, and stops at once while it sleeps', async () => {
		const url = await database.freshSchemaUrl();
		const store = await storeWithChannel(url);
		const writer = await openAsyncStore(url);
		const dir = tempDir('sift-watch-loop-');
		const file = path.join(dir, 'cursor.json');
		const clock = new SteppedClock();
		const {fanout, added} = recordingFanout(file, clock);
		const loop = await startWatchLoop({store, channelId: 'bugs', where: undefined, file, cursor: emptyCursor(await store.latestSequence('bugs')), fanout, batchSize: 1, settleMs: 0, clock});
		const asleepAt = clock.now();
		try {
			expect(loop.pushed).toBe(true);
			// Asleep until the safety poll, PUSHED_POLL_MS away; the clock never gets there, so only a notification can wake it.
			expect(await clock.asleep()).toBe(asleepAt + PUSHED_POLL_MS);
			const {item} = await writer.createItem('bugs', {ticket: 'PUSHED-1'}, human);
			await waitUntil(() => added.length > 0, 'the batch, woken by NOTIFY');
			expect(added[0]!.ids).toEqual([item.id]);
			expect(clock.now()).toBe(asleepAt);
			await clock.asleep();
		} finally {
			// Stopped while asleep: it ends without the clock moving.
			loop.stop();
			await loop.done;
			expect(clock.now()).toBe(asleepAt);
			await writer.close();
			await store.close();
		}
	}, 30_000);
});
