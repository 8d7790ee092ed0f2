// Page requests checked and planned (cursors, filters, search, the query language), and the page
// assembled from a backend's rows; whole-item reads (`readItems`, 500 a read, oldest first) planned
// and assembled the same way.

import {FILTERABLE_TYPES, type LoadedChannel} from './channels.js';
import {invalidArgument, quote, StoreError} from './errors.js';
import {allowedOf} from './fields/index.js';
import {isPlainObject} from './fields/spec.js';
import {seqOfItemId} from './items.js';
import {previewOf} from './previews.js';
import {decodeCursor, encodeCursor, type Cursor, type Position} from './query/cursor.js';
import {isRefusal, parseQuery} from './query/parse.js';
import {DEFAULT_SORT, sortName, type Query, type Term} from './query/types.js';
import type {Channel, Field, Item, ItemPreview, Page, Values} from './types.js';
import {itemOf} from './items.js';

// Both backends build pages with the one preview definition.
export {PREVIEW_TEXT_LENGTH, previewOf} from './previews.js';

export const PAGE_LIMIT = 50;
const MAX_QUERY_LENGTH = 2000;

export type PageQuery = {
	/** The default order's cursor: the last id seen; the next page holds older items. */
	beforeId?: string | null;
	limit?: number;
	/** Equality on select (option value) and boolean fields. */
	filter?: Record<string, unknown>;
	/** Case-insensitive substring match over the short text fields (not long text). */
	search?: string;
	/** Query language text (docs/reference.md#query-language), `sort:` included. */
	where?: string;
	/** `field` or `-field`, as a `sort:` term would give it. */
	sort?: string;
	/** A next_cursor or prev_cursor of an earlier page of the same order. */
	cursor?: string | null;
	/** `end`: the last page of the order (the oldest items by default), for jumping to the end. */
	from?: 'start' | 'end';
	/** The moment relative dates in `where` count from (default: now). */
	now?: Date;
};

/** `filter` as query terms: equality on select (exact option values) and boolean fields. */
function filterTerms(channel: LoadedChannel, filter: unknown): Term[] {
	if (filter === undefined || filter === null) {
		return [];
	}

	if (!isPlainObject(filter)) {
		throw invalidArgument('filter must be an object of {field key: value}');
	}

	const filterable = channel.fields.filter(candidate => FILTERABLE_TYPES.has(candidate.type)).map(candidate => candidate.key);
	return Object.entries(filter).map(([key, value]): Term => {
		const field = channel.fieldsByKey.get(key);
		if (!field || !FILTERABLE_TYPES.has(field.type)) {
			throw invalidArgument(`filter.${key} is not a select or boolean field of channel ${channel.id}; filterable: ${filterable.join(', ')}`);
		}

		if (field.type === 'boolean' ? typeof value !== 'boolean' : typeof value !== 'string') {
			throw invalidArgument(`filter.${key} must be ${field.type === 'boolean' ? 'true or false' : 'an option value'}, got ${quote(value)}`);
		}

		if (field.type === 'select' && !field.config.options!.some(option => option.value === value)) {
			// A label ("New") would silently match nothing: say which values exist instead.
			throw invalidArgument(`filter.${key} must be one of the option values, got ${quote(value)}; allowed: ${allowedOf(field).map(option => `${option.value} (${option.label})`).join(', ')}`);
		}

		return {kind: 'any_of', key, values: [value as string | boolean], negated: false};
	});
}

function searchTerms(search: unknown): Term[] {
	if (search === undefined || search === '') {
		return [];
	}

	if (typeof search !== 'string' || search.length > 200) {
		throw invalidArgument('search must be a string of at most 200 characters');
	}

	return [{kind: 'words', needle: search.toLowerCase(), negated: false}];
}

/** The query text parsed for the channel, or the store's refusal of its first bad term. */
export function parseWhere(channel: LoadedChannel, where: unknown, now?: Date): Query {
	if (where === undefined || where === null) {
		return {terms: [], sort: DEFAULT_SORT};
	}

	if (typeof where !== 'string' || where.length > MAX_QUERY_LENGTH) {
		throw invalidArgument(`where must be query text of at most ${MAX_QUERY_LENGTH} characters`);
	}

	const parsed = parseQuery(where, channel, {now});
	if (isRefusal(parsed)) {
		throw new StoreError(parsed);
	}

	return parsed;
}

/** Everything a page request asks for, as one query (where, sort, filter and search together). */
function queryOf(channel: LoadedChannel, request: PageQuery): Query {
	if (request.sort !== undefined && (typeof request.sort !== 'string' || !/^-?[a-z0-9_]+$/i.test(request.sort))) {
		throw invalidArgument(`sort must be a field key or -key, got ${quote(request.sort)}`);
	}

	const text = request.sort === undefined ? request.where : `${request.where ?? ''} sort:${request.sort}`;
	const query = parseWhere(channel, text, request.now);
	return {terms: [...query.terms, ...filterTerms(channel, request.filter), ...searchTerms(request.search)], sort: query.sort};
}

export function checkLimit(limit: unknown, most: number, name = 'limit'): number {
	if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > most) {
		throw invalidArgument(`${name} must be a whole number from 1 to ${most}, got ${quote(limit)}`);
	}

	return limit as number;
}

/** Where the requested page starts, from a cursor, a before_id, or one end of the order. */
function startOf(request: PageQuery, order: string): Cursor | {side: 'after' | 'before'; position: null} {
	const given = [request.cursor, request.beforeId].filter(value => value !== undefined && value !== null).length;
	if (given > 1 || (given === 1 && request.from !== undefined)) {
		throw invalidArgument('give at most one of cursor, before_id and from');
	}

	if (request.from !== undefined && request.from !== 'start' && request.from !== 'end') {
		throw invalidArgument(`from must be "start" or "end", got ${quote(request.from)}`);
	}

	if (request.cursor !== undefined && request.cursor !== null) {
		return decodeCursor(request.cursor, order);
	}

	if (request.beforeId !== undefined && request.beforeId !== null) {
		const seq = seqOfItemId(request.beforeId, 'before_id');
		if (order !== sortName(DEFAULT_SORT)) {
			throw invalidArgument(`before_id pages the default order (newest first); with sort:${order} use cursor`);
		}

		return {order, side: 'after', position: {value: null, seq}};
	}

	return {side: request.from === 'end' ? 'before' : 'after', position: null};
}

/** What a page request asks for, checked: how many, which query in which order, from where. */
export type PagePlan = {
	limit: number;
	query: Query;
	/** The order's name, as cursors carry it. */
	name: string;
	start: Cursor | {side: 'after' | 'before'; position: null};
	/** Reading through the order (after the start), not against it. */
	forward: boolean;
	/** The request names where, sort, cursor or from: the page carries next_cursor and prev_cursor. */
	paged: boolean;
};

/** Checks a page request and turns it into a plan; the same refusals on every backend. */
export function planPage(channel: LoadedChannel, request: PageQuery, most = PAGE_LIMIT): PagePlan {
	const limit = checkLimit(request.limit ?? Math.min(PAGE_LIMIT, most), most);
	const query = queryOf(channel, request);
	const name = sortName(query.sort);
	const start = startOf(request, name);
	const paged = request.where !== undefined || request.sort !== undefined || request.cursor !== undefined || request.from !== undefined;
	return {limit, query, name, start, forward: start.side === 'after', paged};
}

/** A row a backend read for a page: up to limit + 1 of them, in reading order. */
export type PageRow = {id: string; seq: number; version: number; created_at: string; updated_at: string; values: Values; sort_value: number | string | null};

const positionOf = (row: PageRow): Position => ({value: row.sort_value, seq: row.seq});

/** The page a plan's rows make: previews in the order's direction, and the cursors either side. */
export function pageOf(channel: LoadedChannel, plan: PagePlan, rows: PageRow[], latest: number): Page {
	const {limit, forward, start, name} = plan;
	const more = rows.length > limit;
	const kept = rows.slice(0, limit);
	// Read against the order, the rows come last-first: put them back in the order.
	const inOrder = forward ? kept : kept.reverse();
	const items: ItemPreview[] = inOrder.map(row => ({
		id: row.id,
		version: row.version,
		updated_at: row.updated_at,
		preview: previewOf(channel, row.values, row.created_at),
	}));
	const first = inOrder[0];
	const last = inOrder.at(-1);
	const cursor = (side: Cursor['side'], position: Position) => encodeCursor({order: name, side, position});
	// More lies after this page when more rows were read going forward, or when it was reached
	// going backward from a position (which is after it); likewise before it, mirrored.
	const moreAfter = forward ? more : start.position !== null;
	const moreBefore = forward ? start.position !== null : more;
	const nextCursor = moreAfter ? (last ? cursor('after', positionOf(last)) : cursor('after', start.position!)) : null;
	const prevCursor = moreBefore ? (first ? cursor('before', positionOf(first)) : cursor('before', start.position!)) : null;
	const page: Page = {
		schema: schemaOf(channel),
		items,
		next_before_id: name === sortName(DEFAULT_SORT) && moreAfter && last ? last.id : null,
		latest_sequence: latest,
	};
	return plan.paged ? {...page, next_cursor: nextCursor, prev_cursor: prevCursor} : page;
}

/** The schema as callers see it: plain fields, without the store's derived lookups. */
export const schemaOf = (channel: Channel): Field[] => channel.fields;

// ---------------------------------------------------------------------------------------------
// Whole items, page by page (sift export)

/** The most whole items one read gives: values are kept in full, so fewer than previews. */
export const ITEMS_PAGE_LIMIT = 500;

export type ItemsQuery = {
	/** Query language text; without a sort term, oldest first (sort:id). */
	where?: string;
	/** The next_cursor of the previous read. */
	cursor?: string | null;
	limit?: number;
	now?: Date;
};

/** Items in full (formulas computed), and where the next read starts (null: this was the last). */
export type ItemsPage = {items: Item[]; next_cursor: string | null; latest_sequence: number};

/** A whole-items read as a page plan: oldest first unless `where` sorts, cursors always on. */
export function planItems(channel: LoadedChannel, request: ItemsQuery): PagePlan {
	const sorted = parseWhere(channel, request.where, request.now).sort !== DEFAULT_SORT;
	return planPage(channel, {where: request.where ?? '', sort: sorted ? undefined : 'id', cursor: request.cursor, limit: request.limit ?? ITEMS_PAGE_LIMIT, now: request.now}, ITEMS_PAGE_LIMIT);
}

/** The whole items a plan's rows make, and the cursor after them. */
export function itemsPageOf(channel: LoadedChannel, plan: PagePlan, rows: PageRow[], latest: number): ItemsPage {
	const more = rows.length > plan.limit;
	const kept = rows.slice(0, plan.limit);
	const last = kept.at(-1);
	return {
		items: kept.map(row => itemOf(channel, {id: row.id, channel_id: channel.id, version: row.version, created_at: row.created_at, updated_at: row.updated_at}, row.values)),
		next_cursor: more && last ? encodeCursor({order: plan.name, side: 'after', position: positionOf(last)}) : null,
		latest_sequence: latest,
	};
}
