// The column map: which column becomes which field, of what type, with which options. Given as a
// YAML file (--map MAP.yaml, checked with zod) or inferred from the data (source/import/infer.ts),
// and written back by --schema-out so a person can edit it and import with it.

import {readFileSync} from 'node:fs';
import {parse, stringify} from 'yaml';
import {z} from 'zod';
import {FIELD_TYPES, type Channel, type Field, type FieldType, type SelectOption} from '../../store/index.js';
import {cleanText, withoutByteOrderMark} from './clean-text.js';
import {calendarDay, isoDateTime} from './date-time.js';
import {ITEM_COLUMNS, RecordFileError, type RecordRow} from './records.js';
import type {TableRow} from './tabular.js';
import {jsonOrText} from '../text/format.js';

const optionSchema = z.union([z.string().min(1), z.object({value: z.string().min(1), label: z.string().min(1).optional(), color: z.string().optional(), description: z.string().optional()}).strict()]);

const columnSchema = z.object({
	key: z.string(),
	label: z.string().min(1).optional(),
	type: z.enum(FIELD_TYPES as unknown as [FieldType, ...FieldType[]]),
	required: z.boolean().optional(),
	unique: z.boolean().optional(),
	/** select, multi_select: the options; left out, they come from the data. */
	options: z.array(optionSchema).optional(),
	/** multi_select: what separates the values in one cell (default ","). */
	separator: z.string().min(1).optional(),
	/** Any other field config (max_length, min, max, integer, long, currency, …). */
	config: z.record(z.string(), z.unknown()).optional(),
}).strict();

export const columnMapSchema = z.object({
	channel: z.object({id: z.string().optional(), name: z.string().optional()}).strict().optional(),
	/** The column holding each row's creation time (an ISO date or date-time, or one source/import/date-time.ts reads); it becomes the item's created_at. */
	created_at: z.string().optional(),
	/** The column holding each row's last-change time; it becomes a new item's updated_at, and an upserted item's when later than its own. */
	updated_at: z.string().optional(),
	/** Text read exactly as written, not cleaned of control characters: sift's own exports (typed-map.ts), which hold the store's text as it is. */
	exact: z.boolean().optional(),
	columns: z.record(z.string(), columnSchema),
}).strict();

export type ColumnMap = z.infer<typeof columnMapSchema>;
export type ColumnSpec = z.infer<typeof columnSchema>;

/** Reads and checks a map file; a problem names the file and the entry. */
export function readColumnMap(path: string): ColumnMap {
	let raw: unknown;
	try {
		raw = parse(withoutByteOrderMark(readFileSync(path, 'utf8')));
	} catch (error) {
		throw new RecordFileError(`${path}: not a YAML file sift can read: ${(error as Error).message}`);
	}

	const result = columnMapSchema.safeParse(raw);
	if (!result.success) {
		const issue = result.error.issues[0]!;
		throw new RecordFileError(`${path}: ${issue.path.join('.') || 'the map'}: ${issue.message}`);
	}

	return result.data;
}

/** The map as YAML, for --schema-out. */
export const columnMapYaml = (map: ColumnMap) => `# sift column map: edit the keys, types and options, then: sift import FILE --map THIS_FILE\n${stringify(map)}`;

const DEFAULT_SEPARATOR = ',';
const isChoice = (type: FieldType) => type === 'select' || type === 'multi_select';

/** The cell's parts for a multi-select: split on the separator, trimmed, empty and repeated parts dropped. */
function parts(cell: unknown, separator: string, exact: boolean): unknown {
	// sift's own CSV writes a multi-select as a JSON list (`["a","b, c"]`), so a value may hold the separator.
	if (typeof cell === 'string' && cell.startsWith('[')) {
		const list = jsonOrText(cell);
		if (Array.isArray(list) && list.every(part => typeof part === 'string')) return exact ? list : parts(list, separator, exact);
	}

	if (Array.isArray(cell)) return [...new Set(cell.map(part => (typeof part === 'string' ? cleanText(part).trim() : part)))].filter(part => part !== '');
	if (typeof cell !== 'string') return cell;
	return [...new Set(cleanText(cell).split(separator).map(part => part.trim()).filter(part => part !== ''))];
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const BOOLEAN_WORDS: Record<string, boolean> = {true: true, false: false, yes: true, no: false};

/**
 * A cell as the value its field takes. A CSV cell is text: numbers and booleans are read from it,
 * an empty cell is no value. Text that is not the type stays text, so the store refuses it naming
 * the value (nothing is guessed, trimmed or clamped).
 */
export function cellValue(cell: unknown, spec: ColumnSpec, exact = false): unknown {
	if (cell === undefined || cell === null || cell === '') return undefined;
	if (spec.type === 'multi_select') {
		const list = parts(cell, spec.separator ?? DEFAULT_SEPARATOR, exact);
		return Array.isArray(list) && list.length === 0 ? undefined : list;
	}

	// A repeated CSV column (Jira's several "Comment" columns) as text: its cells one after another.
	if (Array.isArray(cell) && cell.every(part => typeof part === 'string') && spec.type !== 'json') {
		return cell.length === 0 ? undefined : cellValue(cell.join('\n\n'), spec, exact);
	}

	if (typeof cell !== 'string') return cell;
	const text = exact ? cell : cleanText(cell);
	switch (spec.type) {
		case 'number':
		case 'currency':
		case 'percentage':
		case 'rating': {
			return NUMBER.test(text.trim()) ? Number(text.trim()) : text;
		}

		case 'boolean': {
			return BOOLEAN_WORDS[text.trim().toLowerCase()] ?? text;
		}

		case 'date': {
			// A date-time keeps its calendar day (ISO, Jira's, Date#toString's); anything else is left for the store to refuse.
			return calendarDay(text) ?? text;
		}

		case 'json': {
			return jsonOrText(text);
		}

		default: {
			return text;
		}
	}
}

/** A label as a field key: lowercase identifier; a reserved name gets a prefix. */
export function keyOf(column: string, taken: Set<string>): string {
	// `__proto__` would name no own key of a plain object: kept as source_proto.
	if (column.trim() === '__proto__') return keyOf('source_proto', taken);
	let key = column.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 60) || 'column';
	if (!/^[a-z]/.test(key)) key = `c_${key}`;
	if (['id', 'version', 'created_at', 'updated_at', 'values', 'constructor', 'prototype'].includes(key)) key = `source_${key}`;
	let unique = key;
	for (let n = 2; taken.has(unique); n++) unique = `${key}_${n}`;
	taken.add(unique);
	return unique;
}

/**
 * What a table's survey (survey.ts) knows of its choice columns' values: the part a map needs,
 * named here so this module does not import the survey, which imports it.
 */
export type ChoicesSeen = {
	optionsInData: Map<string, Set<string>>;
	surveys: Map<string, {options(spec: Omit<ColumnSpec, 'key'>): string[] | undefined}>;
};

/** The options a choice column's cells hold, in first-seen order, as the survey found them. */
function optionsInData(survey: ChoicesSeen, column: string, spec: ColumnSpec): string[] {
	const gathered = survey.optionsInData.get(column);
	return gathered ? [...gathered] : survey.surveys.get(column)?.options(spec) ?? [];
}

const optionOf = (option: string | {value: string; label?: string; color?: string; description?: string}): SelectOption => (typeof option === 'string' ? {value: option, label: option} : {value: option.value, label: option.label ?? option.value, ...(option.color === undefined ? {} : {color: option.color}), ...(option.description === undefined ? {} : {description: option.description})});

/**
 * The channel a map describes, for a table's data: choice columns without options get the
 * values in the data; with `grow`, values outside a map's options are added to them.
 */
export function channelOfMap(map: ColumnMap, survey: ChoicesSeen, fallback: {id: string; name: string}, grow: boolean): Channel {
	const fields: Field[] = [];
	for (const [column, spec] of Object.entries(map.columns)) {
		const config: Record<string, unknown> = {...spec.config};
		if (isChoice(spec.type)) {
			const given = (spec.options ?? []).map(optionOf);
			const known = new Set(given.map(option => option.value));
			const extra = spec.options === undefined || grow ? optionsInData(survey, column, spec).filter(value => !known.has(value)).map(value => ({value, label: value})) : [];
			config.options = [...given, ...extra];
		}

		fields.push({key: spec.key, label: spec.label ?? column, type: spec.type, is_required: spec.required ?? false, is_unique: spec.unique ?? false, config: config as Field['config']});
	}

	return {id: map.channel?.id ?? fallback.id, name: map.channel?.name ?? fallback.name, fields};
}

/** Refuses a map that names a column the file does not have (a CSV's header, a JSON Lines file's keys). */
export function checkMapColumns(map: ColumnMap, columns: string[]): void {
	const missing = [...Object.keys(map.columns), ...(map.created_at ? [map.created_at] : []), ...(map.updated_at ? [map.updated_at] : [])].find(column => !columns.includes(column));
	if (missing !== undefined) {
		throw new RecordFileError(`the map names the column ${JSON.stringify(missing)}, which the file does not have (its columns: ${columns.map(name => JSON.stringify(name)).join(', ')})`);
	}
}

/** A table row as a record under the map (an empty cell as null); columns the map does not name are left out. */
export function rowOfMap(map: ColumnMap, row: TableRow): RecordRow {
	const values: Record<string, unknown> = {};
	for (const [column, spec] of Object.entries(map.columns)) {
		// An empty cell is null: no value on a create, a cleared field on an update (--into).
		values[spec.key] = cellValue(row.cells[column], spec, map.exact === true) ?? null;
	}

	// Jira's and Date#toString's date-times as ISO instants; other text goes on for the store to refuse, naming it.
	const time = (column: string | undefined) => {
		const cell = column === undefined ? undefined : row.cells[column];
		return typeof cell === 'string' && cell !== '' ? isoDateTime(cell) ?? cell : undefined;
	};

	const [created, updated] = [time(map.created_at), time(map.updated_at)];
	return {values, ...(created === undefined ? {} : {created_at: created}), ...(updated === undefined ? {} : {updated_at: updated}), at: row.at};
}

/**
 * For --into without --map: each column goes to the existing channel's field of that label or
 * key (`Due date` → due_date), read as that field's type. A column that matches no field is an
 * error that names it: silently dropping a column would lose data.
 */
export function mapOfChannel(channel: Channel, fileColumns: string[], typed?: ColumnMap): ColumnMap {
	const columns: ColumnMap['columns'] = Object.create(null) as ColumnMap['columns'];
	let createdAt: string | undefined;
	for (const column of fileColumns) {
		// sift's own export: its item columns are no fields (created_at is each new item's), its typed columns name their keys.
		if (typed !== undefined && (ITEM_COLUMNS as readonly string[]).includes(column.replace(/:.*/, ''))) {
			if (column === 'created_at') createdAt = column;
			continue;
		}

		if (typed !== undefined && !(column in typed.columns)) continue;
		const key = typed?.columns[column]?.key ?? keyOf(column, new Set());
		const field = channel.fields.find(entry => entry.label === column) ?? channel.fields.find(entry => entry.key === column || entry.key === key);
		if (!field) {
			throw new RecordFileError(`the column ${JSON.stringify(column)} matches no field of channel ${channel.id} (by label or key; its fields: ${channel.fields.map(entry => entry.key).join(', ')}); give --map MAP.yaml to say where each column goes`);
		}

		columns[column] = {key: field.key, type: field.type};
	}

	return {channel: {id: channel.id, name: channel.name}, ...(createdAt === undefined ? {} : {created_at: createdAt}), ...(typed?.exact ? {exact: true} : {}), columns};
}

/** The map with each choice column's options written out from the channel, for --schema-out. */
export function mapWithOptions(map: ColumnMap, channel: Channel): ColumnMap {
	const columns = Object.fromEntries(Object.entries(map.columns).map(([column, spec]) => {
		const field = channel.fields.find(entry => entry.key === spec.key);
		return [column, isChoice(spec.type) && field?.config.options ? {...spec, options: field.config.options.map(option => (option.label === option.value ? option.value : {value: option.value, label: option.label}))} : spec];
	}));
	return {...map, channel: {id: channel.id, name: channel.name}, columns};
}
