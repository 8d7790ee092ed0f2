// The accuracy loop's arithmetic against hand computations: recall@k, MRR, per-field precision,
// recall and F1, the expected calibration error over 10 bins, and the questions a pairs file makes.

import {describe, expect, it} from 'vitest';
import {expectedCalibrationError, fieldScores, meanReciprocalRank, rankingScores, recallAt, sameValue} from '../../source/eval/metrics.js';
import {duplicateQuestions, parsePairs, resolveLinks, similarRecall} from '../../source/eval/similar-recall.js';

describe('ranking metrics', () => {
	it('count a question as found at k when its first right answer is within the top k, and MRR as the mean of 1/rank', () => {
		const ranks = [1, 3, 7, null, 12];
		expect(recallAt(ranks, 1)).toBe(1 / 5);
		expect(recallAt(ranks, 5)).toBe(2 / 5);
		expect(recallAt(ranks, 10)).toBe(3 / 5);
		expect(meanReciprocalRank(ranks)).toBeCloseTo((1 + 1 / 3 + 1 / 7 + 0 + 1 / 12) / 5, 12);
		expect(rankingScores([])).toEqual({questions: 0, recall_at_1: 0, recall_at_5: 0, recall_at_10: 0, mrr: 0});
	});

	it('ask each question and find its first right answer among those returned', async () => {
		const answers: Record<string, string[]> = {it_3: ['it_2', 'it_1'], it_5: ['it_4', 'it_2', 'it_1']};
		const recall = await similarRecall([{itemId: 'it_3', right: ['it_1']}, {itemId: 'it_5', right: ['it_9']}], async id => answers[id]!);
		expect(recall.results.map(result => result.rank)).toEqual([2, null]);
		expect(recall.recall_at_5).toBe(0.5);
		expect(recall.mrr).toBe(0.25);
	});
});

describe('field scores', () => {
	it('precision over the proposals, recall over the hidden values, F1 their harmonic mean; lists compare as sets', () => {
		const scores = fieldScores([
			{truth: 'bug', proposed: 'bug'},
			{truth: 'bug', proposed: 'feature'},
			{truth: 'docs', proposed: 'docs'},
			{truth: 'docs'},
			{truth: ['a', 'b'], proposed: ['b', 'a']},
		]);
		expect(scores).toMatchObject({items: 5, proposed: 4, correct: 3, precision: 0.75, recall: 0.6});
		expect(scores.f1).toBeCloseTo((2 * 0.75 * 0.6) / 1.35, 12);
		expect(sameValue(['x', 'y'], ['y', 'x'])).toBe(true);
		expect(sameValue(1, '1')).toBe(false);
		expect(fieldScores([{truth: 'x'}])).toMatchObject({precision: 0, recall: 0, f1: 0});
	});
});

describe('expected calibration error', () => {
	it('matches a hand computation over 10 equal bins', () => {
		// Bin [0.9, 1]: 10 answers at 0.95, 8 right: |0.8 - 0.95| = 0.15, weight 10/20.
		// Bin [0.6, 0.7): 5 answers at 0.6, 3 right: |0.6 - 0.6| = 0, weight 5/20.
		// Bin [0.2, 0.3): 4 answers at 0.25, 2 right: |0.5 - 0.25| = 0.25, weight 4/20.
		// Bin [0.9, 1] also holds a confidence of exactly 1: 1 answer, wrong.
		const answers = [
			...Array.from({length: 10}, (_, n) => ({confidence: 0.95, correct: n < 8})),
			...Array.from({length: 5}, (_, n) => ({confidence: 0.6, correct: n < 3})),
			...Array.from({length: 4}, (_, n) => ({confidence: 0.25, correct: n < 2})),
			{confidence: 1, correct: false},
		];
		// With the 1.0 answer: the top bin is 11 answers, 8 right, mean confidence (9.5 + 1) / 11.
		const top = Math.abs(8 / 11 - 10.5 / 11) * (11 / 20);
		const middle = 0;
		const low = Math.abs(0.5 - 0.25) * (4 / 20);
		expect(expectedCalibrationError(answers)).toBeCloseTo(top + middle + low, 12);
		expect(expectedCalibrationError([])).toBeNull();
		expect(expectedCalibrationError([{confidence: 0.7, correct: true}])).toBeCloseTo(0.3, 12);
		expect(() => expectedCalibrationError([{confidence: 1.2, correct: true}])).toThrow(/0 to 1/);
	});
});

describe('pairs files', () => {
	it('read ITEM,DUPLICATES rows in either direction; the newer item of a link is asked, its older links are right', () => {
		const links = parsePairs('Issue id,Duplicate id\nA,B\nB,A\nC,"A, B"\n', 'pairs.csv');
		expect(links).toHaveLength(4);
		const ids: Record<string, string> = {A: 'it_0000000001', B: 'it_0000000004', C: 'it_0000000009'};
		const resolved = resolveLinks([...links, {a: 'Z', b: 'A', line: 9}], name => ids[name]);
		expect(resolved.unresolved.map(link => link.a)).toEqual(['Z']);
		expect(duplicateQuestions(resolved.links)).toEqual([
			{itemId: 'it_0000000004', right: ['it_0000000001']},
			{itemId: 'it_0000000009', right: ['it_0000000001', 'it_0000000004']},
		]);
	});

	it('refuse a row without its duplicates, naming the line, and a file without links', () => {
		expect(() => parsePairs('a,b\nX,\n', 'p.csv')).toThrow(/p.csv line 2/);
		expect(() => parsePairs('a,b\n', 'p.csv')).toThrow(/no duplicate links/);
	});
});
