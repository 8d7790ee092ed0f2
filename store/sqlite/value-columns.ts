/**
 * Value columns on SQLite: items.v1 … v16 hold a copy of each indexed field's stored value (the
 * channel's sortable and unique fields, in field order), and the channel's indexes are built on
 * those columns instead of on expressions over `data`. SQLite rewrites an index only when the
 * UPDATE sets a column the index reads, so an edit of `title` leaves every index alone, and an
 * edit of `status` rewrites `status`'s alone; with indexes on `data`, every edit rewrote all of
 * them (docs/architecture.md#sqlite-value-columns).
 *
 * A column holds exactly what json_extract(data, '$.key') gives, written in the statement that
 * writes `data` (valueColumnsFor, columnValue).
 */

import type {Db} from './db.js';
import {isSortable} from '../query/parse.js';
import {channelScopeSql} from '../query/sql.js';
import type {Field} from '../types.js';

/** How many indexed fields of a channel get a column; any further ones are indexed on `data`. */
export const VALUE_COLUMN_COUNT = 16;

export const VALUE_COLUMNS = Array.from({length: VALUE_COLUMN_COUNT}, (_, index) => `v${index + 1}`);

/** An item's own columns: rows read without their value columns (copies of `data`, and 16 more properties per row). */
export const ITEM_COLUMNS = 'items.seq, items.id, items.channel_id, items.version, items.created_at, items.updated_at, items.data';

/** The fields the channel's indexes cover (store/query/sql.ts channelIndexes). */
export const isIndexed = (field: Field) => isSortable(field) || field.is_unique === true;

/** SQLite's JSON value of a stored field; keys are checked identifiers (a-z, 0-9, _), so inlining them is safe. */
export const jsonValueSql = (key: string, data = 'data') => `json_extract(${data}, '$.${key}')`;

/** A field's value column; `bound`: its value is a scalar, bound from JS (valueColumnsFor). */
type ColumnOf = {column: string; bound: boolean};

const columnsCache = new WeakMap<readonly Field[], ReadonlyMap<string, ColumnOf>>();

/** Field key → value column, for the channel's indexed fields in field order (channels never change). */
function columnsOf(channel: {fields: readonly Field[]}): ReadonlyMap<string, ColumnOf> {
	let columns = columnsCache.get(channel.fields);
	if (!columns) {
		const indexed = channel.fields.filter(field => isIndexed(field)).slice(0, VALUE_COLUMN_COUNT);
		columns = new Map(indexed.map((field, index) => [field.key, {column: VALUE_COLUMNS[index]!, bound: isSortable(field) && field.type !== 'multi_select'}]));
		columnsCache.set(channel.fields, columns);
	}

	return columns;
}

/** The value column of one field, if it has one. */
export const valueColumnOf = (channel: {fields: readonly Field[]}, key: string) => columnsOf(channel).get(key)?.column;

const columnNumber = (column: string) => Number(column.slice(1));

export type ValueColumn = {key: string; column: string; /** Its SQL: one `?`, for columnParameters. */ sql: string; bound: boolean};

/**
 * The value columns of `keys` (those that have one), each with the SQL that writes it: a sortable
 * field's value is a scalar, bound from JS as json_extract would give it (columnValue); any other
 * (a multi_select's list, say) is copied out of the item's JSON by json_extract itself. Binding saves
 * parsing the item's JSON once per column: 3-4 µs of a six-field edit's 48 (npm run bench).
 */
export function valueColumnsFor(channel: {fields: readonly Field[]}, keys: Iterable<string>): ValueColumn[] {
	const columns = columnsOf(channel);
	const chosen: ValueColumn[] = [];
	for (const key of keys) {
		const found = columns.get(key);
		if (found) chosen.push({key, column: found.column, sql: found.bound ? '?' : jsonValueSql(key, '?'), bound: found.bound});
	}

	// In column order, so one set of keys always gives one statement.
	return chosen.sort((a, b) => columnNumber(a.column) - columnNumber(b.column));
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A scalar stored value as json_extract gives it: text; 1 and 0 for booleans; NULL when unset; a
 * number written in JSON as a plain integer that fits 64 bits as that INTEGER (JSON keeps the
 * digits of 837463708841756900, not the double's ...928), any other number as its double.
 */
export function columnValue(value: unknown): string | number | bigint | null {
	if (typeof value === 'boolean') return value ? 1n : 0n;
	if (typeof value === 'string') return value;
	if (typeof value !== 'number') return null;
	const text = JSON.stringify(value);
	if (!/^-?\d+$/.test(text)) return value;
	const integer = BigInt(text);
	return integer >= INT64_MIN && integer <= INT64_MAX ? integer : value;
}

/** The parameters of valueColumnsFor's columns, in order: the stored value, or the item's JSON (`data`) to copy it from. */
export function columnParameters(columns: ValueColumn[], stored: Record<string, unknown>, data: string): unknown[] {
	return columns.map(({key, bound}) => (bound ? columnValue(stored[key]) : data));
}

/** The value columns a store made before them lacks (added empty; fillValueColumns fills them). */
export function addValueColumns(db: Db): void {
	const present = new Set((db.prepare("SELECT name FROM pragma_table_info('items')").all() as Array<{name: string}>).map(row => row.name));
	if (present.size === 0) return;
	for (const column of VALUE_COLUMNS) {
		if (!present.has(column)) db.exec(`ALTER TABLE items ADD COLUMN ${column}`);
	}
}

/** Copies every indexed field's value of the channel's items into its column: after an upgrade, or a repair. */
export function fillValueColumns(db: Db, channel: {id: string; fields: readonly Field[]}): void {
	const columns = [...columnsOf(channel)];
	if (columns.length === 0) return;
	db.prepare(`UPDATE items SET ${columns.map(([key, {column}]) => `${column} = ${jsonValueSql(key)}`).join(', ')} WHERE ${channelScopeSql(channel.id)}`).run();
}
