// Item ids read through the async interface, for tests and benches on either backend.

import type {AsyncStore} from '../../store/api.js';

/** The ids of a channel's newest items, up to `most` (all of them by default), paged through listPage. */
export async function newestItemIds(store: AsyncStore, channelId: string, most = Number.POSITIVE_INFINITY): Promise<string[]> {
	const ids: string[] = [];
	let beforeId: string | null = null;
	do {
		const page = await store.listPage(channelId, {beforeId, limit: 50});
		ids.push(...page.items.map(item => item.id));
		beforeId = page.next_before_id;
	} while (beforeId !== null && ids.length < most);
	return ids.slice(0, most);
}
