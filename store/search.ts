/**
 * Search for agents (store.searchItems, the MCP tool search_record_items): the whole query
 * language, ranked by relevance when the query has words. Shared by both backends: the plan, the
 * ranking of the candidates, and the page; each backend reads the candidates and scores them (bm25
 * of SQLite's FTS5, ts_rank_cd of PostgreSQL's text search).
 *
 * Ranking reads a bounded set: the SEARCH_CANDIDATES newest items that match the whole query (the
 * query's own page statements, walking their indexes with that LIMIT), scored and ordered by
 * (score, newest first). So a search costs the same however many items match; the page says how
 * many candidates it ranked and whether more matched (then narrowing the query ranks older items).
 */

import type {LoadedChannel} from './channels.js';
import {invalidArgument, quote, StoreError} from './errors.js';
import {seqOfItemId} from './items.js';
import {checkLimit, parseWhere, previewOf, schemaOf, type PageQuery, type PageRow} from './pages.js';
import {encodeCursor} from './query/cursor.js';
import {isLongText} from './query/parse.js';
import {wordsOf} from './query/sql.js';
import {DEFAULT_SORT, sortName, type Query} from './query/types.js';
import type {Field, ItemPreview, Page} from './types.js';

/** The most results one search returns. */
export const SEARCH_LIMIT = 50;
/** How many of the newest matches a ranked search scores. */
export const SEARCH_CANDIDATES = 500;

export type SearchQuery = {
	/** Query language text (docs/reference.md#query-language); words rank, a sort: term orders instead. */
	query: string;
	limit?: number;
	/** The last id of the previous page: the next page holds the results after it. */
	beforeId?: string | null;
	/** The moment relative dates count from (default: now). */
	now?: Date;
};

/** A result: the item's preview and its relevance (null when the search is not ranked). */
export type SearchHit = ItemPreview & {score: number | null};

export type SearchPage = {
	schema: Field[];
	/** By relevance (the query has words and no sort term), else in the query's own order. */
	ranked: boolean;
	items: SearchHit[];
	/** Give it as before_id for the next page; null: this was the last. */
	next_before_id: string | null;
	/** Ranked: how many matches were scored, and whether more matched than SEARCH_CANDIDATES. */
	candidates?: number;
	more_matches?: boolean;
	latest_sequence: number;
};

/** The text the backends' full-text scoring matches: the query's positive words, any of them. */
export type RankWords = string[][];

export type SearchPlan = {
	query: Query;
	text: string;
	limit: number;
	beforeId: string | null;
	/** The positive words of each word term, when the search is ranked; null otherwise. */
	rank: RankWords | null;
	now?: Date;
};

/** Checks a search request; the same refusals on every backend. */
export function planSearch(channel: LoadedChannel, request: SearchQuery): SearchPlan {
	if (typeof request?.query !== 'string') throw invalidArgument(`query must be query text, got ${quote(request?.query)}`);
	const limit = checkLimit(request.limit ?? 20, SEARCH_LIMIT);
	const query = parseWhere(channel, request.query, request.now);
	const beforeId = request.beforeId ?? null;
	if (beforeId !== null) seqOfItemId(beforeId, 'before_id');
	const words = query.terms.flatMap(term => (term.kind === 'words' && !term.negated ? [wordsOf(term.needle)] : [])).filter(list => list.length > 0);
	// Ranked when the query has words, the channel long text to weigh them in, and no order of its own.
	const ranked = words.length > 0 && query.sort === DEFAULT_SORT && channel.fields.some(isLongText);
	return {query, text: request.query, limit, beforeId, rank: ranked ? words : null, now: request.now};
}

/** A candidate of a ranked search: its row and score. */
export type ScoredRow = PageRow & {score: number};

/** The page of a ranked search: candidates ordered by (score, newest first), the page after before_id. */
export function rankedPage(channel: LoadedChannel, plan: SearchPlan, scored: ScoredRow[], moreMatches: boolean, latest: number): SearchPage {
	const ordered = [...scored].sort((a, b) => b.score - a.score || b.seq - a.seq);
	let start = 0;
	if (plan.beforeId !== null) {
		const at = ordered.findIndex(row => row.id === plan.beforeId);
		if (at === -1) {
			throw new StoreError({error: 'invalid_argument', message: `before_id ${plan.beforeId} is not among this search's ranked results (the item no longer matches, or newer matches pushed it out); search again without before_id`});
		}

		start = at + 1;
	}

	const kept = ordered.slice(start, start + plan.limit);
	const more = ordered.length > start + plan.limit;
	return {
		schema: schemaOf(channel),
		ranked: true,
		items: kept.map(row => ({...hitOf(channel, row), score: roundScore(row.score)})),
		next_before_id: more ? kept.at(-1)!.id : null,
		candidates: ordered.length,
		more_matches: moreMatches,
		latest_sequence: latest,
	};
}

/** An unranked search's page, from the list page of its query. */
export function unrankedPage(page: Page): SearchPage {
	return {
		schema: page.schema,
		ranked: false,
		items: page.items.map(item => ({...item, score: null})),
		// Every order pages by the last id: the backend finds where it stands (unrankedRequest).
		next_before_id: page.next_cursor ? page.items.at(-1)?.id ?? null : null,
		latest_sequence: page.latest_sequence,
	};
}

/** A row's list-page preview (id, version, updated_at, preview). */
export const hitOf = (channel: LoadedChannel, row: PageRow): ItemPreview => ({id: row.id, version: row.version, updated_at: row.updated_at, preview: previewOf(channel, row.values, row.created_at)});

/** Scores as agents read them: four significant digits are plenty to compare. */
export const roundScore = (score: number) => Number(score.toPrecision(4));

/**
 * The list-page request an unranked search reads: its query from the start, or after before_id
 * (`position`: where that item stands in the query's order, which the backend read; null in the
 * default order, whose cursor is the id itself).
 */
export function unrankedRequest(plan: SearchPlan, position: {value: number | string | null; seq: number} | null): PageQuery {
	const base: PageQuery = {where: plan.text, limit: plan.limit, now: plan.now};
	if (plan.beforeId === null) return base;
	if (plan.query.sort === DEFAULT_SORT) return {...base, cursor: encodeCursor({order: sortName(DEFAULT_SORT), side: 'after', position: {value: null, seq: seqOfItemId(plan.beforeId, 'before_id')}})};
	if (!position) throw new StoreError({error: 'not_found', message: `before_id ${plan.beforeId} is no item of this channel; search again without before_id`});
	return {...base, cursor: encodeCursor({order: sortName(plan.query.sort), side: 'after', position})};
}

/** The list-page request that reads a ranked search's candidates: the newest matches, one more than SEARCH_CANDIDATES. */
export const candidatesRequest = (plan: SearchPlan): PageQuery => ({where: plan.text, limit: SEARCH_CANDIDATES, now: plan.now});
