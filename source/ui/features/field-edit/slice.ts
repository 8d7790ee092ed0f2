// Setting fields: a field's hotkey on the row or the marks (its picker or input), `e` (choose the
// field first), `:set`, `E` ($EDITOR), the outcomes of those writes and undo
// (docs/reference.md#editing).

import type {Key} from '#ink';
import type {Field} from '../../../../store/index.js';
import {counted, shortFields} from '../../../text/format.js';
import {sanitize, sanitizeValue} from '../../../text/sanitize.js';
import {chooserFields, describeChanges, isPicked, problemNotes, shortValue} from '../../edit.js';
import {pushUndo, rebaseBulkUndo, rebaseUndo} from '../../edit-outcome.js';
import {editableText, previewFromValues} from '../../format.js';
import {parseTyped, resolveDateInput} from '../../../text/typed-value.js';
import {keyName} from '../../keys.js';
import {describeBulkOutcome, type BulkOutcome, type MarkedRow} from '../../model/bulk.js';
import {fieldForKey} from '../../model/hotkeys.js';
import {choosePicker, eraseInPicker, movePicker, openPicker, togglePicker, typeInPicker, type PickerState} from '../../model/picker.js';
import {NONE, type Effect, type FieldEditOverlay, type ScreenEvent, type ScreenState, type Transition, type UndoEntry} from '../../state.js';
import {applyTextKey, textState} from '../../text-input.js';
import {patchRow} from '../../window.js';
import {currentRow, editTargets, editWording, moveBy, nameOf, oneRowWritten, reseen, showItem} from '../rows.js';
import {bind, listBinding, none, say, wrap, type EventOf, type OverlaySlice} from '../feature.js';
import {FIELD_EDIT_EFFECTS} from './effects.js';

/** A list key that is no binding of the key table: a field's hotkey, if one. */
export function hotkeyEvents(state: ScreenState, input: string, key: Key, at?: number): ScreenEvent[] {
	if (key.ctrl || key.meta) return [];
	const field = fieldForKey(state.hotkeys, keyName(input, key));
	return field === undefined ? [] : [{type: 'hotkey', key: field, at: at ?? 0}];
}

const fieldEditOverlay = (targets: MarkedRow[], bulk: boolean, now: number): FieldEditOverlay => ({kind: 'fieldEdit', field: null, fieldCursor: 0, chooser: false, targets, bulk, picker: null, text: null, now, notice: null});

/** The value every target holds for `key`, or undefined when they differ. */
function commonValue(targets: MarkedRow[], key: string): unknown {
	const values = targets.map(target => target.values[key] ?? null);
	const first = JSON.stringify(values[0]);
	return values.every(value => JSON.stringify(value) === first) ? values[0] : undefined;
}

const NUMBER_TYPES = new Set<Field['type']>(['number', 'currency', 'percentage', 'rating']);

/** The overlay on one field: its picker opened on the current value, or its input holding it. */
function withField(overlay: FieldEditOverlay, field: Field): FieldEditOverlay {
	const current = commonValue(overlay.targets, field.key);
	if (isPicked(field)) return {...overlay, field, picker: openPicker(field, current), text: null, notice: null};
	// A number opens selected: the first key typed replaces it (as in a spreadsheet).
	return {...overlay, field, picker: null, text: textState(editableText(current), NUMBER_TYPES.has(field.type)), notice: null};
}

function openFieldEdit(state: ScreenState, key: string, at: number): Transition {
	const field = state.fields.find(candidate => candidate.key === key);
	if (!field) return none(state);
	if (!shortFields([field]).includes(field)) return none(say(state, `${field.label} is long text: E edits it in $EDITOR.`, 'warn'));
	const targets = editTargets(state);
	if (targets.length === 0) return none(say(state, 'No record to edit.', 'warn'));
	return none({...state, overlay: withField(fieldEditOverlay(targets, state.marks.size > 0, at), field)});
}

/** `e` with rows marked: choose the field, then set it on all of them; relative dates count from `at`, when it opened. */
function openBulkEdit(state: ScreenState, at: number): Transition {
	const targets = editTargets(state);
	if (targets.length === 0) return none(say(state, 'The marked rows are not loaded; mark them again.', 'warn'));
	return none({...state, overlay: {...fieldEditOverlay(targets, true, at), chooser: true}});
}

/** `e` on one row, once the record is read afresh: choose the field, then set it on the record as read. */
function editOpened(state: ScreenState, {item, at}: EventOf<'editOpened'>): Transition {
	const target: MarkedRow = {id: item.id, version: item.version, values: item.values, name: nameOf(state.fields, item.values, item.id)};
	return none({...state, overlay: {...fieldEditOverlay([target], false, at ?? 0), chooser: true}, awaiting: null});
}

function withPicker(state: ScreenState, overlay: FieldEditOverlay, change: (picker: PickerState) => PickerState): ScreenState {
	if (!overlay.picker) return state;
	return {...state, overlay: {...overlay, picker: change(overlay.picker), notice: null}};
}

/** A printable key in the picker: a digit picks and writes at once, a letter jumps. */
function pickType(state: ScreenState, overlay: FieldEditOverlay, input: string, key: Key): Transition {
	if (!overlay.picker || key.ctrl || key.meta || [...input].length !== 1) return none(state);
	const stepped = typeInPicker(overlay.picker, input);
	const next = {...overlay, picker: stepped.state, notice: stepped.notice ?? null};
	if (stepped.chosen) return commitFieldEdit({...state, overlay: next}, next, stepped.chosen.value);
	return none({...state, overlay: next});
}

/** The typed value of a field: a date resolved from its words (shown before commit), else as typed. */
export function typedFieldValue(field: Field, text: string, now: number): {ok: true; value: unknown} | {ok: false; message: string} {
	if (field.type !== 'date' || text.trim() === '') return {ok: true, value: parseTyped(field, text.trim() === '' ? '' : text)};
	const date = resolveDateInput(text, new Date(now));
	return date.ok ? {ok: true, value: date.date} : {ok: false, message: date.message};
}

function submitFieldText(state: ScreenState, overlay: FieldEditOverlay): Transition {
	if (!overlay.field || !overlay.text) return none(state);
	const typed = typedFieldValue(overlay.field, overlay.text.value, overlay.now);
	if (!typed.ok) return none({...state, overlay: {...overlay, notice: sanitize(typed.message)}});
	return commitFieldEdit(state, overlay, typed.value);
}

/** After an edit of one row, the cursor moves on to the next row (when it is still on the row edited). */
const advanced = (state: ScreenState, id: string): ScreenState => (state.advanceAfterEdit && currentRow(state)?.id === id ? moveBy(state, 1) : state);

/** The chosen value written: on one row as an edit of the row, on marks as one bulk edit. */
function commitFieldEdit(state: ScreenState, overlay: FieldEditOverlay, value: unknown): Transition {
	const field = overlay.field!;
	const closed = {...state, overlay: NONE};
	if (overlay.bulk) {
		return {state: say(closed, `Setting ${field.label} to ${shortValue(field, value)} on ${counted(overlay.targets.length, 'marked record')}…`), effects: [{kind: 'bulkEdit', field, value, rows: overlay.targets}]};
	}

	const target = overlay.targets[0]!;
	const before = target.values[field.key] ?? null;
	if (JSON.stringify(before) === JSON.stringify(value ?? null)) {
		return none(say(closed, `${target.name ?? target.id}: ${field.label} is already ${shortValue(field, value)}; nothing changed.`));
	}

	const edit: Effect = {kind: 'edit', request: {itemId: target.id, name: target.name ?? target.id, key: field.key, value, before, version: target.version, origin: 'picker'}};
	// A hotkey's pick closes at once (typing ahead goes to the list); a typed value, or any value
	// chosen after `e`, stays open until the store answers, so a refusal or a conflict is shown
	// inline (keys typed meanwhile wait).
	if (!overlay.text && !overlay.chooser) return {state: advanced(closed, target.id), effects: [edit]};
	return {state: {...state, overlay: {...overlay, notice: null}, awaiting: 'edit'}, effects: [edit]};
}

/**
 * Sets a field to a value without a picker (for a command such as `:set status triaged`): on the
 * marks as one bulk edit, else on the row, through the same path as a hotkey.
 */
export function setField(state: ScreenState, key: string, value: unknown): Transition {
	const field = state.fields.find(candidate => candidate.key === key);
	const targets = editTargets(state);
	if (!field || targets.length === 0) return none(say(state, field ? 'No record to edit.' : `${key} is not a field of this channel.`, 'warn'));
	return commitFieldEdit(state, {...fieldEditOverlay(targets, state.marks.size > 0, 0), field}, value);
}

/** A one-row edit written (by a picker, `e`, `E` or `:set`): the row shows it, one undo entry, the footer says it. */
function rowEdited(state: ScreenState, {request, outcome}: EventOf<'edited'>): Transition {
	const {field, label, show} = editWording(state, request.key);
	switch (outcome.kind) {
		case 'ok': {
			const {item} = outcome.result;
			let next = oneRowWritten({...state, detailTick: state.detailTick + 1}, request, item);
			next = reseen(next, item.id, item.version, {[request.key]: request.value});
			// Long text (E) is not repeated in a one-line message.
			const change = field?.config.long ? 'saved' : `${show(request.before)} → ${show(request.value)}`;
			return {state: say(next, `${request.name}: ${label} ${change} (v${item.version}) · u undoes`, 'ok'), effects: [{kind: 'countFollowUps'}, {kind: 'pollEvents'}]};
		}

		case 'refused': return none(say(state, `Not saved: ${outcome.problem.message}`, 'error'));
		case 'conflict': {
			const next: ScreenState = {...state, detailTick: state.detailTick + 1};
			return none(say(outcome.item ? showItem(next, outcome.item) : next, `Not saved: ${request.name} changed since you opened it`, 'warn'));
		}

		case 'error': return none(say(state, `Not saved: ${outcome.message}`, 'error'));
	}
}

/** The outcome of a one-row hotkey edit in its still open input: closed when saved, else why not, inline. */
function fieldEditOutcome(before: ScreenState, result: Transition, {request, outcome}: EventOf<'edited'>): Transition {
	const {overlay} = before;
	if (request.origin !== 'picker' || overlay.kind !== 'fieldEdit' || overlay.bulk || overlay.targets[0]?.id !== request.itemId) return result;
	const state: ScreenState = {...result.state, awaiting: before.awaiting === 'edit' ? null : result.state.awaiting};
	const keepOpen = (notice: string, target = overlay.targets[0]!) => ({...result, state: {...state, overlay: {...overlay, targets: [target], notice}}});
	switch (outcome.kind) {
		case 'ok': return {...result, state: advanced({...state, overlay: NONE}, request.itemId)};
		case 'refused': return keepOpen(problemNotes(outcome.problem).map(note => note.text).join('\n'));
		case 'conflict': {
			// What changed, and the record as it is now: Enter again writes on top of it.
			const {item} = outcome;
			// `e` holds the whole record as read; a hotkey the row as listed.
			const target = item ? {...overlay.targets[0]!, version: item.version, values: overlay.chooser ? item.values : previewFromValues(state.fields, item.values)} : overlay.targets[0]!;
			return keepOpen(`Not saved: changed since you opened it (now v${target.version}): ${describeChanges(state.fields, outcome.changes).join('; ')}\nEnter writes yours on top of it, Esc leaves it.`, target);
		}

		case 'error': return keepOpen(`Not saved: ${sanitize(outcome.message)}`);
	}
}

/** The outcome of a write from a picker, `e`, `E` or `:set` (the queue's own are followups.ts's). */
export const pickerEdited = (state: ScreenState, event: EventOf<'edited'>): Transition => fieldEditOutcome(state, rowEdited(state, event), event);

function undone(state: ScreenState, {entry, outcome}: EventOf<'undone'>): Transition {
	const field = state.fields.find(candidate => candidate.key === entry.key);
	const label = field?.label ?? entry.key;
	switch (outcome.kind) {
		case 'ok': {
			const {item} = outcome.result;
			const next = showItem({...state, undo: rebaseUndo(state.undo, entry, outcome), detailTick: state.detailTick + 1}, item);
			return {state: say(next, `Undone: ${entry.name} ${label} back to ${field ? shortValue(field, entry.before) : sanitizeValue(entry.before)} (v${item.version})`, 'ok'), effects: [{kind: 'countFollowUps'}]};
		}

		case 'lost': {
			const [line] = describeChanges(state.fields, outcome.change);
			return {state: say(state, `Not undone: ${entry.name} ${line} was changed by someone else since your edit.`, 'error'), effects: [{kind: 'readRows', ids: [entry.itemId]}]};
		}

		case 'refused': return none(say(state, `Not undone: ${outcome.problem.message}`, 'error'));
		case 'conflict': return none(say(state, `Not undone: ${entry.name} keeps changing; try again.`, 'error'));
		case 'error': return none(say(state, `Not undone: ${outcome.message}`, 'error'));
	}
}

/** The undo on top of the stack, written. */
function writeUndo(state: ScreenState): Transition {
	const entry = state.undo.at(-1)!;
	const effect: Effect = entry.kind === 'bulk' ? {kind: 'undoBulk', outcome: entry.outcome} : (entry.kind === 'accept' ? {kind: 'undoAccept', entry} : {kind: 'undo', entry});
	return {state: {...state, undo: state.undo.slice(0, -1)}, effects: [effect]};
}

/**
 * `u`: the top of the stack undone, or, while an undo is under way, one more to follow it. Each
 * waits for the one before (a burst of `u` on one record would otherwise race its own writes).
 */
function askUndo(state: ScreenState): Transition {
	const waiting = Math.max(0, state.undoing - 1);
	if (state.undo.length <= waiting) return none(say(state, state.undoing > 0 ? 'Nothing more to undo: every edit of yours is being undone.' : 'Nothing to undo: no edit of yours in this session.', 'warn'));
	if (state.undoing > 0) return none({...state, undoing: state.undoing + 1});
	return writeUndo({...state, undoing: 1});
}

/**
 * An undo's result in: the next one waiting is written. One that could not be written for now
 * (`retry`: a conflict or an error) goes back on the stack, and the ones waiting behind it stop.
 */
export function nextUndo({state, effects}: Transition, retry: UndoEntry | null): Transition {
	if (retry) {
		const stopped = state.undoing > 1 && state.message ? say(state, `${state.message.text} (${counted(state.undoing - 1, 'more undo')} not done)`, state.message.tone) : state;
		return {state: {...stopped, undo: pushUndo(stopped.undo, retry), undoing: 0}, effects};
	}

	if (state.undoing <= 1 || state.undo.length === 0) return {state: {...state, undoing: 0}, effects};
	const next = writeUndo({...state, undoing: state.undoing - 1});
	return {state: next.state, effects: [...effects, ...next.effects]};
}

/** A bulk edit (or its undo) done: rows show what was written, one undo entry, a summary naming conflicts and refusals. */
function bulkWritten(state: ScreenState, outcome: BulkOutcome, prefix: string): Transition {
	const {key} = outcome.plan;
	let next: ScreenState = {...state, detailTick: state.detailTick + 1};
	for (const written of outcome.written) {
		next = {...next, window: patchRow(next.window, written.id, row => ({...row, version: written.version, preview: {...row.preview, [key]: written.after}}))};
		next = reseen(next, written.id, written.version, {[key]: written.after});
	}

	if (prefix === '' && outcome.written.length > 0) next = {...next, undo: pushUndo(next.undo, {kind: 'bulk', outcome})};
	const troubled = outcome.conflicts.length + outcome.refusals.length;
	const lines = describeBulkOutcome(outcome).map(line => line.split('\n').map(part => part.trim()).join(' '));
	const undoHint = prefix === '' && outcome.written.length > 0 ? ' · u undoes all' : '';
	const effects: Effect[] = [{kind: 'countFollowUps'}, {kind: 'pollEvents'}];
	const stale = [...outcome.conflicts, ...outcome.refusals].map(entry => entry.id);
	if (stale.length > 0) effects.unshift({kind: 'readRows', ids: stale});
	return {state: say(next, `${prefix}${lines.join(' · ')}${undoHint}`, troubled > 0 ? 'warn' : 'ok'), effects};
}

/** `E`: the row's long text field in $EDITOR (the first long text field of the schema). */
function openEditor(state: ScreenState): Transition {
	// The editor holds the terminal and the event loop until it exits: a run would stall meanwhile.
	if (state.run.active) return none(say(state, 'A Codex run is active: E waits until it ends (x cancels it).', 'warn'));
	const row = currentRow(state);
	if (!row || row.deleted) return none(say(state, 'No record to edit.', 'warn'));
	const field = state.fields.find(candidate => candidate.type === 'text' && candidate.config.long);
	if (!field) return none(say(state, 'This channel has no long text field; e edits the others.', 'warn'));
	const name = nameOf(state.fields, row.preview, row.id);
	return {state: say(state, `${name}: ${field.label} in $EDITOR…`), effects: [{kind: 'editInEditor', itemId: row.id, name, key: field.key}]};
}

export const FIELD_EDIT = {
	scope: overlay => (overlay.field === null ? 'picker' : (overlay.picker ? 'choice' : 'text')),
	effects: FIELD_EDIT_EFFECTS,
	scopes: {picker: 'Pickers (edit, filter)', choice: 'Field picker (a field hotkey): 1–9 pick, letters jump', text: 'Text input (search, typed values, instruction)'},
	bindings: [
		// `e` on marks opens the field edit without a read: its clock is the keypress's.
		listBinding('edit', (_input, at) => (at === undefined ? {type: 'openEdit'} : {type: 'openEdit', at})),
		listBinding('editLong', {type: 'openEditor'}),
		listBinding('undo', {type: 'undo'}),
		bind('picker', 'down', ['j', 'down', 'tab'], 'j ↓', 'next choice', {type: 'cursor', delta: 1}, {hint: 'move'}),
		bind('picker', 'up', ['k', 'up'], 'k ↑', 'previous choice', {type: 'cursor', delta: -1}),
		bind('picker', 'toggle', ['space'], 'Space', 'toggle an option (multiple choice)', {type: 'toggle'}),
		bind('picker', 'choose', ['enter'], 'Enter', 'choose', {type: 'choose'}, {hint: 'choose'}),
		bind('picker', 'cancel', ['escape', 'q'], 'Esc', 'back', {type: 'cancel'}, {hint: 'back'}),
		bind('choice', 'down', ['down', 'tab'], '↓', 'next choice', {type: 'cursor', delta: 1}, {hint: 'move'}),
		bind('choice', 'up', ['up'], '↑', 'previous choice', {type: 'cursor', delta: -1}),
		bind('choice', 'choose', ['enter'], 'Enter', 'choose', {type: 'choose'}, {hint: 'choose'}),
		bind('choice', 'toggle', ['space'], 'Space', 'tick or untick (multiple choice)', {type: 'toggle'}),
		bind('choice', 'erase', ['backspace'], 'Bksp', 'forget the last typed letter', {type: 'erase'}),
		bind('choice', 'cancel', ['escape'], 'Esc', 'back', {type: 'cancel'}, {hint: 'back'}),
		bind('text', 'submit', ['enter'], 'Enter', 'accept', {type: 'submit'}, {hint: 'accept'}),
		bind('text', 'cancel', ['escape'], 'Esc', 'cancel', {type: 'cancel'}, {hint: 'cancel'}),
	],
	keys: {
		cursor(state, overlay, {delta}) {
			if (overlay.field === null) return none({...state, overlay: {...overlay, fieldCursor: wrap(overlay.fieldCursor, delta, chooserFields(state.fields, overlay).length)}});
			return none(withPicker(state, overlay, picker => movePicker(picker, delta)));
		},
		choose(state, overlay) {
			if (overlay.field === null) {
				const field = chooserFields(state.fields, overlay)[overlay.fieldCursor];
				return none(field ? {...state, overlay: withField(overlay, field)} : state);
			}

			return overlay.picker ? commitFieldEdit(state, overlay, choosePicker(overlay.picker).value) : none(state);
		},
		toggle: (state, overlay) => none(withPicker(state, overlay, togglePicker)),
		cancel: (state, overlay) => none({...state, overlay: overlay.field !== null && overlay.chooser ? {...overlay, field: null, picker: null, text: null, notice: null} : NONE}),
		submit: submitFieldText,
		type: (state, overlay, {input, key}) => none(overlay.text ? {...state, overlay: {...overlay, text: applyTextKey(overlay.text, input, key), notice: null}} : state),
		pickType: (state, overlay, {input, key}) => pickType(state, overlay, input, key),
		erase: (state, overlay) => none(withPicker(state, overlay, eraseInPicker)),
	},
	events: {
		hotkey: (state, event) => openFieldEdit(state, event.key, event.at),
		editOpened,
		openEdit(state, {at}) {
			if (state.marks.size > 0) return openBulkEdit(state, at ?? 0);
			const row = currentRow(state);
			return row ? {state: {...state, awaiting: 'edit'}, effects: [{kind: 'readForEdit', itemId: row.id}]} : none(state);
		},
		undo: askUndo,
		undone: (state, event) => nextUndo(undone(state, event), event.outcome.kind === 'conflict' || event.outcome.kind === 'error' ? event.entry : null),
		bulkEdited: (state, event) => bulkWritten(state, event.outcome, ''),
		bulkUndone: (state, event) => nextUndo(bulkWritten({...state, undo: rebaseBulkUndo(state.undo, event.undid, event.outcome)}, event.outcome, 'Undone: '), null),
		openEditor,
	},
} satisfies OverlaySlice<'fieldEdit', 'hotkey' | 'editOpened' | 'openEdit' | 'undo' | 'undone' | 'bulkEdited' | 'bulkUndone' | 'openEditor'>;
