import {useCallback, useMemo, type MutableRefObject} from 'react';
import type {Field, FollowUp, Store} from '../../../store/index.js';
import {counted} from '../../text/format.js';
import {sanitize, sanitizeValue} from '../../text/sanitize.js';
import {describeChanges, editField, problemNotes, shortValue} from '../edit.js';
import type {Overlay, Tone, UndoEntry} from '../state.js';
import {textState, type TextState} from '../text-input.js';
import type {FollowUpsApi, QueueEntry} from './use-followups.js';
import type {LiveRowsApi} from './use-live-rows.js';

export type QueueOptions = {
	store: Store;
	channelId: string;
	fields: Field[];
	overlay: Overlay;
	setOverlay: (overlay: Overlay) => void;
	followUps: FollowUpsApi;
	live: LiveRowsApi;
	nameOf: (values: Record<string, unknown> | undefined, id: string) => string;
	say: (text: string, tone?: Tone) => void;
	pollEvents: () => void;
	undo: MutableRefObject<UndoEntry[]>;
};

/** The typed input for a follow-up, starting from the value Codex tried. */
export function typingFor(entry: QueueEntry): TextState {
	const {attempted} = entry.followUp;
	return textState(typeof attempted === 'string' || typeof attempted === 'number' ? String(attempted) : '');
}

/** The follow-up queue overlay: the entry shown, and opening, resolving and dismissing follow-ups. */
export function useQueueActions(options: QueueOptions) {
	const {fields, overlay, setOverlay, followUps, live, say} = options;
	const queueEntry = useMemo(() => {
		if (overlay.kind !== 'queue') return null;
		const followUp: FollowUp | undefined = followUps.queue[overlay.index];
		return followUp ? followUps.entry(followUp) : null;
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [overlay.kind, overlay.kind === 'queue' ? overlay.index : -1, followUps.queue, live.detailTick]);
	const queueField = queueEntry ? fields.find(field => field.key === queueEntry.followUp.key) ?? null : null;

	const openQueue = useCallback(() => {
		const open = followUps.load();
		setOverlay({kind: 'queue', index: 0, optionCursor: 0, typing: null, problem: null, confirmDismiss: false});
		if (open.length === 0) say('No open follow-ups.', 'ok');
	}, [followUps, say, setOverlay]);

	const resolveQueue = useResolveQueue(options, queueEntry, queueField);
	const dismissQueueEntry = useDismissQueueEntry(options, queueEntry);

	return {queueEntry, queueField, openQueue, resolveQueue, dismissQueueEntry};
}

export type QueueApi = ReturnType<typeof useQueueActions>;

function useResolveQueue({store, channelId, fields, overlay, setOverlay, followUps, live, nameOf, say, pollEvents, undo}: QueueOptions, queueEntry: QueueEntry | null, field: Field | null) {
	return useCallback((value: unknown) => {
		if (overlay.kind !== 'queue' || !queueEntry) return;
		const {followUp, item} = queueEntry;
		if (!item) {
			say('That record is gone; dismiss the follow-up (d).', 'warn');
			return;
		}

		const outcome = editField(store, channelId, item.id, followUp.key, value, item.version, item.values[followUp.key]);
		if (outcome.kind === 'ok') {
			const updated = outcome.result.item;
			live.showItem(updated);
			undo.current.push({itemId: updated.id, name: nameOf(item.values, item.id), key: followUp.key, before: outcome.before, after: value, version: updated.version});
			const open = followUps.load();
			const label = field ? sanitize(field.label) : sanitize(followUp.key);
			say(`${nameOf(item.values, item.id)}: ${label} set to ${field ? shortValue(field, value) : sanitizeValue(value)} · ${counted(open.length, 'follow-up')} left`, 'ok');
			setOverlay({...overlay, index: Math.min(overlay.index, Math.max(0, open.length - 1)), optionCursor: 0, typing: null, problem: null});
			pollEvents();
		} else if (outcome.kind === 'refused') {
			setOverlay({...overlay, problem: problemNotes(outcome.problem).map(note => note.text).join('\n')});
		} else if (outcome.kind === 'conflict') {
			live.bumpDetail();
			setOverlay({...overlay, problem: `The record changed since: ${describeChanges(fields, outcome.changes).join('; ')}. Check and choose again.`});
		} else {
			setOverlay({...overlay, problem: sanitize(outcome.message)});
		}
	}, [overlay, queueEntry, field, store, channelId, fields, followUps, nameOf, say, setOverlay, live, pollEvents, undo]);
}

function useDismissQueueEntry({store, overlay, setOverlay, followUps, live, say}: QueueOptions, queueEntry: QueueEntry | null) {
	return useCallback(() => {
		if (overlay.kind !== 'queue' || !queueEntry) return;
		try {
			store.dismissFollowUp(queueEntry.followUp.id);
			const open = followUps.load();
			say(`Follow-up dismissed · ${open.length} left`, 'ok');
			setOverlay({...overlay, confirmDismiss: false, index: Math.min(overlay.index, Math.max(0, open.length - 1)), optionCursor: 0, problem: null});
			live.bumpDetail();
		} catch (error) {
			setOverlay({...overlay, confirmDismiss: false, problem: sanitize((error as Error).message)});
		}
	}, [store, overlay, queueEntry, setOverlay, followUps, live, say]);
}
