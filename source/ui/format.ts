import type {Field} from '../../store/index.js';
import {plainValue, shortFields, type RelationNames} from '../text/format.js';
import {fieldWords} from './overdue.js';
import {cellWidth} from './width.js';

/** A value as the text a person edits: strings as they are, everything else as JSON. */
export function editableText(value: unknown): string {
	if (value === null || value === undefined) {
		return '';
	}

	if (typeof value === 'string') {
		return value;
	}

	return JSON.stringify(value);
}

/** A column of the list: the field and its width in cells (the flexible one gets the rest). */
export type Column = {field: Field; width: number; flex: boolean};

const PRIORITY: Record<string, number> = {
	select: 2,
	number: 3,
	rating: 3,
	percentage: 3,
	currency: 3,
	date: 4,
	boolean: 4,
	formula: 5,
	email: 6,
	phone: 7,
	url: 7,
	relation: 8,
	text: 6,
	multi_select: 6,
};

/**
 * The words of a field's key or label that make it one a triager reads on every row: who has it,
 * who raised it, what it is tagged with (a GitHub channel's assignees, author and labels). Such a
 * field goes before the selects, numbers and dates of the same schema.
 */
const TRIAGE_WORDS = new Set(['label', 'labels', 'tag', 'tags', 'assignee', 'assignees', 'author', 'owner', 'owners', 'reporter']);
const TRIAGE_TYPES = new Set<Field['type']>(['text', 'select', 'multi_select']);

/** A field's rank among the columns that compete for room: lower is chosen first. */
function columnRank(field: Field): number {
	if (TRIAGE_TYPES.has(field.type) && fieldWords(field).some(word => TRIAGE_WORDS.has(word))) return 1;
	return PRIORITY[field.type] ?? 9;
}

function naturalWidth(field: Field): number {
	const header = field.label.length;
	switch (field.type) {
		case 'select':
		case 'multi_select': {
			const widest = Math.max(0, ...(field.config.options ?? []).map(option => option.label.length));
			return Math.min(14, Math.max(header, widest, 3));
		}

		case 'number':
		case 'percentage':
		case 'formula': {
			return Math.max(header, 4);
		}

		case 'currency': {
			return Math.max(header, 10);
		}

		case 'rating': {
			return Math.max(header, field.config.max_stars ?? 5);
		}

		case 'date': {
			return 10;
		}

		case 'boolean': {
			return Math.max(header, 3);
		}

		case 'email':
		case 'url':
		case 'phone':
		case 'relation': {
			return 18;
		}

		default: {
			return Math.min(16, Math.max(header, field.config.max_length ?? 16));
		}
	}
}


/** The widest a column sized to its values gets: one odd value does not take the list. */
const MAX_VALUES_WIDTH = 24;

/**
 * The cells the widest of `rows`' values of `field` takes, and at least its label's; undefined
 * with no rows (the column then takes its type's width).
 */
export function valuesWidth(field: Field | undefined, rows: ReadonlyArray<{preview: Record<string, unknown>}>): number | undefined {
	if (!field || rows.length === 0) return undefined;
	let widest = cellWidth(field.label);
	for (const row of rows) widest = Math.max(widest, cellWidth(plainValue(field, row.preview[field.key])));
	return Math.min(MAX_VALUES_WIDTH, widest);
}

/**
 * Columns for a list of `width` cells, chosen from the schema: the identifying text fields first
 * (a unique one, then the first other text field, which flexes), then the triage fields (people
 * and labels: columnRank), selects, numbers, dates… as many as fit, shown in schema order. The unique one (the ticket) is as wide as `keyWidth`,
 * its values' width (valuesWidth), when given. The columns never take more than `width`.
 */
export function chooseColumns(fields: Field[], width: number, gap = 1, keyWidth?: number): Column[] {
	const short = shortFields(fields);
	const texts = short.filter(field => field.type === 'text');
	const key = texts.find(field => field.is_unique);
	const flexField = texts.find(field => field !== key) ?? key ?? short[0];
	const chosen = new Map<Field, number>();
	const keyCells = key && key !== flexField ? Math.max(1, Math.min(keyWidth ?? Math.min(naturalWidth(key), 14), width - gap - 1)) : 0;
	// On a narrow terminal the flexible column takes what the key leaves.
	const minFlex = Math.max(1, Math.min(Math.max(16, Math.floor(width * 0.3)), width - (keyCells > 0 ? keyCells + gap : 0)));
	let used = minFlex + gap;
	if (key && key !== flexField) {
		chosen.set(key, keyCells);
		used += keyCells + gap;
	}

	const rest = short
		.filter(field => field !== key && field !== flexField)
		.map((field, index) => ({field, index, rank: columnRank(field)}))
		.sort((a, b) => a.rank - b.rank || a.index - b.index);
	for (const {field} of rest) {
		const natural = naturalWidth(field);
		if (used + natural + gap <= width) {
			chosen.set(field, natural);
			used += natural + gap;
		}
	}

	const columns: Column[] = [];
	for (const field of short) {
		if (field === flexField) {
			columns.push({field, width: Math.max(minFlex, width - used + minFlex), flex: true});
		} else if (chosen.has(field)) {
			columns.push({field, width: chosen.get(field)!, flex: false});
		}
	}

	return columns;
}

/** A list row's preview from a full item, exactly as the store's pages make it. */
export {previewValues as previewFromValues} from '../../store/index.js';

/** The field that names a record in messages: a unique text field (a ticket), else none. */
export const nameField = (fields: Field[]) => fields.find(field => field.type === 'text' && field.is_unique && !field.config.long);

/** The field that describes a record: the first other short text field (a title). */
export const titleField = (fields: Field[]) => {
	const name = nameField(fields);
	return fields.find(field => field.type === 'text' && field !== name && !field.config.long);
};

const namesByRows = new WeakMap<ReadonlyArray<{id: string; preview: Record<string, unknown>}>, RelationNames>();

/**
 * Related records' names from the loaded rows (a duplicate_of shows its target's ticket), one
 * resolver per listing, so a pane built with it is built again only when the rows change.
 */
export function relationNames(fields: Field[], rows: ReadonlyArray<{id: string; preview: Record<string, unknown>}>): RelationNames {
	const kept = namesByRows.get(rows);
	if (kept) return kept;
	const key = nameField(fields)?.key;
	const byId = new Map<string, string>();
	if (key) {
		for (const row of rows) {
			const name = row.preview[key];
			if (typeof name === 'string' && name) byId.set(row.id, name);
		}
	}

	const names: RelationNames = id => byId.get(id);
	namesByRows.set(rows, names);
	return names;
}
