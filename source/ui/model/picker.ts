/**
 * The picker of one field's value (select, multi_select, boolean): pure functions over a small
 * state. It opens on the current value; `1`–`9` pick the nth entry; typing jumps to the first
 * entry whose label, else whose value, starts with what was typed (any case); an optional field
 * ends with a "none" entry that clears it. A multi_select picker toggles entries and commits the set.
 */

import type {Field} from '../../../store/index.js';

export type PickerEntry = {
	/** What choosing the entry writes: an option value, true/false, or null ([] for multiple choice) for "none". */
	value: string | boolean | null;
	label: string;
	/** True for the entry that clears the field. */
	none: boolean;
};

export type PickerState = {
	key: string;
	multiple: boolean;
	entries: PickerEntry[];
	cursor: number;
	/** The prefix typed so far to jump with ('' when the last key was not typing). */
	typed: string;
	/** Multiple choice: the option values checked so far. */
	checked: string[];
};

/** What a key did: the new state, a value to write when one was chosen, a notice when the key did nothing. */
export type PickerStep = {state: PickerState; chosen?: {value: unknown}; notice?: string};

export const NONE_LABEL = 'none';

/** Fields edited by picking rather than typing. */
export const isPickable = (field: Field) => field.type === 'select' || field.type === 'multi_select' || field.type === 'boolean';

/** The entries of a field's picker, in schema order, "none" last for an optional field. */
export function pickerEntries(field: Field): PickerEntry[] {
	if (!isPickable(field)) {
		throw new TypeError(`${field.key} is a ${field.type} field; a picker takes select, multi_select and boolean fields`);
	}

	const entries: PickerEntry[] = field.type === 'boolean'
		? [{value: true, label: 'Yes', none: false}, {value: false, label: 'No', none: false}]
		: (field.config.options ?? []).map(option => ({value: option.value, label: option.label, none: false}));
	if (!field.is_required) {
		entries.push({value: null, label: NONE_LABEL, none: true});
	}

	return entries;
}

/** A picker for `field` opened on its current value (on "none" when it has none, else on the first entry). */
export function openPicker(field: Field, current: unknown): PickerState {
	const entries = pickerEntries(field);
	const multiple = field.type === 'multi_select';
	const checked = multiple && Array.isArray(current) ? entries.filter(entry => !entry.none && current.includes(entry.value)).map(entry => entry.value as string) : [];
	const empty = multiple ? checked.length === 0 : current === null || current === undefined;
	const isCurrent = (entry: PickerEntry) => (entry.none ? empty : multiple ? checked.includes(entry.value as string) : entry.value === current);
	const cursor = Math.max(0, entries.findIndex(entry => isCurrent(entry)));
	return {key: field.key, multiple, entries, cursor, typed: '', checked};
}

/** Moves the cursor `delta` entries, wrapping around; ends any typed prefix. */
export function movePicker(state: PickerState, delta: number): PickerState {
	const count = state.entries.length;
	return {...state, cursor: (((state.cursor + delta) % count) + count) % count, typed: ''};
}

/** Multiple choice: checks or unchecks the entry under the cursor ("none" unchecks everything). */
export function togglePicker(state: PickerState): PickerState {
	const entry = state.entries[state.cursor]!;
	if (!state.multiple) {
		return state;
	}

	if (entry.none) {
		return {...state, checked: [], typed: ''};
	}

	const value = entry.value as string;
	const checked = state.checked.includes(value) ? state.checked.filter(other => other !== value) : [...state.checked, value];
	// Kept in option order, so the value written does not depend on the order of the clicks.
	const order = state.entries.map(other => other.value);
	return {...state, checked: checked.sort((a, b) => order.indexOf(a) - order.indexOf(b)), typed: ''};
}

/** The value choosing now writes: the entry under the cursor, or the checked set of a multiple choice. */
export function choosePicker(state: PickerState): {value: unknown} {
	if (state.multiple) {
		return {value: [...state.checked]};
	}

	return {value: state.entries[state.cursor]!.value};
}

/**
 * A typed character: with nothing typed yet, `1`–`9` pick that entry (multiple choice: toggle it);
 * anything else extends the typed prefix and jumps to the first entry it starts.
 */
export function typeInPicker(state: PickerState, character: string): PickerStep {
	if (state.typed === '' && /^[1-9]$/.test(character)) {
		return pickNth(state, Number(character));
	}

	const prefix = state.typed + character;
	const found = firstStartingWith(state.entries, prefix);
	if (found >= 0) {
		return {state: {...state, cursor: found, typed: prefix}};
	}

	// The typed prefix matches nothing: the character starts a new one, as in a file list.
	const again = state.typed === '' ? -1 : firstStartingWith(state.entries, character);
	if (again >= 0) {
		return {state: {...state, cursor: again, typed: character}};
	}

	return {state, notice: `no choice starts with ${JSON.stringify(prefix)}; type the start of a label or value, or ${numbers(state)} to pick by number`};
}

/** Backspace: the typed prefix loses its last character and the cursor goes where the rest points. */
export function eraseInPicker(state: PickerState): PickerState {
	const typed = [...state.typed].slice(0, -1).join('');
	const found = typed === '' ? -1 : firstStartingWith(state.entries, typed);
	return {...state, typed, cursor: found >= 0 ? found : state.cursor};
}

function pickNth(state: PickerState, n: number): PickerStep {
	if (n > state.entries.length) {
		return {state, notice: `no choice ${n}; pick with ${numbers(state)}`};
	}

	const moved = {...state, cursor: n - 1, typed: ''};
	if (state.multiple) {
		return {state: togglePicker(moved)};
	}

	return {state: moved, chosen: choosePicker(moved)};
}

/** The digits that pick something: `1–4` (at most `1–9`), or `1` for a list of one. */
const numbers = (state: PickerState) => {
	const last = Math.min(9, state.entries.length);
	return last === 1 ? '1' : `1–${last}`;
};

function firstStartingWith(entries: PickerEntry[], prefix: string): number {
	const lower = prefix.toLowerCase();
	const byLabel = entries.findIndex(entry => entry.label.toLowerCase().startsWith(lower));
	return byLabel >= 0 ? byLabel : entries.findIndex(entry => entry.value !== null && String(entry.value).toLowerCase().startsWith(lower));
}
