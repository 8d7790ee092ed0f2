// A column map inferred from a table's data, for CSV and JSON Lines without --map: each column's
// type is the narrowest its non-empty cells all fit. The cells are seen one at a time as the file
// streams by (ColumnSurvey keeps counters and a few capped sets, never the cells), so every row
// counts however large the file. The result is shown by --dry-run and written by --schema-out, so a
// person can correct it before importing.

import {cleanText} from './clean-text.js';
import {keyOf, type ColumnMap, type ColumnSpec} from './column-map.js';
import {calendarDay} from './date-time.js';

/** A column with at most this many distinct values (and values repeating) is a select. */
export const MAX_SELECT_OPTIONS = 20;
/** Past this length, or with a line break, text is long text. */
const LONG_TEXT = 200;
const LIST_SEPARATORS = [';', '|', ','] as const;
/**
 * Whether a column is key-like (distinct in every row) is judged on the first rows only, so the
 * survey never holds a whole column; the import then checks the key is unique in every row and
 * refuses a duplicate naming its line.
 */
export const KEY_SAMPLE_ROWS = 10_000;

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;
const BOOLEAN = /^(true|false|yes|no)$/i;
const URL = /^https?:\/\/\S+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Whether text reads as a number and back without losing a character: `1.10`, `3.0`, `01234`,
 * `+5` and an integer past 2^53 would not (a version, a zip code, a database id), so they stay text.
 */
const isExactNumber = (text: string) => String(Number(text)) === text;

/**
 * The shapes a column of texts may all have, narrowest first: the first every text fits gives the
 * column's type. Booleans and numbers are judged trimmed (a CSV's padded cells); the rest as written.
 */
const TEXT_SHAPES: ReadonlyArray<{spec: Omit<ColumnSpec, 'key'>; fits: (text: string, trimmed: string) => boolean}> = [
	{spec: {type: 'boolean'}, fits: (_text, trimmed) => BOOLEAN.test(trimmed)},
	{spec: {type: 'number', config: {integer: true}}, fits: (_text, trimmed) => INTEGER.test(trimmed) && isExactNumber(trimmed)},
	{spec: {type: 'number'}, fits: (_text, trimmed) => NUMBER.test(trimmed) && isExactNumber(trimmed)},
	// A date-time column (ISO, Jira's or Date#toString's, source/import/date-time.ts) is kept as its calendar day (the store's dates are days).
	{spec: {type: 'date'}, fits: text => calendarDay(text) !== undefined},
	{spec: {type: 'url'}, fits: text => URL.test(text)},
	{spec: {type: 'email'}, fits: text => EMAIL.test(text) && text.length <= 254},
];

/** Distinct values up to a cap, and how many were seen: past the cap only "more than" is known. */
class CappedSet {
	readonly values = new Set<string>();
	count = 0;
	overflow = false;

	constructor(private readonly cap: number) {}

	add(value: string): void {
		this.count++;
		if (this.overflow || this.values.has(value)) return;
		if (this.values.size >= this.cap) this.overflow = true;
		else this.values.add(value);
	}

	/** Few distinct values, each seen more than once on average: a choice, not free text. */
	few(max: number): boolean {
		return !this.overflow && this.values.size <= max && this.values.size * 2 <= this.count;
	}
}

const present = (cell: unknown) => cell !== undefined && cell !== null && cell !== '' && !(Array.isArray(cell) && cell.length === 0);

/** What one column's cells have shown so far; spec() is the type they all fit. */
export class ColumnSurvey {
	private count = 0;
	private booleans = 0;
	private numbers = 0;
	private integers = 0;
	private stringLists = 0;
	private texts = 0;
	/** Parts of string lists (JSON Lines): each short, one line. */
	private listPartsShort = true;
	private readonly listParts = new CappedSet(MAX_SELECT_OPTIONS * 2);
	/** Per TEXT_SHAPES entry: how many texts fit it. */
	private readonly textsFitting = TEXT_SHAPES.map(() => 0);
	/** Texts longer than LONG_TEXT or holding a line break. */
	private longTexts = 0;
	/** Texts up to 100 characters on one line: what a select option may be. */
	private shortTexts = 0;
	private readonly distinct = new CappedSet(MAX_SELECT_OPTIONS);
	/** Per separator: how many texts hold it, and their parts. */
	private readonly separated = LIST_SEPARATORS.map(separator => ({separator, holders: 0, parts: new CappedSet(MAX_SELECT_OPTIONS * 2)}));

	see(cell: unknown): void {
		if (!present(cell)) return;
		this.count++;
		if (typeof cell === 'boolean') this.booleans++;
		else if (typeof cell === 'number') {
			this.numbers++;
			if (Number.isInteger(cell)) this.integers++;
		} else if (Array.isArray(cell) && cell.every(part => typeof part === 'string')) {
			this.stringLists++;
			for (const part of cell as string[]) {
				if (part.length > 100 || part.includes('\n')) this.listPartsShort = false;
				this.listParts.add(cleanText(part).trim());
			}
		} else if (typeof cell === 'string') {
			this.seeText(cell);
		}
	}

	spec(): Omit<ColumnSpec, 'key'> {
		const all = (count: number) => count === this.count;
		if (this.count === 0) return {type: 'text'};
		// JSON Lines: the JSON type says most of it.
		if (all(this.booleans)) return {type: 'boolean'};
		if (all(this.numbers)) return all(this.integers) ? {type: 'number', config: {integer: true}} : {type: 'number'};
		// Lists of short names are choices (labels); lists of passages (comments) are long text.
		if (all(this.stringLists)) return this.listPartsShort && this.listParts.few(MAX_SELECT_OPTIONS * 2) ? {type: 'multi_select'} : {type: 'text', config: {long: true}};
		if (!all(this.texts)) return {type: 'json'};
		const shape = TEXT_SHAPES.find((_shape, index) => all(this.textsFitting[index]!));
		if (shape) return structuredClone(shape.spec);
		if (this.distinct.few(MAX_SELECT_OPTIONS) && all(this.shortTexts)) return {type: 'select'};
		const list = this.longTexts === 0 ? this.separated.find(entry => entry.holders > 0 && entry.parts.count > 0 && entry.parts.few(MAX_SELECT_OPTIONS * 2)) : undefined;
		if (list) return {type: 'multi_select', ...(list.separator === ',' ? {} : {separator: list.separator})};
		return this.longTexts > 0 ? {type: 'text', config: {long: true}} : {type: 'text'};
	}

	/** The options an inferred choice column takes from the data, in first-seen order. */
	options(spec: Omit<ColumnSpec, 'key'>): string[] | undefined {
		if (spec.type === 'select') return [...new Set([...this.distinct.values].map(value => cleanText(value)))];
		if (spec.type !== 'multi_select') return undefined;
		if (this.stringLists > 0) return [...this.listParts.values].filter(part => part !== '');
		const separator = spec.separator ?? ',';
		return [...new Set([...this.separated.find(entry => entry.separator === separator)!.parts.values].map(part => cleanText(part).trim()).filter(part => part !== ''))];
	}

	private seeText(text: string): void {
		this.texts++;
		const trimmed = text.trim();
		for (const [index, shape] of TEXT_SHAPES.entries()) {
			if (shape.fits(text, trimmed)) this.textsFitting[index]!++;
		}

		const long = text.length > LONG_TEXT || text.includes('\n');
		if (long) this.longTexts++;
		if (text.length <= 100 && !text.includes('\n')) this.shortTexts++;
		this.distinct.add(text);
		for (const entry of this.separated) {
			if (!text.includes(entry.separator)) {
				entry.parts.add(text.trim());
				continue;
			}

			entry.holders++;
			for (const part of text.split(entry.separator)) {
				if (part.trim() !== '') entry.parts.add(part.trim());
			}
		}
	}
}

/** The type of one column from its cells (every cell seen once, as the file streams). */
export function inferColumn(cells: Iterable<unknown>): Omit<ColumnSpec, 'key'> {
	const survey = new ColumnSurvey();
	for (const cell of cells) survey.see(cell);
	return survey.spec();
}

/** Distinct and present in every sampled row, a string or number: a column rows can be matched on (--into --key). */
export class KeySample {
	private readonly seen = new Set<unknown>();
	private rows = 0;
	private keyLike = true;

	see(cell: unknown): void {
		if (!this.keyLike || this.rows >= KEY_SAMPLE_ROWS) return;
		this.rows++;
		if (!present(cell) || (typeof cell !== 'string' && typeof cell !== 'number') || this.seen.has(cell)) {
			this.keyLike = false;
			this.seen.clear();
			return;
		}

		this.seen.add(cell);
		if (this.rows === KEY_SAMPLE_ROWS) this.seen.clear();
	}

	/** A row without the column at all (JSON Lines) is a missing value too. */
	get isKeyLike(): boolean {
		return this.keyLike && this.rows > 0;
	}
}

/** A column name that says it identifies the row: ID, Key, Issue key, Number, #, … */
const ID_NAME = /(^|[\s_-])(id|key|number|no|#|ref|identifier)$/i;

/** A column name that says it is the creation time. */
export const CREATED_NAME = /^(created|created[ _]?at|creation date|date created)$/i;

/** What a streamed pass learned of each column, for inferColumnMap. */
export type ColumnsSeen = {columns: string[]; rows: number; surveys: Map<string, ColumnSurvey>; keys: Map<string, KeySample>; createdColumns: Set<string>};

/**
 * The inferred map: every column, its key from its name, its type from its cells. One key-like
 * column is unique, the one rows are matched on with --into: the first whose name says it is an
 * id, else the first. A creation column of full date-times in every row gives each item its
 * created_at (its time, not only its day).
 */
export function inferColumnMap(seen: ColumnsSeen, channel: {id: string; name: string}): ColumnMap {
	const taken = new Set<string>();
	// No prototype: a column named `__proto__` is a key like any other.
	const columns: ColumnMap['columns'] = Object.create(null) as ColumnMap['columns'];
	const keyLike: string[] = [];
	for (const column of seen.columns) {
		const spec: ColumnSpec = {key: keyOf(column, taken), ...seen.surveys.get(column)!.spec()};
		if ((spec.type === 'text' || (spec.type === 'number' && spec.config?.integer === true)) && !spec.config?.long && seen.keys.get(column)!.isKeyLike) keyLike.push(column);
		columns[column] = spec;
	}

	const unique = keyLike.find(column => ID_NAME.test(column.trim())) ?? keyLike[0];
	if (unique !== undefined) columns[unique] = {...columns[unique]!, unique: true, required: true};
	const created = seen.rows > 0 ? seen.columns.find(column => seen.createdColumns.has(column)) : undefined;
	return {channel, ...(created === undefined ? {} : {created_at: created}), columns};
}
