// `P`: the review queue (docs/review.md#the-review-queue), one open proposal at a time: `a`
// accepts it, `d` declines it, a field's digit accepts that field alone, `A` accepts every
// proposal shown as one bulk edit (one `u` takes it back). The queue shows what the list's query
// matches. An accept that meets a conflict writes nothing and shows both values; `a` or `y` next
// writes over them. Every decision is the store's (store.proposals), one call each.

import type {StoreEvent} from '../../../../store/index.js';
import type {ProposalRow} from '../../../../store/proposals.js';
import {acceptUndoEntry, pushUndo} from '../../edit-outcome.js';
import {pageWhere} from '../../model/views.js';
import {NONE, type Effect, type ReviewOverlay, type ScreenState, type Transition} from '../../state.js';
import {nextUndo} from '../field-edit/slice.js';
import {recountAsking} from '../rows.js';
import {bind, listBinding, none, say, wrap, type EventOf, type OverlaySlice} from '../feature.js';
import {REVIEW_EFFECTS} from './effects.js';

const CLOSED: Omit<ReviewOverlay, 'index'> = {kind: 'review', confirm: null, problem: null};

/** The items the queue covers: those the list's query matches (its view, search and filter). */
export const reviewWhere = (state: ScreenState) => pageWhere(state.query).where ?? '';

const loadReview = (state: ScreenState, note?: string): Effect => ({kind: 'loadReview', where: reviewWhere(state), ...(note === undefined ? {} : {note})});

/** The proposal under the cursor. */
export const currentProposal = (state: ScreenState) => (state.overlay.kind === 'review' ? state.review.proposals[state.overlay.index] : undefined);

/** What the list's event feed asks of the review: the header's count, and the open queue read again. */
export function reviewEffects(state: ScreenState, events: readonly StoreEvent[]): Effect[] {
	if (!events.some(event => event.type.startsWith('proposal.'))) return [];
	return state.overlay.kind === 'review' ? [{kind: 'countProposals'}, loadReview(state)] : [{kind: 'countProposals'}];
}

/**
 * The queue without the proposals just decided: the cursor is on the next one at once, so keys
 * typed faster than the store answers each decide the next proposal, not the same one again.
 * A conflict's answer reads the queue again, and it is back.
 */
function without(state: ScreenState, overlay: ReviewOverlay, ids: readonly number[]): ScreenState {
	const proposals = state.review.proposals.filter(proposal => !ids.includes(proposal.id));
	const index = Math.min(overlay.index, Math.max(0, proposals.length - 1));
	return {...state, overlay: {...overlay, index, confirm: null, problem: null}, review: {proposals, item: null}};
}

const readItemOf = (state: ScreenState): Effect[] => {
	const proposal = currentProposal(state);
	return proposal ? [{kind: 'readReviewItem', proposalId: proposal.id, itemId: proposal.item_id}] : [];
};

function accept(state: ScreenState, overlay: ReviewOverlay, fields?: string[]): Transition {
	const proposal = state.review.proposals[overlay.index];
	if (!proposal) return none(state);
	// The second `a` on a conflict shown (the same proposal and fields): the person confirms the overwrite.
	const force = overlay.confirm !== null && overlay.confirm.id === proposal.id && String(overlay.confirm.fields) === String(fields);
	const effect: Effect = {kind: 'acceptProposals', ids: [proposal.id], ...(fields ? {fields} : {}), force};
	// One field: the proposal stays with the rest (read again with the answer).
	if (fields) return {state: {...state, overlay: {...overlay, confirm: null, problem: null}}, effects: [effect]};
	const next = without(state, overlay, [proposal.id]);
	return {state: next, effects: [effect, ...readItemOf(next)]};
}

/** The queue in the order the overlay asks: as proposed, or the surest first (no confidence last, then as proposed). */
export const inReviewOrder = (proposals: ProposalRow[], byConfidence: boolean | undefined): ProposalRow[] =>
	(byConfidence ? [...proposals].sort((a, b) => (b.confidence ?? -1) - (a.confidence ?? -1) || a.id - b.id) : proposals);

function reviewLoaded(state: ScreenState, {proposals: loaded, note}: EventOf<'reviewLoaded'>): Transition {
	const previous = state.overlay.kind === 'review' ? state.overlay : null;
	const proposals = inReviewOrder(loaded, previous?.byConfidence);
	if (!previous && state.awaiting !== 'review') return none(state);
	// A conflict shown puts the cursor back on its proposal; else the cursor stays where it was.
	const conflicted = previous?.confirm ? proposals.findIndex(proposal => proposal.id === previous.confirm!.id) : -1;
	const index = conflicted >= 0 ? conflicted : (previous ? Math.min(previous.index, Math.max(0, proposals.length - 1)) : 0);
	const keep = conflicted >= 0;
	const overlay: ReviewOverlay = {...CLOSED, ...(keep && previous ? {confirm: previous.confirm, problem: previous.problem} : {}), ...(previous?.byConfidence ? {byConfidence: true} : {}), index};
	let next: ScreenState = {...state, overlay, awaiting: null, review: {proposals, item: proposals[index]?.item_id === state.review.item?.id ? state.review.item : null}};
	if (note) next = say(next, note, 'ok');
	else if (!previous && proposals.length === 0) next = say(next, 'No open proposals here: runs in propose mode leave theirs in this queue.', 'ok');
	const current = proposals[index];
	return {state: next, effects: current ? [{kind: 'readReviewItem', proposalId: current.id, itemId: current.item_id}] : []};
}

function reviewAccepted(state: ScreenState, {request, result, lines}: EventOf<'reviewAccepted'>): Transition {
	const entry = acceptUndoEntry(result);
	let next: ScreenState = entry ? {...state, undo: pushUndo(state.undo, entry)} : state;
	const effects: Effect[] = [{kind: 'pollEvents'}, {kind: 'countProposals'}];
	const conflict = result.conflicts[0];
	if (conflict && next.overlay.kind === 'review' && request.ids.length === 1) {
		// Nothing written: both values are shown, and `a` (or `y`) again writes over them.
		next = {...next, overlay: {...next.overlay, confirm: {id: conflict.proposal_id, ...(request.fields ? {fields: request.fields} : {})}, problem: lines.slice(1)}};
		next = say(next, 'Changed since it was proposed: nothing written. a or y writes it over the current values; d declines; n moves on.', 'warn');
		return {state: next, effects: [loadReview(next), ...effects, {kind: 'readReviewItem', proposalId: conflict.proposal_id, itemId: conflict.item_id}]};
	}

	const troubled = result.conflicts.length + result.refused.length;
	if (next.overlay.kind === 'review' && troubled > 0) next = {...next, overlay: {...next.overlay, problem: lines.slice(1)}};
	const summary = `${lines[0] ?? ''}${entry ? ' · u undoes' : ''}`;
	next = say(next, summary, troubled > 0 ? 'warn' : 'ok');
	return {state: next, effects: next.overlay.kind === 'review' ? [loadReview(next), ...effects] : effects};
}

export const REVIEW = {
	scope: () => 'review',
	effects: REVIEW_EFFECTS,
	scopes: {review: 'Review queue (P)'},
	bindings: [
		listBinding('review', {type: 'openReview'}),
		bind('review', 'down', ['j', 'down', 'n', 'right'], 'j ↓', 'next proposal', {type: 'cursor', delta: 1}, {hint: 'move'}),
		bind('review', 'up', ['k', 'up', 'p', 'left'], 'k ↑', 'previous proposal', {type: 'cursor', delta: -1}),
		bind('review', 'accept', ['a'], 'a', 'accept the proposal (on a conflict shown: again writes it over)', {type: 'reviewAccept'}, {hint: 'accept'}),
		bind('review', 'decline', ['d'], 'd', 'decline the proposal', {type: 'reviewDecline'}, {hint: 'decline'}),
		// The digit says which field.
		bind('review', 'acceptField', ['1', '2', '3', '4', '5', '6', '7', '8', '9'], '1–9', 'accept that field of the proposal alone', input => ({type: 'reviewField', index: Number(input) - 1}), {hint: 'one field'}),
		bind('review', 'acceptAll', ['A'], 'A', 'accept every proposal shown, as one edit (u undoes it)', {type: 'reviewAcceptAll'}, {hint: 'all'}),
		bind('review', 'sort', ['s'], 's', 'sort the queue by confidence, surest first (again: as proposed)', {type: 'reviewSort'}, {hint: 'sort'}),
		bind('review', 'yes', ['y'], 'y', 'write a conflicting proposal over the current values', {type: 'answer', yes: true}),
		bind('review', 'cancel', ['escape', 'q', 'P'], 'Esc', 'close the queue', {type: 'cancel'}, {hint: 'close'}),
	],
	keys: {
		cursor(state, overlay, {delta}) {
			const count = state.review.proposals.length;
			if (count === 0) return none(state);
			const index = wrap(overlay.index, delta, count);
			const proposal = state.review.proposals[index]!;
			return {state: {...state, overlay: {...overlay, index, confirm: null, problem: null}, review: {...state.review, item: null}}, effects: [{kind: 'readReviewItem', proposalId: proposal.id, itemId: proposal.item_id}]};
		},
		cancel: state => ({state: {...state, overlay: NONE}, effects: [{kind: 'countProposals'}]}),
		answer(state, overlay, {yes}) {
			if (!overlay.confirm) return none(state);
			return yes ? accept(state, overlay, overlay.confirm.fields) : none({...state, overlay: {...overlay, confirm: null, problem: null}});
		},
	},
	events: {
		openReview: state => ({state: {...state, awaiting: 'review'}, effects: [loadReview(state), {kind: 'countProposals'}]}),
		reviewLoaded,
		reviewItem(state, event) {
			const proposal = currentProposal(state);
			return none(proposal?.id === event.proposalId ? {...state, review: {...state.review, item: event.item, target: event.target ?? null}} : state);
		},
		// The header's count read again (on proposal events, list.ts): the views asking has:proposal follow it, as the follow-ups' do.
		proposalCount: (state, {count}) => (count === state.proposalCount ? none(state) : recountAsking({...state, proposalCount: count}, 'proposals')),
		reviewAccept: state => (state.overlay.kind === 'review' ? accept(state, state.overlay) : none(state)),
		reviewField(state, event) {
			const proposal = currentProposal(state);
			if (state.overlay.kind !== 'review' || !proposal) return none(state);
			const key = Object.keys(proposal.changes)[event.index];
			if (key === undefined) return none(say(state, `This proposal sets ${Object.keys(proposal.changes).length} field(s): no field ${event.index + 1}.`, 'warn'));
			return accept(state, state.overlay, [key]);
		},
		reviewAcceptAll(state) {
			if (state.overlay.kind !== 'review' || state.review.proposals.length === 0) return none(state);
			const ids = state.review.proposals.map(proposal => proposal.id);
			return {state: say(without(state, state.overlay, ids), `Accepting ${ids.length} proposals…`), effects: [{kind: 'acceptProposals', ids, force: false}]};
		},
		reviewSort(state) {
			if (state.overlay.kind !== 'review') return none(state);
			const byConfidence = !state.overlay.byConfidence;
			// As proposed is the order the store lists them in: by id.
			const proposals = byConfidence ? inReviewOrder(state.review.proposals, true) : [...state.review.proposals].sort((a, b) => a.id - b.id);
			const next: ScreenState = {...state, overlay: {...state.overlay, index: 0, confirm: null, problem: null, byConfidence}, review: {...state.review, proposals, item: null}};
			return {state: say(next, byConfidence ? 'Review queue: surest first (s: as proposed).' : 'Review queue: as proposed.', 'ok'), effects: readItemOf(next)};
		},
		reviewDecline(state) {
			const proposal = currentProposal(state);
			if (state.overlay.kind !== 'review' || !proposal) return none(state);
			const next = without(state, state.overlay, [proposal.id]);
			return {state: next, effects: [{kind: 'declineProposals', ids: [proposal.id]}, ...readItemOf(next)]};
		},
		reviewAccepted,
		reviewDeclined(state, {lines}) {
			const next = say(state, lines[0] ?? 'Declined.', 'ok');
			return {state: next, effects: [...(next.overlay.kind === 'review' ? [loadReview(next)] : []), {kind: 'pollEvents'}, {kind: 'countProposals'}]};
		},
		// An accept undone is one undo of a burst of `u` like any other: the next waiting one follows (field-edit.ts).
		acceptUndone: (state, {lines, ok}) => nextUndo({state: say(state, lines.join(' · '), ok ? 'ok' : 'warn'), effects: [{kind: 'pollEvents'}, {kind: 'countProposals'}]}, null),
		proposeMode: (state, {on}) => none(say({...state, propose: on}, on ? 'Propose mode on: runs started here propose their edits for review (P).' : 'Propose mode off: runs started here write their edits.', 'ok')),
	},
} satisfies OverlaySlice<'review', 'openReview' | 'reviewLoaded' | 'reviewItem' | 'proposalCount' | 'reviewAccept' | 'reviewField' | 'reviewAcceptAll' | 'reviewSort' | 'reviewDecline' | 'reviewAccepted' | 'reviewDeclined' | 'acceptUndone' | 'proposeMode'>;
