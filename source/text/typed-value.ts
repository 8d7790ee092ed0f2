/**
 * What a person types as a field's value, read one way for the TUI (a field's input, `:set`, the
 * follow-up queue) and the command line (`sift edit`, `sift add`):
 * - a date field takes the query language's dates (store/query/dates.ts: YYYY-MM-DD, today,
 *   tomorrow, yesterday, +Nd, -Nd, +Nw, -Nw) plus weekday names, counted from a given day:
 *   `friday` (or `fri`) is the next Friday after today, 1 to 7 days ahead; `next friday` the
 *   Friday of next week, weeks starting on Monday (ISO 8601);
 * - a select takes an option's value or its label (any case); a multi_select a comma list of them;
 * - numbers, booleans and JSON as parseTyped reads them; `none` clears.
 * Anything else goes to the store as typed, which refuses it with the allowed values. Pure.
 */

import {localDay, optionNamed, orList, resolveDate, TYPED_DATE_FORMS, type Field} from '../../store/index.js';
import {jsonOrText} from './format.js';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Every form a date field takes, as refusals name them. */
export const DATE_INPUT_FORMS = TYPED_DATE_FORMS;

export type DateInput = {ok: true; date: string} | {ok: false; message: string};

/** The weekday `name` names (0 = Monday), by its full name or its first three letters. */
function weekday(name: string): number | undefined {
	const index = WEEKDAYS.findIndex(day => day === name || (name.length === 3 && day.startsWith(name)));
	return index === -1 ? undefined : index;
}

/** `text` as an ISO date counted from the local calendar day of `now`, or a refusal naming every form. */
export function resolveDateInput(text: string, now: Date): DateInput {
	const words = text.trim().toLowerCase().split(/\s+/);
	const shared = words.length === 1 ? resolveDate(words[0]!, now) : null;
	if (shared !== null) {
		return {ok: true, date: shared};
	}

	const next = words.length === 2 && words[0] === 'next';
	const day = words.length === 1 || next ? weekday(words.at(-1)!) : undefined;
	if (day !== undefined) {
		const today = (now.getDay() + 6) % 7;
		// Next week's day counts from next Monday; a bare weekday is the first one after today.
		const offset = next ? 7 - today + day : ((day - today + 6) % 7) + 1;
		return {ok: true, date: localDay(now, offset)};
	}

	const shown = text.trim() === '' ? 'nothing' : JSON.stringify(text.trim());
	return {ok: false, message: `not a date: ${shown}; use ${orList(DATE_INPUT_FORMS)}`};
}

/**
 * What a person typed, as the value sent to the store. Numbers for number-like fields when the
 * text is a plain number; JSON for structured fields when it parses; otherwise the text exactly
 * as typed, so the store can refuse "20 points" or "Friday" with its own message. Empty clears.
 */
export function parseTyped(field: Field, text: string): unknown {
	if (text === '') {
		return null;
	}

	switch (field.type) {
		case 'number':
		case 'currency':
		case 'percentage':
		case 'rating': {
			return /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text.trim()) && text.trim() === text ? Number(text) : text;
		}

		case 'boolean': {
			return text === 'true' ? true : (text === 'false' ? false : text);
		}

		case 'json':
		case 'file':
		case 'multi_select': {
			return jsonOrText(text);
		}

		default: {
			return text;
		}
	}
}

export type TypedValue = {ok: true; value: unknown} | {ok: false; message: string};

/** A typed value for `field` (see the top of this file); a date that names no day is refused with every form. */
export function readTypedValue(field: Field, text: string, now: Date): TypedValue {
	if (text.trim().toLowerCase() === 'none') return {ok: true, value: field.type === 'multi_select' ? [] : null};
	if (field.type === 'date') {
		const date = resolveDateInput(text, now);
		return date.ok ? {ok: true, value: date.date} : {ok: false, message: `${field.key}: ${date.message}`};
	}

	if (field.type === 'select') return {ok: true, value: optionNamed(field, text)?.value ?? text};
	if (field.type === 'multi_select' && !text.startsWith('[')) {
		return {ok: true, value: text.split(',').map(part => optionNamed(field, part.trim())?.value ?? part.trim())};
	}

	return {ok: true, value: parseTyped(field, text)};
}
