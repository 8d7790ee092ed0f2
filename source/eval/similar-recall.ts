/**
 * `sift eval --similar`: how well find_similar_items finds known duplicates. A pairs file names
 * duplicate links between items; each item with a link to an older one (added to the channel
 * before it) is one question, asked against the items before it only, and answered rightly when
 * any of its older linked items comes back. Reports recall@1/5/10 and MRR (source/eval/metrics.ts).
 */

import {parse} from 'csv-parse/sync';
import {seqOfItemId} from '../../store/index.js';
import {firstRightRank, rankingScores, type Rank, type RankingScores} from './metrics.js';

/** How many results each question asks for: the deepest cut-off reported. */
export const QUESTION_LIMIT = 10;

/** Two items named in a pairs file (ids, or values of the key field), on the file's line. */
export type DuplicateLink = {a: string; b: string; line: number};

/**
 * A pairs file: CSV with a header row, then one item a row and, in the second column, the item or
 * items (comma-separated in one cell) it duplicates or is duplicated by. The direction does not
 * matter: the newer item of a link is the one asked.
 */
export function parsePairs(text: string, file: string): DuplicateLink[] {
	let rows: string[][];
	try {
		rows = parse(text, {bom: true, relax_column_count: true, skip_empty_lines: true}) as string[][];
	} catch (error) {
		throw new Error(`${file} is not CSV: ${(error as Error).message}`, {cause: error});
	}

	const links: DuplicateLink[] = [];
	for (const [index, row] of rows.entries()) {
		if (index === 0) continue;
		const line = index + 1;
		const [a, others] = [row[0]?.trim() ?? '', row[1] ?? ''];
		const bs = others.split(',').map(value => value.trim()).filter(Boolean);
		if (a === '' || bs.length === 0) throw new Error(`${file} line ${line}: expected an item and the item(s) it duplicates, got ${JSON.stringify(row.join(','))}`);
		for (const b of bs) if (b !== a) links.push({a, b, line});
	}

	if (links.length === 0) throw new Error(`${file} holds no duplicate links (a header row, then ITEM,DUPLICATE rows)`);
	return links;
}

/** One question: the item asked and its older linked items, any of which is a right answer. */
export type DuplicateQuestion = {itemId: string; right: string[]};

/** The questions of links between item ids: each newer item with the older ones it is linked to. */
export function duplicateQuestions(links: ReadonlyArray<{a: string; b: string}>): DuplicateQuestion[] {
	const older = new Map<string, Set<string>>();
	for (const {a, b} of links) {
		const [newer, old] = seqOfItemId(a, 'item') > seqOfItemId(b, 'item') ? [a, b] : [b, a];
		const set = older.get(newer) ?? new Set<string>();
		set.add(old);
		older.set(newer, set);
	}

	return [...older].sort(([a], [b]) => seqOfItemId(a, 'item') - seqOfItemId(b, 'item')).map(([itemId, right]) => ({itemId, right: [...right].sort()}));
}

export type QuestionResult = DuplicateQuestion & {rank: Rank; returned: string[]};

export type SimilarRecall = RankingScores & {results: QuestionResult[]};

/** Asks each question (`ask`: the ids find_similar_items returns for it, best first) and scores the ranks. */
export async function similarRecall(questions: readonly DuplicateQuestion[], ask: (itemId: string) => Promise<string[]>): Promise<SimilarRecall> {
	const results: QuestionResult[] = [];
	for (const question of questions) {
		const returned = await ask(question.itemId);
		results.push({...question, rank: firstRightRank(returned, new Set(question.right)), returned});
	}

	return {...rankingScores(results.map(result => result.rank)), results};
}

/** The links between items of the channel: each name read as an item id, or through `idOf` (a key field's value); the rest are counted apart. */
export function resolveLinks(links: readonly DuplicateLink[], idOf: (name: string) => string | undefined): {links: Array<{a: string; b: string}>; unresolved: DuplicateLink[]} {
	const resolved: Array<{a: string; b: string}> = [];
	const unresolved: DuplicateLink[] = [];
	for (const link of links) {
		const [a, b] = [idOf(link.a), idOf(link.b)];
		if (a === undefined || b === undefined || a === b) unresolved.push(link);
		else resolved.push({a, b});
	}

	return {links: resolved, unresolved};
}
