// Pages and match counts on PostgreSQL: the query language compiled by store/postgres/query.ts,
// planned and assembled by store/pages.ts exactly as on SQLite (same cursors, same refusals).

import type pg from 'pg';
import type {LoadedChannel} from '../channels.js';
import {itemsPageOf, pageOf, parseWhere, planItems, planPage, type ItemsPage, type ItemsQuery, type PagePlan, type PageQuery, type PageRow} from '../pages.js';
import {countSettingsFor, pgCountStatement, pgPageStatements, pgScoreStatement, pgSimilarStatement, pgSortValueStatement, pgTermFrequenciesStatements, planSettingsFor, WORDS_MEMORY} from './query.js';
import {notDuplicatesOf} from './not-duplicates.js';
import {distinctiveTerms, itemTerms, lookupTerms, planSimilar, rescored, searchWeights, SIMILAR_POOL, SIMILAR_SAMPLE, similarItemMissing, similarPage, type SimilarPage, type SimilarQuery} from '../similar.js';
import {findItem} from './writes.js';
import {candidatesRequest, planSearch, rankedPage, SEARCH_CANDIDATES, unrankedPage, unrankedRequest, type SearchPage, type SearchPlan, type SearchQuery} from '../search.js';
import type {Position} from '../query/cursor.js';
import {seqOfItemId} from '../items.js';
import type {Page, Values} from '../types.js';
import {inTransaction} from './connect.js';

type Row = Omit<PageRow, 'values'> & {data: Values};

export async function listPage(pool: pg.Pool, channel: LoadedChannel, request: PageQuery = {}): Promise<Page> {
	const plan = planPage(channel, request);
	const {rows, latest} = await readPlan(pool, channel, plan);
	return pageOf(channel, plan, rows, latest);
}

/** Whole items in the query's order (oldest first by default), from a cursor: what sift export streams. */
export async function readItems(pool: pg.Pool, channel: LoadedChannel, request: ItemsQuery = {}): Promise<ItemsPage> {
	const plan = planItems(channel, request);
	const {rows, latest} = await readPlan(pool, channel, plan);
	return itemsPageOf(channel, plan, rows, latest);
}

/** Up to limit + 1 rows of a plan, and the latest sequence, from one snapshot. */
async function readPlan(pool: pg.Pool, channel: LoadedChannel, plan: PagePlan): Promise<{rows: PageRow[]; latest: number}> {
	const wanted = plan.limit + 1;
	const statements = pgPageStatements(channel, plan.query, plan.forward, plan.start.position, wanted);
	// One snapshot for every phase and latest_sequence: a reader polling from latest_sequence never
	// misses a write committed in between. Phases run only while rows are still wanted.
	const {rows, latest} = await inTransaction(pool, async client => {
		await client.query(`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY; ${planSettingsFor(channel, plan.query)}`);
		const read: Row[] = [];
		for (const statement of statements) {
			if (read.length >= wanted) break;
			statement.params[statement.params.length - 1] = wanted - read.length;
			read.push(...(await client.query<Row>(statement.sql, statement.params)).rows);
		}

		const sequence = await client.query<{last_sequence: number}>('SELECT last_sequence FROM channels WHERE id = $1', [channel.id]);
		return {rows: read, latest: sequence.rows[0]?.last_sequence ?? 0};
	});
	return {rows: rows.map(row => ({...row, values: row.data})), latest};
}

/** How many of the channel's items match the query's terms (its sort is ignored). */
export async function countMatches(pool: pg.Pool, channel: LoadedChannel, where: string, now?: Date): Promise<number> {
	const query = parseWhere(channel, where, now);
	const statement = pgCountStatement(channel, query);
	const settings = countSettingsFor(channel, query);
	const {rows} = settings === null ? await pool.query<{n: number}>(statement.sql, statement.params) : await inTransaction(pool, async client => {
		await client.query(`SET TRANSACTION READ ONLY; ${settings}`);
		return client.query<{n: number}>(statement.sql, statement.params);
	});
	return rows[0]!.n;
}

/**
 * A search (store/search.ts): ranked by ts_rank_cd over the newest SEARCH_CANDIDATES matches when
 * the query has words, else the query's own page after before_id.
 */
export async function searchItems(pool: pg.Pool, channel: LoadedChannel, request: SearchQuery): Promise<SearchPage> {
	const plan = planSearch(channel, request);
	if (!plan.rank) {
		const position = plan.beforeId === null ? null : await positionIn(pool, channel, plan);
		return unrankedPage(await listPage(pool, channel, unrankedRequest(plan, position)));
	}

	const candidates = planPage(channel, candidatesRequest(plan), SEARCH_CANDIDATES);
	const {rows, latest} = await readPlan(pool, channel, candidates);
	const kept = rows.slice(0, SEARCH_CANDIDATES).map(row => ({...row, seq: Number(row.seq)}));
	const statement = pgScoreStatement(channel, plan.rank, kept.map(row => row.seq));
	const scores = new Map((await pool.query<{seq: string; score: number}>(statement.sql, statement.params)).rows.map(row => [Number(row.seq), Number(row.score)]));
	return rankedPage(channel, plan, kept.map(row => ({...row, score: scores.get(row.seq) ?? 0})), rows.length > SEARCH_CANDIDATES, latest);
}

/** Where before_id's item stands in the search's order (its sort value and seq); null when it is no item of the channel. */
async function positionIn(pool: pg.Pool, channel: LoadedChannel, plan: SearchPlan): Promise<Position | null> {
	const seq = seqOfItemId(plan.beforeId!, 'before_id');
	const statement = pgSortValueStatement(channel, plan.query.sort, seq);
	const {rows} = await pool.query<{value: number | string | null}>(statement.sql, statement.params);
	return rows[0] ? {value: rows[0].value, seq} : null;
}

/**
 * Similar items (store/similar.ts): the item's distinctive terms by ts_stat over the channel's
 * SIMILAR_SAMPLE newest other items, ranked by ts_rank_cd. One read-only snapshot.
 */
export async function similarItems(pool: pg.Pool, channel: LoadedChannel, itemId: string, request: SimilarQuery = {}): Promise<SimilarPage> {
	const plan = planSimilar(channel, itemId, request);
	return inTransaction(pool, async client => {
		await client.query(`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY; ${WORDS_MEMORY}`);
		const item = await findItem(client, channel.id, plan.itemId);
		if (!item) throw similarItemMissing(channel, plan.itemId);
		const own = itemTerms(channel, item.data);
		const statements = pgTermFrequenciesStatements(channel, lookupTerms(own), plan.seq, SIMILAR_SAMPLE);
		const counted = await client.query<{word: string; documents: number}>(statements.frequencies.sql, statements.frequencies.params);
		const sampled = await client.query<{documents: number}>(statements.sampled.sql, statements.sampled.params);
		const frequencies = {frequencies: new Map(counted.rows.map(row => [row.word, row.documents])), documents: sampled.rows[0]!.documents, exact: false};
		const terms = distinctiveTerms(own, frequencies);
		const marked = await notDuplicatesOf(client, channel.id, plan.itemId);
		let rows: Array<Row & {score: number}> = [];
		if (terms.length > 0) {
			const statement = pgSimilarStatement(channel, terms, searchWeights(terms, frequencies), plan.seq, SIMILAR_POOL + marked.length, plan.olderOnly);
			rows = (await client.query<Row & {score: number}>(statement.sql, statement.params)).rows;
		}

		const sequence = await client.query<{last_sequence: number}>('SELECT last_sequence FROM channels WHERE id = $1', [channel.id]);
		const read = rows.map(row => ({...row, seq: Number(row.seq), values: row.data, sort_value: null, score: Number(row.score)}));
		return similarPage(channel, plan, terms, rescored(channel, plan.seq, item.data, frequencies, read), sequence.rows[0]?.last_sequence ?? 0, marked);
	});
}
