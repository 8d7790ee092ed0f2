// The confirm slice (source/ui/overlays/confirm.ts) through the root reducer: each of its events.
// CASES is typed over the slice's events, so an event added to it without a test does not compile.

import {describe, expect, it} from 'vitest';
import {CONFIRM} from '../../../source/ui/features/confirm/slice.js';
import {CANCEL_QUESTION, QUIT_QUESTION, reduce} from '../../../source/ui/reducer.js';
import {listed, kinds} from './fixtures.js';

const CASES: {[T in keyof typeof CONFIRM.events]: () => void} = {
	quit() {
		expect(kinds(reduce(listed(), {type: 'quit'}))).toEqual(['quit']);
		const active = reduce({...listed(), run: {active: true, exists: true}}, {type: 'quit'});
		expect(active.effects).toEqual([]);
		expect(active.state.overlay).toEqual({kind: 'confirm', question: QUIT_QUESTION, action: 'quit'});
	},
	interrupt() {
		expect(kinds(reduce(listed(), {type: 'interrupt'}))).toEqual(['quit']);
		const asking = reduce({...listed(), run: {active: true, exists: true}}, {type: 'interrupt'}).state;
		expect(asking.overlay).toMatchObject({kind: 'confirm', action: 'quit'});
		// Asked already: a second Ctrl+C quits.
		expect(kinds(reduce(asking, {type: 'interrupt'}))).toEqual(['quit']);
	},
	askCancelRun() {
		expect(reduce(listed(), {type: 'askCancelRun'}).state.message).toEqual({text: 'No Codex run is active: nothing to cancel (c starts one).', tone: 'warn'});
		expect(reduce({...listed(), run: {active: true, exists: true}}, {type: 'askCancelRun'}).state.overlay).toEqual({kind: 'confirm', question: CANCEL_QUESTION, action: 'cancelRun'});
	},
};

describe('the confirm slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);
});
