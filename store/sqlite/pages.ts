// Pages and match counts on SQLite: the shared plan (store/pages.ts) read through statements forced
// onto the channel's indexes, in one read transaction.

import type {LoadedChannel} from '../channels.js';
import {parseStored, type ItemRow} from '../items.js';
import {itemsPageOf, pageOf, parseWhere, planItems, planPage, type ItemsPage, type ItemsQuery, type PagePlan, type PageQuery, type PageRow} from '../pages.js';
import type {Page} from '../types.js';
import type {Db} from './db.js';
import {latestSequence} from './events.js';
import {channelScopeSql, countStatement, orderOf, pageStatements, whereSql, type Position} from './query.js';
import {candidatesRequest, planSearch, rankedPage, SEARCH_CANDIDATES, unrankedPage, unrankedRequest, type SearchPage, type SearchPlan, type SearchQuery} from '../search.js';
import {seqOfItemId} from '../items.js';
import {fullTextScores, rankedByTerms, termFrequencies} from './full-text.js';
import {notDuplicatesOf} from './not-duplicates.js';
import {distinctiveTerms, itemTerms, lookupTerms, planSimilar, rescored, SIMILAR_POOL, similarItemMissing, similarPage, type SimilarPage, type SimilarQuery} from '../similar.js';
import {ITEM_COLUMNS} from './value-columns.js';

type SortedRow = ItemRow & {sort_value: number | string | null};

/**
 * One page of the channel's items that match the query, in the query's order (newest first by
 * default). Paging is keyset-based: a cursor is the position of the last (or first) item seen —
 * its sort value and creation counter — so inserts, deletes and edits elsewhere can never shift,
 * repeat or skip an item. `before_id` is that cursor for the default order; `next_cursor` and
 * `prev_cursor` (returned when the request uses where, sort, cursor or from) work for every order.
 */
export function listPage(db: Db, channel: LoadedChannel, request: PageQuery = {}): Page {
	const plan = planPage(channel, request);
	const {rows, latest} = readPlan(db, channel, plan);
	return pageOf(channel, plan, rows, latest);
}

/** Whole items in the query's order (oldest first by default), from a cursor: what sift export streams. */
export function readItems(db: Db, channel: LoadedChannel, request: ItemsQuery = {}): ItemsPage {
	const plan = planItems(channel, request);
	const {rows, latest} = readPlan(db, channel, plan);
	return itemsPageOf(channel, plan, rows, latest);
}

/** Up to limit + 1 rows of a plan, and the latest sequence, from one snapshot. */
function readPlan(db: Db, channel: LoadedChannel, plan: PagePlan): {rows: PageRow[]; latest: number} {
	const {limit} = plan;
	const order = orderOf(channel, plan.query.sort, plan.query.terms);
	const statements = pageStatements(channel, whereSql(channel, plan.query.terms), order, plan.forward, plan.start.position, limit + 1);
	// One read transaction: the items and latest_sequence come from the same snapshot, so a reader
	// polling from latest_sequence never misses a write another process committed in between.
	const {rows, latest} = db.transaction(() => {
		const read: SortedRow[] = [];
		for (const statement of statements) {
			const wanted = limit + 1 - read.length;
			if (wanted <= 0) break;
			statement.params[statement.params.length - 1] = wanted;
			read.push(...(db.prepare(statement.sql).all(...statement.params) as SortedRow[]));
		}

		return {rows: read, latest: latestSequence(db, channel.id)};
	})();
	return {rows: rows.map(row => ({...row, values: parseStored(row)})), latest};
}

/** How many of the channel's items match the query's terms (its sort is ignored). */
export function countMatches(db: Db, channel: LoadedChannel, where: string, now?: Date): number {
	const statement = countQuery(channel, where, now);
	return (db.prepare(statement.sql).get(...statement.params) as {n: number}).n;
}

/** The statement that counts `where`'s matches (a bad term is refused here, before any read). */
export function countQuery(channel: LoadedChannel, where: string, now?: Date): {sql: string; params: unknown[]} {
	const query = parseWhere(channel, where, now);
	return countStatement(channel.id, whereSql(channel, query.terms));
}

/**
 * A search (store/search.ts): ranked by bm25 over the newest SEARCH_CANDIDATES matches when the
 * query has words, else the query's own page after before_id. One read transaction.
 */
export function searchItems(db: Db, channel: LoadedChannel, request: SearchQuery): SearchPage {
	const plan = planSearch(channel, request);
	return db.transaction(() => {
		if (!plan.rank) return unrankedPage(listPage(db, channel, unrankedRequest(plan, plan.beforeId === null ? null : positionIn(db, channel, plan))));
		const candidates = planPage(channel, candidatesRequest(plan), SEARCH_CANDIDATES);
		const {rows, latest} = readPlan(db, channel, candidates);
		const kept = rows.slice(0, SEARCH_CANDIDATES);
		const scores = fullTextScores(db, plan.rank, kept.map(row => row.seq));
		return rankedPage(channel, plan, kept.map(row => ({...row, score: scores.get(row.seq) ?? 0})), rows.length > SEARCH_CANDIDATES, latest);
	})();
}

/** Where before_id's item stands in the search's order (its sort value and seq); null when it is no item of the channel. */
function positionIn(db: Db, channel: LoadedChannel, plan: SearchPlan): Position | null {
	const seq = seqOfItemId(plan.beforeId!, 'before_id');
	const order = orderOf(channel, plan.query.sort, plan.query.terms);
	const row = db.prepare(`SELECT ${order.key ?? 'NULL'} AS value FROM items WHERE ${channelScopeSql(channel.id)} AND seq = ?`).get(seq) as {value: number | string | null} | undefined;
	return row ? {value: row.value, seq} : null;
}

/** Similar items (store/similar.ts): the item's distinctive terms by FTS5's document counts, ranked by bm25. One read transaction. */
export function similarItems(db: Db, channel: LoadedChannel, itemId: string, request: SimilarQuery = {}): SimilarPage {
	const plan = planSimilar(channel, itemId, request);
	return db.transaction(() => {
		const row = db.prepare(`SELECT ${ITEM_COLUMNS} FROM items WHERE channel_id = ? AND seq = ?`).get(channel.id, plan.seq) as ItemRow | undefined;
		if (!row || row.id !== plan.itemId) throw similarItemMissing(channel, plan.itemId);
		const own = itemTerms(channel, parseStored(row));
		const frequencies = {...termFrequencies(db, lookupTerms(own)), exact: true};
		const terms = distinctiveTerms(own, frequencies);
		const marked = notDuplicatesOf(db, channel.id, plan.itemId);
		const ranked = terms.length === 0 ? [] : rankedByTerms(db, channel.id, terms, plan.seq, SIMILAR_POOL + marked.length, plan.olderOnly);
		const read = db.prepare(`SELECT ${ITEM_COLUMNS} FROM items WHERE channel_id = ? AND seq = ?`);
		const rows = ranked.map(({seq, score}) => {
			const item = read.get(channel.id, seq) as ItemRow;
			return {...item, values: parseStored(item), sort_value: null, score};
		});
		return similarPage(channel, plan, terms, rescored(channel, plan.seq, parseStored(row), frequencies, rows), latestSequence(db, channel.id), marked);
	})();
}
