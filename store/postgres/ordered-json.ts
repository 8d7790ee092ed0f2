/**
 * Key order of stored values on PostgreSQL. Items' `data` is jsonb, which keeps object keys in its
 * own order (shortest first), so a json field's {"b":1,"a":2} would read back as {"a":2,"b":1},
 * unlike on SQLite. The least invasive fix keeps the column (its indexes and operators) and stores
 * each top-level value that holds an object anywhere as its JSON text, wrapped in a marker object
 * jsonb cannot reorder: {"$sift_json": "<text>"}. Lists of scalars (multi_select) and scalars are
 * kept as they are, so every query and index reads them as before. Every jsonb read is unwrapped
 * (the pool's type parser, store/postgres/connect.ts); values stored before the fix read as they
 * were stored. A value the caller wrote as such a marker is itself wrapped, so it reads back as written.
 */

import type {Values} from '../types.js';

const MARKER = '$sift_json';

/** Whether `value` holds a (non-array) object at any depth: jsonb would reorder its keys. */
function holdsObject(value: unknown): boolean {
	if (value === null || typeof value !== 'object') return false;
	if (!Array.isArray(value)) return true;
	return value.some(element => holdsObject(element));
}

/** One stored value as jsonb keeps it in order: wrapped when it holds an object. */
export const orderedValue = (value: unknown): unknown => (holdsObject(value) ? {[MARKER]: JSON.stringify(value)} : value);

/** Stored values as the JSON text an items.data parameter takes, each value in order (orderedValue). */
export function orderedDataText(stored: Values): string {
	const kept: Record<string, unknown> = {};
	for (const key of Object.keys(stored)) kept[key] = orderedValue(stored[key]);
	return JSON.stringify(kept);
}

const isMarker = (value: unknown): value is Record<typeof MARKER, string> => {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
	const keys = Object.keys(value);
	return keys.length === 1 && keys[0] === MARKER && typeof (value as Record<string, unknown>)[MARKER] === 'string';
};

/** A parsed jsonb object with its wrapped top-level values unwrapped (a value read alone unwrapped too; anything else as it is). */
export function unwrapValues<T>(parsed: T): T {
	if (isMarker(parsed)) return JSON.parse(parsed[MARKER]) as T;
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return parsed;
	for (const [key, value] of Object.entries(parsed)) {
		if (isMarker(value)) (parsed as Record<string, unknown>)[key] = JSON.parse(value[MARKER]);
	}

	return parsed;
}

/** The type parser of jsonb columns: JSON, with stored values unwrapped. */
export const parseJsonb = (text: string): unknown => (text.includes(`"${MARKER}"`) ? unwrapValues(JSON.parse(text)) : JSON.parse(text));
