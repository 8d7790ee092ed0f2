/**
 * The query language compiled for SQLite: the WHERE clause of a query's terms, the order of its
 * sort, the keyset conditions that page through that order, and the per-channel indexes that
 * make every page cost the same at any depth. (A PostgreSQL compiler can sit beside this one.)
 */

import type {Channel, Field} from '../types.js';
import type {Sort, Term} from './types.js';
import {isShortText, isSortable} from './parse.js';

export type SqlPart = {sql: string; params: unknown[]};

/** A SQL string literal. */
export const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** SQL for a stored value; keys are checked identifiers (a-z, 0-9, _), so inlining them is safe. */
export const valueSql = (key: string) => `json_extract(data, '$.${key}')`;

/**
 * Rows of one channel. Written as a literal, not a parameter: SQLite uses a partial index only
 * when the query's WHERE states the index's own condition.
 */
export const channelScopeSql = (channelId: string) => `channel_id = ${sqlString(channelId)}`;

/** A select's position in its option list (0, 1, …); NULL when unset. */
export function rankSql(field: Field): string {
	const cases = (field.config.options ?? []).map((option, index) => `WHEN ${sqlString(option.value)} THEN ${index}`).join(' ');
	return `(CASE ${valueSql(field.key)} ${cases} END)`;
}

/** What a field is ordered (and, for selects, filtered) by: option order for selects, else the value. */
export const orderKeySql = (field: Field) => (field.type === 'select' ? rankSql(field) : valueSql(field.key));

// ---------------------------------------------------------------------------------------------
// Indexes

export type IndexDefinition = {name: string; sql: string};

/** Index names carry the channel id and field key; both are identifiers, so quoting suffices. */
export const orderIndexName = (channelId: string, key: string) => `items:${channelId}:${key}`;
const valueIndexName = (channelId: string, key: string) => `items:${channelId}:${key}:value`;

/**
 * The partial indexes a channel's rows get: one per sortable field on (order key, seq) — it
 * serves the sorted pages, equality filters on selects and booleans, and range terms — plus one
 * on the stored value of a unique field whose order key differs (uniqueness checks). Each covers
 * only that channel's rows, so no channel's data can break another's writes.
 */
export function channelIndexes(channel: Channel): IndexDefinition[] {
	const scope = channelScopeSql(channel.id);
	const indexes: IndexDefinition[] = [];
	const add = (name: string, expression: string) => indexes.push({name, sql: `CREATE INDEX IF NOT EXISTS "${name}" ON items(${expression}, seq) WHERE ${scope}`});
	for (const field of channel.fields) {
		if (isSortable(field)) {
			add(orderIndexName(channel.id, field.key), orderKeySql(field));
		}

		if (field.is_unique && (!isSortable(field) || orderKeySql(field) !== valueSql(field.key))) {
			add(valueIndexName(channel.id, field.key), valueSql(field.key));
		}
	}

	return indexes;
}

// ---------------------------------------------------------------------------------------------
// Terms

type Fields = {fieldsByKey: Map<string, Field>; fields: Field[]};

const placeholders = (count: number) => Array.from({length: count}, () => '?').join(', ');

/** Every term, ANDed; '' when there are none. */
export function whereSql(channel: Fields, terms: Term[]): SqlPart {
	const parts = terms.map(term => termSql(channel, term));
	return {sql: parts.map(part => ` AND ${part.sql}`).join(''), params: parts.flatMap(part => part.params)};
}

function termSql(channel: Fields, term: Term): SqlPart {
	const positive = positiveSql(channel, term);
	// NOT of an unknown (a missing value) is still unknown: count it as "does not match", so that
	// `-status:fixed` keeps the items with no status.
	return term.negated ? {sql: `NOT coalesce(${positive.sql}, 0)`, params: positive.params} : positive;
}

function positiveSql(channel: Fields, term: Term): SqlPart {
	if (term.kind === 'has_followup') {
		return {sql: "EXISTS (SELECT 1 FROM followups WHERE followups.item_id = items.id AND followups.status = 'open')", params: []};
	}

	if (term.kind === 'words') {
		return containsSql(channel.fields.filter(isShortText).map(field => valueSql(field.key)), [term.needle]);
	}

	const field = channel.fieldsByKey.get(term.key)!;
	const value = valueSql(field.key);
	switch (term.kind) {
		case 'none': {
			if (field.type === 'multi_select') return {sql: `(${value} IS NULL OR json_array_length(data, '$.${field.key}') = 0)`, params: []};
			return {sql: `${orderKeySql(field)} IS NULL`, params: []};
		}

		case 'contains': {
			return containsSql([value], term.needles);
		}

		case 'compare': {
			return {sql: `${value} ${term.op} ?`, params: [term.value]};
		}

		case 'range': {
			return {sql: `${value} BETWEEN ? AND ?`, params: [term.low, term.high]};
		}

		case 'any_of': {
			return anyOfSql(field, term.values);
		}
	}
}

function anyOfSql(field: Field, values: Array<string | number | boolean>): SqlPart {
	if (field.type === 'select') {
		// By rank, so the query uses the field's order index.
		const options = field.config.options ?? [];
		const ranks = values.map(value => options.findIndex(option => option.value === value));
		return {sql: `${rankSql(field)} IN (${ranks.join(', ')})`, params: []};
	}

	if (field.type === 'multi_select') {
		return {sql: `EXISTS (SELECT 1 FROM json_each(items.data, '$.${field.key}') WHERE json_each.value IN (${placeholders(values.length)}))`, params: values};
	}

	const bound = values.map(value => (typeof value === 'boolean' ? Number(value) : value));
	return {sql: `${valueSql(field.key)} IN (${placeholders(bound.length)})`, params: bound};
}

/** Any of `needles` (lowercase) inside any of `columns`, ignoring case. */
function containsSql(columns: string[], needles: string[]): SqlPart {
	if (columns.length === 0) {
		return {sql: '0', params: []};
	}

	const tests = columns.flatMap(column => needles.map(() => `instr(lower(${column}), ?) > 0`));
	return {sql: `(${tests.join(' OR ')})`, params: columns.flatMap(() => needles)};
}

// ---------------------------------------------------------------------------------------------
// Orders and keyset paging

/** Where a page starts: after the item with this sort value (null: an unset value) and seq. */
export type Position = {value: number | string | null; seq: number};

export type Order = {
	sort: Sort;
	/** The sort expression; null for `id`, which orders by seq alone. */
	key: string | null;
	/** The index that yields rows in this order (forced, so the plan never depends on statistics). */
	index: string | null;
	/**
	 * The index for the items without a sort value, read by seq: the sort's own, or that of a
	 * `field:value` term on a select or boolean when there is one — it skips the unset items the
	 * term would reject (`owner:aiko sort:due` when no item of aiko's lacks a due date).
	 */
	unsetIndex: string | null;
};

export function orderOf(channel: Channel & Fields, sort: Sort, terms: Term[] = []): Order {
	if (sort.key === 'id') {
		return {sort, key: null, index: null, unsetIndex: null};
	}

	const field = channel.fieldsByKey.get(sort.key)!;
	const index = orderIndexName(channel.id, field.key);
	const equality = terms.find(term => term.kind === 'any_of' && !term.negated && term.values.length === 1 && ['select', 'boolean'].includes(channel.fieldsByKey.get(term.key)!.type));
	return {sort, key: orderKeySql(field), index, unsetIndex: equality && 'key' in equality ? orderIndexName(channel.id, equality.key) : index};
}

type Phase = {condition: SqlPart; orderBy: string; index?: string | null};

/**
 * The statements that read up to `limit` rows after `after` (null: from the first row), going
 * `forward` through the order or backward against it. The order is (key, seq), unset keys last;
 * seq breaks ties in the key's direction. Unset keys are read in a phase of their own so that
 * both phases walk one index range, in either direction.
 */
export function pageStatements(channelId: string, where: SqlPart, order: Order, forward: boolean, after: Position | null, limit: number): SqlPart[] {
	const descending = order.sort.descending === forward;
	const direction = descending ? 'DESC' : 'ASC';
	const beyond = descending ? '<' : '>';
	const select = (phase: Phase): SqlPart => ({
		sql: `SELECT items.*, ${order.key ?? 'NULL'} AS sort_value FROM ${phase.index ? `items INDEXED BY "${phase.index}"` : 'items'} WHERE ${channelScopeSql(channelId)} AND ${phase.condition.sql}${where.sql} ORDER BY ${phase.orderBy} LIMIT ?`,
		params: [...phase.condition.params, ...where.params, limit],
	});
	if (order.key === null) {
		return [select({condition: after ? {sql: `seq ${beyond} ?`, params: [after.seq]} : {sql: '1', params: []}, orderBy: `seq ${direction}`, index: null})];
	}

	const key = order.key;
	const bySeq = `seq ${direction}`;
	const byKey = `${key} ${direction}, seq ${direction}`;
	// Each phase is one seek into the order's index, so a page costs the same at any depth.
	const sameValue = (position: Position): Phase => ({condition: {sql: `${key} = ? AND seq ${beyond} ?`, params: [position.value, position.seq]}, orderBy: bySeq, index: order.index});
	const laterValues = (position: Position): Phase => ({condition: {sql: `${key} ${beyond} ?`, params: [position.value]}, orderBy: byKey, index: order.index});
	// "Set" as a range (every number and string is >= -infinity), so SQLite seeks past the unset
	// values instead of scanning them.
	const allValues: Phase = {condition: {sql: `${key} >= -9e999`, params: []}, orderBy: byKey, index: order.index};
	// Ordered by seq alone: ordering by the (constant) key as well makes SQLite sort every unset row.
	const unset = (position: Position | null): Phase => ({condition: position ? {sql: `${key} IS NULL AND seq ${beyond} ?`, params: [position.seq]} : {sql: `${key} IS NULL`, params: []}, orderBy: bySeq, index: order.unsetIndex});
	// Unset values come last in the order, so first when reading against it.
	let phases: Phase[];
	if (!after) {
		phases = forward ? [allValues, unset(null)] : [unset(null), allValues];
	} else if (after.value === null) {
		phases = forward ? [unset(after)] : [unset(after), allValues];
	} else {
		phases = forward ? [sameValue(after), laterValues(after), unset(null)] : [sameValue(after), laterValues(after)];
	}

	return phases.map(select);
}

/** The statement that counts what a query's terms match. */
export function countStatement(channelId: string, where: SqlPart): SqlPart {
	return {sql: `SELECT count(*) AS n FROM items WHERE ${channelScopeSql(channelId)}${where.sql}`, params: where.params};
}
