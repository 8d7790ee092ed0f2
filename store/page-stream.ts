// Reading a whole query page by page through the asynchronous interface, on either backend.

import type {AsyncStore} from './contract.js';
import type {ItemsPage, ItemsQuery, PageQuery} from './pages.js';
import type {Item, Page} from './types.js';

/**
 * Every page from the query's start on, one at a time: memory stays at one page. A query with
 * where/sort/cursor pages by next_cursor (which works for every order), else by next_before_id.
 */
export async function * pages(store: AsyncStore, channelId: string, query: PageQuery): AsyncGenerator<Page> {
	let start: Pick<PageQuery, 'beforeId' | 'cursor'> = {beforeId: query.beforeId, cursor: query.cursor};
	for (;;) {
		const page = await store.listPage(channelId, {...query, ...start});
		yield page;
		if (page.next_cursor !== undefined) {
			if (!page.next_cursor) return;
			start = {cursor: page.next_cursor};
		} else {
			if (!page.next_before_id) return;
			start = {beforeId: page.next_before_id};
		}
	}
}

/** Every whole item a query gives (store.readItems), read by next_cursor: memory stays at one read. */
export async function * items(store: AsyncStore, channelId: string, query: Omit<ItemsQuery, 'cursor'> = {}): AsyncGenerator<Item> {
	let cursor: string | null = null;
	do {
		const page: ItemsPage = await store.readItems(channelId, {...query, cursor});
		yield * page.items;
		cursor = page.next_cursor;
	} while (cursor);
}
