// The follow-up queue's effects: the open refusals read (and counted for the header), one entry's
// record read afresh, a follow-up dismissed. Sync conflicts are C's (features/sync-conflicts).

import {QUEUE_LIMIT, type EffectTable} from '../feature.js';

export const FOLLOWUPS_EFFECTS = {
	countFollowUps: (_effect, {state, on, later}) => later(async () => ({type: 'followUpCount', count: await on.store.countOpenFollowUps(state.channelId, 'refused').catch(() => state.followUpCount)})),
	loadQueue: (effect, {state, on, later}) => later(async () => ({type: 'queueLoaded', followUps: await on.store.listFollowUps({channelId: state.channelId, status: 'open', kind: 'refused', limit: QUEUE_LIMIT}), note: effect.note})),
	readQueueEntry(effect, {state, on, later}) {
		later(async () => ({type: 'queueEntry', entry: {followUp: effect.followUp, item: await on.store.readItem(state.channelId, effect.followUp.item_id).catch(() => null)}, at: Date.now()}));
	},
	dismissFollowUp(effect, {state, on, later}) {
		later(async () => {
			try {
				await on.store.dismissFollowUp(effect.id);
			} catch (error) {
				return {type: 'followUpDismissed', ok: false, message: (error as Error).message};
			}

			return {type: 'followUpDismissed', ok: true, left: await on.store.listFollowUps({channelId: state.channelId, status: 'open', kind: 'refused', limit: QUEUE_LIMIT})};
		});
	},
} satisfies EffectTable<'countFollowUps' | 'loadQueue' | 'readQueueEntry' | 'dismissFollowUp'>;
