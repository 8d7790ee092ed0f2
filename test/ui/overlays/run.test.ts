// The run slice (source/ui/overlays/run.ts) through the root reducer: each of its events.
// CASES is typed over the slice's events, so an event added to it without a test does not compile.

import {describe, expect, it} from 'vitest';
import {defaultInstruction, INSTRUCTION} from '../../../source/ui/features/run/slice.js';
import {reduce} from '../../../source/ui/reducer.js';
import {fields, idOf, listed, kinds} from './fixtures.js';

const CASES: {[T in keyof typeof INSTRUCTION.events]: () => void} = {
	askRun() {
		const asked = reduce(listed(), {type: 'askRun'}).state;
		expect(asked.overlay).toMatchObject({kind: 'instruction', itemIds: [idOf(300)]});
		const marked = reduce(reduce(listed(), {type: 'mark'}).state, {type: 'mark'}).state;
		expect(reduce(marked, {type: 'askRun'}).state.overlay).toMatchObject({itemIds: [idOf(300), idOf(299)]});
		expect(reduce({...listed(), run: {active: true, exists: true}}, {type: 'askRun'}).state.message?.text).toBe('A run is already active; x cancels it.');
	},
	runState() {
		expect(reduce(listed(), {type: 'runState', active: true, exists: true}).state.run).toEqual({active: true, exists: true});
		// The cancel question goes once its run has ended; another question stays.
		const going = reduce(listed(), {type: 'runState', active: true, exists: true}).state;
		const asked = reduce(going, {type: 'askCancelRun'}).state;
		expect(asked.overlay).toMatchObject({kind: 'confirm', action: 'cancelRun'});
		expect(reduce(asked, {type: 'runState', active: false, exists: true}).state.overlay).toEqual({kind: 'none'});
		const quitting = {...going, overlay: {kind: 'confirm' as const, question: 'Quit?', action: 'quit' as const}};
		expect(reduce(quitting, {type: 'runState', active: false, exists: true}).state.overlay).toMatchObject({kind: 'confirm', action: 'quit'});
	},
	runRefused() {
		const asked = reduce(listed(), {type: 'askRun'}).state;
		const refused = reduce(asked, {type: 'runRefused', text: 'No run started: Codex is not logged in. Then press c again.'}).state;
		expect(refused.overlay).toEqual({kind: 'none'});
		expect(refused.message).toEqual({text: 'No run started: Codex is not logged in. Then press c again.', tone: 'error'});
		expect(refused.pane).toBe(asked.pane);
	},
	runStarted() {
		const started = reduce(reduce(listed(), {type: 'askRun'}).state, {type: 'runStarted', count: 2}).state;
		expect(started.pane).toBe('run');
		expect(started.overlay).toEqual({kind: 'none'});
		expect(started.message?.text).toBe('Codex started on 2 records · x cancels');
		// More than one batch: the runs board opens with the keys.
		const fanned = reduce(reduce(listed(), {type: 'askRun'}).state, {type: 'runStarted', count: 25, batches: 3}).state;
		expect(fanned.pane).toBe('run');
		expect(fanned.overlay).toEqual({kind: 'board'});
		expect(fanned.message?.text).toBe('Codex started on 25 records in 3 runs · X cancels all');
	},
	runFinished() {
		const finished = reduce(listed(), {type: 'runFinished', text: 'Codex ok', tone: 'ok'});
		expect(finished.state.message).toEqual({text: 'Codex ok', tone: 'ok'});
		expect(kinds(finished)).toEqual(['countFollowUps']);
	},
};

describe('the default instruction', () => {
	it('names no count: every batch of a fan-out gets it, and its prompt names its own items', () => {
		expect(defaultInstruction(fields, 28)).toMatch(/^Triage these records: read each one/);
		expect(defaultInstruction(fields, 28)).not.toMatch(/\d/);
		expect(defaultInstruction(fields, 1)).toMatch(/^Triage this record: read it/);
	});
});

describe('the run slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);
});
