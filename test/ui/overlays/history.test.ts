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
	runDiff() {
		const shown = reduce(listed(), {type: 'historyLoaded', runs: [run('a'), run('b')]}).state;
		const asked = reduce(reduce(shown, {type: 'cursor', delta: 1}).state, {type: 'runDiff'});
		expect(effect(asked, 'runDiff')).toEqual({kind: 'runDiff', runId: 'b', preview: false});
		const diff = reduce(asked.state, {type: 'runDiffLoaded', runId: 'b', lines: ['run b: 1 field changed'], revert: false}).state;
		expect(diff.history.diff).toEqual({runId: 'b', lines: ['run b: 1 field changed'], revert: false});
		// Esc leaves the diff first, then the history.
		const back = reduce(diff, {type: 'cancel'}).state;
		expect([back.history.diff, back.overlay.kind]).toEqual([null, 'history']);
	},
	runRevert() {
		const shown = reduce(listed(), {type: 'historyLoaded', runs: [run('a')]}).state;
		// The first U previews (nothing written), the second on that preview reverts.
		const first = reduce(shown, {type: 'runRevert'});
		expect(effect(first, 'runDiff')).toEqual({kind: 'runDiff', runId: 'a', preview: true});
		expect(kinds(first)).not.toContain('runRevert');
		const previewed = reduce(first.state, {type: 'runDiffLoaded', runId: 'a', lines: ['would set back'], revert: true}).state;
		expect(effect(reduce(previewed, {type: 'runRevert'}), 'runRevert')).toEqual({kind: 'runRevert', runId: 'a'});
	},
	runDiffLoaded() {
		const shown = reduce(listed(), {type: 'historyLoaded', runs: [run('a')]}).state;
		// A diff of a run the cursor left is dropped.
		expect(reduce(shown, {type: 'runDiffLoaded', runId: 'other', lines: ['x'], revert: false}).state.history.diff).toBeNull();
	},
	runReverted() {
		const shown = reduce(listed(), {type: 'historyLoaded', runs: [run('a')]}).state;
		const done = reduce(shown, {type: 'runReverted', runId: 'a', lines: ['run a reverted: 1 field set back', '  conflict x'], ok: false});
		expect(done.state.history.diff?.lines).toEqual(['run a reverted: 1 field set back', '  conflict x']);
		expect(done.state.message).toEqual({text: 'run a reverted: 1 field set back', tone: 'warn'});
		expect(kinds(done)).toEqual(['pollEvents']);
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
