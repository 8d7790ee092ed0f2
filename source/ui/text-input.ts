import type {Key} from '#ink';
import {sanitize} from '../text/sanitize.js';

/**
 * A one-line text being edited: the value and the caret (in UTF-16 units). `selected`: the whole
 * value is selected, as a spreadsheet cell is: the first key typed replaces it.
 */
export type TextState = {value: string; pos: number; selected?: boolean};

export const textState = (value = '', selected = false): TextState => (selected && value !== '' ? {value, pos: value.length, selected} : {value, pos: value.length});

/**
 * Applies one keypress to a text. Enter and Esc are the caller's (they submit or cancel);
 * typed or pasted text is inserted with control characters removed.
 */
export function applyTextKey(state: TextState, input: string, key: Key): TextState {
	if (state.selected) return applyToSelected(state, input, key);
	const {value, pos} = state;
	if (key.leftArrow) return {value, pos: Math.max(0, pos - 1)};
	if (key.rightArrow) return {value, pos: Math.min(value.length, pos + 1)};
	if (key.home || (key.ctrl && input === 'a')) return {value, pos: 0};
	if (key.end || (key.ctrl && input === 'e')) return {value, pos: value.length};
	if (key.ctrl && input === 'u') return {value: value.slice(pos), pos: 0};
	if (key.ctrl && input === 'k') return {value: value.slice(0, pos), pos};
	if (key.ctrl && input === 'w') {
		const before = value.slice(0, pos).replace(/\S+\s*$/, '');
		return {value: before + value.slice(pos), pos: before.length};
	}

	if (key.backspace || key.delete) {
		return pos === 0 ? state : {value: value.slice(0, pos - 1) + value.slice(pos), pos: pos - 1};
	}

	if (key.ctrl || key.meta || key.upArrow || key.downArrow || key.tab || key.pageDown || key.pageUp || key.return || key.escape) {
		return state;
	}

	// Pasted text may carry newlines or escapes: keep only printable characters.
	const typed = input.replaceAll(/[\r\n\t]+/g, ' ').replaceAll(/[\u0000-\u001f\u007f-\u009f]/g, '');
	if (!typed) return state;
	return {value: value.slice(0, pos) + typed + value.slice(pos), pos: pos + typed.length};
}

/** A key on a selected value: typing replaces it, Backspace clears it, a caret move keeps it and starts editing. */
function applyToSelected(state: TextState, input: string, key: Key): TextState {
	const plain = {value: state.value, pos: state.pos};
	if (key.backspace || key.delete) return textState();
	const replaced = applyTextKey(textState(), input, key);
	return replaced.value === '' ? applyTextKey(plain, input, key) : replaced;
}

/** The text split around the caret, escaped for display (a selected value is all `at`, drawn inverse). */
export function caretParts(state: TextState): {before: string; at: string; after: string} {
	if (state.selected) return {before: '', at: sanitize(state.value), after: ''};
	const at = state.value.slice(state.pos, state.pos + 1);
	return {before: sanitize(state.value.slice(0, state.pos)), at: at ? sanitize(at) : ' ', after: sanitize(state.value.slice(state.pos + 1))};
}
