// A column map inferred from a table's data, for CSV and JSON Lines without --map: each column's
// type is the narrowest its non-empty cells all fit. The result is shown by --dry-run and written
// by --schema-out, so a person can correct it before importing.

import {keyOf, type ColumnMap, type ColumnSpec} from './column-map.js';
import type {Table} from './tabular.js';

/** A column with at most this many distinct values (and values repeating) is a select. */
export const MAX_SELECT_OPTIONS = 20;
/** Past this length, or with a line break, text is long text. */
const LONG_TEXT = 200;
const LIST_SEPARATORS = [';', '|', ','] as const;

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const BOOLEAN = /^(true|false|yes|no)$/i;
const URL = /^https?:\/\/\S+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const realDate = (text: string) => {
	const date = new Date(`${text}T00:00:00Z`);
	return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
};

/** Few distinct values, each seen more than once on average: a choice, not free text. */
const fewDistinct = (values: string[]) => {
	const distinct = new Set(values).size;
	return distinct <= MAX_SELECT_OPTIONS && distinct * 2 <= values.length;
};

/** The separator of a delimited list column: one that splits some cell, into few distinct parts that repeat. */
function listSeparator(cells: string[]): string | undefined {
	for (const separator of LIST_SEPARATORS) {
		if (!cells.some(cell => cell.includes(separator))) continue;
		const parts = cells.flatMap(cell => cell.split(separator).map(part => part.trim()).filter(part => part !== ''));
		if (parts.length > 0 && new Set(parts).size <= MAX_SELECT_OPTIONS * 2 && new Set(parts).size * 2 <= parts.length && !cells.some(cell => cell.length > LONG_TEXT || cell.includes('\n'))) {
			return separator;
		}
	}

	return undefined;
}

/** The type of one column from its non-empty cells. */
export function inferColumn(cells: unknown[]): Omit<ColumnSpec, 'key'> {
	const present = cells.filter(cell => cell !== undefined && cell !== null && cell !== '' && !(Array.isArray(cell) && cell.length === 0));
	if (present.length === 0) return {type: 'text'};
	// JSON Lines: the JSON type says most of it.
	if (present.every(cell => typeof cell === 'boolean')) return {type: 'boolean'};
	if (present.every(cell => typeof cell === 'number')) return present.every(cell => Number.isInteger(cell)) ? {type: 'number', config: {integer: true}} : {type: 'number'};
	if (present.every(cell => Array.isArray(cell) && cell.every(part => typeof part === 'string'))) {
		// Lists of short names are choices (labels); lists of passages (comments) are long text.
		const parts = (present as string[][]).flat();
		const distinct = new Set(parts).size;
		return parts.every(part => part.length <= 100 && !part.includes('\n')) && distinct <= MAX_SELECT_OPTIONS * 2 && distinct * 2 <= parts.length ? {type: 'multi_select'} : {type: 'text', config: {long: true}};
	}

	if (present.some(cell => typeof cell !== 'string')) return {type: 'json'};
	const texts = present as string[];
	if (texts.every(text => BOOLEAN.test(text.trim()))) return {type: 'boolean'};
	if (texts.every(text => NUMBER.test(text.trim()))) return texts.every(text => INTEGER.test(text.trim())) ? {type: 'number', config: {integer: true}} : {type: 'number'};
	// A date-time column is kept as its calendar day (the store's dates are days).
	if (texts.every(text => (DATE.test(text) || DATE_TIME.test(text)) && realDate(text.slice(0, 10)))) return {type: 'date'};
	if (texts.every(text => URL.test(text))) return {type: 'url'};
	if (texts.every(text => EMAIL.test(text) && text.length <= 254)) return {type: 'email'};
	if (fewDistinct(texts) && texts.every(text => text.length <= 100 && !text.includes('\n'))) return {type: 'select'};
	const separator = listSeparator(texts);
	if (separator !== undefined) return {type: 'multi_select', ...(separator === ',' ? {} : {separator})};
	return texts.some(text => text.length > LONG_TEXT || text.includes('\n')) ? {type: 'text', config: {long: true}} : {type: 'text'};
}

/** Distinct and present in every row: a column rows can be matched on (--into --key). */
const isKeyLike = (cells: unknown[]) => cells.length > 0 && cells.every(cell => cell !== undefined && cell !== null && cell !== '' && (typeof cell === 'string' || typeof cell === 'number')) && new Set(cells).size === cells.length;

/** A column name that says it identifies the row: ID, Key, Issue key, Number, #, … */
const ID_NAME = /(^|[\s_-])(id|key|number|no|#|ref|identifier)$/i;

/**
 * The inferred map: every column, its key from its name, its type from its cells. One key-like
 * column (distinct and present in every row) is unique, the one rows are matched on with --into:
 * the first whose name says it is an id, else the first.
 */
export function inferColumnMap(table: Table, channel: {id: string; name: string}): ColumnMap {
	const taken = new Set<string>();
	const columns: ColumnMap['columns'] = {};
	const keyLike: string[] = [];
	for (const column of table.columns) {
		const cells = table.rows.map(row => row.cells[column]);
		const spec: ColumnSpec = {key: keyOf(column, taken), ...inferColumn(cells)};
		if ((spec.type === 'text' || (spec.type === 'number' && spec.config?.integer === true)) && !spec.config?.long && isKeyLike(cells)) keyLike.push(column);
		columns[column] = spec;
	}

	const unique = keyLike.find(column => ID_NAME.test(column.trim())) ?? keyLike[0];
	if (unique !== undefined) columns[unique] = {...columns[unique]!, unique: true, required: true};
	// A creation column of full date-times gives each item its created_at (its time, not only its day).
	const created = table.columns.find(column => /^(created|created[ _]?at|creation date|date created)$/i.test(column) && table.rows.length > 0 && table.rows.every(row => typeof row.cells[column] === 'string' && DATE_TIME.test(row.cells[column])));
	return {channel, ...(created === undefined ? {} : {created_at: created}), columns};
}
