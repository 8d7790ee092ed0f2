/**
 * Dates written relative to a day (docs/reference.md#query-language): `today`, `tomorrow`,
 * `yesterday`, `+Nd`, `-Nd`, `+Nw`, `-Nw`, or an ISO calendar date. Pure: the day they count
 * from is given. Shared by the query language and the TUI's date input.
 */

import {isCalendarDate} from '../fields/structured.js';

export {DATE_FORMS} from '../fields/structured.js';
export {orList} from '../text.js';

const RELATIVE_DATE = /^([+-])(\d{1,5})([dw])$/;
const NAMED: Record<string, number> = {today: 0, tomorrow: 1, yesterday: -1};

/** `text` as YYYY-MM-DD, counted from the local calendar day of `now`; null when it is none of DATE_FORMS. */
export function resolveDate(text: string, now: Date): string | null {
	const lower = text.toLowerCase();
	if (isCalendarDate(lower)) {
		return lower;
	}

	if (Object.hasOwn(NAMED, lower)) {
		return localDay(now, NAMED[lower]!);
	}

	const relative = RELATIVE_DATE.exec(lower);
	if (!relative) {
		return null;
	}

	const days = Number(relative[2]) * (relative[3] === 'w' ? 7 : 1);
	return localDay(now, relative[1] === '-' ? -days : days);
}

/** The local calendar day `offset` days from `now`, as YYYY-MM-DD. */
export function localDay(now: Date, offset = 0): string {
	const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset);
	const pad = (n: number) => String(n).padStart(2, '0');
	return `${String(day.getFullYear()).padStart(4, '0')}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}
