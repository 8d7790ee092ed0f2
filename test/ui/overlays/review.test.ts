// The review slice (source/ui/overlays/review.ts) through the root reducer: each of its events.
// CASES is typed over the slice's events, so an event added to it without a test does not compile.

import {describe, expect, it} from 'vitest';
import type {AcceptResult} from '../../../store/review-plan.js';
import {REVIEW} from '../../../source/ui/features/review/slice.js';
import {reduce} from '../../../source/ui/reducer.js';
import {keyEvents} from '../../../source/ui/registry.js';
import {tabCounts} from '../../../source/ui/model/views.js';
import {effect, idOf, item, kinds, listed, plain, proposal, reviewing, run1, viewed} from './fixtures.js';

const accepted = (ids: number[], conflicts: AcceptResult['conflicts'] = []): AcceptResult => ({
	group: 'g1',
	accepted: ids.map(id => ({proposal_id: id, channel_id: 'bugs', item_id: idOf(301 - id), run_id: 'run_1', version: 2, sequence: 10 + id, changes: {status: {from: 'new', to: 'triaged'}}, overwrote: [], still_open: false})),
	conflicts,
	refused: [],
	skipped: [],
});

const sure = (id: number, n: number, confidence: number | null) => ({...proposal(id, n), confidence});

const CASES: {[T in keyof typeof REVIEW.events]: () => void} = {
	reviewSort() {
		const state = reviewing([sure(1, 300, 0.5), sure(2, 299, null), sure(3, 298, 0.95)]);
		const sorted = reduce(state, {type: 'key', input: 's', key: plain});
		expect(sorted.state.review.proposals.map(entry => entry.id)).toEqual([3, 1, 2]);
		expect(sorted.state.overlay).toMatchObject({index: 0, byConfidence: true});
		expect(effect(sorted, 'readReviewItem')).toMatchObject({proposalId: 3});
		// A reload keeps the order; s again puts it back as proposed.
		const reloaded = reduce(sorted.state, {type: 'reviewLoaded', proposals: [sure(1, 300, 0.5), sure(3, 298, 0.95), sure(4, 297, 0.99)]}).state;
		expect(reloaded.review.proposals.map(entry => entry.id)).toEqual([4, 3, 1]);
		expect(reduce(reloaded, {type: 'key', input: 's', key: plain}).state.review.proposals.map(entry => entry.id)).toEqual([1, 3, 4]);
	},
	openReview() {
		const opening = reduce(listed(), {type: 'openReview'});
		expect(kinds(opening)).toEqual(['loadReview', 'countProposals']);
		expect(opening.state.awaiting).toBe('review');
		// Keys typed while the queue is read act once it is open: P then a accepts the first.
		const typed = reduce(opening.state, {type: 'key', input: 'a', key: plain}).state;
		const open = reduce(typed, {type: 'reviewLoaded', proposals: [proposal(7, 300)]});
		expect(effect(open, 'acceptProposals')).toEqual({kind: 'acceptProposals', ids: [7], force: false});
	},
	reviewLoaded() {
		const state = reviewing();
		expect(state.overlay).toEqual({kind: 'review', index: 0, confirm: null, problem: null});
		// A reload keeps the cursor where it was, within the new list.
		const moved = reduce(state, {type: 'cursor', delta: 1}).state;
		expect(reduce(moved, {type: 'reviewLoaded', proposals: [proposal(2, 299), proposal(3, 298)]}).state.overlay).toMatchObject({index: 1});
		expect(reduce(moved, {type: 'reviewLoaded', proposals: [proposal(2, 299)]}).state.overlay).toMatchObject({index: 0});
		// The queue covers what the list's query matches.
		const filtered = {...listed(), query: {search: 'severity:s1'}};
		expect(effect(reduce(filtered, {type: 'openReview'}), 'loadReview')?.where).toBe('severity:s1');
		// A late answer, the queue closed meanwhile, opens nothing.
		expect(reduce(listed(), {type: 'reviewLoaded', proposals: [proposal(1, 300)]}).state.overlay.kind).toBe('none');
	},
	reviewItem() {
		const state = reviewing();
		expect(reduce(state, {type: 'reviewItem', proposalId: 1, item: item(300, 3)}).state.review.item?.version).toBe(3);
		expect(reduce(state, {type: 'reviewItem', proposalId: 2, item: item(299, 3)}).state.review.item).toBeNull();
	},
	proposalCount() {
		expect(reduce(listed(), {type: 'proposalCount', count: 4}).state.proposalCount).toBe(4);
		// A proposal made or decided (its events recount the header's): the Review tab shows the same
		// count at once, and the views asking has:proposal are counted again; unchanged, nothing is.
		const state = {...viewed(), counting: 'idle' as const};
		const moved = reduce(state, {type: 'proposalCount', count: 3});
		expect(moved.effects).toEqual([{kind: 'countViews', views: [{name: 'Review', query: 'has:proposal'}]}]);
		expect(tabCounts(moved.state.views, moved.state.viewCounts, {followUps: moved.state.followUpCount, proposals: moved.state.proposalCount}).get('Review')).toBe(3);
		expect(reduce(moved.state, {type: 'proposalCount', count: 3}).effects).toEqual([]);
	},
	reviewAccept() {
		const keys = keyEvents('review', 'a', plain);
		expect(keys).toEqual([{type: 'reviewAccept'}]);
		expect(effect(reduce(reviewing(), keys[0]!), 'acceptProposals')).toEqual({kind: 'acceptProposals', ids: [1], force: false});
		// Keys faster than the store: each `a` decides the next proposal, never the same one twice.
		const typed = run1(reviewing(), keys[0]!, keys[0]!, keys[0]!);
		expect(typed.effects.filter(each => each.kind === 'acceptProposals').map(each => (each as {ids: number[]}).ids)).toEqual([[1], [2]]);
		// A conflict's answer reads the queue again; the cursor goes back to the proposal that conflicted.
		const conflict = {proposal_id: 1, channel_id: 'bugs', item_id: idOf(300), base_version: 1, current_version: 2, fields: [{key: 'status', base: 'new', proposed: 'triaged', current: 'fixed'}]};
		const met = run1(reviewing([proposal(1, 300), proposal(2, 299), proposal(3, 298)]), keys[0]!, {type: 'reviewAccepted', request: {ids: [1], force: false}, result: {...accepted([]), conflicts: [conflict]}, lines: ['0 accepted', '  conflict #1']});
		expect(kinds(met)).toContain('loadReview');
		const back = reduce(met.state, {type: 'reviewLoaded', proposals: [proposal(1, 300), proposal(2, 299), proposal(3, 298)]}).state;
		expect(back.overlay).toEqual({kind: 'review', index: 0, confirm: {id: 1}, problem: ['  conflict #1']});
	},
	reviewField() {
		const two = reviewing([proposal(1, 300, {status: {from: 'new', to: 'triaged'}, severity: {from: 's3', to: 's1'}})]);
		const keys = keyEvents('review', '2', plain);
		expect(keys).toEqual([{type: 'reviewField', index: 1}]);
		expect(effect(reduce(two, keys[0]!), 'acceptProposals')).toEqual({kind: 'acceptProposals', ids: [1], fields: ['severity'], force: false});
		const none = reduce(two, {type: 'reviewField', index: 4});
		expect([kinds(none), none.state.message?.tone]).toEqual([[], 'warn']);
	},
	reviewAcceptAll() {
		const all = reduce(reviewing([proposal(1, 300), proposal(2, 299), proposal(3, 298)]), keyEvents('review', 'A', plain)[0]!);
		expect(effect(all, 'acceptProposals')).toEqual({kind: 'acceptProposals', ids: [1, 2, 3], force: false});
	},
	reviewDecline() {
		expect(effect(reduce(reviewing(), keyEvents('review', 'd', plain)[0]!), 'declineProposals')).toEqual({kind: 'declineProposals', ids: [1]});
	},
	reviewAccepted() {
		// Written: one undo entry for the whole accept, the queue read again.
		const done = reduce(reviewing(), {type: 'reviewAccepted', request: {ids: [1, 2], force: false}, result: accepted([1, 2]), lines: ['2 proposals accepted, 0 conflicts, 0 refused']});
		expect(done.state.undo).toEqual([{kind: 'accept', group: 'g1', items: [{itemId: idOf(300), values: {status: 'new'}, version: 2}, {itemId: idOf(299), values: {status: 'new'}, version: 2}]}]);
		expect(kinds(done)).toEqual(['loadReview', 'pollEvents', 'countProposals']);
		const undo = reduce(done.state, {type: 'undo'});
		expect(effect(undo, 'undoAccept')?.entry.items).toHaveLength(2);

		// A conflict: nothing written, both values shown; the next `a` (or `y`) forces, anything else does not.
		const conflict = {proposal_id: 1, channel_id: 'bugs', item_id: idOf(300), base_version: 1, current_version: 2, fields: [{key: 'status', base: 'new', proposed: 'triaged', current: 'fixed'}]};
		const met = reduce(reviewing(), {type: 'reviewAccepted', request: {ids: [1], force: false}, result: {...accepted([]), conflicts: [conflict]}, lines: ['0 proposals accepted, 1 conflict, 0 refused', '  conflict #1', '    status: was New, proposed Triaged, now Fixed']}).state;
		expect(met.overlay).toMatchObject({confirm: {id: 1}, problem: ['  conflict #1', '    status: was New, proposed Triaged, now Fixed']});
		expect(met.undo).toEqual([]);
		expect(effect(reduce(met, {type: 'reviewAccept'}), 'acceptProposals')).toEqual({kind: 'acceptProposals', ids: [1], force: true});
		expect(effect(run1(met, ...keyEvents('review', 'y', plain)), 'acceptProposals')).toEqual({kind: 'acceptProposals', ids: [1], force: true});
		const movedOn = reduce(met, {type: 'cursor', delta: 1}).state;
		expect(effect(reduce(reduce(movedOn, {type: 'cursor', delta: -1}).state, {type: 'reviewAccept'}), 'acceptProposals')?.force).toBe(false);
	},
	reviewDeclined() {
		const done = reduce(reviewing(), {type: 'reviewDeclined', result: {declined: [{proposal_id: 1, item_id: idOf(300), sequence: 4}], skipped: []}, lines: ['1 proposal declined']});
		expect(done.state.message).toEqual({text: '1 proposal declined', tone: 'ok'});
		expect(kinds(done)).toEqual(['loadReview', 'pollEvents', 'countProposals']);
	},
	acceptUndone() {
		const done = reduce(listed(), {type: 'acceptUndone', lines: ['Accept undone: 2 item(s) set back'], ok: true});
		expect(done.state.message?.text).toBe('Accept undone: 2 item(s) set back');
		expect(kinds(done)).toEqual(['pollEvents', 'countProposals']);
	},
	proposeMode() {
		const on = run1(listed(), {type: 'commandParsed', result: {kind: 'propose', on: true}}).state;
		expect(on.propose).toBe(true);
		expect(reduce(on, {type: 'proposeMode', on: false}).state.propose).toBe(false);
	},
};

describe('the review slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);

	it('P opens it from the list, Esc closes it', () => {
		expect(keyEvents('list', 'P', plain)).toEqual([{type: 'openReview'}]);
		expect(reduce(reviewing(), {type: 'cancel'}).state.overlay.kind).toBe('none');
	});

	it('proposal events re-read the count, and the open queue', () => {
		const event = {sequence: 5, channel_id: 'bugs', type: 'proposal.accepted', item_id: idOf(300), version: 2, actor: {kind: 'human'}, changes: {}, at: ''} as never;
		expect(kinds(reduce(listed(), {type: 'storeEvents', events: [event], at: 0}))).toContain('countProposals');
		expect(kinds(reduce(reviewing(), {type: 'storeEvents', events: [event], at: 0}))).toContain('loadReview');
	});
});
