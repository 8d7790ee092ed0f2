// What makes sift's own CSV and JSON Lines exports come back as themselves: the types they carry
// in their first line, and the CSV formula neutralisation, both written by source/export/formats.ts
// and read here (docs/records.md#round-trips). One module for both directions, so the grammar the
// export writes is the grammar the import reads.
// - CSV: the header row is `id,version,created_at,updated_at,KEY:TYPE[:unique][:required],…`; its
//   first cell is `id:safe` when the cells that could start a spreadsheet formula were neutralised.
// - JSON Lines: the first line is `{"sift":"jsonl","channel":{…}}`, the whole channel.

import {FIELD_TYPES, type Channel, type Field, type FieldType} from '../../store/index.js';
import {ITEM_COLUMNS, RecordFileError} from './records.js';

export {ITEM_COLUMNS} from './records.js';

/** The header's first cell when the file's cells were neutralised (each cell starting with `'` had one added). */
export const NEUTRALISED_ID = 'id:safe';

const FLAGS = ['unique', 'required'] as const;
const KEY = /^[a-z][a-z0-9_]*$/;

/** A field as its typed CSV header cell: `points:number`, `ticket:text:unique:required`. */
export function typedColumn(field: Field): string {
	return [field.key, field.type, ...(field.is_unique ? ['unique'] : []), ...(field.is_required ? ['required'] : [])].join(':');
}

/** The typed header row of a channel's CSV export. */
export const typedHeader = (channel: Channel, neutralised: boolean): string[] => [neutralised ? NEUTRALISED_ID : 'id', 'version', 'created_at', 'updated_at', ...channel.fields.map(field => typedColumn(field))];

/** One field column of a typed header. */
export type TypedColumn = {cell: string; key: string; type: FieldType; unique: boolean; required: boolean};

/** What a typed header says: whether cells were neutralised, and its field columns (a formula's among them). */
export type TypedHeader = {neutralised: boolean; columns: TypedColumn[]};

/**
 * The typed header of sift's own CSV export, or undefined for any other header. A header is sift's
 * when it starts with the item columns and some field column carries a type; then every field
 * column must be `KEY:TYPE[:unique][:required]`, and one that is not is refused naming its column
 * and line (an edited header must not silently import as other types).
 */
export function typedHeaderOf(path: string, header: string[], line: number | undefined): TypedHeader | undefined {
	const [first, ...rest] = header;
	const itemColumns = (first === 'id' || first === NEUTRALISED_ID) && rest.slice(0, 3).join(',') === ITEM_COLUMNS.slice(1).join(',');
	const fieldCells = header.slice(4);
	if (!itemColumns || !fieldCells.some(cell => cell.includes(':'))) return undefined;
	const columns: TypedColumn[] = [];
	const keys = new Set<string>();
	for (const [offset, cell] of fieldCells.entries()) {
		const [key = '', type = '', ...flags] = cell.split(':');
		const refuse = (problem: string) => new RecordFileError(`${path}: line ${line ?? 1}, column ${offset + 5} (${JSON.stringify(cell.slice(0, 80))}) of the typed header: ${problem}; sift's own CSV header names each field KEY:TYPE[:unique][:required]`);
		if (!KEY.test(key)) throw refuse(`${JSON.stringify(key.slice(0, 60))} is not a field key (a lowercase letter, then letters, digits and _)`);
		if (!(FIELD_TYPES as readonly string[]).includes(type)) throw refuse(`${JSON.stringify(type.slice(0, 60))} is not a field type (${FIELD_TYPES.join(', ')})`);
		const strange = flags.find(flag => !(FLAGS as readonly string[]).includes(flag));
		if (strange !== undefined) throw refuse(`${JSON.stringify(strange.slice(0, 60))} is not a flag (unique, required)`);
		if (keys.has(key)) throw refuse(`the key ${key} is named twice`);
		keys.add(key);
		columns.push({cell, key, type: type as FieldType, unique: flags.includes('unique'), required: flags.includes('required')});
	}

	return {neutralised: first === NEUTRALISED_ID, columns};
}

/** A cell a spreadsheet would run as a formula (OWASP: `=`, `+`, `-`, `@`, tab, CR), or one starting with the `'` that marks a neutralised cell. */
const FORMULA_START = /^[=+\-@\t\r']/;
/** A plain number (`-3`, `-1.5e3`) is no formula: left as it is, so negative numbers stay numbers in a spreadsheet. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** A cell made safe to open in a spreadsheet: a leading `'` added where it could start a formula (or starts with `'`). */
export const neutralised = (cell: string): string => (FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell);

/** The cell as it was before neutralised(): in a neutralised file, every cell starting with `'` had one added. */
export const unneutralised = (cell: string): string => (cell.startsWith('\'') ? cell.slice(1) : cell);

/** The first line of sift's own JSON Lines export: the channel the rows fit. */
export const jsonlHead = (channel: Channel) => ({sift: 'jsonl', channel});

/** The channel a JSON Lines file's first line gives, when it is sift's own head (`{"sift":"jsonl","channel":…}`). */
export function channelOfJsonlHead(value: unknown): unknown {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
	const head = value as Record<string, unknown>;
	return head.sift === 'jsonl' && Object.keys(head).length === 2 && 'channel' in head ? head.channel : undefined;
}

/** Whether a JSON Lines line's value is sift's head line. */
export const isJsonlHead = (value: unknown) => channelOfJsonlHead(value) !== undefined;
