// The search line's effect: its matches counted after a pause in typing, within a bound.

import type {EffectTable} from '../feature.js';

/** The `/` line's live count: after this pause in typing, shown if it comes within the bound; none on a SQLite channel larger than this. */
const LIVE_COUNT_PAUSE_MS = 200;
const LIVE_COUNT_BOUND_MS = 500;
const LIVE_COUNT_MAX_SQLITE = 200_000;
let searchCount: NodeJS.Timeout | undefined;

export const SEARCH_EFFECTS = {
	countSearch(effect, {state, on, dispatch}) {
		// Counted after a pause in typing, and shown only when it comes within a bound. On SQLite a
		// count runs on this thread (seconds at a million records): a large channel gets none.
		clearTimeout(searchCount);
		if (on.store.backend === 'sqlite' && state.total > LIVE_COUNT_MAX_SQLITE) return;
		searchCount = setTimeout(() => {
			const bound = new Promise<null>(resolve => {
				setTimeout(resolve, LIVE_COUNT_BOUND_MS, null).unref();
			});
			const count = on.store.countMatches(state.channelId, effect.where).catch(() => null);
			void Promise.race([count, bound]).then(matches => {
				dispatch({type: 'searchCounted', text: effect.text, count: matches});
			});
		}, LIVE_COUNT_PAUSE_MS);
		searchCount.unref();
	},
} satisfies EffectTable<'countSearch'>;
