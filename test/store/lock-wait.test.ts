// A write that meets another process's write lock waits off the event loop (store/sqlite/write-lock.ts):
// timers, reads and other work go on meanwhile, the wait is bounded (then `busy`, nothing written),
// and a store that stops waiting (shutting down) answers at once.

import {join} from 'node:path';
import {afterAll, describe, expect, it, vi} from 'vitest';
import {openAsyncStore, openStore, StoreError, type AsyncStore} from '../../store/index.js';
import {holdWriteLock} from '../support/lock-holder.js';
import {waitUntil} from '../support/wait.js';
import {cleanTempDirs, fileDigest, human, kitChannel, tempDir} from './helpers.js';

afterAll(() => cleanTempDirs());

async function storeWithItem(options: Parameters<typeof openAsyncStore>[1] = {}): Promise<{db: string; store: AsyncStore; id: string}> {
	const db = join(tempDir(), 'locked.db');
	const setup = openStore(db, {create: true});
	setup.importChannel({channel: kitChannel, items: [{values: {title: 'x'}}]});
	const id = setup.listPage('kit').items[0]!.id;
	setup.close();
	return {db, store: await openAsyncStore(db, options), id};
}

/** A store whose lock-wait notices are counted, with a wait for the first (the write has met the lock and waits). */
async function noticedStore(options: Parameters<typeof openAsyncStore>[1] = {}) {
	let notices = 0;
	const opened = await storeWithItem({...options, onLockWait: () => notices++});
	return {...opened, notices: () => notices, waiting: async () => waitUntil(() => notices > 0, 'the lock-wait notice')};
}

const edit = (store: AsyncStore, id: string, title: string) => store.editItem({channelId: 'kit', itemId: id, values: {title}, actor: human});

describe('a write that meets another process\'s write lock', () => {
	it('waits without blocking: timers keep ticking, reads answer, and the write goes through on release', async () => {
		const {db, store, id, notices, waiting} = await noticedStore();
		const holder = await holdWriteLock(db);
		try {
			let settled = false;
			const write = edit(store, id, 'after the lock').finally(() => {
				settled = true;
			});
			await waiting();
			// While the write waits, timers fire and a read of the same store answers (a synchronous
			// busy timeout would hold the event loop until the lock is gone, and neither could happen).
			let ticks = 0;
			const timer = setInterval(() => ticks++, 1);
			await waitUntil(() => ticks >= 3, 'timer ticks while the write waits', {intervalMs: 1});
			clearInterval(timer);
			expect((await store.readItem('kit', id)).version).toBe(1);
			expect(settled).toBe(false);
			await holder.release();
			expect((await write).item.version).toBe(2);
			expect((await store.readItem('kit', id)).values.title).toBe('after the lock');
			expect(notices()).toBe(1);
		} finally {
			holder.kill();
			await store.close();
		}
	});

	it('many waiting writes queue behind one probe and land in the order they were asked for', async () => {
		const {db, store, id, waiting} = await noticedStore();
		const holder = await holdWriteLock(db);
		try {
			const titles = Array.from({length: 100}, (_, index) => `t${index}`);
			const writes = titles.map(async title => edit(store, id, title));
			await waiting();
			await holder.release();
			const versions = (await Promise.all(writes)).map(result => result.item.version);
			expect(versions).toEqual(titles.map((_, index) => index + 2));
			expect((await store.readItem('kit', id)).values.title).toBe('t99');
		} finally {
			holder.kill();
			await store.close();
		}
	});

	it('is bounded: after lockWaitMs it fails with busy and nothing is written', async () => {
		const {db, store, id} = await storeWithItem({lockWaitMs: 400});
		const holder = await holdWriteLock(db);
		try {
			const before = fileDigest(db);
			// The wait's clock is the test's: still waiting 1 ms short of the bound, busy at it.
			vi.useFakeTimers({toFake: ['Date', 'setTimeout', 'clearTimeout']}); // an injected clock: no real time passes
			let settled = false;
			const outcome = edit(store, id, 'never').catch((caught: unknown) => caught).finally(() => {
				settled = true;
			});
			await vi.advanceTimersByTimeAsync(399);
			expect(settled).toBe(false);
			await vi.advanceTimersByTimeAsync(1);
			vi.useRealTimers();
			expect(settled).toBe(true);
			const error = await outcome;
			expect(error).toBeInstanceOf(StoreError);
			expect((error as StoreError).body).toMatchObject({error: 'busy', message: expect.stringMatching(/write lock.*nothing was written/)});
			await holder.release();
			expect(fileDigest(db)).toBe(before);
			expect((await store.readItem('kit', id)).version).toBe(1);
			// Once the lock is free, the same store writes again.
			expect((await edit(store, id, 'later')).item.version).toBe(2);
		} finally {
			vi.useRealTimers();
			holder.kill();
			await store.close();
		}
	});

	it('every kind of write waits the same way (tokens, runs, follow-ups, creates)', async () => {
		const {db, store} = await storeWithItem({lockWaitMs: 300});
		const holder = await holdWriteLock(db);
		try {
			const writes: Array<Promise<unknown>> = [
				store.tokens.create({grants: ['kit']}),
				store.runs.start({id: 'run-x', channelId: 'kit', itemIds: [], instruction: 'x', startedAt: new Date().toISOString(), logPath: null}),
				store.createItem('kit', {title: 'new'}, human),
			];
			for (const outcome of await Promise.allSettled(writes)) {
				expect(outcome.status).toBe('rejected');
				expect(((outcome as PromiseRejectedResult).reason as StoreError).code).toBe('busy');
			}

			// A token's last use is a hint: skipped while the lock is held, never waited for. A wait
			// goes through timers; the skip answers before the event loop's next turn.
			const touched = store.tokens.touch('nobody').then(() => 'touched');
			const nextTurn = new Promise(resolve => setImmediate(() => resolve('waited')));
			expect(await Promise.race([touched, nextTurn])).toBe('touched');
		} finally {
			holder.kill();
			await store.close();
		}
	});

	it('stopLockWaits ends a wait at once with busy (a process shutting down)', async () => {
		const {db, store, id, waiting} = await noticedStore();
		const holder = await holdWriteLock(db);
		try {
			const write = edit(store, id, 'never');
			await waiting();
			store.stopLockWaits?.();
			// The stop's own busy (a wait that ran out says so differently), while the lock is still held.
			const error = await write.catch((caught: unknown) => caught);
			expect((error as StoreError).body).toMatchObject({error: 'busy', message: expect.stringMatching(/shutting down/)});
		} finally {
			holder.kill();
			await store.close();
		}
	});
});
