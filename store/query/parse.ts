/**
 * The query language (docs/reference.md#query-language), parsed against one channel's schema.
 * Pure: no SQL and no clock of its own (relative dates are taken from `now`).
 *
 *   field:value   field:a,b   -field:value   field:none   field:>5   field:<=2026-12-07   text:=whole
 *   field:1..3    due:<today  due:<+7d       has:followup has:proposal "two words"   bare words
 *   sort:field    sort:-field
 */

import {allowedOf, optionNamed} from '../fields/choice.js';
import type {Field, FieldType} from '../types.js';
import {DATE_FORMS, orList, resolveDate} from './dates.js';
import {tokenize, type Token} from './tokens.js';
import {normalizeTimestamp} from '../timestamps.js';
import {DEFAULT_SORT, type Query, type QueryRefusal, type Sort, type Term, type TermValue} from './types.js';

type ChannelSchema = {fields: Field[]};

const NUMERIC_TYPES = new Set<FieldType>(['number', 'currency', 'percentage', 'rating']);
const TEXT_TYPES = new Set<FieldType>(['text', 'email', 'url', 'phone']);
/** Types ordered by their stored value (select fields by option order instead). */
const ORDERED_TYPES = new Set<FieldType>([...NUMERIC_TYPES, 'date']);

/** The text fields bare words search: short ones (not long text), and unique ones. A channel as written (not yet checked) may leave out a field's config. */
export const isShortText = (field: Field) => ['text', 'email', 'url'].includes(field.type) && (field.config?.long !== true || field.is_unique);

/** Text fields a query's bare words search by word (full-text search), not as a substring: the long ones. A channel as written (not yet checked) may leave out a field's config. */
export const isLongText = (field: Field) => ['text', 'email', 'url'].includes(field.type) && field.config?.long === true && !field.is_unique;

/**
 * Fields with an order of their own: select (option order), boolean, numbers, dates, and unique
 * text (its bytes). A page of one axis value walks (axis, field, seq) for these (store/query/sql.ts).
 */
export const hasValueOrder = (field: Field) => field.type === 'select' || field.type === 'boolean' || ORDERED_TYPES.has(field.type) || (TEXT_TYPES.has(field.type) && field.is_unique === true);

/**
 * Short text that is not unique (`title`, `author`): sorted by its first EXACT_PREFIX_CHARACTERS
 * characters with the ASCII letters lowercased, ties by creation (store/query/sql.ts textOrderSql).
 */
export const sortsAsText = (field: Field) => TEXT_TYPES.has(field.type) && field.is_unique !== true && field.config?.long !== true;

/**
 * Fields a page can be sorted by: each has an index for it, so every page costs the same at any
 * depth. Long text is not sortable; a multi_select sorts by the first of its values in option
 * order (store/query/sql.ts listRankSql).
 */
export const isSortable = (field: Field) => hasValueOrder(field) || sortsAsText(field) || field.type === 'multi_select';

/** Fields a term can name: everything stored (formulas are computed on read, so not queryable). */
const isQueryable = (field: Field) => field.type !== 'formula';

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * Item metadata a query can sort by and compare with, by the names a query writes: when an item was
 * created and when it last changed. A channel's own field of that name comes first.
 */
export const META_KEYS: Readonly<Record<string, MetaKey>> = {created: 'created_at', created_at: 'created_at', updated: 'updated_at', updated_at: 'updated_at'};
export type MetaKey = 'created_at' | 'updated_at';
/** True for the keys of metadata terms and sorts (never a field key: both names are reserved). */
export const isMetaKey = (key: string): key is MetaKey => key === 'created_at' || key === 'updated_at';
/** The metadata column a query name stands for (own names only: `__proto__` is no name). */
const metaNamed = (name: string): MetaKey | undefined => (Object.hasOwn(META_KEYS, name) ? META_KEYS[name] : undefined);
/** The last moment of a day in the store's timestamp form, so `<=` and ranges include the whole day. */
const endOfDay = (day: string) => `${day}T23:59:59.999Z`;

/** ASCII letters lowercased, the rest as it is: what both databases' lower() of an exact match does (store/query/sql.ts Dialect.lower). */
const asciiLower = (text: string) => text.replaceAll(/[A-Z]+/g, letters => letters.toLowerCase());

class Refused {
	constructor(readonly body: QueryRefusal) {}
}

/**
 * The most terms one query takes. Every term is a condition of the one statement: SQLite refuses
 * an expression tree deeper than 1000, and PostgreSQL's planning time grows with each term, so
 * both backends refuse past this bound alike, well before either limit.
 */
export const MAX_QUERY_TERMS = 100;

/**
 * The most values one term's list takes (`labels:a,b,…`). A text field's list is one condition
 * per value: SQLite refuses its expression tree near a thousand, PostgreSQL plans each; both
 * backends refuse past this bound alike.
 */
export const MAX_LIST_VALUES = 500;

export type ParseOptions = {
	/** The moment relative dates (`today`, `+7d`) count from; its local calendar day is "today". */
	now?: Date;
};

/** Parses `text` for `channel`: the query, or a refusal naming the first bad term. */
export function parseQuery(text: string, channel: ChannelSchema, options: ParseOptions = {}): Query | QueryRefusal {
	const tokens = tokenize(text);
	if (!Array.isArray(tokens)) {
		return {error: 'bad_query', term: tokens.raw, message: `${tokens.raw} ${tokens.message}`};
	}

	if (tokens.length > MAX_QUERY_TERMS) {
		return {error: 'bad_query', term: tokens[MAX_QUERY_TERMS]!.raw, message: `a query takes at most ${MAX_QUERY_TERMS} terms, got ${tokens.length}`};
	}

	const parser = new TermParser(channel, options.now ?? new Date());
	try {
		const terms: Term[] = [];
		let sort: Sort | undefined;
		for (const token of tokens) {
			if (token.key === 'sort' && !token.negated) {
				if (sort) {
					throw parser.refuse(token, 'a query takes one sort term');
				}

				sort = parser.sort(token);
			} else {
				terms.push(parser.term(token));
			}
		}

		return {terms, sort: sort ?? DEFAULT_SORT};
	} catch (error) {
		if (error instanceof Refused) {
			return error.body;
		}

		throw error;
	}
}

export const isRefusal = (parsed: Query | QueryRefusal): parsed is QueryRefusal => 'error' in parsed;

class TermParser {
	private readonly fields: Map<string, Field>;

	constructor(private readonly channel: ChannelSchema, private readonly now: Date) {
		this.fields = new Map(channel.fields.map(field => [field.key, field]));
	}

	refuse(token: Token, message: string, extra: Pick<QueryRefusal, 'known' | 'allowed'> = {}): Refused {
		return new Refused({error: 'bad_query', term: token.raw, message, ...extra});
	}

	sort(token: Token): Sort {
		const descending = token.value.startsWith('-');
		const key = (descending ? token.value.slice(1) : token.value).toLowerCase();
		const sortable = ['id', ...this.channel.fields.filter(isSortable).map(field => field.key)];
		const meta = this.fields.has(key) ? undefined : metaNamed(key);
		if (meta) {
			return {key: meta, descending};
		}

		if (!sortable.includes(key)) {
			sortable.push('created', 'updated');
			const field = this.fields.get(key);
			const why = field ? `${key} cannot be sorted (a ${field.type === 'text' && field.config?.long === true ? 'long text' : field.type} field)` : `${key} is not a field of this channel`;
			throw this.refuse(token, `${why}; sortable: ${sortable.join(', ')}`, {known: sortable});
		}

		return {key, descending};
	}

	term(token: Token): Term {
		const {negated} = token;
		if (token.key === null) {
			return {kind: 'words', needle: token.value.toLowerCase(), negated};
		}

		if (token.key === 'sort') {
			throw this.refuse(token, 'a sort term cannot be negated; write sort:-field for descending order');
		}

		if (token.key === 'has' && !this.fields.has('has')) {
			const what = token.value.toLowerCase();
			if (what === 'proposal' || what === 'proposals') {
				return {kind: 'has_proposal', negated};
			}

			if (what !== 'followup' && what !== 'followups') {
				throw this.refuse(token, `has: takes followup or proposal, got "${token.value}"`, {known: ['followup', 'proposal']});
			}

			return {kind: 'has_followup', negated};
		}

		const field = this.fields.get(token.key);
		const meta = field ? undefined : metaNamed(token.key);
		if (meta) {
			return this.metaTerm(token, meta);
		}

		if (!field || !isQueryable(field)) {
			const known = [...this.channel.fields.filter(isQueryable).map(candidate => candidate.key), 'created', 'updated', 'has', 'sort'];
			const why = field ? `${token.key} is a formula field, computed when read, and cannot be queried` : `${token.key} is not a field of this channel`;
			throw this.refuse(token, `${why}; known: ${known.join(', ')}`, {known});
		}

		if (!token.quoted && token.value.toLowerCase() === 'none') {
			return {kind: 'none', key: field.key, negated};
		}

		return this.valueTerm(token, field);
	}

	/**
	 * `created:>-7d`, `updated:<2026-01-01`, `created:2026-03-01..2026-03-31`, `created:2026-03-05`:
	 * whole UTC days (a date means all of it), or exact ISO date-times. Compared as the stored
	 * timestamps' text, which sorts as time.
	 */
	private metaTerm(token: Token, key: MetaKey): Term {
		const {negated, value} = token;
		const comparison = token.quoted ? null : /^(<=|>=|<|>)(.*)$/.exec(value);
		const range = token.quoted ? -1 : value.indexOf('..');
		if (comparison) {
			const op = comparison[1] as '<' | '<=' | '>' | '>=';
			const bound = this.moment(token, comparison[2]!);
			// `<= day` and `> day` mean up to and past the end of that day.
			const text = bound.day && (op === '<=' || op === '>') ? endOfDay(bound.text) : bound.text;
			return {kind: 'compare', key, op, value: text, negated};
		}

		const [lowText, highText] = range >= 0 ? [value.slice(0, range), value.slice(range + 2)] : [value, value];
		const low = this.moment(token, lowText);
		const high = this.moment(token, highText);
		return {kind: 'range', key, low: low.text, high: high.day ? endOfDay(high.text) : high.text, negated};
	}

	/** A day (YYYY-MM-DD, today, -7d, …) or an exact ISO date-time, in the stored timestamps' form. */
	private moment(token: Token, text: string): {text: string; day: boolean} {
		const day = resolveDate(text, this.now);
		if (day !== null) {
			return {text: day, day: true};
		}

		const exact = text.includes('T') ? normalizeTimestamp(text.toUpperCase()) : undefined;
		if (exact === undefined) {
			throw this.refuse(token, `${token.key} takes a day (${orList(DATE_FORMS)}) or an ISO date-time such as 2026-01-31T09:30:00Z, with <, <=, >, >= or a..b; got "${text}"`);
		}

		return {text: exact, day: false};
	}

	private valueTerm(token: Token, field: Field): Term {
		const {negated, value} = token;
		const comparison = token.quoted ? null : /^(<=|>=|<|>)(.*)$/.exec(value);
		const range = token.quoted ? -1 : value.indexOf('..');
		if (comparison || range >= 0) {
			if (!ORDERED_TYPES.has(field.type)) {
				throw this.refuse(token, `${field.key} is a ${field.type} field; comparisons and ranges work on number, currency, percentage, rating and date fields`);
			}

			if (comparison) {
				return {kind: 'compare', key: field.key, op: comparison[1] as '<', value: this.orderedValue(token, field, comparison[2]!), negated};
			}

			const low = this.orderedValue(token, field, value.slice(0, range));
			const high = this.orderedValue(token, field, value.slice(range + 2));
			return {kind: 'range', key: field.key, low, high, negated};
		}

		const {parts} = token;
		if (parts.length > MAX_LIST_VALUES) {
			throw this.refuse(token, `${field.key} takes at most ${MAX_LIST_VALUES} values in one list, got ${parts.length}`);
		}

		if (parts.some(part => part === '')) {
			throw this.refuse(token, `${field.key} has an empty value in its list`);
		}

		if (TEXT_TYPES.has(field.type)) {
			// `author:=ren`: the whole value, which an index finds (a substring is found only by reading every item).
			if (/^-?[^:]+:=/.test(token.raw)) {
				const values = [parts[0]!.slice(1), ...parts.slice(1)];
				if (values.some(part => part === '')) throw this.refuse(token, `${field.key}:= takes the whole value to match, got none`);
				return {kind: 'equals', key: field.key, values: values.map(asciiLower), negated};
			}

			return {kind: 'contains', key: field.key, needles: parts.map(part => part.toLowerCase()), negated};
		}

		if (field.type === 'file' || field.type === 'json') {
			throw this.refuse(token, `${field.key} is a ${field.type} field; it can only be tested with ${field.key}:none`);
		}

		const values = parts.map(part => this.exactValue(token, field, part));
		return {kind: 'any_of', key: field.key, values, negated};
	}

	private exactValue(token: Token, field: Field, text: string): TermValue {
		switch (field.type) {
			case 'select':
			case 'multi_select': {
				return this.option(token, field, text);
			}

			case 'boolean': {
				const lower = text.toLowerCase();
				if (lower !== 'true' && lower !== 'false') {
					throw this.refuse(token, `${field.key} is a boolean field: use true, false or none, got "${text}"`);
				}

				return lower === 'true';
			}

			case 'relation': {
				return text;
			}

			default: {
				return this.orderedValue(token, field, text);
			}
		}
	}

	/** An option by its value, or else by its label, case-insensitive either way. */
	private option(token: Token, field: Field, text: string): string {
		const match = optionNamed(field, text);
		if (!match) {
			const allowed = allowedOf(field);
			throw this.refuse(token, `"${text}" is not an option of ${field.key}; allowed: ${allowed.map(option => `${option.value} (${option.label})`).join(', ')}`, {allowed});
		}

		return match.value;
	}

	/** A number for numeric fields, an ISO date (absolute or relative to now) for dates. */
	private orderedValue(token: Token, field: Field, text: string): number | string {
		if (field.type === 'date') {
			const date = resolveDate(text, this.now);
			if (date === null) {
				throw this.refuse(token, `${field.key} is a date field: use ${orList(DATE_FORMS)}, got "${text}"`);
			}

			return date;
		}

		if (!NUMBER.test(text)) {
			throw this.refuse(token, `${field.key} is a ${field.type} field: use a number, got "${text}"`);
		}

		return Number(text);
	}
}
