// Dates and date-times as trackers write them in their CSV exports, read as the calendar day a
// date field keeps and the ISO 8601 instant an item's created_at takes. Three forms:
// - ISO 8601: `2026-04-01`, `2026-04-01T12:14:14.596Z` (Linear today, spreadsheets);
// - Jira's default `10/Jan/26 11:19 AM` (also `30/Jul/18 23:33`): English month names, a
//   two-digit year, and no time zone, so the time is read as UTC (docs/records.md, Jira);
// - what JavaScript's Date#toString writes, `Mon Feb 06 2023 05:00:00 GMT+0000 (GMT)` (Linear's
//   exports before its ISO dates).
// Anything else, and a day that is not on the calendar (`31/Feb/26`), is not a date here.

import {isCalendarDay} from '../../store/index.js';

/** An ISO date-time with its zone, as the store takes it. */
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const JIRA = /^(\d{1,2})\/([A-Za-z]{3})\/(\d{2}|\d{4}) (\d{1,2}):(\d{2})(?: ?([AaPp][Mm]))?$/;
const DATE_STRING = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) (\d{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT([+-])(\d{2})(\d{2})(?: \([^()]*\))?$/;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

type Parts = {year: number; month: number; day: number; hour: number; minute: number; second: number; offsetMinutes: number};

const pad = (value: number, width = 2) => String(value).padStart(width, '0');
const monthOf = (name: string) => MONTHS.indexOf(name.toLowerCase()) + 1;

function onCalendar(parts: Parts): Parts | undefined {
	const {year, month, day, hour, minute, second} = parts;
	const real = isCalendarDay(year, month, day) && hour <= 23 && minute <= 59 && second <= 59;
	return real ? parts : undefined;
}

/** Jira's `dd/Mon/yy h:mm AM`: a two-digit year is 2000–2069 or 1970–1999; no zone, so UTC. */
function jiraParts(text: string): Parts | undefined {
	const match = JIRA.exec(text);
	if (!match) return undefined;
	const [, day, month, year, hour, minute, half] = match as unknown as [string, string, string, string, string, string, string | undefined];
	let hours = Number(hour);
	if (half !== undefined) {
		if (hours < 1 || hours > 12) return undefined;
		hours = (hours % 12) + (half.toLowerCase() === 'pm' ? 12 : 0);
	}

	const shortYear = Number(year);
	const fullYear = year.length === 4 ? shortYear : shortYear < 70 ? 2000 + shortYear : 1900 + shortYear;
	return onCalendar({year: fullYear, month: monthOf(month), day: Number(day), hour: hours, minute: Number(minute), second: 0, offsetMinutes: 0});
}

/** Date#toString's `Mon Feb 06 2023 05:00:00 GMT+0000 (GMT)`, its offset kept. */
function dateStringParts(text: string): Parts | undefined {
	const match = DATE_STRING.exec(text);
	if (!match) return undefined;
	const [, month, day, year, hour, minute, second, sign, offsetHours, offsetMinutes] = match as unknown as string[];
	const offset = (sign === '-' ? -1 : 1) * ((Number(offsetHours) * 60) + Number(offsetMinutes));
	return onCalendar({year: Number(year), month: monthOf(month!), day: Number(day), hour: Number(hour), minute: Number(minute), second: Number(second), offsetMinutes: offset});
}

const partsOf = (text: string) => jiraParts(text) ?? dateStringParts(text);

const realIsoDay = (text: string) => onCalendar({year: Number(text.slice(0, 4)), month: Number(text.slice(5, 7)), day: Number(text.slice(8, 10)), hour: 0, minute: 0, second: 0, offsetMinutes: 0}) !== undefined;

/** The calendar day a date or date-time names, as written (`YYYY-MM-DD`), or undefined when the text is neither. */
export function calendarDay(text: string): string | undefined {
	if ((ISO_DATE.test(text) || ISO_DATE_TIME.test(text)) && realIsoDay(text)) return text.slice(0, 10);
	const parts = partsOf(text);
	return parts && `${pad(parts.year, 4)}-${pad(parts.month)}-${pad(parts.day)}`;
}

/** A date-time with its time as an ISO 8601 instant the store takes as created_at (an ISO one as it is), or undefined. */
export function isoDateTime(text: string): string | undefined {
	if (ISO_DATE_TIME.test(text)) return realIsoDay(text) ? text : undefined;
	const parts = partsOf(text);
	if (!parts) return undefined;
	const local = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
	return new Date(local - (parts.offsetMinutes * 60_000)).toISOString();
}
