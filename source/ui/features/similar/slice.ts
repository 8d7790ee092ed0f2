// `S`: the Similar pane on the record under the cursor: the records whose text most resembles it
// (store.similarItems, the ranking find_similar_items gives the agent), each with its score and
// the terms they share. `d` sets the chosen one as the record's duplicate through the same edit a
// picker makes (so the duplicate status follows, and `u` undoes it); `n` marks the pair "not a
// duplicate" (store.markNotDuplicate), after which it is never offered again and the list refills;
// Enter opens the candidate in the list. Declares its own overlay, events, effects, scope and
// screen fields (docs/architecture.md#adding-an-overlay).

import {duplicateField, type Field, type SimilarHit} from '../../../../store/index.js';
import type {MarkedRow} from '../../model/bulk.js';
import type {Effect, ScreenState, Transition} from '../../state.js';
import {bind, none, say, wrap, type OverlayOf, type OverlaySlice} from '../feature.js';
import {currentRow, nameOf, seenRow} from '../rows.js';
import {SIMILAR_EFFECTS} from './effects.js';

declare module '../../state.js' {
	interface OverlayVariants {
		/** `target`: the record the pane compares with, as it was seen when the pane opened; `cursor`: the candidate chosen. */
		similar: {kind: 'similar'; target: MarkedRow; cursor: number};
	}

	interface EventVariants {
		similar:
			| {type: 'openSimilar'}
			| {type: 'similarLoaded'; itemId: string; hits: SimilarHit[]; problem?: string; note?: string}
			| {type: 'markSimilarDuplicate'}
			| {type: 'markNotDuplicate'}
			| {type: 'notDuplicateMarked'; ok: boolean; message: string}
			| {type: 'reloadSimilar'}
			| {type: 'openSimilarCandidate'};
	}

	interface EffectVariants {
		similar:
			| {kind: 'loadSimilar'; itemId: string; note?: string}
			/** `label`: the pair as the footer names it. */
			| {kind: 'markNotDuplicate'; itemId: string; otherId: string; label: string}
			/** The candidate opened in the list as a `:` jump to it is (views/slice.ts jumpFound). */
			| {kind: 'openCandidate'; id: string; name: string};
	}

	interface ScreenState {
		/** The candidates the pane lists (null: being read), why they could not be read, and the pair whose mark is being written. */
		similar: {hits: SimilarHit[] | null; problem: string | null; marking: string | null};
	}
}

declare module '../feature.js' {
	interface ScopeVariants {
		similar: 'similar';
	}
}

type SimilarOverlay = OverlayOf<'similar'>;

/** The channel's duplicate relation (store/duplicates.ts), from the schema the screen holds. */
export const duplicateFieldOf = (state: Pick<ScreenState, 'channelId' | 'fields'>): Field | undefined => duplicateField({id: state.channelId, name: state.channelId, fields: state.fields});

const chosen = (state: ScreenState, overlay: SimilarOverlay) => state.similar.hits?.[overlay.cursor];

/** Why the pane has nothing to act on now, or null. */
function cannotPick(state: ScreenState): string | null {
	if (state.overlay.kind !== 'similar') return null;
	if (state.similar.hits === null) return 'The similar records are still being read.';
	if (state.similar.hits.length === 0) return 'No similar record to choose.';
	return null;
}

/** Why `d` does nothing: the channel has no duplicate relation, or there is no candidate. */
function cannotMarkDuplicate(state: ScreenState): string | null {
	if (state.overlay.kind === 'similar' && !duplicateFieldOf(state)) return 'This channel has no duplicate relation (a relation field to its own channel, such as duplicate_of): nothing to set.';
	return cannotPick(state);
}

/** Why `n` does nothing: no candidate, or a mark being written. */
function cannotMarkNot(state: ScreenState): string | null {
	if (state.overlay.kind === 'similar' && state.similar.marking !== null) return 'A mark is being written: wait for it.';
	return cannotPick(state);
}

/** The record the pane compares with as the list shows it now (an edit since the pane opened moved its version on). */
function targetNow(state: ScreenState, overlay: SimilarOverlay): MarkedRow {
	const row = state.window.rows.find(each => each.id === overlay.target.id);
	return row ? seenRow(state.fields, row) : overlay.target;
}

const hitName = (state: ScreenState, hit: SimilarHit) => nameOf(state.fields, hit.preview, hit.id);

/** `d`: the relation set to the candidate, one edit of the record as a picker writes it (events `edited`, field-edit/slice.ts). */
function markDuplicate(state: ScreenState, overlay: SimilarOverlay): Transition {
	const field = duplicateFieldOf(state);
	const hit = chosen(state, overlay);
	if (!field || !hit || cannotMarkDuplicate(state)) return none(state);
	const target = targetNow(state, overlay);
	const before = target.values[field.key] ?? null;
	if (before === hit.id) return none(say(state, `${target.name ?? target.id} is already a duplicate of ${hitName(state, hit)}.`));
	const edit: Effect = {kind: 'edit', request: {itemId: target.id, name: target.name ?? target.id, key: field.key, value: hit.id, before, version: target.version, origin: 'picker'}};
	return {state: say(state, `Setting ${field.label} of ${target.name ?? target.id} to ${hitName(state, hit)}…`), effects: [edit]};
}

export const SIMILAR = {
	scope: () => 'similar',
	effects: SIMILAR_EFFECTS,
	initial: {similar: {hits: null, problem: null, marking: null}} as Pick<ScreenState, 'similar'>,
	scopes: {similar: 'Similar records (S)'},
	bindings: [
		bind('list', 'similar', ['S'], 'S', 'similar records: mark one a duplicate, or not one', {type: 'openSimilar'}),
		bind('similar', 'down', ['j', 'down'], 'j ↓', 'next candidate', {type: 'cursor', delta: 1}, {hint: 'move'}),
		bind('similar', 'up', ['k', 'up'], 'k ↑', 'previous candidate', {type: 'cursor', delta: -1}),
		bind('similar', 'duplicate', ['d'], 'd', 'set the record as a duplicate of this one (status follows)', {type: 'markSimilarDuplicate'}, {hint: 'duplicate', disabled: cannotMarkDuplicate}),
		bind('similar', 'notDuplicate', ['n'], 'n', 'not a duplicate: never offered for this record again', {type: 'markNotDuplicate'}, {hint: 'not a duplicate', disabled: cannotMarkNot}),
		bind('similar', 'open', ['enter'], 'Enter', 'open the candidate in the list', {type: 'openSimilarCandidate'}, {hint: 'open', disabled: cannotPick}),
		bind('similar', 'reload', ['r'], 'r', 'read the similar records again', {type: 'reloadSimilar'}),
		bind('similar', 'close', ['escape', 'q', 'S'], 'Esc', 'close the similar records', {type: 'cancel'}, {hint: 'close'}),
	],
	keys: {
		cursor: (state, overlay, {delta}) => none({...state, overlay: {...overlay, cursor: wrap(overlay.cursor, delta, state.similar.hits?.length ?? 0)}}),
		cancel: state => none({...state, overlay: {kind: 'none'}}),
	},
	events: {
		openSimilar(state) {
			const row = currentRow(state);
			if (!row || row.deleted) return none(say(state, 'No record to compare.', 'warn'));
			return {
				state: {...state, overlay: {kind: 'similar', target: seenRow(state.fields, row), cursor: 0}, similar: {hits: null, problem: null, marking: null}},
				effects: [{kind: 'loadSimilar', itemId: row.id}],
			};
		},
		reloadSimilar(state) {
			const {overlay} = state;
			return overlay.kind === 'similar' ? {state, effects: [{kind: 'loadSimilar', itemId: overlay.target.id}]} : none(state);
		},
		similarLoaded(state, {itemId, hits, problem, note}) {
			const {overlay} = state;
			// A read for a pane since closed, or opened on another record, is dropped.
			if (overlay.kind !== 'similar' || overlay.target.id !== itemId) return none(state);
			const next = {...state, overlay: {...overlay, cursor: Math.min(overlay.cursor, Math.max(0, hits.length - 1))}, similar: {hits, problem: problem ?? null, marking: null}};
			return none(note ? say(next, note, 'ok') : next);
		},
		markSimilarDuplicate(state) {
			const {overlay} = state;
			return overlay.kind === 'similar' ? markDuplicate(state, overlay) : none(state);
		},
		markNotDuplicate(state) {
			const {overlay} = state;
			const hit = overlay.kind === 'similar' ? chosen(state, overlay) : undefined;
			if (overlay.kind !== 'similar' || !hit || cannotMarkNot(state)) return none(state);
			const label = `${overlay.target.name ?? overlay.target.id} and ${hitName(state, hit)}`;
			return {state: {...state, similar: {...state.similar, marking: hit.id}}, effects: [{kind: 'markNotDuplicate', itemId: overlay.target.id, otherId: hit.id, label}]};
		},
		notDuplicateMarked(state, {ok, message}) {
			const {overlay} = state;
			const next = {...state, similar: {...state.similar, marking: null}};
			if (!ok) return none(say(next, `Not marked: ${message}`, 'error'));
			// The pair is left out from now on: the list is read again, and the next candidate moves up.
			return overlay.kind === 'similar' ? {state: next, effects: [{kind: 'loadSimilar', itemId: overlay.target.id, note: message}]} : none(say(next, message, 'ok'));
		},
		openSimilarCandidate(state) {
			const {overlay} = state;
			const hit = overlay.kind === 'similar' ? chosen(state, overlay) : undefined;
			if (!hit) return none(state);
			return {state: {...state, overlay: {kind: 'none'}, pane: 'detail', paneScroll: 0}, effects: [{kind: 'openCandidate', id: hit.id, name: hitName(state, hit)}]};
		},
	},
} satisfies OverlaySlice<'similar', 'openSimilar' | 'similarLoaded' | 'markSimilarDuplicate' | 'markNotDuplicate' | 'notDuplicateMarked' | 'reloadSimilar' | 'openSimilarCandidate'>;
