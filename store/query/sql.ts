/**
 * The query language compiled to SQL, written once for both databases: what each term means
 * (negation, `none`, select ranks, multi_select membership, text search), the keyset phases
 * that page through an order, the per-channel indexes, and the count. Each database supplies a
 * Dialect of small expressions (store/sqlite/query.ts, store/postgres/query.ts); parameters are
 * `?` here, in the order they appear in the text.
 */

import type {Channel, Field} from '../types.js';
import type {Position} from './cursor.js';
import {hasValueOrder, isLongText, isMetaKey, isShortText, isSortable, sortsAsText, type MetaKey} from './parse.js';
import type {Term} from './types.js';

export type SqlPart = {sql: string; params: unknown[]};

/** A SQL string literal, for checked ids (slugs) in either database; free text goes through Dialect.string. */
export const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Rows of one channel. Written as a literal, not a parameter: both databases use a partial index
 * only when the query's WHERE states the index's own condition.
 */
export const channelScopeSql = (channelId: string) => `channel_id = ${sqlString(channelId)}`;

/** The expressions that differ between the databases. Keys are checked identifiers (a-z, 0-9, _), so inlining them is safe. */
export type Dialect = {
	/** A string literal for any text (option values are free text). */
	string(text: string): string;
	/** The stored value as the database's JSON value: what uniqueness compares. */
	value(key: string): string;
	/** A string value as text (a select's option value). */
	text(key: string): string;
	/** What a non-select field is ordered and compared by; NULL when unset. Parenthesised. */
	typed(field: Field): string;
	/** True when the multi_select `key` holds an empty list. */
	emptyList(key: string): string;
	/**
	 * True when the multi_select `key` of the channel `channelId` holds any of `count` `?`
	 * parameters, each listValue of a value: an indexed membership test (SQLite's item_members,
	 * PostgreSQL's GIN index), so a rare value's items are found without opening every item's list.
	 */
	listHasAny(key: string, count: number, channelId: string): string;
	/** A value of a listHasAny test as its parameter. */
	listValue(value: string | number | boolean): unknown;
	/** PostgreSQL: the expression (and operator class) a channel's GIN index on the multi_select `key` holds; SQLite keeps one membership table instead. */
	memberIndex?(key: string): string;
	/** `text` with the ASCII letters lowercased (SQLite's lower(); other letters stay as they are). */
	lower(text: string): string;
	/** True when the `?` parameter (lowercase) occurs in `lowered`. */
	contains(lowered: string): string;
	/** An item's created_at or updated_at column as it is ordered and compared: its text, byte by byte. */
	meta(column: MetaKey): string;
	/** The boolean false. */
	false: string;
	/** `text` compared byte by byte (SQLite's BINARY; PostgreSQL's COLLATE "C", whatever the database's collation). */
	bytes(text: string): string;
	/**
	 * True when the multi_select `key` holds the option `value`, as an expression an index can
	 * hold (no subquery): what listRankSql is made of.
	 */
	listHolds(key: string, value: string): string;
	/**
	 * True when the long text fields `keys` (isLongText) hold a word that starts with the `?`
	 * parameter, which is `fullTextQuery` of the needle: FTS5 on SQLite, text search on PostgreSQL.
	 */
	fullText(keys: string[], channelId: string): string;
	/** The words of a bare word (wordsOf) as the parameter of fullText: in a row, the last one a prefix. */
	fullTextQuery(words: string[]): string;
	/** PostgreSQL: the expression a channel's GIN index holds for fullText over `keys`; SQLite keeps one FTS5 table instead. */
	fullTextIndex?(keys: string[]): string;
	/**
	 * PostgreSQL: short text fields get an exact index (hasExactIndex). Not SQLite: its index would
	 * read the item's JSON, and SQLite rewrites every such index on every edit of any field.
	 */
	exactIndexes?: boolean;
	/**
	 * Whether `(key, seq) > (?, ?)` seeks one range of the order's index: the rows after a position
	 * are then read in one phase, not as "the same value, later seq" and "later values".
	 */
	rowValues: boolean;
	/** True for every row whose sort key is set, written so the order's index can seek past the unset ones. */
	isSet(key: string): string;
	/** The order of the rows with an unset sort key, read by seq: `key` is constant in them (the sort key, NULL, or an equality term's). */
	unsetOrderBy(key: string, direction: 'ASC' | 'DESC'): string;
};

/** A select's position in its option list (0, 1, …); NULL when unset. */
export function rankSql(dialect: Dialect, field: Field): string {
	const cases = (field.config.options ?? []).map((option, index) => `WHEN ${dialect.string(option.value)} THEN ${index}`).join(' ');
	return `(CASE ${dialect.text(field.key)} ${cases} END)`;
}

/**
 * A multi_select's order: the position of the first of its values in option order (`labels:
 * [ui, bug]` sorts as `bug` when bug is the earlier option); NULL when empty or unset. A chain of
 * membership tests, so an index can hold it on both databases.
 */
export function listRankSql(dialect: Dialect, field: Field): string {
	const cases = (field.config.options ?? []).map((option, index) => `WHEN ${dialect.listHolds(field.key, option.value)} THEN ${index}`).join(' ');
	return cases === '' ? '(NULL)' : `(CASE ${cases} END)`;
}

/** A short text's order (sortsAsText): its exact index's key (its first EXACT_PREFIX_CHARACTERS, ASCII lowercased), byte by byte. */
export const textOrderSql = (dialect: Dialect, key: string) => dialect.bytes(exactKeySql(dialect, key));

/** What a field is ordered, compared and (for selects) filtered by: option order for selects, the first value's option for multi_selects, the lowercased prefix of short text, else the value. */
export function orderKeySql(dialect: Dialect, field: Field): string {
	if (field.type === 'select') return rankSql(dialect, field);
	if (field.type === 'multi_select') return listRankSql(dialect, field);
	if (sortsAsText(field)) return textOrderSql(dialect, field.key);
	return dialect.typed(field);
}

/** What a sort key orders by: a field's order key, or the created_at / updated_at column. */
export const sortKeySql = (dialect: Dialect, channel: {fieldsByKey: Map<string, Field>}, key: string) => (isMetaKey(key) ? dialect.meta(key) : orderKeySql(dialect, channel.fieldsByKey.get(key)!));

// ---------------------------------------------------------------------------------------------
// Indexes

/**
 * How many characters of a text field's value its exact index holds: a PostgreSQL index entry
 * must fit a third of a page (some 2.7 kB), and a title may be a megabyte; the whole value is
 * compared after the index finds the prefix.
 */
export const EXACT_PREFIX_CHARACTERS = 200;

/** What the index of a `field:=value` term holds: the first EXACT_PREFIX_CHARACTERS of the text, its ASCII letters lowercased. */
export const exactKeySql = (dialect: Dialect, key: string) => `substr(${dialect.lower(dialect.text(key))}, 1, ${EXACT_PREFIX_CHARACTERS})`;

/** A value's part the exact index holds (characters, as SQL's substr counts them, not UTF-16 units). */
const exactPrefix = (value: string) => Array.from(value).slice(0, EXACT_PREFIX_CHARACTERS).join('');

/** Text fields a `field:=value` term finds through an index on PostgreSQL (Dialect.exactIndexes): the short ones but unique (a unique field has its own). */
export const hasExactIndex = (field: Field) => isShortText(field) && !field.is_unique;

export type IndexDefinition = {name: string; sql: string};

/** The words full-text search sees in a bare word: runs of letters and digits (`log-in` is log, in). */
export const wordsOf = (needle: string): string[] => needle.match(/[\p{L}\p{N}]+/gu) ?? [];

/** How much of an item's long text full-text search indexes, in characters, on both databases (a PostgreSQL tsvector holds at most 1 MB). */
export const FULL_TEXT_CHARACTERS = 262_144;

/** How a database names a channel's index on a field: `order` serves sorts and terms, `value` uniqueness. */
export type IndexNamer = (channelId: string, key: string, use: 'order' | 'value') => string;

/**
 * A channel's triage axis: its first select field (`status` in the demo). Triage reads one value
 * of it at a time in some order (`status:new sort:due`), and the items of one value are rarely
 * spread evenly through another field's order (new bugs have no due date yet), so walking the sort
 * field's own index would pass over the rows of every other value. Such a page walks a composite
 * index instead: (axis, sort key, seq), one range per value.
 */
export const axisOf = (channel: {fields: readonly Field[]}): Field | undefined => channel.fields.find(field => field.type === 'select');

/** The index key of the composite index on the axis and a sort key: `status.due`. */
const axisIndexKey = (axisKey: string, sortKey: string) => `${axisKey}.${sortKey}`;

/**
 * The key of the composite index a page sorted by `sortKey` walks instead of the sort's own, when
 * a term keeps exactly one value of the channel's axis (`status:new`, not `status:new,triaged` or
 * `-status:new`); undefined otherwise.
 */
export function axisOrderKey(channel: {fields: readonly Field[]}, sortKey: string, terms: readonly Term[]): string | undefined {
	const axis = axisOf(channel);
	if (!axis || sortKey === 'id' || sortKey === axis.key || sortKey === 'updated_at') return undefined;
	// Text and multi_select sorts have no (axis, key, seq) index: they walk their own (channelIndexes).
	const field = channel.fields.find(candidate => candidate.key === sortKey);
	if (field && !hasValueOrder(field)) return undefined;
	const keepsOne = terms.some(term => term.kind === 'any_of' && !term.negated && term.key === axis.key && term.values.length === 1);
	return keepsOne ? axisIndexKey(axis.key, sortKey) : undefined;
}

/**
 * The partial indexes a channel's rows get: one per sortable field on (order key, seq) — it
 * serves the sorted pages, equality filters on selects and booleans, and range terms — plus one
 * on the stored value of a unique field whose order key differs (uniqueness checks), plus one per
 * sort key but updated_at on (axis, that key, seq) for a page of one axis value (axisOf), plus (on
 * PostgreSQL) one per short text field on its lowercased whole value (hasExactIndex). Each covers only that
 * channel's rows, so no channel's data can break another's writes.
 */
export function channelIndexes(dialect: Dialect, nameOf: IndexNamer, channel: Channel): IndexDefinition[] {
	const scope = channelScopeSql(channel.id);
	const indexes: IndexDefinition[] = [];
	const add = (name: string, expression: string) => indexes.push({name, sql: `CREATE INDEX IF NOT EXISTS "${name}" ON items(${expression}, seq) WHERE ${scope}`});
	// sort:created and sort:-updated, and created:/updated: terms, walk these.
	for (const column of ['created_at', 'updated_at'] as const) {
		add(nameOf(channel.id, column, 'order'), dialect.meta(column));
	}

	for (const field of channel.fields) {
		if (isSortable(field)) {
			add(nameOf(channel.id, field.key, 'order'), orderKeySql(dialect, field));
		}

		if (field.is_unique && (!isSortable(field) || orderKeySql(dialect, field) !== dialect.value(field.key))) {
			add(nameOf(channel.id, field.key, 'value'), dialect.value(field.key));
		}
	}

	// `author:=ren`: the short text fields' whole values, so an exact match reads its items in seq order.
	for (const field of dialect.exactIndexes ? channel.fields.filter(hasExactIndex) : []) {
		add(nameOf(channel.id, `${field.key}:exact`, 'order'), exactKeySql(dialect, field.key));
	}

	const axis = axisOf(channel);
	if (axis) {
		const axisKey = orderKeySql(dialect, axis);
		// Not updated_at: every edit moves it, and would rewrite this index too.
		add(nameOf(channel.id, axisIndexKey(axis.key, 'created_at'), 'order'), `${axisKey}, ${dialect.meta('created_at')}`);
		for (const field of channel.fields) {
			if (field !== axis && hasValueOrder(field)) add(nameOf(channel.id, axisIndexKey(axis.key, field.key), 'order'), `${axisKey}, ${orderKeySql(dialect, field)}`);
		}
	}

	// PostgreSQL: each multi_select's values, for membership terms (listHasAny).
	if (dialect.memberIndex) {
		for (const field of channel.fields.filter(candidate => candidate.type === 'multi_select')) {
			const name = nameOf(channel.id, `${field.key}:members`, 'order');
			indexes.push({name, sql: `CREATE INDEX IF NOT EXISTS "${name}" ON items USING gin (${dialect.memberIndex(field.key)}) WHERE ${scope}`});
		}
	}

	// PostgreSQL: the long text's words, for bare words (fullText); the index follows every write by itself.
	const long = channel.fields.filter(isLongText).map(field => field.key);
	if (dialect.fullTextIndex && long.length > 0) {
		// ':words': the index of words cut as SQLite cuts them (store/postgres/query.ts pgTextVector); ':text' named the parser's own words.
		const name = nameOf(channel.id, ':words', 'order');
		indexes.push({name, sql: `CREATE INDEX IF NOT EXISTS "${name}" ON items USING gin (${dialect.fullTextIndex(long)}) WHERE ${scope}`});
	}

	return indexes;
}

// ---------------------------------------------------------------------------------------------
// Terms

type Fields = {id: string; fieldsByKey: Map<string, Field>; fields: Field[]};

const placeholders = (count: number) => Array.from({length: count}, () => '?').join(', ');

/** Every term, ANDed, each with a leading ` AND `; '' when there are none. */
export function whereSql(dialect: Dialect, channel: Fields, terms: Term[]): SqlPart {
	const parts = terms.map(term => termSql(dialect, channel, term));
	return {sql: parts.map(part => ` AND ${part.sql}`).join(''), params: parts.flatMap(part => part.params)};
}

function termSql(dialect: Dialect, channel: Fields, term: Term): SqlPart {
	const positive = positiveSql(dialect, channel, term);
	// NOT of an unknown (a missing value) is still unknown: count it as "does not match", so that
	// `-status:fixed` keeps the items with no status.
	return term.negated ? {sql: `NOT coalesce(${positive.sql}, ${dialect.false})`, params: positive.params} : positive;
}

function positiveSql(dialect: Dialect, channel: Fields, term: Term): SqlPart {
	if (term.kind === 'has_followup') {
		return {sql: "EXISTS (SELECT 1 FROM followups WHERE followups.item_id = items.id AND followups.status = 'open')", params: []};
	}

	if (term.kind === 'has_proposal') {
		return {sql: "EXISTS (SELECT 1 FROM proposals WHERE proposals.item_id = items.id AND proposals.status = 'open')", params: []};
	}

	if (term.kind === 'words') {
		// A substring of the short text fields, or a word of the long ones (full-text search).
		const short = containsSql(dialect, channel.fields.filter(isShortText).map(field => field.key), [term.needle]);
		const long = channel.fields.filter(isLongText).map(field => field.key);
		const words = wordsOf(term.needle);
		if (long.length === 0 || words.length === 0) return short;
		return {sql: `(${short.sql} OR ${dialect.fullText(long, channel.id)})`, params: [...short.params, dialect.fullTextQuery(words)]};
	}

	if (isMetaKey(term.key)) {
		return metaTermSql(dialect, term);
	}

	const field = channel.fieldsByKey.get(term.key)!;
	const key = orderKeySql(dialect, field);
	switch (term.kind) {
		case 'none': {
			if (field.type === 'multi_select') return {sql: `(${dialect.value(field.key)} IS NULL OR ${dialect.emptyList(field.key)})`, params: []};
			return {sql: `${key} IS NULL`, params: []};
		}

		case 'contains': {
			return containsSql(dialect, [field.key], term.needles);
		}

		case 'equals': {
			// The indexed prefix finds the candidates; the whole value decides.
			const list = placeholders(term.values.length);
			return {sql: `(${exactKeySql(dialect, field.key)} IN (${list}) AND ${dialect.lower(dialect.text(field.key))} IN (${list}))`, params: [...term.values.map(exactPrefix), ...term.values]};
		}

		case 'compare': {
			return {sql: `${key} ${term.op} ?`, params: [term.value]};
		}

		case 'range': {
			return {sql: `${key} BETWEEN ? AND ?`, params: [term.low, term.high]};
		}

		case 'any_of': {
			return anyOfSql(dialect, channel, field, term.values);
		}
	}
}

/** A created:/updated: term: a comparison or range on the timestamp column (the parser gives no other kind). */
function metaTermSql(dialect: Dialect, term: Term & {key: string}): SqlPart {
	const column = dialect.meta(term.key as MetaKey);
	if (term.kind === 'compare') return {sql: `${column} ${term.op} ?`, params: [term.value]};
	if (term.kind === 'range') return {sql: `${column} BETWEEN ? AND ?`, params: [term.low, term.high]};
	throw new Error(`a ${term.kind} term on ${term.key}`);
}

function anyOfSql(dialect: Dialect, channel: Fields, field: Field, values: Array<string | number | boolean>): SqlPart {
	if (field.type === 'select') {
		// By rank, so the query uses the field's order index.
		const options = field.config.options ?? [];
		const ranks = values.map(value => options.findIndex(option => option.value === value));
		return {sql: `${rankSql(dialect, field)} IN (${ranks.join(', ')})`, params: []};
	}

	if (field.type === 'multi_select') {
		return {sql: dialect.listHasAny(field.key, values.length, channel.id), params: values.map(value => dialect.listValue(value))};
	}

	// Booleans are ordered as 0 and 1.
	const bound = values.map(value => (typeof value === 'boolean' ? Number(value) : value));
	return {sql: `${orderKeySql(dialect, field)} IN (${placeholders(bound.length)})`, params: bound};
}

/** Any of `needles` (lowercase) inside any of the text fields `keys`, ignoring case. */
function containsSql(dialect: Dialect, keys: string[], needles: string[]): SqlPart {
	if (keys.length === 0) {
		return {sql: dialect.false, params: []};
	}

	const tests = keys.flatMap(key => needles.map(() => dialect.contains(dialect.lower(dialect.text(key)))));
	return {sql: `(${tests.join(' OR ')})`, params: keys.flatMap(() => needles)};
}

// ---------------------------------------------------------------------------------------------
// Keyset paging

/**
 * One index range of a page read: its condition, its order, and which index walks it (`order`:
 * the sort's own; `unset`: the one for the items without a sort value).
 */
export type Phase = {condition: SqlPart; orderBy: string; index: 'order' | 'unset' | null};

/**
 * The phases that read the rows after `after` (null: from the first row), going `forward`
 * through the order or backward against it. The order is (key, seq), unset keys last; seq breaks
 * ties in the key's direction; `key` null is the `id` order (seq alone). Unset keys are read in a
 * phase of their own so that each phase walks one index range, in either direction: a page costs
 * the same at any depth. `unsetKey` is the index key the unset phase walks (equalityTerm).
 */
export function pagePhases(dialect: Dialect, key: string | null, descending: boolean, forward: boolean, after: Position | null, unsetKey: string = key ?? ''): Phase[] {
	const reversed = descending === forward;
	const direction = reversed ? 'DESC' : 'ASC';
	const beyond = reversed ? '<' : '>';
	const bySeq = `seq ${direction}`;
	if (key === null) {
		return [{condition: after ? {sql: `seq ${beyond} ?`, params: [after.seq]} : {sql: '1 = 1', params: []}, orderBy: bySeq, index: null}];
	}

	const byKey = `${key} ${direction}, seq ${direction}`;
	const sameValue = (position: Position): Phase => ({condition: {sql: `${key} = ? AND seq ${beyond} ?`, params: [position.value, position.seq]}, orderBy: bySeq, index: 'order'});
	const laterValues = (position: Position): Phase => ({condition: {sql: `${key} ${beyond} ?`, params: [position.value]}, orderBy: byKey, index: 'order'});
	const setAfter = (position: Position): Phase[] => (dialect.rowValues
		? [{condition: {sql: `(${key}, seq) ${beyond} (?, ?)`, params: [position.value, position.seq]}, orderBy: byKey, index: 'order'}]
		: [sameValue(position), laterValues(position)]);
	const allValues: Phase = {condition: {sql: dialect.isSet(key), params: []}, orderBy: byKey, index: 'order'};
	const unset = (position: Position | null): Phase => ({
		condition: position ? {sql: `${key} IS NULL AND seq ${beyond} ?`, params: [position.seq]} : {sql: `${key} IS NULL`, params: []},
		orderBy: dialect.unsetOrderBy(unsetKey, direction),
		index: 'unset',
	});
	// Unset values come last in the order, so first when reading against it.
	if (!after) {
		return forward ? [allValues, unset(null)] : [unset(null), allValues];
	}

	if (after.value === null) {
		return forward ? [unset(after)] : [unset(after), allValues];
	}

	return forward ? [...setAfter(after), unset(null)] : setAfter(after);
}

/**
 * A `field:value` term on a select or boolean: its field's index holds the items it accepts in seq
 * order, so the unset phase of a sort can walk that instead of the sort's own (which would pass
 * over every unset item the term rejects: `owner:aiko sort:due` when no item of aiko's lacks a due date).
 */
export function equalityField(channel: Fields, terms: Term[]): Field | undefined {
	const term = terms.find(candidate => candidate.kind === 'any_of' && !candidate.negated && candidate.values.length === 1 && ['select', 'boolean'].includes(channel.fieldsByKey.get(candidate.key)!.type));
	return term && 'key' in term ? channel.fieldsByKey.get(term.key) : undefined;
}

/** The statement that counts what a query's terms match. */
export function countStatement(channelId: string, where: SqlPart): SqlPart {
	return {sql: `SELECT count(*) AS n FROM items WHERE ${channelScopeSql(channelId)}${where.sql}`, params: where.params};
}
