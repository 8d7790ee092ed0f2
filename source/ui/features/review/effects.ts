// The review queue's effects: the open proposals the list's query matches, one's item read afresh,
// the header's count, accept, decline and an accept's undo (the store's review API, in
// source/text/review.ts's words).

import {proposedDuplicate} from '../../../../store/index.js';
import {undoAccept} from '../../edit-outcome.js';
import {acceptText, declineText} from '../../../text/review.js';
import {QUEUE_LIMIT, type EffectTable} from '../feature.js';

export const REVIEW_EFFECTS = {
	loadReview(effect, {state, on, later}) {
		later(async () => ({type: 'reviewLoaded', proposals: await on.store.proposals.list({channelId: state.channelId, status: 'open', limit: QUEUE_LIMIT, ...(effect.where.trim() === '' ? {} : {where: effect.where})}), note: effect.note}));
	},
	readReviewItem(effect, {state, on, later}) {
		// A proposed duplicate is shown beside the record it names: both are read.
		const proposal = state.review.proposals.find(candidate => candidate.id === effect.proposalId);
		const duplicate = proposal ? proposedDuplicate({id: state.channelId, name: '', fields: state.fields}, proposal.changes) : undefined;
		const read = (id: string) => on.store.readItem(state.channelId, id).catch(() => null);
		later(async () => {
			const [item, target] = await Promise.all([read(effect.itemId), duplicate ? read(duplicate.targetId) : Promise.resolve(undefined)]);
			return {type: 'reviewItem', proposalId: effect.proposalId, item, ...(target === undefined ? {} : {target})};
		});
	},
	countProposals: (_effect, {state, on, later}) => later(async () => ({type: 'proposalCount', count: await on.store.proposals.countOpen(state.channelId).catch(() => state.proposalCount)})),
	acceptProposals(effect, {state, on, later}) {
		later(async () => {
			const [result, channel] = await Promise.all([on.store.proposals.accept({ids: effect.ids, ...(effect.fields ? {fields: effect.fields} : {}), force: effect.force}), on.store.getChannel(state.channelId)]);
			return {type: 'reviewAccepted', request: {ids: effect.ids, ...(effect.fields ? {fields: effect.fields} : {}), force: effect.force}, result, lines: acceptText(result, channel).split('\n')};
		});
	},
	declineProposals(effect, {on, later}) {
		later(async () => {
			const result = await on.store.proposals.decline(effect.ids);
			return {type: 'reviewDeclined', result, lines: declineText(result).split('\n')};
		});
	},
	undoAccept(effect, {state, on, later}) {
		later(async () => {
			const {written, kept} = await undoAccept(on.store, state.channelId, effect.entry);
			return {type: 'acceptUndone', ok: kept.length === 0, lines: [`Accept undone: ${written} item(s) set back`, ...kept.map(line => `kept (changed since): ${line}`)]};
		});
	},
} satisfies EffectTable<'loadReview' | 'readReviewItem' | 'countProposals' | 'acceptProposals' | 'declineProposals' | 'undoAccept'>;
