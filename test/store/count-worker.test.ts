// A SQLite count runs off the caller's thread, sees committed writes, refuses bad terms at once,
// ends when the store closes.

import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {cleanTempDirs, kitChannel, kitItems, tempDir} from './helpers.js';

// On SQLite a count of matches reads every candidate row; it runs on a worker thread with its own
// read-only connection, so whoever asked (a TUI reading keys) is never held up by it.

const open: AsyncStore[] = [];

afterEach(async () => {
	await Promise.all(open.splice(0).map(async store => store.close()));
	cleanTempDirs();
});

async function kit(count: number): Promise<AsyncStore> {
	const store = await openAsyncStore(join(tempDir('sift-count-'), 'store.db'), {create: true});
	open.push(store);
	await store.importChannel({channel: kitChannel, items: kitItems(count)});
	return store;
}

describe('counting matches on SQLite', () => {
	it('leaves the caller\'s thread free: a callback queued before the count runs before it answers', async () => {
		const store = await kit(200);
		const order: string[] = [];
		setImmediate(() => order.push('immediate'));
		const counted = store.countMatches('kit', 'status:new').then(count => {
			order.push('count');
			return count;
		});
		// Counted on the caller's thread, the answer would come first (it is ready before the callback's turn).
		expect(await counted).toBeGreaterThan(0);
		expect(order).toEqual(['immediate', 'count']);
	});

	it('sees what was committed on the store\'s own connection, and refuses a bad term at once', async () => {
		const store = await kit(50);
		const before = await store.countMatches('kit', 'status:new');
		const page = await store.listPage('kit', {where: '-status:new', limit: 1});
		const item = page.items[0]!;
		await store.editItem({channelId: 'kit', itemId: item.id, values: {status: 'new'}, actor: {kind: 'human'}, expectedVersion: item.version});
		expect(await store.countMatches('kit', 'status:new')).toBe(before + 1);
		await expect(store.countMatches('kit', 'status:nope')).rejects.toMatchObject({body: {error: 'bad_query', term: 'status:nope'}});
	});

	it('closing the store ends a count under way', async () => {
		const store = await kit(50);
		const counted = store.countMatches('kit', '').catch((error: Error) => error);
		await store.close();
		open.splice(open.indexOf(store), 1);
		// Either it finished first or it was stopped: it never hangs, and nothing is left running.
		const outcome = await counted;
		expect(typeof outcome === 'number' || /counting matches/.test(outcome.message)).toBe(true);
	});
});
