// Overdue dates: a date field whose day is before today reads as late, in the list and the record
// pane. Pure: "today" is given (the screen's clock, a test's fixed day), as a local ISO day.

import type {Field} from '../../store/index.js';
import {localDay} from '../../store/index.js';
import type {SpanStyle} from './spans.js';

/** How a late date is drawn: red, and bold so it still stands out without colors (NO_COLOR). */
export const OVERDUE_STYLE: SpanStyle = {color: 'red', bold: true};

/** Today as a local ISO day (YYYY-MM-DD), the form date fields hold. */
export const today = (now: number = Date.now()) => localDay(new Date(now), 0);

/** True when `value`, a value of `field`, is a date before `day` (YYYY-MM-DD). */
export function isOverdue(field: Field, value: unknown, day: string): boolean {
	return field.type === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) && value.slice(0, 10) < day;
}
