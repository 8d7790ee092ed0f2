/**
 * Similar records (store.similarItems, the MCP tool find_similar_items): the other items of a
 * channel ranked by how much their text resembles one item's (title and long text). Shared by
 * both backends: the checks, the item's terms and which of them are distinctive, the final
 * scoring and the page; each backend reads document frequencies from its full-text index (FTS5's
 * vocabulary on SQLite, ts_stat over a sample on PostgreSQL) and runs the OR query of the
 * distinctive terms (bm25, ts_rank_cd) for a pool of candidates, which `rescored` ranks alike on
 * both: bm25 over title and long text, titles weighed up, nearer items before farther ones.
 *
 * Bounded: the item's text counts to FULL_TEXT_CHARACTERS, at most SIMILAR_LOOKUP of its terms
 * are looked up, at most SIMILAR_TERMS of them are searched, and the query returns at most
 * SIMILAR_POOL rows.
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
export const SIMILAR_TERMS = 32;
/** How many of the best matches of the searched terms are scored again (rescored) for the page. */
export const SIMILAR_POOL = 100;
/** How many of the item's terms (the most frequent) have their document frequency looked up. */
export const SIMILAR_LOOKUP = 200;
/** PostgreSQL: how many of the channel's newest items the document frequencies are counted over. */
export const SIMILAR_SAMPLE = 2000;

export type SimilarQuery = {
	limit?: number;
	/** Only items added to the channel before this one (a lower sequence): "what did it duplicate when it was filed". */
	olderOnly?: boolean;
};

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

export type SimilarPlan = {itemId: string; seq: number; limit: number; olderOnly: boolean};

/** Checks a request; the same refusals on every backend. */
export function planSimilar(channel: LoadedChannel, itemId: unknown, request: SimilarQuery = {}): SimilarPlan {
	const seq = seqOfItemId(itemId, 'item_id');
	const limit = checkLimit(request?.limit ?? 10, SIMILAR_LIMIT);
	if (!channel.fields.some(isLongText)) {
		throw invalidArgument(`channel ${channel.id} has no long text field to compare items by`);
	}

	const olderOnly = request?.olderOnly ?? false;
	if (typeof olderOnly !== 'boolean') throw invalidArgument(`olderOnly must be true or false, got ${quote(olderOnly)}`);
	return {itemId: itemId as string, seq, limit, olderOnly};
}

export const similarItemMissing = (channel: LoadedChannel, itemId: string) => notFound(`item ${quote(itemId)} does not exist in channel ${channel.id}`);

/** The text a resemblance is read from: the non-unique text fields (a title) and the long text. */
const compared = (field: Field) => isLongText(field) || (field.type === 'text' && !field.is_unique);

const termsIn = (text: string) => wordsOf(text.slice(0, FULL_TEXT_CHARACTERS).toLowerCase()).filter(term => term.length > 1);

const textOf = (fields: readonly Field[], values: Values) => fields.map(field => values[field.key]).filter((value): value is string => typeof value === 'string').join(' ');

/** The item's terms: how often each occurs, and which its long text (what the index holds) has. */
export type ItemTerms = {counts: Map<string, number>; indexed: Set<string>};

export function itemTerms(channel: LoadedChannel, values: Values): ItemTerms {
	return {counts: weighedCounts(channel, values).counts, indexed: new Set(termsIn(textOf(channel.fields.filter(isLongText), values)))};
}

/** A title's word counts TITLE_WEIGHT times a long text's: a title says in a few words what the report is about. */
export const TITLE_WEIGHT = 3;

/** An item's compared text as weighed term counts (titles weigh TITLE_WEIGHT) and their sum, its length. */
function weighedCounts(channel: LoadedChannel, values: Values): {counts: Map<string, number>; length: number} {
	const counts = new Map<string, number>();
	let length = 0;
	for (const field of channel.fields.filter(compared)) {
		const value = values[field.key];
		if (typeof value !== 'string') continue;
		const weight = isLongText(field) ? 1 : TITLE_WEIGHT;
		for (const term of termsIn(value)) {
			counts.set(term, (counts.get(term) ?? 0) + weight);
			length += weight;
		}
	}

	return {counts, length};
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

/** How much each searched term weighs in a backend's OR query (its idf as distinctiveTerms reads it), in the order of `terms`. */
export const searchWeights = (terms: readonly string[], read: Frequencies): number[] => terms.map(term => Math.log(1 + read.documents / ((read.frequencies.get(term) ?? 0) + 1)));

/** A ranked result of a backend's OR query: the row and its score. */
export type SimilarRow = PageRow & {score: number};

/** bm25's term saturation and length normalisation, as FTS5 and most engines set them. */
const K1 = 1.2;
const B = 0.75;
/**
 * How much a candidate's score fades with the number of items between it and the item: a report
 * tends to duplicate one filed shortly before it. Score / (1 + RECENCY · ln(1 + distance)): 10
 * items apart keeps 74 %, 1,000 apart 49 %. Chosen on benchSimilarRecall (docs/eval.md).
 */
const RECENCY = 0.15;

/**
 * The candidates scored again, alike on both backends: bm25 over title and long text (titles
 * weighed TITLE_WEIGHT, which the index, holding long text only, cannot), every term of the item
 * whose document frequency was read taking part (log-damped by how often the item says it), not
 * just the searched ones. Lengths are normalised by the candidates' mean; a candidate far from the
 * item `seq` in the channel's order fades by RECENCY.
 */
export function rescored(channel: LoadedChannel, seq: number, own: Values, read: Frequencies, rows: readonly SimilarRow[]): SimilarRow[] {
	const query: Array<[string, number]> = [];
	for (const [term, count] of weighedCounts(channel, own).counts) {
		const documents = read.frequencies.get(term);
		if (documents === undefined && read.exact) continue;
		const others = documents ?? 0;
		const idf = Math.log(1 + (read.documents - others + 0.5) / (others + 0.5));
		query.push([term, (1 + Math.log(count)) * idf]);
	}

	const texts = rows.map(row => weighedCounts(channel, row.values));
	const mean = Math.max(1, texts.reduce((sum, text) => sum + text.length, 0) / Math.max(1, texts.length));
	return rows.map((row, index) => {
		const {counts, length} = texts[index]!;
		const norm = K1 * (1 - B + (B * length) / mean);
		let score = 0;
		for (const [term, weight] of query) {
			const tf = counts.get(term);
			if (tf) score += (weight * tf * (K1 + 1)) / (tf + norm);
		}

		return {...row, score: score / (1 + RECENCY * Math.log1p(Math.abs(seq - row.seq)))};
	});
}

/**
 * The page: rows by (score, newest first), each with the searched terms its text holds; never
 * the item itself nor one a person marked not a duplicate of it (store/not-duplicates.ts). A
 * backend asks for SIMILAR_POOL rows and as many more as the item has marks, so the page still fills.
 */
export function similarPage(channel: LoadedChannel, plan: SimilarPlan, terms: string[], rows: SimilarRow[], latest: number, notDuplicates: readonly string[] = []): SimilarPage {
	const searched = new Set(terms);
	const fields = channel.fields.filter(compared);
	const marked = new Set(notDuplicates);
	const ordered = rows.filter(row => row.seq !== plan.seq && row.score > 0 && !marked.has(row.id)).sort((a, b) => b.score - a.score || b.seq - a.seq).slice(0, plan.limit);
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
