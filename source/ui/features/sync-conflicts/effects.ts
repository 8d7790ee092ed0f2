// The sync conflicts' effects: the channel's open sync conflicts read with their records' names,
// and one resolved through the store call `sift followups resolve` makes.

import {nameOf} from '../rows.js';
import {QUEUE_LIMIT, type EffectTable} from '../feature.js';

export const SYNC_CONFLICTS_EFFECTS = {
	loadSyncConflicts(effect, {state, on, later}) {
		later(async () => {
			const conflicts = await on.store.listFollowUps({channelId: state.channelId, status: 'open', kind: 'sync_conflict', limit: QUEUE_LIMIT});
			const names = new Map<string, string>();
			for (const id of new Set(conflicts.map(followUp => followUp.item_id))) {
				const item = await on.store.readItem(state.channelId, id).catch(() => null);
				names.set(id, nameOf(state.fields, item?.values, id));
			}

			return {type: 'syncConflictsLoaded', rows: conflicts.map(followUp => ({followUp, name: names.get(followUp.item_id)!})), note: effect.note};
		});
	},
	resolveSyncConflict(effect, {on, later}) {
		later(async () => {
			try {
				await on.store.sync.resolveConflict(effect.id, effect.choice);
			} catch (error) {
				// A refusal (the value does not fit the field, the conflict was resolved elsewhere) is said in the screen.
				return {type: 'syncConflictResolved', id: effect.id, ok: false, message: (error as Error).message};
			}

			return {type: 'syncConflictResolved', id: effect.id, ok: true, message: effect.label};
		});
	},
} satisfies EffectTable<'loadSyncConflicts' | 'resolveSyncConflict'>;
