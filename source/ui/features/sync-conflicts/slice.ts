// `C`: the sync conflicts of the channel, one field each, with the last value both sides agreed
// on (base), ours and the tracker's (theirs): take ours, take theirs, or type a value. Each choice
// is the store call `sift followups resolve` makes (store.sync.resolveConflict): written locally
// as the person's and queued for the tracker. Declares its own overlay, events, effects, scope and
// screen fields (docs/architecture.md#adding-an-overlay).

import type {ConflictChoice, FollowUp} from '../../../../store/index.js';
import {counted} from '../../../text/format.js';
import type {ScreenState, Transition} from '../../state.js';
import {applyTextKey, textState, type TextState} from '../../text-input.js';
import {typedFieldValue} from '../field-edit/slice.js';
import {bind, none, say, wrap, type OverlayOf, type OverlaySlice} from '../feature.js';
import {SYNC_CONFLICTS_EFFECTS} from './effects.js';

/** One open sync conflict, with its record's name as the list shows it (its id when the record is gone). */
export type ConflictRow = {followUp: FollowUp; name: string};

declare module '../../state.js' {
	interface OverlayVariants {
		/** `cursor`: the conflict chosen; `typing`: a value being typed for it; `problem`: why the last choice was not written; `now`: when it opened (ms), the day a typed relative date counts from. */
		syncConflicts: {kind: 'syncConflicts'; cursor: number; typing: TextState | null; problem: string | null; now: number};
	}

	interface EventVariants {
		syncConflicts:
			| {type: 'openSyncConflicts'; at?: number}
			| {type: 'syncConflictsLoaded'; rows: ConflictRow[]; note?: string}
			| {type: 'takeSide'; side: 'ours' | 'theirs'}
			| {type: 'typeConflictValue'}
			| {type: 'reloadSyncConflicts'}
			| {type: 'syncConflictResolved'; id: number; ok: boolean; message: string};
	}

	interface EffectVariants {
		syncConflicts:
			| {kind: 'loadSyncConflicts'; note?: string}
			/** `label`: the record and field, for the footer's word on how it went. */
			| {kind: 'resolveSyncConflict'; id: number; choice: ConflictChoice; label: string};
	}

	interface ScreenState {
		/** The open sync conflicts the screen lists (null: being read); `resolving`: the conflict whose choice is being written. */
		syncConflicts: {rows: ConflictRow[] | null; resolving: number | null};
	}
}

declare module '../feature.js' {
	interface ScopeVariants {
		syncConflicts: 'syncConflicts';
	}
}

type ConflictsOverlay = OverlayOf<'syncConflicts'>;

const current = (state: ScreenState, overlay: ConflictsOverlay) => state.syncConflicts.rows?.[overlay.cursor];

/** Why o, t or v do nothing now, or null when they act. */
function cannotChoose(state: ScreenState): string | null {
	if (state.overlay.kind !== 'syncConflicts') return null;
	if (state.syncConflicts.rows === null) return 'The sync conflicts are still being read.';
	if (state.syncConflicts.rows.length === 0) return 'No open sync conflicts to resolve.';
	if (state.syncConflicts.resolving !== null) return 'A choice is being written: wait for it.';
	return null;
}

/** The choice for the conflict under the cursor, sent to the store. */
function resolve(state: ScreenState, overlay: ConflictsOverlay, choice: ConflictChoice, shown: string): Transition {
	const row = current(state, overlay);
	if (!row || cannotChoose(state)) return none(state);
	const label = `${row.name} ${row.followUp.key}`;
	return {
		state: {...state, overlay: {...overlay, typing: null, problem: null}, syncConflicts: {...state.syncConflicts, resolving: row.followUp.id}},
		effects: [{kind: 'resolveSyncConflict', id: row.followUp.id, choice, label: `${label} set to ${shown}`}],
	};
}

/** The typed value read as the field reads it (a date from its words), or the words as typed for a field the schema no longer has. */
function submitTyped(state: ScreenState, overlay: ConflictsOverlay, typing: TextState): Transition {
	const row = current(state, overlay);
	if (!row) return none(state);
	const field = state.fields.find(each => each.key === row.followUp.key);
	if (!field) return resolve(state, overlay, {value: typing.value}, 'the value typed');
	const typed = typedFieldValue(field, typing.value, overlay.now);
	return typed.ok ? resolve(state, overlay, {value: typed.value}, 'the value typed') : none({...state, overlay: {...overlay, problem: typed.message}});
}

export const SYNC_CONFLICTS = {
	scope: overlay => (overlay.typing ? 'text' : 'syncConflicts'),
	effects: SYNC_CONFLICTS_EFFECTS,
	initial: {syncConflicts: {rows: null, resolving: null}} as Pick<ScreenState, 'syncConflicts'>,
	scopes: {syncConflicts: 'Sync conflicts (C)'},
	bindings: [
		bind('list', 'syncConflicts', ['C'], 'C', 'sync conflicts: base, ours and theirs; take one or type a value', (_input, at) => ({type: 'openSyncConflicts', at})),
		bind('syncConflicts', 'down', ['j', 'down'], 'j ↓', 'next conflict', {type: 'cursor', delta: 1}, {hint: 'move'}),
		bind('syncConflicts', 'up', ['k', 'up'], 'k ↑', 'previous conflict', {type: 'cursor', delta: -1}),
		bind('syncConflicts', 'ours', ['o'], 'o', 'take ours: keep sift\'s value and send it to the tracker', {type: 'takeSide', side: 'ours'}, {hint: 'ours', disabled: cannotChoose}),
		bind('syncConflicts', 'theirs', ['t'], 't', 'take theirs: the tracker\'s value, written here', {type: 'takeSide', side: 'theirs'}, {hint: 'theirs', disabled: cannotChoose}),
		bind('syncConflicts', 'value', ['v'], 'v', 'type a value for both sides', {type: 'typeConflictValue'}, {hint: 'value', disabled: cannotChoose}),
		bind('syncConflicts', 'reload', ['r'], 'r', 'read the conflicts again', {type: 'reloadSyncConflicts'}),
		bind('syncConflicts', 'close', ['escape', 'q', 'C'], 'Esc', 'close the conflicts', {type: 'cancel'}, {hint: 'close'}),
	],
	keys: {
		cursor: (state, overlay, {delta}) => none({...state, overlay: {...overlay, cursor: wrap(overlay.cursor, delta, state.syncConflicts.rows?.length ?? 0), problem: null}}),
		cancel: (state, overlay) => none({...state, overlay: overlay.typing ? {...overlay, typing: null} : {kind: 'none'}}),
		type: (state, overlay, {input, key}) => none(overlay.typing ? {...state, overlay: {...overlay, typing: applyTextKey(overlay.typing, input, key)}} : state),
		submit: (state, overlay) => (overlay.typing ? submitTyped(state, overlay, overlay.typing) : none(state)),
	},
	events: {
		openSyncConflicts: (state, {at}) => ({
			state: {...state, overlay: {kind: 'syncConflicts', cursor: 0, typing: null, problem: null, now: at ?? 0}, syncConflicts: {rows: null, resolving: null}},
			effects: [{kind: 'loadSyncConflicts'}],
		}),
		reloadSyncConflicts: state => ({state, effects: [{kind: 'loadSyncConflicts'}]}),
		syncConflictsLoaded(state, {rows, note}) {
			const {overlay} = state;
			if (overlay.kind !== 'syncConflicts') return none(state);
			const next = {...state, overlay: {...overlay, cursor: Math.min(overlay.cursor, Math.max(0, rows.length - 1))}, syncConflicts: {rows, resolving: null}};
			if (note) return none(say(next, `${note} · ${counted(rows.length, 'conflict')} left`, 'ok'));
			return none(rows.length === 0 ? say(next, 'No open sync conflicts.', 'ok') : next);
		},
		takeSide(state, {side}) {
			const {overlay} = state;
			return overlay.kind === 'syncConflicts' ? resolve(state, overlay, {side}, side) : none(state);
		},
		typeConflictValue(state) {
			const {overlay} = state;
			return none(overlay.kind === 'syncConflicts' && current(state, overlay) ? {...state, overlay: {...overlay, typing: textState(), problem: null}} : state);
		},
		syncConflictResolved(state, {ok, message}) {
			const {overlay} = state;
			if (overlay.kind !== 'syncConflicts') return none(state);
			if (!ok) return none({...state, overlay: {...overlay, problem: message}, syncConflicts: {...state.syncConflicts, resolving: null}});
			// The record changed: the list and the pane read it again, and the follow-up count with it.
			return {state: {...state, detailTick: state.detailTick + 1}, effects: [{kind: 'loadSyncConflicts', note: message}, {kind: 'pollEvents'}, {kind: 'countFollowUps'}, {kind: 'readSyncState'}]};
		},
	},
} satisfies OverlaySlice<'syncConflicts', 'openSyncConflicts' | 'syncConflictsLoaded' | 'takeSide' | 'typeConflictValue' | 'reloadSyncConflicts' | 'syncConflictResolved'>;
