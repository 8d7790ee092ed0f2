// The search line's effect: its matches counted after a pause in typing.

import type {EffectTable} from '../feature.js';

/** The `/` line's live count: after this pause in typing; none on a SQLite channel larger than this. */
const LIVE_COUNT_PAUSE_MS = 200;
const LIVE_COUNT_MAX_SQLITE = 200_000;
let searchCount: NodeJS.Timeout | undefined;

export const SEARCH_EFFECTS = {
	countSearch(effect, {state, on, dispatch}) {
		// Counted after a pause in typing. A count is shown whenever it arrives, since the slice keeps
		// it only while the line still reads the same text: a busy machine shows it late, never a stale
		// one. On SQLite a count runs on this thread (seconds at a million records): a large channel
		// gets none.
		clearTimeout(searchCount);
		if (on.store.backend === 'sqlite' && state.total > LIVE_COUNT_MAX_SQLITE) return;
		searchCount = setTimeout(() => {
			void on.store.countMatches(state.channelId, effect.where).catch(() => null).then(matches => {
				dispatch({type: 'searchCounted', text: effect.text, count: matches});
			});
		}, LIVE_COUNT_PAUSE_MS);
		searchCount.unref();
	},
} satisfies EffectTable<'countSearch'>;
