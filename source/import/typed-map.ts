// sift's own typed CSV and JSON Lines exports (source/import/typed-header.ts) as what an import
// needs: the column map a typed header gives, the map a JSON Lines head's channel gives for --into,
// and a JSON Lines row as the values of its head's channel.

import type {Channel} from '../../store/index.js';
import type {ChoicesSeen, ColumnMap} from './column-map.js';
import type {RecordRow} from './records.js';
import type {TableRow} from './tabular.js';
import type {TypedHeader} from './typed-header.js';

/** The map a typed header gives: each field column by its key and type (a formula's left out: its value is computed), the item's times as its times. */
export function mapOfTypedHeader(header: TypedHeader): ColumnMap {
	const columns = Object.create(null) as ColumnMap['columns'];
	for (const {cell, key, type, unique, required} of header.columns) {
		if (type !== 'formula') columns[cell] = {key, type, ...(unique ? {unique} : {}), ...(required ? {required} : {})};
	}

	return {created_at: 'created_at', updated_at: 'updated_at', exact: true, columns};
}

/** The map of a channel's own export (a JSON Lines head's channel): each field under its key. */
export function mapOfTypedChannel(channel: Channel): ColumnMap {
	const columns = Object.create(null) as ColumnMap['columns'];
	for (const field of channel.fields) {
		if (field.type !== 'formula') columns[field.key] = {key: field.key, type: field.type};
	}

	return {created_at: 'created_at', updated_at: 'updated_at', exact: true, columns};
}

/** A typed map whose choice columns hold no value in the data: those come back as text, since a select needs options. */
export function withEmptyChoicesAsText(map: ColumnMap, seen: Pick<ChoicesSeen, 'optionsInData'>): ColumnMap {
	const columns = Object.create(null) as ColumnMap['columns'];
	for (const [column, spec] of Object.entries(map.columns)) {
		const empty = (spec.type === 'select' || spec.type === 'multi_select') && (seen.optionsInData.get(column)?.size ?? 0) === 0;
		columns[column] = empty ? {key: spec.key, type: 'text'} : spec;
	}

	return {...map, columns};
}

/** An empty value as an export writes it (null, "" or an empty list): no value. */
const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** A row of sift's own JSON Lines as its channel's values, each as written (a formula's left out), and its item's times. */
export function rowOfChannel(channel: Channel, row: TableRow): RecordRow {
	const values: Record<string, unknown> = {};
	for (const field of channel.fields) {
		if (field.type === 'formula') continue;
		const value = row.cells[field.key];
		values[field.key] = isEmpty(value) ? null : value;
	}

	const time = (key: string) => (typeof row.cells[key] === 'string' && row.cells[key] !== '' ? {[key]: row.cells[key] as string} : {});
	return {values, ...time('created_at'), ...time('updated_at'), at: row.at};
}
