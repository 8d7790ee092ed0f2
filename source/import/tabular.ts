// CSV (RFC 4180, by csv-parse's stream API) and JSON Lines (by readline) as tables, streamed: a
// file is read a chunk at a time on each pass, never held whole, and each row is named by the line
// it starts on. What the cells mean is the column map's business (source/import/column-map.ts),
// whether given (--map) or inferred (source/import/survey.ts).

import {createReadStream} from 'node:fs';
import {createInterface} from 'node:readline';
import {Readable} from 'node:stream';
import {parse} from 'csv-parse';
import {withoutByteOrderMark} from './clean-text.js';
import {RecordFileError} from './records.js';
import {isJsonlHead, typedHeaderOf, unneutralised} from './typed-header.js';

/** One row: column → raw cell (a string, or a list for a repeated CSV column; any JSON value from JSON Lines). */
export type TableRow = {cells: Record<string, unknown>; at: string};

/** A CSV or JSON Lines file: each call of rows() reads it again from the start. */
export type TableFile = {path: string; format: 'csv' | 'jsonl'; rows(): AsyncGenerator<TableRow>};

/** The file's text a chunk at a time: UTF-8 checked as it comes (a bad byte is an error, never U+FFFD), a leading BOM dropped. */
export async function* textChunks(path: string): AsyncGenerator<string> {
	const decoder = new TextDecoder('utf-8', {fatal: true});
	let first = true;
	const decode = (bytes?: Uint8Array) => {
		try {
			return bytes ? decoder.decode(bytes, {stream: true}) : decoder.decode();
		} catch {
			throw new RecordFileError(`${path}: the file is not valid UTF-8; save it as UTF-8`);
		}
	};

	for await (const chunk of createReadStream(path, {highWaterMark: 256 * 1024})) {
		let text = decode(chunk as Buffer);
		if (first && text !== '') {
			text = withoutByteOrderMark(text);
			first = false;
		}

		if (text !== '') yield text;
	}

	const rest = decode();
	if (rest !== '') yield rest;
}

/**
 * The line each non-empty record starts on, as an editor counts lines (CRLF, LF or CR each end
 * one), fed the text a chunk at a time: a record's quoted line breaks are inside it, so only those
 * outside quotes end a record. csv-parse's own line count differs with CRLF inside quotes.
 */
export class RecordStarts {
	private line = 1;
	private inQuotes = false;
	private atRecordStart = true;
	/** A CR at the end of a chunk: a line break of its own unless the next chunk starts with LF. */
	private pendingCr = false;
	private readonly starts: number[] = [];
	private next = 0;

	feed(text: string): void {
		for (let index = 0; index < text.length; index++) {
			const char = text[index]!;
			if (this.pendingCr) {
				this.pendingCr = false;
				if (char !== '\n') this.lineBreak();
			}

			if (char === '\r') {
				this.pendingCr = true;
				continue;
			}

			if (this.atRecordStart && char !== '\n') {
				this.starts.push(this.line);
				this.atRecordStart = false;
			}

			if (char === '"') this.inQuotes = !this.inQuotes;
			else if (char === '\n') this.lineBreak();
		}
	}

	end(): void {
		if (this.pendingCr) this.lineBreak();
		this.pendingCr = false;
	}

	/** The start line of the next record the parser gives. */
	shift(): number | undefined {
		const line = this.starts[this.next++];
		if (this.next > 4096) {
			this.starts.splice(0, this.next);
			this.next = 0;
		}

		return line;
	}

	private lineBreak(): void {
		if (!this.inQuotes) this.atRecordStart = true;
		this.line++;
	}
}

/** Every record of a CSV file with the line it starts on, header first. */
async function* csvRecords(path: string): AsyncGenerator<{record: string[]; line: number | undefined}> {
	const starts = new RecordStarts();
	const text = Readable.from((async function * () {
		for await (const chunk of textChunks(path)) {
			starts.feed(chunk);
			yield chunk;
		}

		starts.end();
	})(), {objectMode: false});
	const parser = parse({skip_empty_lines: true, relax_column_count: false});
	text.on('error', error => parser.destroy(error));
	text.pipe(parser);
	try {
		for await (const record of parser) yield {record: record as string[], line: starts.shift()};
	} catch (error) {
		if (error instanceof RecordFileError) throw error;
		throw new RecordFileError(`${path}: not a CSV file sift can read: ${(error as Error).message}`);
	} finally {
		text.destroy();
		parser.destroy();
	}
}

/** The header row of a CSV file (its first non-empty record) and the line it is on; undefined for an empty file. */
export async function csvHeader(path: string): Promise<{header: string[]; line: number | undefined} | undefined> {
	for await (const {record, line} of csvRecords(path)) return {header: headerOf(path, record), line};
	return undefined;
}

/**
 * A CSV file with a header row: BOM, CRLF, quoted commas, quotes and newlines as RFC 4180 has them.
 * What spreadsheets add is left out: a row of empty cells (a blank row of the sheet) is no record,
 * and a column with no name is dropped while it holds nothing (a value in it is an error naming it).
 */
export function csvFile(path: string): TableFile {
	return {
		path,
		format: 'csv',
		async * rows() {
			let header: string[] | undefined;
			let repeated = new Set<string>();
			let neutralised = false;
			for await (const {record, line} of csvRecords(path)) {
				if (header === undefined) {
					header = headerOf(path, record);
					// sift's own export with its cells neutralised: each cell's added `'` comes off (source/import/typed-header.ts).
					neutralised = typedHeaderOf(path, header, line)?.neutralised ?? false;
					// A name given to several columns (Jira writes one "Labels" column per label) is one
					// column whose cell is the list of its non-empty cells.
					repeated = new Set(header.filter((name, index) => name !== '' && header!.indexOf(name) !== index));
					continue;
				}

				if (record.every(cell => cell === '')) continue;
				// No prototype: a column named `__proto__` is a cell like any other.
				const cells = Object.create(null) as Record<string, unknown>;
				for (const [index, column] of header.entries()) {
					const cell = neutralised && record[index] !== undefined ? unneutralised(record[index]) : record[index];
					if (column === '') {
						if (cell !== undefined && cell !== '') throw new RecordFileError(`${path}: column ${index + 1} of the header row has no name, but line ${line ?? '?'} has a value in it (${JSON.stringify(cell.slice(0, 40))}); name the column or delete it`);
						continue;
					}

					if (repeated.has(column)) {
						const list = (cells[column] ??= []) as string[];
						if (cell !== undefined && cell !== '') list.push(cell);
					} else {
						cells[column] = cell;
					}
				}

				yield {cells, at: `line ${line ?? '?'}`};
			}

			if (header === undefined) throw new RecordFileError(`${path}: the file is empty; a CSV import needs a header row`);
		},
	};
}

/** The header's names, trimmed; a column without one is allowed (see csvFile), a header without any is not. */
function headerOf(path: string, record: string[]): string[] {
	const header = record.map(name => name.trim());
	if (header.every(name => name === '')) throw new RecordFileError(`${path}: the header row (the first row) names no column`);
	return header;
}

/** The value of a JSON Lines file's first non-blank line (undefined when there is none, or it is no JSON). */
export async function firstJsonLine(path: string): Promise<unknown> {
	const lines = createInterface({input: Readable.from(textChunks(path), {objectMode: false}), crlfDelay: Number.POSITIVE_INFINITY});
	try {
		for await (const line of lines) {
			if (line.trim() === '') continue;
			try {
				return parseKeepingBigIntegers(line);
			} catch {
				return undefined;
			}
		}
	} finally {
		lines.close();
	}

	return undefined;
}

/** A JSON Lines file: one JSON object a line (blank lines skipped). */
export function jsonLinesFile(path: string): TableFile {
	return {
		path,
		format: 'jsonl',
		async * rows() {
			const lines = createInterface({input: Readable.from(textChunks(path), {objectMode: false}), crlfDelay: Number.POSITIVE_INFINITY});
			let number = 0;
			let first = true;
			try {
				for await (const line of lines) {
					number++;
					if (line.trim() === '') continue;
					let value: unknown;
					try {
						value = parseKeepingBigIntegers(line);
					} catch (error) {
						throw new RecordFileError(`${path}: line ${number} is not valid JSON: ${(error as Error).message}`);
					}

					if (typeof value !== 'object' || value === null || Array.isArray(value)) {
						throw new RecordFileError(`${path}: line ${number} is not a JSON object`);
					}

					// sift's own export starts with its channel (source/import/typed-header.ts): no row.
					const head = first && isJsonlHead(value);
					first = false;
					if (head) continue;
					yield {cells: value as Record<string, unknown>, at: `line ${number}`};
				}
			} finally {
				lines.close();
			}
		},
	};
}

/** Past 15 digits an integer may not survive as a JavaScript number. */
const LONG_DIGITS = /\d{16}/;

/**
 * JSON.parse, except that an integer JavaScript cannot hold exactly (past 2^53: a database id, a
 * snowflake) is read as its text, so two distinct ids stay distinct and keep every digit.
 */
export function parseKeepingBigIntegers(line: string): unknown {
	if (!LONG_DIGITS.test(line)) return JSON.parse(line);
	let out = '';
	let index = 0;
	while (index < line.length) {
		const char = line[index]!;
		if (char === '"') {
			// A string, copied whole: its escapes may hold a quote.
			let end = index + 1;
			while (end < line.length && line[end] !== '"') end += line[end] === '\\' ? 2 : 1;
			out += line.slice(index, end + 1);
			index = end + 1;
			continue;
		}

		const number = char === '-' || (char >= '0' && char <= '9') ? /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(line.slice(index, index + 400)) : null;
		if (number) {
			const literal = number[0];
			const integer = number[1] === undefined && number[2] === undefined;
			out += integer && !Number.isSafeInteger(Number(literal)) ? `"${literal}"` : literal;
			index += literal.length;
			continue;
		}

		out += char;
		index++;
	}

	return JSON.parse(out);
}
