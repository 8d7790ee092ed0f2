// What every import format gives the import command: a channel to create (or to check rows
// against) and its rows, each named for error messages (a line number, a key).

import type {Channel} from '../../store/index.js';
import {ImportFileError} from './json-scanner.js';

export type ImportFormat = 'sift' | 'github' | 'csv' | 'jsonl';

/** The item's own columns sift's CSV and JSON Lines exports write before the fields. */
export const ITEM_COLUMNS = ['id', 'version', 'created_at', 'updated_at'] as const;

export const IMPORT_FORMATS: readonly ImportFormat[] = ['sift', 'github', 'csv', 'jsonl'];

/**
 * One row, as values for the channel's fields; `at` names it in a refusal ("line 12"). Its
 * created_at and updated_at, when the source gives them, become the new item's own times.
 */
export type RecordRow = {values: Record<string, unknown>; created_at?: string; updated_at?: string; at: string};

/** A file read as records: the channel its rows fit, and the rows, read again (streamed) on each call. */
export type RecordFile = {
	format: Exclude<ImportFormat, 'sift'>;
	channel: Channel;
	rows(): Iterable<RecordRow> | AsyncIterable<RecordRow>;
};

/** A problem with a file's content, its own words naming the file and where (an import file error, shown as it is). */
export class RecordFileError extends ImportFileError {
	override name = 'RecordFileError';
}
