// The formats of `sift export`, as pure text: a head, one piece per item, a tail. Nothing here
// reads or writes; source/commands/export.ts streams the pieces. JSON is written with safeJson
// (C1 controls and bidirectional marks as \u escapes: the same JSON values, safe on a terminal).
// CSV and JSON Lines carry their types in their first line (source/import/typed-header.ts), so
// `sift import` reads each back into the same types without a map.

import type {Channel, Item, Values} from '../../store/index.js';
import {safeJson} from '../text/sanitize.js';
import {jsonlHead, neutralised, typedHeader} from '../import/typed-header.js';

export const EXPORT_FORMATS = ['sift', 'jsonl', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** How a CSV export writes its cells: neutralised against spreadsheet formulas (the default), or the exact bytes. */
export type ExportOptions = {csvRaw?: boolean};

export type ExportWriter = {
	head(): string;
	item(item: Item, index: number): string;
	tail(): string;
};

/** The values an import takes back: set and stored ones (a formula is computed, never written). */
export function storedValuesOf(channel: Channel, values: Values): Values {
	const stored: Values = {};
	for (const field of channel.fields) {
		const value = values[field.key];
		if (field.type !== 'formula' && value !== null && value !== undefined) stored[field.key] = value;
	}

	return stored;
}

/**
 * The sift format: the channel file `sift import` reads, {"channel": …, "items": [ … ]}, one item a
 * line, each with id (not kept by an import), version, created_at, updated_at and its stored values.
 */
function siftWriter(channel: Channel): ExportWriter {
	return {
		head: () => `{"channel":${safeJson(channel)},"items":[`,
		item: (item, index) => `${index === 0 ? '' : ','}\n${safeJson({id: item.id, version: item.version, created_at: item.created_at, updated_at: item.updated_at, values: storedValuesOf(channel, item.values)})}`,
		tail: () => '\n]}\n',
	};
}

/** The item's columns: id, version, created_at, updated_at, then every field (formulas computed, null when unset). */
const columnsOf = (channel: Channel) => ['id', 'version', 'created_at', 'updated_at', ...channel.fields.map(field => field.key)];

/** A field's value as an export writes it: unset is null, but an unset multi-select is the empty list. */
const exportedValue = (item: Item, field: Channel['fields'][number]) => item.values[field.key] ?? (field.type === 'multi_select' ? [] : null);

const rowOf = (item: Item, channel: Channel): unknown[] => [item.id, item.version, item.created_at, item.updated_at, ...channel.fields.map(field => exportedValue(item, field))];

/**
 * JSON Lines: a first line with the channel (`{"sift":"jsonl","channel":…}`), then one flat object
 * per item (field keys never collide with id, version, created_at or updated_at).
 */
function jsonlWriter(channel: Channel): ExportWriter {
	const columns = columnsOf(channel);
	return {
		head: () => `${safeJson(jsonlHead(channel))}\n`,
		item(item) {
			const row = rowOf(item, channel);
			return `${safeJson(Object.fromEntries(columns.map((column, index) => [column, row[index]])))}\n`;
		},
		tail: () => '',
	};
}

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote, CR or LF (or starts or ends with a space), quotes doubled. */
export function csvField(text: string): string {
	return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A value as CSV text: empty when unset, text as is, numbers and booleans as JSON, lists and
 * objects as JSON; `asJson` (a json field) writes a string as JSON too, so it reads back a string.
 */
export function csvValue(value: unknown, asJson = false): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'string' && !asJson) return value;
	return JSON.stringify(value);
}

/**
 * CSV with a typed header row (`id,version,created_at,updated_at,KEY:TYPE,…`), CRLF line ends (RFC
 * 4180). Unless `csvRaw`, a cell that a spreadsheet would run as a formula gets a leading `'`, and
 * the header's `id:safe` says so, so an import takes it off again.
 */
function csvWriter(channel: Channel, options: ExportOptions): ExportWriter {
	const safe = options.csvRaw !== true;
	const asJson = [false, false, false, false, ...channel.fields.map(field => field.type === 'json')];
	const line = (cells: unknown[], header = false) => `${cells.map((cell, index) => {
		const text = header ? String(cell) : csvValue(cell, asJson[index]);
		return csvField(safe && !header ? neutralised(text) : text);
	}).join(',')}\r\n`;
	return {
		head: () => line(typedHeader(channel, safe), true),
		item: item => line(rowOf(item, channel)),
		tail: () => '',
	};
}

export function exportWriter(format: ExportFormat, channel: Channel, options: ExportOptions = {}): ExportWriter {
	switch (format) {
		case 'sift': {
			return siftWriter(channel);
		}

		case 'jsonl': {
			return jsonlWriter(channel);
		}

		case 'csv': {
			return csvWriter(channel, options);
		}
	}
}
