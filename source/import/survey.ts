// The first streamed pass over a CSV or JSON Lines file: its columns (JSON Lines: every key, in
// order of appearance), its row count, and either what the inferred schema needs (each column's
// survey, source/import/infer.ts) or, with a map, the option values its choice columns hold. The
// schema is known only after this pass, so rows are checked in a second pass against it.

import {cellValue, type ColumnMap} from './column-map.js';
import {isoDateTime} from './date-time.js';
import {ColumnSurvey, CREATED_NAME, KeySample, type ColumnsSeen} from './infer.js';
import type {TableFile} from './tabular.js';

export type TableSurvey = ColumnsSeen & {
	/** Per column of a choice field: the values its cells hold, in first-seen order (with a map; inferred choices have theirs in the surveys). */
	optionsInData: Map<string, Set<string>>;
};

/** Reads the file once; `map` given, its choice columns' values are gathered instead of types inferred. */
export async function surveyTable(file: TableFile, map?: ColumnMap): Promise<TableSurvey> {
	const seen: TableSurvey = {columns: [], rows: 0, surveys: new Map(), keys: new Map(), createdColumns: new Set(), optionsInData: new Map()};
	const known = new Set<string>();
	const notCreated = new Set<string>();
	const choices = map ? Object.entries(map.columns).filter(([, spec]) => spec.type === 'select' || spec.type === 'multi_select') : [];
	for (const [column] of choices) seen.optionsInData.set(column, new Set());
	for await (const row of file.rows()) {
		seen.rows++;
		for (const column of Object.keys(row.cells)) {
			if (known.has(column)) continue;
			known.add(column);
			seen.columns.push(column);
			if (map) continue;
			seen.surveys.set(column, new ColumnSurvey());
			const key = new KeySample();
			// A column first seen after the first row was missing from the rows before it.
			if (seen.rows > 1) key.see(undefined);
			seen.keys.set(column, key);
			if (CREATED_NAME.test(column) && seen.rows === 1) seen.createdColumns.add(column);
		}

		if (map) {
			for (const [column, spec] of choices) {
				const value = cellValue(row.cells[column], spec, map.exact === true);
				for (const part of Array.isArray(value) ? value : [value]) {
					if (typeof part === 'string') seen.optionsInData.get(column)!.add(part);
				}
			}

			continue;
		}

		for (const column of seen.columns) {
			const cell = row.cells[column];
			seen.surveys.get(column)!.see(cell);
			seen.keys.get(column)!.see(cell);
			if (seen.createdColumns.has(column) && !notCreated.has(column) && !(typeof cell === 'string' && isoDateTime(cell) !== undefined)) notCreated.add(column);
		}
	}

	for (const column of notCreated) seen.createdColumns.delete(column);
	return seen;
}
