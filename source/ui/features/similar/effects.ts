// The Similar pane's effects: the record's similar records read from the store (the ranking
// find_similar_items gives the agent), a pair marked "not a duplicate", and a candidate opened in
// the list the way a `:` jump opens a record.

import {SIMILAR_LIMIT} from '../../../../store/index.js';
import type {EffectTable} from '../feature.js';

export const SIMILAR_EFFECTS = {
	loadSimilar(effect, {state, on, later}) {
		later(async () => {
			try {
				const page = await on.store.similarItems(state.channelId, effect.itemId, {limit: SIMILAR_LIMIT});
				return {type: 'similarLoaded', itemId: effect.itemId, hits: page.items, note: effect.note};
			} catch (error) {
				// A refusal (the channel has no long text to compare, the record is gone) is said in the pane.
				return {type: 'similarLoaded', itemId: effect.itemId, hits: [], problem: (error as Error).message, note: effect.note};
			}
		});
	},
	markNotDuplicate(effect, {state, on, later}) {
		later(async () => {
			try {
				await on.store.markNotDuplicate(state.channelId, effect.itemId, effect.otherId, {kind: 'human'});
			} catch (error) {
				return {type: 'notDuplicateMarked', ok: false, message: (error as Error).message};
			}

			return {type: 'notDuplicateMarked', ok: true, message: `${effect.label}: not duplicates`};
		});
	},
	openCandidate(effect, {later}) {
		later(async () => ({type: 'jumpFound', name: effect.name, ids: [effect.id]}));
	},
} satisfies EffectTable<'loadSimilar' | 'markNotDuplicate' | 'openCandidate'>;
