// Overdue dates: a due-like date field (due, a deadline, a target: not when something was created,
// updated or closed) whose day is before today reads as late, in the list and the record pane. Pure: "today" is given (the screen's clock, a test's fixed day), as a local ISO day.

import type {Field} from '../../store/index.js';
import {localDay} from '../../store/index.js';
import type {SpanStyle} from './spans.js';

/** How a late date is drawn: red, and bold so it still stands out without colors (NO_COLOR). */
export const OVERDUE_STYLE: SpanStyle = {color: 'red', bold: true};

/** Today as a local ISO day (YYYY-MM-DD), the form date fields hold. */
export const today = (now: number = Date.now()) => localDay(new Date(now), 0);

/** The words of a date field's key or label that make it a date something is due by. */
const DUE_WORDS = new Set(['due', 'deadline', 'target', 'eta', 'sla', 'expires', 'expiry', 'until']);

/** The words of a key or label: split at anything not a letter and at camelCase humps, lower case. */
const wordsOf = (text: string) => text.split(/[^A-Za-z]+|(?<=[a-z])(?=[A-Z])/).map(word => word.toLowerCase());

/** The words of a field's key and label: what its name says it holds. */
export const fieldWords = (field: Field) => [...wordsOf(field.key), ...wordsOf(field.label)];

/** A date field that says when something is due (its key's or label's words), not when something happened. */
export const isDueLike = (field: Field) => field.type === 'date' && fieldWords(field).some(word => DUE_WORDS.has(word));

/** True when `value`, a value of a due-like `field`, is a date before `day` (YYYY-MM-DD). */
export function isOverdue(field: Field, value: unknown, day: string): boolean {
	return isDueLike(field) && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) && value.slice(0, 10) < day;
}
