// Previews: the short form of an item that pages carry (docs/reference.md#agent-tools). One
// definition for both backends, the CLI, the TUI and the agent: a page of 50 must stay small
// enough for an agent to read whole, and read_record_item gives the full item.

import type {LoadedChannel} from './channels.js';
import {computeFormulas} from './items.js';
import {cutCodePoints} from './text.js';
import type {Field, Values} from './types.js';

/** The most characters any one preview value takes. */
export const PREVIEW_TEXT_LENGTH = 120;

const ELLIPSIS = '…';
const cut = (text: string, limit = PREVIEW_TEXT_LENGTH) => cutCodePoints(text, limit);
const jsonLength = (value: unknown) => JSON.stringify(value).length;

/** A list (multi_select) cut to the entries that fit, then "…" as its last entry, so the cut shows. */
function cutList(list: unknown[]): unknown[] {
	const kept: unknown[] = [];
	for (const entry of list) {
		const next = [...kept, cutValue(entry), ELLIPSIS];
		if (jsonLength(next) > PREVIEW_TEXT_LENGTH) break;
		kept.push(next.at(-2));
	}

	return [...kept, ELLIPSIS];
}

/** An object (a file's {name, url}): its text members share the 120 characters evenly. */
function cutObject(object: Record<string, unknown>): Record<string, unknown> {
	const members = Object.entries(object);
	const share = Math.max(1, Math.floor(PREVIEW_TEXT_LENGTH / Math.max(1, members.length)));
	return Object.fromEntries(members.map(([key, value]) => [key, typeof value === 'string' ? cut(value, share) : value]));
}

/**
 * Every value is cut to 120 characters, whatever its type: text by code points with an ellipsis,
 * a list or an object (as JSON) when it runs longer. Numbers and booleans are always shorter.
 */
function cutValue(value: unknown): unknown {
	if (typeof value === 'string') return cut(value);
	if (value === null || typeof value !== 'object' || jsonLength(value) <= PREVIEW_TEXT_LENGTH) return value;
	return Array.isArray(value) ? cutList(value) : cutObject(value as Record<string, unknown>);
}

/** Fields a preview shows: not long text, not JSON blobs (read_record_item has them). */
const previewed = (field: Field) => !field.config.long && field.type !== 'json';

/**
 * A preview from an item's values (formulas already computed): empty (null or absent) values
 * left out, every other value cut to 120 characters.
 */
export function previewValues(fields: readonly Field[], values: Values): Values {
	const preview: Values = {};
	for (const field of fields) {
		const value = values[field.key];
		if (previewed(field) && value !== undefined && value !== null) {
			preview[field.key] = cutValue(value);
		}
	}

	return preview;
}

/** A preview from a stored row: its formulas computed as of now, then previewValues. */
export function previewOf(channel: LoadedChannel, stored: Values, createdAt: string): Values {
	return previewValues(channel.fields, {...stored, ...computeFormulas(channel, stored, createdAt)});
}

/** One part of a long text: `limit` code points from `offset`, and the text's whole length in code points. */
export type TextPart = {part: string; length: number; next_offset: number | null};

/**
 * Long text read in bounded parts (read_record_item): offsets and lengths count code points, as
 * every cut here does, so a part never halves a character and parts join back to the text.
 */
export function textPart(text: string, offset: number, limit: number): TextPart {
	const points = Array.from(text);
	const end = Math.min(points.length, offset + limit);
	return {part: points.slice(Math.min(offset, points.length), end).join(''), length: points.length, next_offset: end < points.length ? end : null};
}
