// `F`: the follow-up queue, one field Codex could not set at a time: pick an allowed value, type
// one, skip, or dismiss it (asks first).

import {counted} from '../../../text/format.js';
import {sanitize} from '../../../text/sanitize.js';
import {describeChanges, problemNotes, queueOptions} from '../../edit.js';
import {NONE, type QueueOverlay, type ScreenState, type Transition} from '../../state.js';
import {applyTextKey, textState, type TextState} from '../../text-input.js';
import {typedFieldValue} from '../field-edit/slice.js';
import {editWording, nameOf, oneRowWritten} from '../rows.js';
import {bind, listBinding, none, say, wrap, type EventOf, type OverlaySlice} from '../feature.js';
import {FOLLOWUPS_EFFECTS} from './effects.js';

const queueField = (state: ScreenState) => {
	const key = state.queue.entry?.followUp.key;
	return key === undefined ? null : state.fields.find(field => field.key === key) ?? null;
};

/** The typed input for a follow-up opens empty: what Codex tried is shown above it, and was refused. */
const typingFor = (): TextState => textState();

/**
 * The open follow-ups, (re)loaded: the queue opens (or stays) on the entry at its index, read
 * afresh. The header's count is the store's, read after (the queue holds at most a page of them),
 * and its `followUpCount` event counts the Follow-ups tab again when it moved.
 */
function queueLoaded(state: ScreenState, followUps: ScreenState['queue']['followUps'], note?: string): Transition {
	const previous = state.overlay.kind === 'queue' ? state.overlay : null;
	const index = previous ? Math.min(previous.index, Math.max(0, followUps.length - 1)) : 0;
	const overlay: QueueOverlay = previous ? {...previous, index, optionCursor: 0} : {kind: 'queue', index: 0, optionCursor: 0, typing: null, problem: null, confirmDismiss: false};
	let next: ScreenState = {...state, overlay, queue: {followUps, entry: null}, awaiting: null};
	if (note) next = say(next, `${note} · ${counted(followUps.length, 'follow-up')} left`, 'ok');
	else if (!previous && followUps.length === 0) next = say(next, 'No open follow-ups.', 'ok');
	const followUp = followUps[index];
	return {state: next, effects: followUp ? [{kind: 'readQueueEntry', followUp}, {kind: 'countFollowUps'}] : [{kind: 'countFollowUps'}]};
}

function resolveQueue(state: ScreenState, overlay: QueueOverlay, value: unknown): Transition {
	const {entry} = state.queue;
	if (!entry) return none(state);
	const {followUp, item} = entry;
	if (!item) return none(say(state, 'That record is gone; dismiss the follow-up (d).', 'warn'));
	const request = {itemId: item.id, name: nameOf(state.fields, item.values, item.id), key: followUp.key, value, before: item.values[followUp.key], version: item.version, origin: 'queue' as const};
	return {state: {...state, overlay: {...overlay, problem: null}}, effects: [{kind: 'edit', request}]};
}

/** The outcome of a value set from the queue: the next follow-up, or why not, in the queue. */
export function queueEdited(state: ScreenState, {request, outcome}: EventOf<'edited'>): Transition {
	const {overlay} = state;
	if (overlay.kind !== 'queue') return none(state);
	const {label, show} = editWording(state, request.key);
	switch (outcome.kind) {
		case 'ok': {
			const {item} = outcome.result;
			const next = oneRowWritten({...state, overlay: {...overlay, typing: null, problem: null}}, request, item);
			return {state: next, effects: [{kind: 'loadQueue', note: `${request.name}: ${label} set to ${show(request.value)}`}, {kind: 'pollEvents'}]};
		}

		case 'refused': return none({...state, overlay: {...overlay, problem: problemNotes(outcome.problem).map(note => note.text).join('\n')}});
		case 'conflict': return none({...state, detailTick: state.detailTick + 1, overlay: {...overlay, problem: `The record changed since: ${describeChanges(state.fields, outcome.changes).join('; ')}. Check and choose again.`}, queue: {...state.queue, entry: outcome.item ? {...state.queue.entry!, item: outcome.item} : state.queue.entry}});
		case 'error': return none({...state, overlay: {...overlay, problem: sanitize(outcome.message)}});
	}
}

export const FOLLOWUPS = {
	scope: overlay => (overlay.typing ? 'text' : (overlay.confirmDismiss ? 'confirm' : 'queue')),
	effects: FOLLOWUPS_EFFECTS,
	scopes: {queue: 'Follow-up queue (F)'},
	bindings: [
		listBinding('followUps', {type: 'openQueue'}),
		bind('queue', 'down', ['j', 'down'], 'j ↓', 'next allowed value', {type: 'cursor', delta: 1}, {hint: 'move'}),
		bind('queue', 'up', ['k', 'up'], 'k ↑', 'previous allowed value', {type: 'cursor', delta: -1}),
		bind('queue', 'choose', ['enter'], 'Enter', 'set the chosen value, then the next follow-up', {type: 'choose'}, {hint: 'set'}),
		bind('queue', 'type', ['t'], 't', 'type a value', {type: 'queueType'}, {hint: 'type'}),
		bind('queue', 'dismiss', ['d'], 'd', 'dismiss the follow-up (asks first)', {type: 'queueDismiss'}, {hint: 'dismiss'}),
		bind('queue', 'skip', ['n', 'right'], 'n →', 'next follow-up', {type: 'queueStep', delta: 1}, {hint: 'next'}),
		bind('queue', 'back', ['p', 'left'], 'p ←', 'previous follow-up', {type: 'queueStep', delta: -1}),
		bind('queue', 'cancel', ['escape', 'q', 'F'], 'Esc', 'close the queue', {type: 'cancel'}, {hint: 'close'}),
	],
	keys: {
		cursor(state, overlay, {delta}) {
			const count = state.queue.entry ? queueOptions(state.queue.entry, queueField(state)).length : 0;
			return none(count > 0 ? {...state, overlay: {...overlay, optionCursor: wrap(overlay.optionCursor, delta, count)}} : state);
		},
		choose(state, overlay) {
			const {entry} = state.queue;
			if (!entry) return none(state);
			const options = queueOptions(entry, queueField(state));
			if (options.length > 0) return resolveQueue(state, overlay, options[overlay.optionCursor]!.value);
			return none({...state, overlay: {...overlay, typing: typingFor(), problem: null}});
		},
		cancel(state, overlay) {
			if (overlay.typing) return none({...state, overlay: {...overlay, typing: null}});
			return {state: {...state, overlay: NONE}, effects: [{kind: 'countFollowUps'}]};
		},
		type: (state, overlay, {input, key}) => none(overlay.typing ? {...state, overlay: {...overlay, typing: applyTextKey(overlay.typing, input, key)}} : state),
		submit(state, overlay) {
			if (!overlay.typing) return none(state);
			const field = queueField(state);
			if (!field) return resolveQueue(state, overlay, overlay.typing.value);
			// As the field edit reads it: a date from its words (friday, +3d), counted from the entry's day.
			const typed = typedFieldValue(field, overlay.typing.value, overlay.now ?? 0);
			return typed.ok ? resolveQueue(state, overlay, typed.value) : none({...state, overlay: {...overlay, problem: typed.message}});
		},
		queueType: (state, overlay) => none(state.queue.entry ? {...state, overlay: {...overlay, typing: typingFor(), problem: null}} : state),
		queueDismiss: (state, overlay) => none(state.queue.entry ? {...state, overlay: {...overlay, confirmDismiss: true}} : state),
		queueStep(state, overlay, {delta}) {
			const count = state.queue.followUps.length;
			if (count === 0) return none(state);
			const index = wrap(overlay.index, delta, count);
			return {state: {...state, overlay: {...overlay, index, optionCursor: 0, problem: null}, queue: {...state.queue, entry: null}}, effects: [{kind: 'readQueueEntry', followUp: state.queue.followUps[index]!}]};
		},
		answer(state, overlay, {yes}) {
			if (!overlay.confirmDismiss) return none(state);
			if (!yes) return none({...state, overlay: {...overlay, confirmDismiss: false}});
			const {entry} = state.queue;
			return entry ? {state, effects: [{kind: 'dismissFollowUp', id: entry.followUp.id}]} : none(state);
		},
	},
	events: {
		openQueue: state => ({state: {...state, awaiting: 'queue'}, effects: [{kind: 'loadQueue'}]}),
		queueLoaded: (state, event) => queueLoaded(state, event.followUps, event.note),
		queueEntry: (state, event) => none(state.overlay.kind === 'queue' ? {...state, overlay: {...state.overlay, now: event.at ?? state.overlay.now}, queue: {...state.queue, entry: event.entry}} : state),
		followUpDismissed(state, event) {
			const {overlay} = state;
			if (overlay.kind !== 'queue') return none(state);
			if (!event.ok) return none({...state, overlay: {...overlay, confirmDismiss: false, problem: sanitize(event.message ?? '')}});
			const left = event.left ?? [];
			const next = {...state, overlay: {...overlay, confirmDismiss: false, problem: null}, detailTick: state.detailTick + 1};
			return queueLoaded(say(next, `Follow-up dismissed · ${left.length} left`, 'ok'), left);
		},
	},
} satisfies OverlaySlice<'queue', 'openQueue' | 'queueLoaded' | 'queueEntry' | 'followUpDismissed'>;
