// `sift edit` without --expect-version applies to whatever version is current: a write that lands
// between its read and its edit (another person, a retire's migration) is no conflict, on both
// backends. The other writer is a second real connection, let in right after the edit's read.

import {describe, expect, it} from 'vitest';
import type {AsyncStore} from '../../store/api.js';
import {StoreError} from '../../store/index.js';
import {editNamed} from '../../source/commands/edit.js';
import {notePgOff} from '../support/pg.js';
import {human, kitChannel} from '../store/helpers.js';
import {BACKENDS, storesOn, type Backend} from '../contract/backends.js';

/** `store`, but each readItem lets `meanwhile` write before it answers. */
function racedAfterRead(store: AsyncStore, meanwhile: () => Promise<unknown>): AsyncStore {
	return new Proxy(store, {
		get(target, property, receiver) {
			if (property === 'readItem') {
				return async (...args: Parameters<AsyncStore['readItem']>) => {
					const item = await target.readItem(...args);
					await meanwhile();
					return item;
				};
			}

			const value = Reflect.get(target, property, receiver) as unknown;
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
}

describe.each(BACKENDS)('sift edit on the current version on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const {fresh, again} = storesOn(backend);

	async function oneItem(): Promise<{store: AsyncStore; other: AsyncStore; id: string}> {
		const store = await fresh();
		await store.importChannel({channel: kitChannel, items: [{values: {title: 'first', points: 1, status: 'new'}}]});
		const other = await again();
		return {store, other, id: (await store.listPage('kit')).items[0]!.id};
	}

	it('another person\'s write between the read and the edit: both stay, the edit shows only its own change', async () => {
		const {store, other, id} = await oneItem();
		const raced = racedAfterRead(store, async () => other.editItem({channelId: 'kit', itemId: id, values: {title: 'renamed'}, actor: human, expectedVersion: 1}));
		const result = await editNamed(raced, 'kit', {name: id, itemId: id}, {points: 5});
		expect(result.item.version).toBe(3);
		expect((await store.readItem('kit', id)).values).toMatchObject({title: 'renamed', points: 5});
		expect(result.before.version).toBe(2);
		expect(result.before.values).toMatchObject({title: 'renamed', points: 1});
	});

	it('a retire\'s migration between the read and the edit is no conflict either', async () => {
		const {store, other, id} = await oneItem();
		const [from, to] = ['new', 'in_progress'];
		const raced = racedAfterRead(store, async () => other.changeChannel('kit', {kind: 'retire_option', key: 'status', value: from, migrateTo: to}, human));
		const result = await editNamed(raced, 'kit', {name: id, itemId: id}, {points: 8});
		expect(result.item.values).toMatchObject({status: to, points: 8});
	});

	it('with a version to expect, a write in between is still the conflict', async () => {
		const {store, other, id} = await oneItem();
		const raced = racedAfterRead(store, async () => other.editItem({channelId: 'kit', itemId: id, values: {title: 'renamed'}, actor: human, expectedVersion: 1}));
		await expect(editNamed(raced, 'kit', {name: id, itemId: id}, {points: 5}, 1)).rejects.toThrow(StoreError);
		expect((await store.readItem('kit', id)).values).toMatchObject({title: 'renamed', points: 1});
	});
});
