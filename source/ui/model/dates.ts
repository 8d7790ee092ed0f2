/**
 * What a person may type into a date field: the query language's dates (store/query/dates.ts:
 * YYYY-MM-DD, today, tomorrow, yesterday, +Nd, -Nd, +Nw, -Nw) plus weekday names. Pure: the day
 * they count from is given, and the result is the ISO date the screen shows before the edit commits.
 *
 * - `friday` (or `fri`): the next Friday after today, 1 to 7 days ahead (today is `today`).
 * - `next friday`: the Friday of next week, weeks starting on Monday (ISO 8601).
 */

import {DATE_FORMS, localDay, orList, resolveDate} from '../../../store/index.js';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Every form a date field takes, as refusals name them. */
export const DATE_INPUT_FORMS = [...DATE_FORMS, 'a weekday (friday, fri)', 'next WEEKDAY'];

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
