// Large imports on both backends: the PostgreSQL import sends batches while it validates the next
// ones (store/postgres/import.ts), so these cross batch boundaries: a bad item or a repeated unique
// value late in the file still leaves nothing behind, and ids follow the order of the file.

import {describe, expect, it} from 'vitest';
import {notePgOff} from '../support/pg.js';
import {kitChannel} from '../store/helpers.js';
import {allItemIds, BACKENDS, refusalOf, storesOn, type Backend} from './backends.js';

const COUNT = 12_001;

async function* items(special: (n: number) => Record<string, unknown> | undefined = () => undefined) {
	for (let n = 0; n < COUNT; n++) {
		yield {values: special(n) ?? {title: `item ${n}`, code: `C-${n}`}};
	}
}

describe.each(BACKENDS)('imports across batches on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const {fresh} = storesOn(backend);

	it('ids follow the order of the file, batch after batch', async () => {
		const store = await fresh();
		expect((await store.importChannel({channel: kitChannel, items: items()})).items_created).toBe(COUNT);
		const ids = (await allItemIds(store, 'kit')).reverse();
		expect(ids).toHaveLength(COUNT);
		expect([...ids].sort()).toEqual(ids);
		for (const n of [0, 4999, 5000, 10_000, COUNT - 1]) {
			expect((await store.readItem('kit', ids[n]!)).values.title).toBe(`item ${n}`);
		}
	});

	it('a bad item late in the file leaves nothing, and is named', async () => {
		const store = await fresh();
		const body = await refusalOf(() => store.importChannel({channel: kitChannel, items: items(n => (n === 11_000 ? {title: 'x'.repeat(30)} : undefined))}));
		expect(body.error).toBe('invalid_import');
		expect((body as {message: string}).message).toMatch(/^items\[11000\]: values\.title/);
		expect(await store.listChannelNames()).toEqual([]);
	});

	it('a unique value repeated batches apart is refused, naming the item that holds it', async () => {
		const store = await fresh();
		const body = await refusalOf(() => store.importChannel({channel: kitChannel, items: items(n => (n === 9000 ? {title: 'again', code: 'C-2'} : undefined))}));
		expect(body.error).toBe('invalid_import');
		expect((body as {message: string}).message).toMatch(/^items\[9000\]: values\.code must be unique, but item \S+ already has "C-2"/);
		expect(await store.listChannelNames()).toEqual([]);
	});

	it('relations to another channel are checked in every batch', async () => {
		const store = await fresh();
		await store.importChannel({channel: kitChannel, items: [{values: {title: 'target'}}]});
		const [target] = await allItemIds(store, 'kit');
		const links = {id: 'links', name: 'Links', fields: [
			{key: 'title', label: 'Title', type: 'text', is_required: true, is_unique: false, config: {}},
			{key: 'link', label: 'Link', type: 'relation', is_required: false, is_unique: false, config: {channel_id: 'kit'}},
		]};
		async function* linked(missingAt?: number) {
			for (let n = 0; n < 6000; n++) {
				yield {values: n === 5500 ? {title: 'linked', link: target} : n === missingAt ? {title: 'dangling', link: 'it_zzzzzzzzzz'} : {title: `item ${n}`}};
			}
		}

		const body = await refusalOf(() => store.importChannel({channel: links, items: linked(5800)}));
		expect((body as {message: string}).message).toMatch(/^items\[5800\]: values\.link/);
		expect((await store.listChannelNames()).map(channel => channel.id)).toEqual(['kit']);
		expect((await store.importChannel({channel: links, items: linked()})).items_created).toBe(6000);
		const ids = (await allItemIds(store, 'links')).reverse();
		expect((await store.readItem('links', ids[5500]!)).values).toMatchObject({title: 'linked', link: target});
	});

	it('a value no store can keep (NUL) late in the file leaves nothing, as one clear error naming the item and field', async () => {
		const store = await fresh();
		const body = await refusalOf(() => store.importChannel({channel: kitChannel, items: items(n => (n === 10_001 ? {title: 'nul\u0000here'} : undefined))}));
		expect(body).toEqual({error: 'invalid_import', message: 'items[10001]: values.title must not contain the NUL character (U+0000), which the store cannot keep'});
		expect(await store.listChannelNames()).toEqual([]);
		// The store is usable at once: the failed import left no transaction or query behind.
		expect((await store.importChannel({channel: kitChannel, items: [{values: {title: 'after'}}]})).items_created).toBe(1);
	});
});
