/**
 * The agent's accuracy loop (`sift eval --fields`, docs/eval.md), without the processes: a seeded
 * sample of a channel's items whose chosen fields are known, the scratch copy they go into (those
 * fields hidden, ids renumbered, the records a judged relation names copied beside them), and the
 * agent's proposals there judged against what the channel knew: precision, recall and F1 per
 * field, the calibration error of the confidences, duplicate recall@k when `duplicate_of` is judged.
 */

import {mulberry32} from '../../demo-data/generate.js';
import type {Channel, Item, Values} from '../../store/index.js';
import {itemIdOf} from '../../store/items.js';
import {expectedCalibrationError, fieldScores, firstRightRank, rankingScores, sameValue, type FieldScores, type Judged, type RankingScores} from './metrics.js';

export const DEFAULT_EVAL_SAMPLE = 100;
export const DEFAULT_EVAL_SEED = 1;

/** The field whose recall@k is reported beside its precision (issue 34: duplicates are a relation). */
export const DUPLICATE_FIELD = 'duplicate_of';

/** Up to `size` of `items`, chosen by the seeded generator (the same seed, the same sample), in their order. */
export function sampleItems<T>(items: readonly T[], size: number, seed: number): T[] {
	if (items.length <= size) return [...items];
	const random = mulberry32(seed);
	const order = items.map((_, index) => index);
	for (let index = 0; index < size; index++) {
		const pick = index + Math.floor(random() * (order.length - index));
		[order[index], order[pick]] = [order[pick]!, order[index]!];
	}

	return order.slice(0, size).sort((a, b) => a - b).map(index => items[index]!);
}

/** A value the channel knows: not empty, not an empty list, not blank text. */
export const isKnown = (value: unknown): boolean => value !== null && value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);

/** The self-relation fields among `fields`: the records they name are copied too, or the agent could not name them. */
export function judgedRelations(channel: Channel, fields: readonly string[]): string[] {
	return channel.fields.filter(field => fields.includes(field.key) && field.type === 'relation' && (field.config.channel_id ?? channel.id) === channel.id).map(field => field.key);
}

export type ScratchCopy = {
	/** The channel as copied: formulas kept, every field optional (a hidden required field must be empty). */
	channel: Channel;
	/** The import's items, oldest first: the scratch store numbers them from 1 in this order. */
	items: Array<{values: Values; created_at: string; updated_at: string}>;
	/** Each judged item's scratch id → the hidden values (relations as scratch ids). */
	truth: Map<string, Values>;
	/** Original id → scratch id. */
	ids: Map<string, string>;
};

/**
 * The scratch copy of `judged` (hidden: `fields`) and `context` (records a judged relation names,
 * copied whole and not judged), in creation order. A relation to a record not copied, or to one
 * copied after it, is left empty: the scratch store checks every relation as it imports.
 */
export function scratchCopy(channel: Channel, judged: readonly Item[], context: readonly Item[], fields: readonly string[]): ScratchCopy {
	const judgedIds = new Set(judged.map(item => item.id));
	const all = [...judged, ...context.filter(item => !judgedIds.has(item.id))].sort((a, b) => a.id.localeCompare(b.id));
	const ids = new Map(all.map((item, index) => [item.id, itemIdOf(index + 1)]));
	const formulas = new Set(channel.fields.filter(field => field.type === 'formula').map(field => field.key));
	const relations = new Set(channel.fields.filter(field => field.type === 'relation').map(field => field.key));
	const selfRelations = new Set(channel.fields.filter(field => field.type === 'relation' && (field.config.channel_id ?? channel.id) === channel.id).map(field => field.key));
	const truth = new Map<string, Values>();
	const items = all.map(item => {
		const id = ids.get(item.id)!;
		const values: Values = {};
		for (const [key, value] of Object.entries(item.values)) {
			if (formulas.has(key)) continue;
			const target = selfRelations.has(key) && typeof value === 'string' ? ids.get(value) : undefined;
			const copied = relations.has(key) ? (target !== undefined && target < id ? target : null) : value;
			values[key] = judgedIds.has(item.id) && fields.includes(key) ? null : copied;
		}

		if (judgedIds.has(item.id)) {
			truth.set(id, Object.fromEntries(fields.map(key => [key, selfRelations.has(key) ? ids.get(String(item.values[key])) ?? item.values[key] : item.values[key]])));
		}

		return {values, created_at: item.created_at, updated_at: item.updated_at};
	});
	return {channel: {...channel, fields: channel.fields.map(field => ({...field, is_required: false}))}, items, truth, ids};
}

/** What the agent proposed last for one item and field. */
export type Answer = {value: unknown; confidence: number | null};

/** The proposals as judged: the last one per item and field wins (an agent may think again). */
export function lastAnswers(proposals: ReadonlyArray<{id: number; item_id: string; changes: Record<string, {to: unknown}>; confidence: number | null}>): Map<string, Map<string, Answer>> {
	const answers = new Map<string, Map<string, Answer>>();
	for (const proposal of [...proposals].sort((a, b) => a.id - b.id)) {
		const byField = answers.get(proposal.item_id) ?? new Map<string, Answer>();
		for (const [key, change] of Object.entries(proposal.changes)) byField.set(key, {value: change.to, confidence: proposal.confidence});
		answers.set(proposal.item_id, byField);
	}

	return answers;
}

export type FieldReport = FieldScores & {
	field: string;
	/** Proposals that came with a confidence, and their calibration error (null: none did). */
	with_confidence: number;
	ece: number | null;
};

export type AgentEvalScores = {fields: FieldReport[]; duplicates: RankingScores | null};

/**
 * The figures: per field, every judged item counts (one the agent left alone is a miss); the
 * calibration error over the proposals that gave a confidence. With `duplicate_of` judged,
 * `rankedDuplicates` (the agent's pick first, then the candidates it could have picked) gives
 * recall@k.
 */
export function agentScores(truth: ReadonlyMap<string, Values>, answers: ReadonlyMap<string, ReadonlyMap<string, Answer>>, fields: readonly string[], rankedDuplicates?: ReadonlyMap<string, readonly string[]>): AgentEvalScores {
	const reports = fields.map(field => {
		const judged: Judged[] = [...truth].map(([itemId, values]) => {
			const answer = answers.get(itemId)?.get(field);
			return answer === undefined ? {truth: values[field]} : {truth: values[field], proposed: answer.value, ...(answer.confidence === null ? {} : {confidence: answer.confidence})};
		});
		const confident = judged.filter(entry => entry.proposed !== undefined && entry.confidence !== undefined);
		return {
			field,
			...fieldScores(judged),
			with_confidence: confident.length,
			ece: expectedCalibrationError(confident.map(entry => ({confidence: entry.confidence!, correct: sameValue(entry.proposed, entry.truth)}))),
		};
	});
	const duplicates = rankedDuplicates === undefined ? null : rankingScores([...truth].map(([itemId, values]) => firstRightRank(rankedDuplicates.get(itemId) ?? [], new Set([String(values[DUPLICATE_FIELD])]))));
	return {fields: reports, duplicates};
}
