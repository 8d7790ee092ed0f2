/**
 * ISO 8601 timestamps as the store accepts them from outside (an import's `created_at`): a
 * calendar date `YYYY-MM-DD`, or a date-time `YYYY-MM-DDTHH:MM[:SS[.fraction]]` with `Z` or an
 * offset `±HH:MM`. Everything else is refused, including what Date.parse would guess at (text in
 * parentheses, a bare "1", 2026-02-30).
 */

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):(\d{2})))?$/;

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysInMonth = (year: number, month: number) => (month === 2 && isLeapYear(year) ? 29 : MONTH_DAYS[month - 1]!);

/** Whether year, month (1–12) and day name a day on the calendar (no 2026-02-30). */
export const isCalendarDay = (year: number, month: number, day: number) => month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);

/** The timestamp in the store's form (`toISOString`: UTC, milliseconds), or undefined when it is not one. */
export function normalizeTimestamp(text: unknown): string | undefined {
	const match = typeof text === 'string' ? TIMESTAMP.exec(text) : null;
	if (!match) {
		return undefined;
	}

	const number = (group: number) => Number(match[group] ?? 0);
	const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map(group => number(group)) as [number, number, number, number, number, number];
	const [offsetHours, offsetMinutes] = [number(9), number(10)];
	if (!isCalendarDay(year, month, day)
		|| hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) {
		return undefined;
	}

	const milliseconds = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
	// setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
	const local = new Date(0);
	local.setUTCFullYear(year, month - 1, day);
	local.setUTCHours(hour, minute, second, milliseconds);
	const offset = (match[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
	const normalized = new Date(local.getTime() - offset).toISOString();
	// An offset can push the instant outside years 0000-9999, which toISOString writes as ±YYYYYY.
	return /^\d{4}-/.test(normalized) ? normalized : undefined;
}
