// find_similar_items on real duplicates (test/fixtures/duplicates, docs/eval.md): each duplicate
// asked against the issues filed before it, recall@1/5/10 and MRR on SQLite and PostgreSQL, beside
// a plain bm25 over title and body computed here in the same run (k1 1.2, b 0.75, the whole
// duplicate's text as the query, the same older issues as candidates).

import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {wordsOf} from '../../store/query/sql.js';
import {rankingScores, firstRightRank, type Rank, type RankingScores} from '../../source/eval/metrics.js';
import {duplicateQuestions, parsePairs, QUESTION_LIMIT, resolveLinks, similarRecall, type DuplicateQuestion} from '../../source/eval/similar-recall.js';
import {DUPLICATE_SETS, duplicateSet, type DuplicateSet} from '../support/duplicate-sets.js';
import {benchDatabase} from './pg-support.js';
import {printTable, type Row} from './support.js';

/**
 * What find_similar_items scored before its ranking was reworked (16 tf·idf terms searched in the
 * long text, ranked by bm25 / ts_rank_cd alone): this bench at commit 66e1790, 2026-12-07.
 */
const BEFORE: Record<string, RankingScores | undefined> = {
	sqlite: {questions: 112, recall_at_1: 0.384, recall_at_5: 0.643, recall_at_10: 0.670, mrr: 0.495},
	postgres: {questions: 112, recall_at_1: 0.098, recall_at_5: 0.304, recall_at_10: 0.446, mrr: 0.197},
};

/** Loads a set into a store: its channel, its items oldest first; the questions by item id. */
export async function loadDuplicateSet(store: AsyncStore, set: DuplicateSet): Promise<{questions: DuplicateQuestion[]; idOfIssue: Map<string, string>; unresolved: number}> {
	await store.importChannel({channel: set.channel, items: set.items});
	const idOfIssue = new Map<string, string>();
	let cursor: string | null = null;
	do {
		const page = await store.readItems(set.channel.id, {cursor, limit: 500});
		for (const item of page.items) idOfIssue.set(String(item.values.issue), item.id);
		cursor = page.next_cursor;
	} while (cursor);

	const resolved = resolveLinks(parsePairs(set.pairsFile, `${set.name}-duplicates.csv`), name => idOfIssue.get(name));
	return {questions: duplicateQuestions(resolved.links), idOfIssue, unresolved: resolved.unresolved.length};
}

const termsOf = (text: string) => wordsOf(text.toLowerCase()).filter(term => term.length > 1);

/** Plain bm25 over title + description: for each question, the older issues ranked by the whole duplicate's text. */
export function plainBm25Ranks(set: DuplicateSet, questions: readonly DuplicateQuestion[], idOfIssue: Map<string, string>): Rank[] {
	const k1 = 1.2;
	const b = 0.75;
	const issueOfId = new Map([...idOfIssue].map(([issue, id]) => [id, issue]));
	const docs = set.items.map(item => {
		const terms = termsOf(`${String(item.values.title)} ${String(item.values.description)}`);
		const counts = new Map<string, number>();
		for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
		return {issue: String(item.values.issue), counts, length: terms.length};
	});
	const position = new Map(docs.map((doc, index) => [doc.issue, index]));
	return questions.map(question => {
		const at = position.get(issueOfId.get(question.itemId)!)!;
		const older = docs.slice(0, at);
		const average = older.reduce((sum, doc) => sum + doc.length, 0) / Math.max(1, older.length);
		const frequency = new Map<string, number>();
		for (const doc of older) for (const term of doc.counts.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1);
		const query = [...docs[at]!.counts.keys()];
		const scored = older.map(doc => {
			let score = 0;
			for (const term of query) {
				const tf = doc.counts.get(term);
				if (!tf) continue;
				const df = frequency.get(term)!;
				score += Math.log(1 + (older.length - df + 0.5) / (df + 0.5)) * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / average)));
			}

			return {id: idOfIssue.get(doc.issue)!, score};
		});
		const ranked = scored.filter(entry => entry.score > 0).sort((x, y) => y.score - x.score).slice(0, QUESTION_LIMIT).map(entry => entry.id);
		return firstRightRank(ranked, new Set(question.right));
	});
}

const scoreRow = (set: string, ranker: string, scores: RankingScores): Row => ({
	set,
	ranker,
	questions: scores.questions,
	'recall@1': scores.recall_at_1,
	'recall@5': scores.recall_at_5,
	'recall@10': scores.recall_at_10,
	MRR: scores.mrr,
});

async function measureOn(location: string, backend: string, sets: DuplicateSet[], rows: Row[], all: Map<string, Rank[]>): Promise<void> {
	const store = await openAsyncStore(location, {create: true});
	try {
		for (const set of sets) {
			const {questions, idOfIssue} = await loadDuplicateSet(store, set);
			const recall = await similarRecall(questions, async itemId => (await store.similarItems(set.channel.id, itemId, {limit: QUESTION_LIMIT, olderOnly: true})).items.map(item => item.id));
			rows.push(scoreRow(set.name, `find_similar_items (${backend})`, recall));
			all.set(backend, [...(all.get(backend) ?? []), ...recall.results.map(result => result.rank)]);
			if (backend === 'sqlite') {
				const plain = plainBm25Ranks(set, questions, idOfIssue);
				rows.push(scoreRow(set.name, 'plain bm25 (title+body)', rankingScores(plain)));
				all.set('plain bm25', [...(all.get('plain bm25') ?? []), ...plain]);
			}
		}
	} finally {
		await store.close();
	}
}

export async function benchSimilarRecall(): Promise<Row[]> {
	const sets = DUPLICATE_SETS.map(name => duplicateSet(name));
	const rows: Row[] = [];
	const all = new Map<string, Rank[]>();
	const dir = mkdtempSync(join(tmpdir(), 'sift-similar-recall-'));
	try {
		await measureOn(join(dir, 'recall.db'), 'sqlite', sets, rows, all);
	} finally {
		rmSync(dir, {recursive: true, force: true});
	}

	const database = await benchDatabase('benchSimilarRecall (PostgreSQL)');
	if (database) {
		try {
			await measureOn(database.url, 'postgres', sets, rows, all);
		} finally {
			await database.drop();
		}
	}

	for (const [ranker, ranks] of all) {
		const label = ranker === 'plain bm25' ? 'plain bm25 (title+body)' : `find_similar_items (${ranker})`;
		rows.push(scoreRow('both', label, rankingScores(ranks)));
		const before = BEFORE[ranker];
		if (before) rows.push(scoreRow('both', `${label} before`, before));
	}

	const plain = rankingScores(all.get('plain bm25') ?? []).recall_at_10;
	const notes = [...all].filter(([ranker]) => ranker !== 'plain bm25').map(([ranker, ranks]) => {
		const recall = rankingScores(ranks).recall_at_10;
		return `goal (${ranker}): recall@10 ≥ 0.60 and above plain bm25 (${plain.toFixed(3)}): ${recall.toFixed(3)}, ${recall >= 0.6 && recall > plain ? 'met' : 'NOT met'}`;
	});
	printTable('find_similar_items on real duplicates (GitBugs Hadoop + SeaMonkey), each asked against the issues filed before it', rows, notes);
	return rows;
}
