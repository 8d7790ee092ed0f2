// The history slice (source/ui/overlays/history.ts) through the root reducer: each of its events.
// CASES is typed over the slice's events, so an event added to it without a test does not compile.

import {describe, expect, it} from 'vitest';
import {HISTORY} from '../../../source/ui/features/history/slice.js';
import {reduce} from '../../../source/ui/reducer.js';
import {run, listed, kinds, effect} from './fixtures.js';
import {bodyRows} from '../../../source/ui/features/rows.js';
import {detailWindow, maxDetailTop, runDetailLines} from '../../../source/ui/run-detail.js';
import type {RunSummary} from '../../../source/ui/history.js';

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
		expect(reduce(opening.state, {type: 'stepsLoaded', run: runs[0]!, steps: []}).state.history.open).toEqual({run: runs[0], steps: [], top: 0});
	},
};

describe('a run\'s detail', () => {
	const steps = Array.from({length: 40}, (_, index) => ({id: `s${index}`, kind: 'mcp_tool_call', label: `edit_record_item BUG-${index}`, status: 'done' as const, result: null}));
	const detail: RunSummary = {...run('long'), outcome: 'ok', instruction: 'triage', text: '', error: null};
	const opened = () => {
		const shown = reduce(reduce(listed(40, false, 24), {type: 'historyLoaded', runs: [detail]}).state, {type: 'choose'}).state;
		return reduce(shown, {type: 'stepsLoaded', run: detail, steps}).state;
	};

	it('scrolls by line and page, never past its last screen, and back at once', () => {
		const state = opened();
		const height = bodyRows(state);
		const last = maxDetailTop(runDetailLines(detail, steps, state.size.columns).length, height);
		expect(last).toBeGreaterThan(0);
		const down = reduce(state, {type: 'cursor', delta: 1}).state;
		expect(down.history.open?.top).toBe(1);
		let paged = down;
		for (let press = 0; press < 10; press++) paged = reduce(paged, {type: 'page', pages: 1}).state;
		expect(paged.history.open?.top).toBe(last);
		// The first key back moves: no hidden overshoot to undo.
		expect(reduce(paged, {type: 'cursor', delta: -1}).state.history.open?.top).toBe(last - 1);
		expect(reduce(down, {type: 'page', pages: -1}).state.history.open?.top).toBe(0);
	});

	it('shows every step over its pages, with what is above and below counted', () => {
		const state = opened();
		const height = bodyRows(state);
		const seen = new Set<number>();
		for (let top = 0; top <= maxDetailTop(steps.length, height); top++) {
			const window = detailWindow(steps.length, top, height);
			expect(window.above + window.count + window.below).toBe(steps.length);
			for (let index = window.first; index < window.first + window.count; index++) seen.add(index);
		}

		expect(seen.size).toBe(steps.length);
		expect(detailWindow(3, 0, height)).toEqual({first: 0, count: 3, above: 0, below: 0});
	});
});

describe('the history slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);
});
