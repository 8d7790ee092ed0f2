/**
 * The accuracy loop's arithmetic (docs/eval.md), pure: ranking recall@k and mean reciprocal rank
 * for duplicate search, precision, recall and F1 of proposed field values against the truth, and
 * the expected calibration error of the confidences given with them.
 */

/** The cut-offs duplicate recall is reported at. */
export const RECALL_CUTOFFS = [1, 5, 10] as const;

/** Where the first right answer of one question stood: 1 for the top, null when not among those returned. */
export type Rank = number | null;

export type RankingScores = {questions: number; recall_at_1: number; recall_at_5: number; recall_at_10: number; mrr: number};

/** The share of questions whose first right answer is within the top `k`. */
export function recallAt(ranks: readonly Rank[], k: number): number {
	if (ranks.length === 0) return 0;
	return ranks.filter(rank => rank !== null && rank <= k).length / ranks.length;
}

/** Mean reciprocal rank: the mean of 1/rank, 0 for a question answered by none of the returned. */
export function meanReciprocalRank(ranks: readonly Rank[]): number {
	if (ranks.length === 0) return 0;
	return ranks.reduce<number>((sum, rank) => sum + (rank === null ? 0 : 1 / rank), 0) / ranks.length;
}

export function rankingScores(ranks: readonly Rank[]): RankingScores {
	return {questions: ranks.length, recall_at_1: recallAt(ranks, 1), recall_at_5: recallAt(ranks, 5), recall_at_10: recallAt(ranks, 10), mrr: meanReciprocalRank(ranks)};
}

/** The rank of the first of `ranked` that is one of `right` (1-based), or null. */
export function firstRightRank(ranked: readonly string[], right: ReadonlySet<string>): Rank {
	const at = ranked.findIndex(id => right.has(id));
	return at === -1 ? null : at + 1;
}

/**
 * One hidden value of one item: what was true, and what the agent proposed (undefined: it proposed
 * nothing for it) with the confidence it gave (undefined: none).
 */
export type Judged = {truth: unknown; proposed?: unknown; confidence?: number};

export type FieldScores = {
	/** Items whose value was hidden and known. */
	items: number;
	proposed: number;
	correct: number;
	/** Of the proposals, the share that were right (0 when none was made). */
	precision: number;
	/** Of the hidden values, the share proposed rightly. */
	recall: number;
	f1: number;
};

/** Two values are the same answer when equal as JSON, lists compared as sets. */
export function sameValue(a: unknown, b: unknown): boolean {
	const norm = (value: unknown): string => JSON.stringify(Array.isArray(value) ? [...value].map(item => JSON.stringify(item)).sort() : value ?? null);
	return norm(a) === norm(b);
}

export function fieldScores(judged: readonly Judged[]): FieldScores {
	const proposed = judged.filter(entry => entry.proposed !== undefined);
	const correct = proposed.filter(entry => sameValue(entry.proposed, entry.truth)).length;
	const precision = proposed.length === 0 ? 0 : correct / proposed.length;
	const recall = judged.length === 0 ? 0 : correct / judged.length;
	const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
	return {items: judged.length, proposed: proposed.length, correct, precision, recall, f1};
}

/** How many equal-width confidence bins the calibration error is counted over. */
export const CALIBRATION_BINS = 10;

/** A confident answer: how sure it said it was (0..1) and whether it was right. */
export type Calibrated = {confidence: number; correct: boolean};

/**
 * Expected calibration error: the answers binned by confidence into CALIBRATION_BINS equal bins
 * ([0, 0.1), [0.1, 0.2) … [0.9, 1], a confidence of exactly 1 in the last), and the mean over the
 * bins of |accuracy − mean confidence| weighed by the bin's share of the answers. 0 is perfectly
 * calibrated; null when no answer carried a confidence.
 */
export function expectedCalibrationError(answers: readonly Calibrated[]): number | null {
	if (answers.length === 0) return null;
	const bins = Array.from({length: CALIBRATION_BINS}, () => ({count: 0, confidence: 0, correct: 0}));
	for (const {confidence, correct} of answers) {
		if (!Number.isFinite(confidence) || confidence < 0 || confidence > 1) throw new RangeError(`a confidence is a number from 0 to 1, got ${confidence}`);
		const bin = bins[Math.min(CALIBRATION_BINS - 1, Math.floor(confidence * CALIBRATION_BINS))]!;
		bin.count++;
		bin.confidence += confidence;
		bin.correct += correct ? 1 : 0;
	}

	return bins.reduce((sum, bin) => (bin.count === 0 ? sum : sum + (bin.count / answers.length) * Math.abs(bin.correct / bin.count - bin.confidence / bin.count)), 0);
}
