/**
 * Similar records (store.similarItems, the MCP tool find_similar_items): the other items of a
 * channel ranked by how much their long text resembles one item's text. Shared by both backends:
 * the checks, the item's terms and which of them are distinctive, and the page; each backend reads
 * document frequencies from its full-text index (FTS5's vocabulary on SQLite, ts_stat over a
 * sample on PostgreSQL) and runs the ranked OR query (bm25, ts_rank_cd).
 *
 * Bounded: the item's text counts to FULL_TEXT_CHARACTERS, at most SIMILAR_LOOKUP of its terms
 * are looked up, at most SIMILAR_TERMS of them are searched, and the query only ever returns
 * `limit` rows.
 */

import type {LoadedChannel} from './channels.js';
import {invalidArgument, notFound, quote} from './errors.js';
import {seqOfItemId} from './items.js';
import {checkLimit, schemaOf, type PageRow} from './pages.js';
import {isLongText} from './query/parse.js';
import {FULL_TEXT_CHARACTERS, wordsOf} from './query/sql.js';
import {hitOf, roundScore} from './search.js';
import type {Field, ItemPreview, Values} from './types.js';

/** The most results one call returns. */
export const SIMILAR_LIMIT = 20;
/** How many of the item's most distinctive terms are searched. */
export const SIMILAR_TERMS = 16;
/** How many of the item's terms (the most frequent) have their document frequency looked up. */
export const SIMILAR_LOOKUP = 200;
/** PostgreSQL: how many of the channel's newest items the document frequencies are counted over. */
export const SIMILAR_SAMPLE = 2000;

export type SimilarQuery = {limit?: number};

/** A result: the item's preview, its resemblance (higher: closer) and the searched terms it holds. */
export type SimilarHit = ItemPreview & {score: number; shared_terms: string[]};

export type SimilarPage = {
	schema: Field[];
	item_id: string;
	/** The item's distinctive terms the others were ranked by, most distinctive first. */
	terms: string[];
	items: SimilarHit[];
	latest_sequence: number;
};

export type SimilarPlan = {itemId: string; seq: number; limit: number};

/** Checks a request; the same refusals on every backend. */
export function planSimilar(channel: LoadedChannel, itemId: unknown, request: SimilarQuery = {}): SimilarPlan {
	const seq = seqOfItemId(itemId, 'item_id');
	const limit = checkLimit(request?.limit ?? 10, SIMILAR_LIMIT);
	if (!channel.fields.some(isLongText)) {
		throw invalidArgument(`channel ${channel.id} has no long text field to compare items by`);
	}

	return {itemId: itemId as string, seq, limit};
}

export const similarItemMissing = (channel: LoadedChannel, itemId: string) => notFound(`item ${quote(itemId)} does not exist in channel ${channel.id}`);

/** The text a resemblance is read from: the non-unique text fields (a title) and the long text. */
const compared = (field: Field) => isLongText(field) || (field.type === 'text' && !field.is_unique);

const termsIn = (text: string) => wordsOf(text.slice(0, FULL_TEXT_CHARACTERS).toLowerCase()).filter(term => term.length > 1);

const textOf = (fields: readonly Field[], values: Values) => fields.map(field => values[field.key]).filter((value): value is string => typeof value === 'string').join(' ');

/** The item's terms: how often each occurs, and which its long text (what the index holds) has. */
export type ItemTerms = {counts: Map<string, number>; indexed: Set<string>};

export function itemTerms(channel: LoadedChannel, values: Values): ItemTerms {
	const counts = new Map<string, number>();
	for (const term of termsIn(textOf(channel.fields.filter(compared), values))) counts.set(term, (counts.get(term) ?? 0) + 1);
	return {counts, indexed: new Set(termsIn(textOf(channel.fields.filter(isLongText), values)))};
}

/** The terms whose document frequencies are looked up: the most frequent SIMILAR_LOOKUP (longer first on a tie). */
export const lookupTerms = (terms: ItemTerms): string[] =>
	[...terms.counts].sort(([a, x], [b, y]) => y - x || b.length - a.length || (a < b ? -1 : 1)).slice(0, SIMILAR_LOOKUP).map(([term]) => term);

/**
 * Document frequencies as a backend read them. `exact`: `frequencies` counts every indexed item,
 * the item itself included when its long text holds the term, so a term no other item holds is
 * dropped. A sample (exact false) counts other items only, and a term it lacks may still be in an
 * older item, so it is kept as the rarest.
 */
export type Frequencies = {frequencies: Map<string, number>; documents: number; exact: boolean};

/** The item's most distinctive terms by tf·idf (log-damped counts), at most SIMILAR_TERMS, none that most items hold. */
export function distinctiveTerms(terms: ItemTerms, read: Frequencies): string[] {
	const weighed: Array<[string, number]> = [];
	for (const term of lookupTerms(terms)) {
		let others = read.frequencies.get(term) ?? 0;
		if (read.exact) {
			others -= terms.indexed.has(term) ? 1 : 0;
			if (others < 1) continue;
		}

		// A term most other items hold says nothing (and ts_rank_cd, unlike bm25, would not weigh it down).
		if (others > Math.max(1, read.documents / 2)) continue;
		const idf = Math.log(1 + read.documents / (others + 1));
		weighed.push([term, (1 + Math.log(terms.counts.get(term)!)) * idf]);
	}

	return weighed.sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).slice(0, SIMILAR_TERMS).map(([term]) => term);
}

/** A ranked result of a backend's OR query: the row and its score. */
export type SimilarRow = PageRow & {score: number};

/**
 * How many ranked rows a backend asks for: the limit, and as many more as the item has "not a
 * duplicate" marks, so that leaving the marked out still fills the page.
 */
export const rankedLimit = (plan: SimilarPlan, notDuplicates: readonly string[]) => plan.limit + notDuplicates.length;

/**
 * The page: rows by (score, newest first), each with the searched terms its text holds; never
 * the item itself nor one a person marked not a duplicate of it (store/not-duplicates.ts).
 */
export function similarPage(channel: LoadedChannel, plan: SimilarPlan, terms: string[], rows: SimilarRow[], latest: number, notDuplicates: readonly string[] = []): SimilarPage {
	const searched = new Set(terms);
	const fields = channel.fields.filter(compared);
	const marked = new Set(notDuplicates);
	const ordered = rows.filter(row => row.seq !== plan.seq && !marked.has(row.id)).sort((a, b) => b.score - a.score || b.seq - a.seq).slice(0, plan.limit);
	return {
		schema: schemaOf(channel),
		item_id: plan.itemId,
		terms,
		items: ordered.map(row => {
			const held = new Set(termsIn(textOf(fields, row.values)).filter(term => searched.has(term)));
			return {...hitOf(channel, row), score: roundScore(row.score), shared_terms: terms.filter(term => held.has(term))};
		}),
		latest_sequence: latest,
	};
}
