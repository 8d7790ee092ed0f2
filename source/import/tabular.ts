// CSV (RFC 4180, by csv-parse) and JSON Lines as tables: a list of columns and rows of cells,
// each row named by the line it starts on. What the cells mean is the column map's business
// (source/import/column-map.ts), whether given (--map) or inferred.

import {readFileSync} from 'node:fs';
import {parse} from 'csv-parse/sync';
import {withoutByteOrderMark} from './clean-text.js';
import {RecordFileError} from './records.js';

/** One row: column → raw cell (a string from CSV; any JSON value from JSON Lines). */
export type TableRow = {cells: Record<string, unknown>; at: string};

export type Table = {columns: string[]; rows: TableRow[]};

function readText(path: string): string {
	const bytes = readFileSync(path);
	try {
		return withoutByteOrderMark(new TextDecoder('utf-8', {fatal: true}).decode(bytes));
	} catch {
		throw new RecordFileError(`${path}: the file is not valid UTF-8; save it as UTF-8`);
	}
}

/** A CSV file with a header row: BOM, CRLF, quoted commas, quotes and newlines as RFC 4180 has them. */
export function readCsv(path: string): Table {
	let records: string[][];
	const text = readText(path);
	try {
		records = parse(text, {skip_empty_lines: true, relax_column_count: false}) as string[][];
	} catch (error) {
		throw new RecordFileError(`${path}: not a CSV file sift can read: ${(error as Error).message}`);
	}

	if (records.length === 0) {
		throw new RecordFileError(`${path}: the file is empty; a CSV import needs a header row`);
	}

	const header = records[0]!.map(name => name.trim());
	const blank = header.findIndex(name => name === '');
	if (blank >= 0) {
		throw new RecordFileError(`${path}: column ${blank + 1} of the header row has no name`);
	}

	// A name given to several columns (Jira writes one "Labels" column per label) is one column
	// whose cell is the list of its non-empty cells.
	const columns = [...new Set(header)];
	const repeated = new Set(header.filter((name, index) => header.indexOf(name) !== index));
	const rows: TableRow[] = [];
	const lines = recordLines(text);
	for (const [index, record] of records.slice(1).entries()) {
		const cells: Record<string, unknown> = {};
		for (const [index, column] of header.entries()) {
			const cell = record[index];
			if (repeated.has(column)) {
				const list = (cells[column] ??= []) as string[];
				if (cell !== undefined && cell !== '') list.push(cell);
			} else {
				cells[column] = cell;
			}
		}

		rows.push({cells, at: `line ${lines[index + 1] ?? '?'}`});
	}

	return {columns, rows};
}

/**
 * The line each non-empty record starts on, as an editor counts lines (CRLF, LF or CR each end
 * one): a record's quoted line breaks are inside it, so only those outside quotes end a record.
 */
export function recordLines(text: string): number[] {
	const starts: number[] = [];
	let line = 1;
	let inQuotes = false;
	let atRecordStart = true;
	for (let index = 0; index < text.length; index++) {
		const char = text[index]!;
		const lineBreak = char === '\n' || (char === '\r' && text[index + 1] !== '\n');
		if (atRecordStart && char !== '\r' && char !== '\n') {
			starts.push(line);
			atRecordStart = false;
		}

		if (char === '"') {
			inQuotes = !inQuotes;
		} else if (lineBreak) {
			if (!inQuotes) atRecordStart = true;
			line++;
		}
	}

	return starts;
}

/** A JSON Lines file: one JSON object a line (blank lines skipped); columns are its keys in order of appearance. */
export function readJsonLines(path: string): Table {
	const columns = new Set<string>();
	const rows: TableRow[] = [];
	for (const [index, line] of readText(path).split('\n').entries()) {
		if (line.trim() === '') continue;
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch (error) {
			throw new RecordFileError(`${path}: line ${index + 1} is not valid JSON: ${(error as Error).message}`);
		}

		if (typeof value !== 'object' || value === null || Array.isArray(value)) {
			throw new RecordFileError(`${path}: line ${index + 1} is not a JSON object`);
		}

		for (const key of Object.keys(value)) columns.add(key);
		rows.push({cells: value as Record<string, unknown>, at: `line ${index + 1}`});
	}

	return {columns: [...columns], rows};
}
