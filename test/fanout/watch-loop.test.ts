// The watch loop shared by `sift watch` and the TUI's W (source/codex/watch-loop.ts), on real
// stores: it sends due batches with the cursor saved first, waits out a store it cannot read with
// doubling waits, is woken by PostgreSQL notifications, and stops at once.

import {readFileSync} from 'node:fs';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/index.js';
import {POLL_MS, PUSHED_POLL_MS, retryDelay, startWatchLoop, type WatchLoopOptions} from '../../source/codex/watch-loop.js';
import {emptyCursor, type WatchCursor} from '../../source/codex/watch.js';
import {tempDir} from '../support/cli.js';
import {createTestDatabase, describePg, type TestDatabase} from '../support/pg.js';

const CHANNEL = {id: 'bugs', name: 'Bugs', fields: [{key: 'ticket', label: 'Ticket', type: 'text', is_required: true, is_unique: true, config: {}}]};
const human = {kind: 'human'} as const;
const sleep = async (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/** A fan-out that only records what it is given, with the cursor file as it was at that moment. */
function recordingFanout(file: string) {
	const added: Array<{ids: string[]; savedSent: Record<string, number>; at: number}> = [];
	return {
		added,
		fanout: {
			free: 2,
			add(itemIds: readonly string[]) {
				added.push({ids: [...itemIds], savedSent: (JSON.parse(readFileSync(file, 'utf8')) as WatchCursor).sent, at: Date.now()});
				return undefined as never;
			},
			subscribe: () => () => undefined,
		} satisfies WatchLoopOptions['fanout'],
	};
}

async function storeWithChannel(location: string): Promise<AsyncStore> {
	const store = await openAsyncStore(location, {create: true});
	await store.importChannel({channel: CHANNEL, items: []});
	return store;
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
	const giveUpAt = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > giveUpAt) throw new Error(`timed out waiting for ${what}`);
		await sleep(20);
	}
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
			await until(() => added.length > 0, 5000, 'a batch');
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
		const failures: Array<{message: string; retryMs: number; at: number}> = [];
		const passes: number[] = [];
		const startedAt = Date.now();
		const loop = await startWatchLoop({
			store, channelId: 'bugs', where: undefined, file, cursor: emptyCursor(0), fanout: recordingFanout(file).fanout, batchSize: 2, settleMs: 0,
			onReadFailed: (error, retryMs) => failures.push({message: (error as Error).message, retryMs, at: Date.now()}),
			onPass: () => passes.push(Date.now()),
		});
		try {
			await until(() => passes.length > 0, 5000, 'a pass after the failures');
			expect(failures.map(({message, retryMs}) => ({message, retryMs}))).toEqual([
				{message: 'database is locked', retryMs: POLL_MS},
				{message: 'database is locked', retryMs: 2 * POLL_MS},
			]);
			// It really waited: both retries' waits lie between the first failure and the first pass.
			expect(passes[0]! - failures[0]!.at).toBeGreaterThanOrEqual(3 * POLL_MS - 50);
			expect(passes[0]! - startedAt).toBeGreaterThanOrEqual(3 * POLL_MS - 50);
		} finally {
			loop.stop();
			await loop.done;
			await real.close();
		}
	});

	it('doubles its wait up to 30 s', () => {
		expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map(failures => retryDelay(failures))).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
	});
});

describePg('the watch loop on PostgreSQL', () => {
	let database: TestDatabase;
	beforeAll(async () => {
		database = await createTestDatabase();
	});
	afterAll(async () => database?.drop());

	it('is woken by the channel\'s notification, well before its safety poll, and stops at once while it sleeps', async () => {
		const url = await database.freshSchemaUrl();
		const store = await storeWithChannel(url);
		const writer = await openAsyncStore(url);
		const dir = tempDir('sift-watch-loop-');
		const file = path.join(dir, 'cursor.json');
		const {fanout, added} = recordingFanout(file);
		let passes = 0;
		const loop = await startWatchLoop({store, channelId: 'bugs', where: undefined, file, cursor: emptyCursor(await store.latestSequence('bugs')), fanout, batchSize: 1, settleMs: 0, onPass: () => passes++});
		try {
			expect(loop.pushed).toBe(true);
			await until(() => passes > 0, 5000, 'the first pass');
			// Now asleep until the safety poll, PUSHED_POLL_MS away, unless a notification wakes it.
			await sleep(200);
			const createdAt = Date.now();
			const {item} = await writer.createItem('bugs', {ticket: 'PUSHED-1'}, human);
			await until(() => added.length > 0, PUSHED_POLL_MS - 1000, 'the batch, woken by NOTIFY');
			expect(added[0]!.ids).toEqual([item.id]);
			expect(added[0]!.at - createdAt).toBeLessThan(1000);
		} finally {
			await sleep(100);
			const stoppingAt = Date.now();
			loop.stop();
			await loop.done;
			expect(Date.now() - stoppingAt).toBeLessThan(1000);
			await writer.close();
			await store.close();
		}
	}, 30_000);
});
