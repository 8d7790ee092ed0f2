import {useCallback, type MutableRefObject} from 'react';
import type {Field, Store} from '../../../store/index.js';
import {sanitize} from '../../text/sanitize.js';
import {describeChanges, editField, isPicked, optionChoices, shortValue} from '../edit.js';
import {editableText} from '../format.js';
import {NONE, type EditOverlay, type Overlay, type Tone, type UndoEntry} from '../state.js';
import {textState} from '../text-input.js';
import type {FollowUpsApi} from './use-followups.js';
import type {LiveRowsApi} from './use-live-rows.js';

/** How many edits `u` can take back. */
const UNDO_LIMIT = 100;

export type EditOptions = {
	store: Store;
	channelId: string;
	fields: Field[];
	/** The row under the cursor. */
	row: {id: string} | undefined;
	nameOf: (values: Record<string, unknown> | undefined, id: string) => string;
	say: (text: string, tone?: Tone) => void;
	setOverlay: (overlay: Overlay) => void;
	live: LiveRowsApi;
	followUps: FollowUpsApi;
	pollEvents: () => void;
	undo: MutableRefObject<UndoEntry[]>;
};

/** Editing one field of the row under the cursor (the edit overlay), and undoing the last edit. */
export function useEdit(options: EditOptions) {
	const {store, channelId, row, nameOf, say, setOverlay} = options;

	const openEdit = useCallback(() => {
		if (!row) return;
		try {
			const item = store.readItem(channelId, row.id);
			setOverlay({kind: 'edit', itemId: item.id, name: nameOf(item.values, item.id), version: item.version, values: item.values, stage: 'field', fieldCursor: 0, field: null, optionCursor: 0, chosen: [], text: textState(), problem: null, conflict: null});
		} catch (error) {
			say(sanitize((error as Error).message), 'error');
		}
	}, [row, store, channelId, nameOf, say, setOverlay]);

	const chooseField = useCallback((o: EditOverlay, field: Field) => {
		const value = o.values[field.key];
		if (isPicked(field)) {
			const choices = optionChoices(field);
			const at = choices.findIndex(choice => choice.value === value);
			setOverlay({...o, stage: 'options', field, optionCursor: Math.max(0, at), chosen: Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [], problem: null, conflict: null});
		} else {
			setOverlay({...o, stage: 'text', field, text: textState(editableText(field, value)), problem: null, conflict: null});
		}
	}, [setOverlay]);

	return {openEdit, chooseField, submitEdit: useSubmitEdit(options), undoLast: useUndoLast(options)};
}

export type EditApi = ReturnType<typeof useEdit>;

function useSubmitEdit({store, channelId, say, setOverlay, live, followUps, pollEvents, undo}: EditOptions) {
	return useCallback((o: EditOverlay, value: unknown) => {
		const field = o.field!;
		const before = o.values[field.key];
		if (JSON.stringify(before ?? null) === JSON.stringify(value ?? null)) {
			setOverlay(NONE);
			say(`${o.name}: ${sanitize(field.label)} is already ${shortValue(field, value)}; nothing changed.`);
			return;
		}

		const outcome = editField(store, channelId, o.itemId, field.key, value, o.version, before);
		switch (outcome.kind) {
			case 'ok': {
				const {item} = outcome.result;
				live.showItem(item);
				undo.current.push({itemId: item.id, name: o.name, key: field.key, before, after: value, version: item.version});
				if (undo.current.length > UNDO_LIMIT) undo.current.shift();
				setOverlay(NONE);
				live.bumpDetail();
				followUps.refreshCount();
				say(`${o.name}: ${sanitize(field.label)} ${shortValue(field, before)} → ${shortValue(field, value)} (v${item.version}) · u undoes`, 'ok');
				pollEvents();
				break;
			}

			case 'refused': {
				setOverlay({...o, problem: outcome.problem, conflict: null});
				say(`Not saved: ${sanitize(outcome.problem.message)}`, 'error');
				break;
			}

			case 'conflict': {
				if (outcome.item) {
					const {item} = outcome;
					live.showItem(item);
					setOverlay({...o, version: item.version, values: item.values, conflict: outcome.changes, problem: null});
				} else {
					setOverlay(NONE);
				}

				live.bumpDetail();
				say(`Not saved: ${o.name} changed since you opened it`, 'warn');
				break;
			}

			case 'error': {
				say(`Not saved: ${sanitize(outcome.message)}`, 'error');
				break;
			}
		}
	}, [store, channelId, followUps, say, setOverlay, live, pollEvents, undo]);
}

function useUndoLast({store, channelId, fields, say, live, followUps, undo}: EditOptions) {
	return useCallback(() => {
		const entry = undo.current.pop();
		if (!entry) {
			say('Nothing to undo: no edit of yours in this session.', 'warn');
			return;
		}

		const field = fields.find(candidate => candidate.key === entry.key)!;
		const apply = (version: number) => editField(store, channelId, entry.itemId, entry.key, entry.before, version, entry.after);
		let outcome = apply(entry.version);
		if (outcome.kind === 'conflict') {
			if (Object.hasOwn(outcome.changes, entry.key)) {
				const [line] = describeChanges(fields, {[entry.key]: outcome.changes[entry.key]!});
				say(`Not undone: ${entry.name} ${line} was changed by someone else since your edit.`, 'error');
				if (outcome.item) live.refreshRow(entry.itemId);
				return;
			}

			// Other fields changed since: ours did not, so undo on top of the current version.
			if (outcome.item) outcome = apply(outcome.item.version);
		}

		if (outcome.kind === 'ok') {
			live.showItem(outcome.result.item);
			live.bumpDetail();
			followUps.refreshCount();
			say(`Undone: ${entry.name} ${sanitize(field.label)} back to ${shortValue(field, entry.before)} (v${outcome.result.item.version})`, 'ok');
		} else if (outcome.kind === 'refused') {
			say(`Not undone: ${sanitize(outcome.problem.message)}`, 'error');
		} else if (outcome.kind === 'conflict') {
			say(`Not undone: ${entry.name} keeps changing; try again.`, 'error');
		} else {
			say(`Not undone: ${sanitize(outcome.message)}`, 'error');
		}
	}, [fields, store, channelId, followUps, say, live, undo]);
}
