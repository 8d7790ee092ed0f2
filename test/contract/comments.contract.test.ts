// A record's pulled tracker comments read back on both backends (store/sync/comments.ts): the
// newest `limit`, oldest first, with their total; a later pull replaces them, a first pull's
// streamed pages add to them; the text is kept as
// the tracker sent it (the screen sanitises it when it draws); a bad limit is refused by name.

import {describe, expect, it} from 'vitest';
import type {AsyncStore, RemoteComment, RemoteRecord} from '../../store/contract.js';
import {notePgOff} from '../support/pg.js';
import {BACKENDS, kitStore, refusalOf, storesOn, type Backend} from './backends.js';

const T0 = '2026-03-01T10:00:00.000Z';
const at = (day: number) => `2026-03-${String(day).padStart(2, '0')}T10:00:00.000Z`;

const LINK = {channel_id: 'kit', tracker: 'github' as const, remote: 'acme/app', key_field: 'code', fields: [
	{key: 'title', remote: 'title', kind: 'scalar' as const},
]};

const comment = (id: string, day: number, body = `comment ${id}`): RemoteComment => ({remote_id: id, author: `user${id}`, body, created_at: at(day), updated_at: at(day)});
const issue = (id: string, comments?: RemoteComment[]): RemoteRecord => ({remote_id: id, values: {title: `Issue ${id}`}, created_at: T0, updated_at: T0, ...(comments ? {comments} : {})});

describe.each(BACKENDS)('pulled comments on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const {keep} = storesOn(backend);

	/** A linked kit store with the given issues pulled; the item id of each remote id. */
	async function pulled(records: RemoteRecord[]): Promise<{store: AsyncStore; idOf: (remoteId: string) => Promise<string>}> {
		const store = await kitStore(backend);
		keep(store);
		await store.sync.link(LINK);
		await store.sync.applyRemote('kit', records);
		return {store, idOf: async remoteId => (await store.findItemsNamed('kit', remoteId))[0]!.item_id};
	}

	it('reads the newest comments oldest first with their total, each record its own', async () => {
		// Sent out of order; two on the same day are told apart by their remote id.
		const {store, idOf} = await pulled([issue('7', [comment('3', 4), comment('1', 2), comment('2', 3), comment('4', 4)]), issue('8', [comment('9', 5)]), issue('10')]);
		const seven = await idOf('7');
		const all = await store.sync.itemComments(seven);
		expect(all.total).toBe(4);
		expect(all.comments.map(each => each.remote_id)).toEqual(['1', '2', '3', '4']);
		expect(all.comments[0]).toEqual({remote_id: '1', author: 'user1', body: 'comment 1', created_at: at(2), updated_at: at(2)});
		const newest = await store.sync.itemComments(seven, {limit: 2});
		expect(newest).toMatchObject({total: 4, comments: [{remote_id: '3'}, {remote_id: '4'}]});
		expect(await store.sync.itemComments(await idOf('8'))).toMatchObject({total: 1, comments: [{remote_id: '9', body: 'comment 9'}]});
		expect(await store.sync.itemComments(await idOf('10'))).toEqual({comments: [], total: 0});
		expect(await store.sync.itemComments('item-no-such')).toEqual({comments: [], total: 0});
	});

	it('a later pull replaces the comments; text is kept as sent, an author may be unknown', async () => {
		const {store, idOf} = await pulled([issue('7', [comment('1', 2), comment('2', 3)])]);
		const seven = await idOf('7');
		const raw = 'red \u001B[31malert\u001B[0m\nsecond line';
		await store.sync.applyRemote('kit', [issue('7', [{...comment('2', 3, raw), author: null}])]);
		expect(await store.sync.itemComments(seven)).toEqual({total: 1, comments: [{remote_id: '2', author: null, body: raw, created_at: at(3), updated_at: at(3)}]});
	});

	it('adds comments a page at a time (a first pull\'s streamed listing): kept beside the others, replaced by remote id, unknown records skipped', async () => {
		const {store, idOf} = await pulled([issue('7', []), issue('8', [])]);
		expect(await store.sync.addComments('kit', [{remote_id: '7', comments: [comment('1', 2)]}, {remote_id: '99', comments: [comment('5', 2)]}])).toBe(1);
		expect(await store.sync.addComments('kit', [{remote_id: '7', comments: [comment('2', 3), comment('1', 2, 'edited')]}, {remote_id: '8', comments: [comment('3', 4)]}])).toBe(3);
		expect(await store.sync.itemComments(await idOf('7'))).toMatchObject({total: 2, comments: [{remote_id: '1', body: 'edited'}, {remote_id: '2'}]});
		expect(await store.sync.itemComments(await idOf('8'))).toMatchObject({total: 1, comments: [{remote_id: '3'}]});
		expect(await refusalOf(() => store.sync.addComments('kit', [{remote_id: '7'} as never]))).toMatchObject({error: 'invalid_argument'});
	});

	it('refuses a limit that is not a whole number from 1 to 500, naming it', async () => {
		const {store, idOf} = await pulled([issue('7', [comment('1', 2)])]);
		const seven = await idOf('7');
		for (const limit of [0, 501, 1.5, Number.NaN]) {
			expect(await refusalOf(() => store.sync.itemComments(seven, {limit}))).toMatchObject({error: 'invalid_argument', message: expect.stringContaining('limit') as unknown});
		}

		expect((await store.sync.itemComments(seven, {limit: 500})).total).toBe(1);
	});
});
