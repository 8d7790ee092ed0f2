/**
 * A parsed query (docs/reference.md#query-language): terms that must all hold, and one order.
 * Pure data, no SQL: a compiler per database turns it into a statement.
 */

/** A value a term compares with: option values are already resolved from labels. */
export type TermValue = string | number | boolean;

export type Term =
	/** The field holds one of the values (a multi_select holds any of them). */
	| {kind: 'any_of'; key: string; values: TermValue[]; negated: boolean}
	/** Case-insensitive substring of one text field: any of the needles (already lowercase). */
	| {kind: 'contains'; key: string; needles: string[]; negated: boolean}
	/** `field:=value`: the whole of one text field is one of the values, ignoring the case of ASCII letters (values already so lowercased); indexed. */
	| {kind: 'equals'; key: string; values: string[]; negated: boolean}
	/** The field is empty: no value (or an empty multi_select). */
	| {kind: 'none'; key: string; negated: boolean}
	| {kind: 'compare'; key: string; op: '<' | '<=' | '>' | '>='; value: number | string; negated: boolean}
	/** Both ends included. */
	| {kind: 'range'; key: string; low: number | string; high: number | string; negated: boolean}
	/** The item has an open follow-up. */
	| {kind: 'has_followup'; negated: boolean}
	/** The item has an open proposal (docs/review.md). */
	| {kind: 'has_proposal'; negated: boolean}
	/** Case-insensitive substring of any short text field (the needle is already lowercase). */
	| {kind: 'words'; needle: string; negated: boolean};

/** `id` orders by creation; descending is newest first. */
export type Sort = {key: string; descending: boolean};

export type Query = {terms: Term[]; sort: Sort};

export const DEFAULT_SORT: Sort = {key: 'id', descending: true};

/** How a refused term is reported: the term, what is wrong, and what would have been accepted. */
export type QueryRefusal = {
	error: 'bad_query';
	term: string;
	message: string;
	known?: string[];
	allowed?: Array<{value: string; label: string}>;
};

/** The name of an order as written in a query: `-due`, `severity`, `-id`. */
export const sortName = (sort: Sort) => `${sort.descending ? '-' : ''}${sort.key}`;
