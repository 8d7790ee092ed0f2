// The history slice (source/ui/overlays/history.ts) through the root reducer: each of its events.
// CASES is typed over the slice's events, so an event added to it without a test does not compile.

import {describe, expect, it} from 'vitest';
import {HISTORY} from '../../../source/ui/overlays/history.js';
import {reduce} from '../../../source/ui/reducer.js';
import {run, listed, kinds, effect} from './fixtures.js';

const CASES: {[T in keyof typeof HISTORY.events]: () => void} = {
	openHistory() {
		expect(kinds(reduce(listed(), {type: 'openHistory'}))).toEqual(['loadHistory']);
	},
	historyLoaded() {
		const shown = reduce(listed(), {type: 'historyLoaded', runs: [run('a'), run('b')]}).state;
		expect(shown.overlay).toEqual({kind: 'history', cursor: 0, open: false});
		expect(reduce(reduce(shown, {type: 'cursor', delta: 1}).state, {type: 'cursor', delta: 1}).state.overlay).toMatchObject({cursor: 1});
	},
	stepsLoaded() {
		const runs = [run('a')];
		const opening = reduce(reduce(listed(), {type: 'historyLoaded', runs}).state, {type: 'choose'});
		expect(effect(opening, 'loadSteps')?.run).toBe(runs[0]);
		expect(reduce(opening.state, {type: 'stepsLoaded', run: runs[0]!, steps: []}).state.history.open).toEqual({run: runs[0], steps: []});
	},
};

describe('the history slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);
});
