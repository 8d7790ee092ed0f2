/**
 * The query language on SQLite: the dialect of store/query/sql.ts (indexed fields through their
 * value columns, store/sqlite/value-columns.ts; the rest through json_extract), the index names,
 * and the page statements, each forced onto the index that yields its order.
 */

import type {Channel, Field} from '../types.js';
import type {Position} from '../query/cursor.js';
import {axisOrderKey, channelIndexes as indexesOf, channelScopeSql, equalityField, sqlString, orderKeySql as orderKeyOf, pagePhases, sortKeySql, whereSql as whereOf, type Dialect, type IndexDefinition, type SqlPart} from '../query/sql.js';
import type {Sort, Term} from '../query/types.js';
import {ITEM_COLUMNS, jsonValueSql, valueColumnOf} from './value-columns.js';
import {matchText} from './full-text.js';

export {channelScopeSql, countStatement, sqlString, type SqlPart} from '../query/sql.js';
export type {Position} from '../query/cursor.js';

/** SQL for a stored value as json_extract gives it: the field's value column when it has one (store/sqlite/value-columns.ts). */
export const valueSql = (channel: {fields: readonly Field[]}, key: string) => valueColumnOf(channel, key) ?? jsonValueSql(key);

/** What every channel's dialect shares: all but where a field's value is read from. */
const sharedDialect: Omit<Dialect, 'value' | 'text' | 'typed' | 'listHolds'> = {
	string: sqlString,
	emptyList: key => `json_array_length(data, '$.${key}') = 0`,
	// The membership table (store/sqlite/members.ts): SQLite reads the value's items once, in seq
	// order, and either walks them (the default order) or tests each row of another order against them.
	listHasAny: (key, count, channelId) => `items.seq IN (SELECT seq FROM item_members WHERE channel_id = ${sqlString(channelId)} AND field = '${key}' AND value IN (${Array.from({length: count}, () => '?').join(', ')}))`,
	listValue: value => value,
	lower: text => `lower(${text})`,
	contains: lowered => `instr(${lowered}, ?) > 0`,
	meta: column => column,
	false: '0',
	// SQLite compares text by its bytes already (BINARY).
	bytes: text => text,
	// The FTS5 table the triggers of store/sqlite/full-text.ts keep: every channel's long text by seq.
	fullText: () => 'items.seq IN (SELECT rowid FROM items_text WHERE items_text MATCH ?)',
	fullTextQuery: matchText,
	// Two seeks, each a plain range SQLite walks in index order.
	rowValues: false,
	// "Set" as a range (every number and string is >= -infinity), so SQLite seeks past the unset
	// values instead of scanning them.
	isSet: key => `${key} >= -9e999`,
	// By seq alone: ordering by the (constant) key as well makes SQLite sort every unset row.
	unsetOrderBy: (_key, direction) => `seq ${direction}`,
};

const dialects = new WeakMap<readonly Field[], Dialect>();

/** The dialect for one channel's rows: its indexed fields read from their value columns, the rest from `data`. */
export function sqliteDialect(channel: {fields: readonly Field[]}): Dialect {
	let dialect = dialects.get(channel.fields);
	if (!dialect) {
		const value = (key: string) => valueSql(channel, key);
		// json_extract (and so a value column) gives strings as text, numbers as numbers and booleans as 0 and 1: already ordered.
		// A list's value is its JSON text (`["bug","ui"]`, as json_extract gives it): an element is
		// `"value"` between commas once the brackets are commas too; a quote inside a value is escaped,
		// so `,"bug",` is never part of another value.
		const listHolds = (key: string, option: string) => `instr(',' || substr(${value(key)}, 2, length(${value(key)}) - 2) || ',', ${sqlString(`,${JSON.stringify(option)},`)}) > 0`;
		dialect = {...sharedDialect, value, text: value, typed: field => value(field.key), listHolds};
		dialects.set(channel.fields, dialect);
	}

	return dialect;
}

/** What a field is ordered (and, for selects, filtered) by: option order for selects, else the value. */
export const orderKeySql = (channel: {fields: readonly Field[]}, field: Field) => orderKeyOf(sqliteDialect(channel), field);

/** Index names carry the channel id and field key; both are identifiers, so quoting suffices. */
export const orderIndexName = (channelId: string, key: string) => `items:${channelId}:${key}`;

/** The per-channel partial indexes (store/query/sql.ts channelIndexes) with SQLite's names. */
export const channelIndexes = (channel: Channel): IndexDefinition[] => indexesOf(sqliteDialect(channel), (channelId, key, use) => (use === 'order' ? orderIndexName(channelId, key) : `items:${channelId}:${key}:value`), channel);

type Fields = {id: string; fieldsByKey: Map<string, Field>; fields: Field[]};

/** Every term of a query, ANDed (store/query/sql.ts whereSql). */
export const whereSql = (channel: Fields, terms: Term[]): SqlPart => whereOf(sqliteDialect(channel), channel, terms);

export type Order = {
	sort: Sort;
	/** The sort expression; null for `id`, which orders by seq alone. */
	key: string | null;
	/** The index that yields rows in this order (forced, so the plan never depends on statistics). */
	index: string | null;
	/** The index for the items without a sort value, read by seq: the sort's own, or an equality term's (equalityField). */
	unsetIndex: string | null;
};

export function orderOf(channel: Channel & Fields, sort: Sort, terms: Term[] = []): Order {
	if (sort.key === 'id') {
		return {sort, key: null, index: null, unsetIndex: null};
	}

	// A page of one axis value walks (axis, sort key, seq): its set and unset phases alike.
	const axisKey = axisOrderKey(channel, sort.key, terms);
	const index = orderIndexName(channel.id, axisKey ?? sort.key);
	const equality = equalityField(channel, terms);
	return {sort, key: sortKeySql(sqliteDialect(channel), channel, sort.key), index, unsetIndex: axisKey || !equality ? index : orderIndexName(channel.id, equality.key)};
}

/**
 * The statements that read up to `limit` rows after `after` (null: from the first row), going
 * `forward` through the order or backward against it: one per phase (store/query/sql.ts pagePhases).
 */
export function pageStatements(channel: Channel, where: SqlPart, order: Order, forward: boolean, after: Position | null, limit: number): SqlPart[] {
	return pagePhases(sqliteDialect(channel), order.key, order.sort.descending, forward, after).map(phase => {
		const index = phase.index === 'order' ? order.index : phase.index === 'unset' ? order.unsetIndex : null;
		return {
			sql: `SELECT ${ITEM_COLUMNS}, ${order.key ?? 'NULL'} AS sort_value FROM ${index ? `items INDEXED BY "${index}"` : 'items'} WHERE ${channelScopeSql(channel.id)} AND ${phase.condition.sql}${where.sql} ORDER BY ${phase.orderBy} LIMIT ?`,
			params: [...phase.condition.params, ...where.params, limit],
		};
	});
}
