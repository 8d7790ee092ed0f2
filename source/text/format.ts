// A value as display segments (option labels in their colors, raw values dimmed); counts with their
// nouns, thousands separated without ICU (`thousands`)

import type {Field, SelectOption} from '../../store/index.js';
import {sanitize, sanitizeValue} from './sanitize.js';

/** A piece of a rendered value. `raw`: a value no option matches, shown dimmed as the raw value. */
export type Segment = {text: string; color?: string; raw?: boolean};

const optionOf = (field: Field, value: unknown): SelectOption | undefined => field.config.options?.find(option => option.value === value);

function numberText(field: Field, value: number): string {
	switch (field.type) {
		case 'currency': {
			return `${value.toFixed(2)}${field.config.currency ? ` ${sanitize(field.config.currency)}` : ''}`;
		}

		case 'percentage': {
			return `${value}%`;
		}

		case 'rating': {
			const stars = field.config.max_stars ?? 5;
			return Number.isInteger(value) && value >= 0 && value <= stars ? '★'.repeat(value) + '☆'.repeat(stars - value) : String(value);
		}

		default: {
			return String(value);
		}
	}
}

/** A related record's name (its ticket) by its id, when known; a relation shows its id otherwise. */
export type RelationNames = (id: string) => string | undefined;

/**
 * How a stored value reads to a person, as safe segments: select values as labels in their color,
 * a relation as the related record's name when `names` knows it (a duplicate_of by its ticket).
 */
export function formatValue(field: Field, value: unknown, names?: RelationNames): Segment[] {
	if (value === null || value === undefined) {
		return [];
	}

	switch (field.type) {
		case 'select': {
			const option = optionOf(field, value);
			return option ? [{text: sanitize(option.label), color: option.color}] : [{text: sanitizeValue(value), raw: true}];
		}

		case 'multi_select': {
			if (!Array.isArray(value)) {
				return [{text: sanitizeValue(value), raw: true}];
			}

			const segments: Segment[] = [];
			for (const [index, entry] of value.entries()) {
				if (index > 0) {
					segments.push({text: ', '});
				}

				const option = optionOf(field, entry);
				segments.push(option ? {text: sanitize(option.label), color: option.color} : {text: sanitizeValue(entry), raw: true});
			}

			return segments;
		}

		case 'boolean': {
			return typeof value === 'boolean' ? [{text: value ? 'yes' : 'no'}] : [{text: sanitizeValue(value), raw: true}];
		}

		case 'number':
		case 'currency':
		case 'percentage':
		case 'rating': {
			return typeof value === 'number' ? [{text: numberText(field, value)}] : [{text: sanitizeValue(value), raw: true}];
		}

		case 'formula': {
			return [{text: typeof value === 'number' ? String(Math.round(value * 100) / 100) : sanitizeValue(value)}];
		}

		case 'relation': {
			const name = typeof value === 'string' ? names?.(value) : undefined;
			return [{text: name === undefined ? sanitizeValue(value) : sanitize(name)}];
		}

		case 'file': {
			const name = typeof value === 'object' && value !== null ? (value as {name?: unknown}).name : undefined;
			return [{text: typeof name === 'string' ? sanitize(name) : sanitizeValue(value)}];
		}

		default: {
			return [{text: sanitizeValue(value)}];
		}
	}
}

/** The whole value as one plain line (for messages, inputs, widths and the command line). */
export const plainValue = (field: Field, value: unknown): string => formatValue(field, value).map(segment => segment.text).join('');

/** Fields fit for one row: no long text, no JSON blobs. */
export const shortFields = (fields: Field[]) => fields.filter(field => !field.config.long && field.type !== 'json');

/** The noun that agrees with `count`: "item" for 1, "items" for everything else. */
export const nounFor = (count: number, noun: string, plural = `${noun}s`) => (count === 1 ? noun : plural);

/**
 * A count as en-US writes it, 1,234,567: every count shown goes through it. Not toLocaleString:
 * its first call loads ICU's number formats, ~13 ms of the TUI's start (docs/architecture.md#start-up).
 */
export function thousands(count: number): string {
	if (!Number.isSafeInteger(count)) return count.toLocaleString('en-US');
	return String(count).replaceAll(/\B(?=(?:\d{3})+$)/g, ',');
}

/**
 * "3 proposed (not applied)": a propose-mode run's valid edits, kept as proposals for a person
 * (docs/review.md). The one wording of run steps, summaries and history: nothing of them was written.
 */
export const proposedNotApplied = (count: number) => `${thousands(count)} proposed (not applied)`;

/** "1 edit", "2 edits", "0 follow-ups": a count with its noun. Every count in a message goes through it. */
export const counted = (count: number, noun: string, plural = `${noun}s`) => `${thousands(count)} ${nounFor(count, noun, plural)}`;

/** Text that holds JSON as the value it spells; any other text as it is (for the store to judge). */
export function jsonOrText(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}
