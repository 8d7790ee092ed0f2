// The agent cursor in the prompt: a run without explicit items is told where the channel's last
// finished run stopped and to catch up with poll_resource_events from there, or that it is the first.
// A run with explicit items reads as it always did.

import {describe, expect, it} from 'vitest';
import {buildPrompt, cursorText, DUPLICATES_TEXT, PROPOSE_TEXT, systemText} from '../../source/codex/prompt.js';

describe('the agent cursor in the prompt', () => {
	it('a run without items gets the last finished run\'s end sequence and is told to poll from it, not to re-list', () => {
		const prompt = buildPrompt({channelId: 'bugs', itemIds: [], instruction: 'Triage what is new', cursor: {afterSequence: 412}});
		const system = prompt.slice(0, prompt.indexOf('\n\nUser: Triage what is new'));
		expect(system).toContain('The last finished run on channel "bugs" ended at event sequence 412.');
		expect(system).toContain('call poll_resource_events with resource_type "record_channel", resource_id "bugs" and after_sequence 412');
		expect(system).toContain('again from next_after_sequence while has_more is true');
		expect(system).toContain('Do not call list_record_items to find what changed.');
		// Right after the channel line, before the rules about record values and edits.
		const paragraphs = system.split('\n\n');
		expect(paragraphs[1]).toMatch(/^Work in channel "bugs"/);
		expect(paragraphs[2]).toBe(cursorText('bugs', {afterSequence: 412}));
	});

	it('sequence 0 is a cursor too (a channel with no events yet), not the first run', () => {
		expect(systemText('bugs', [], {afterSequence: 0})).toContain('after_sequence 0');
		expect(systemText('bugs', [], {afterSequence: 0})).not.toContain('No earlier run');
	});

	it('the first run on the channel is told there is nothing to catch up from, and lists', () => {
		const system = systemText('bugs', [], {afterSequence: null});
		expect(system).toContain('No earlier run on channel "bugs" has finished: this is the first, with nothing to catch up from. List the channel\'s items with list_record_items.');
		expect(system).not.toContain('after_sequence');
	});

	it('a run with explicit items is unchanged by a cursor', () => {
		for (const cursor of [{afterSequence: 412}, {afterSequence: null}]) {
			expect(systemText('bugs', ['itm_1', 'itm_2'], cursor)).toBe(systemText('bugs', ['itm_1', 'itm_2']));
		}
		expect(systemText('bugs', ['itm_1'])).not.toMatch(/after_sequence|No earlier run/);
	});

	it('without a cursor (a run not recorded in a store) nothing is said of one', () => {
		expect(systemText('bugs', [])).not.toMatch(/after_sequence|No earlier run/);
	});
});

describe('a proposing run in the prompt (docs/review.md)', () => {
	it('is told its valid edits are proposals, to take proposed: true for success, and to give a reason; a run that writes is told nothing of it', () => {
		const proposing = buildPrompt({channelId: 'bugs', itemIds: ['it_1'], instruction: 'Triage', propose: true});
		expect(proposing).toContain(PROPOSE_TEXT);
		expect(PROPOSE_TEXT).toContain('proposed: true');
		expect(PROPOSE_TEXT).toContain('at most 500 characters');
		expect(buildPrompt({channelId: 'bugs', itemIds: ['it_1'], instruction: 'Triage'})).not.toContain('proposed: true');
	});
});

describe('duplicates and confidence in the prompt', () => {
	it('every run is told to pick a duplicate among find_similar_items\' candidates, never an id it did not read, and that confidence is optional', () => {
		for (const propose of [false, true]) {
			const system = systemText('bugs', ['it_1'], undefined, propose);
			expect(system).toContain(DUPLICATES_TEXT);
		}

		expect(DUPLICATES_TEXT).toContain('call find_similar_items on it and choose the original among the candidates it returns');
		expect(DUPLICATES_TEXT).toContain('never to an id you did not read');
		expect(DUPLICATES_TEXT).toContain('confidence, 0 to 1');
	});
});
