// The accuracy loop's parts without processes (source/eval/agent-eval.ts): the seeded sample, the
// scratch copy (fields hidden, ids renumbered, a judged duplicate_of's target copied beside it and
// renamed), the last proposal per field winning, and duplicate recall@k from the agent's pick.

import {describe, expect, it} from 'vitest';
import {agentScores, lastAnswers, sampleItems, scratchCopy} from '../../source/eval/agent-eval.js';
import type {Channel, Item} from '../../store/index.js';

const channel: Channel = {
	id: 'bugs',
	name: 'Bugs',
	fields: [
		{key: 'title', label: 'Title', type: 'text', is_required: true, is_unique: false, config: {}},
		{key: 'status', label: 'Status', type: 'select', is_required: true, is_unique: false, config: {options: [{value: 'new', label: 'New'}, {value: 'duplicate', label: 'Duplicate'}]}},
		{key: 'duplicate_of', label: 'Duplicate of', type: 'relation', is_required: false, is_unique: false, config: {channel_id: 'bugs'}},
	],
};

const item = (seq: number, values: Item['values']): Item => ({id: `it_${seq.toString(36).padStart(10, '0')}`, channel_id: 'bugs', version: 3, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-02T00:00:00.000Z', values});

describe('the agent eval parts', () => {
	it('samples the same items for the same seed, in their order, and all when there are fewer', () => {
		const items = Array.from({length: 100}, (_, index) => index);
		const first = sampleItems(items, 10, 7);
		expect(first).toHaveLength(10);
		expect(new Set(first).size).toBe(10);
		expect(first).toEqual([...first].sort((a, b) => a - b));
		expect(sampleItems(items, 10, 7)).toEqual(first);
		expect(sampleItems(items, 10, 8)).not.toEqual(first);
		expect(sampleItems(items.slice(0, 5), 10, 7)).toEqual([0, 1, 2, 3, 4]);
	});

	it('copies the judged items with their fields hidden and the duplicate\'s target beside them, renumbered', () => {
		const target = item(40, {title: 'Crash on save', status: 'new', duplicate_of: null});
		const duplicate = item(90, {title: 'Saving crashes', status: 'duplicate', duplicate_of: target.id});
		const copy = scratchCopy(channel, [duplicate], [target], ['status', 'duplicate_of']);
		expect(copy.items.map(entry => entry.values)).toEqual([
			{title: 'Crash on save', status: 'new', duplicate_of: null},
			{title: 'Saving crashes', status: null, duplicate_of: null},
		]);
		expect(copy.items[1]!.created_at).toBe(duplicate.created_at);
		expect([...copy.ids]).toEqual([[target.id, 'it_0000000001'], [duplicate.id, 'it_0000000002']]);
		// The truth names the target by its scratch id: the id the agent can propose there.
		expect([...copy.truth]).toEqual([['it_0000000002', {status: 'duplicate', duplicate_of: 'it_0000000001'}]]);
		expect(copy.channel.fields.every(field => !field.is_required)).toBe(true);
		// Not judged, a relation to a record left out of the copy is emptied.
		expect(scratchCopy(channel, [duplicate], [], ['status']).items[0]!.values).toEqual({title: 'Saving crashes', status: null, duplicate_of: null});
	});

	it('judges the last proposal per field, and duplicate recall@k from the ranked candidates', () => {
		const truth = new Map([['a', {status: 'duplicate', duplicate_of: 'x'}], ['b', {status: 'new', duplicate_of: 'y'}]]);
		const answers = lastAnswers([
			{id: 2, item_id: 'a', changes: {status: {to: 'duplicate'}}, confidence: 0.9},
			{id: 1, item_id: 'a', changes: {status: {to: 'new'}, duplicate_of: {to: 'x'}}, confidence: null},
			{id: 3, item_id: 'b', changes: {duplicate_of: {to: 'z'}}, confidence: 0.4},
		]);
		expect(answers.get('a')?.get('status')).toEqual({value: 'duplicate', confidence: 0.9});
		const scores = agentScores(truth, answers, ['status', 'duplicate_of'], new Map([['a', ['x', 'q']], ['b', ['z', 'q', 'r', 's', 'y']]]));
		expect(scores.fields[0]).toMatchObject({field: 'status', items: 2, proposed: 1, correct: 1, precision: 1, recall: 0.5, with_confidence: 1});
		expect(scores.fields[0]!.ece).toBeCloseTo(0.1, 10);
		expect(scores.fields[1]).toMatchObject({field: 'duplicate_of', proposed: 2, correct: 1, with_confidence: 1});
		expect(scores.fields[1]!.ece).toBeCloseTo(0.4, 10);
		expect(scores.duplicates).toMatchObject({questions: 2, recall_at_1: 0.5, recall_at_5: 1, recall_at_10: 1});
	});
});
