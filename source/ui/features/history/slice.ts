// `R`: the run history, and one run's steps. `D` shows the run's diff (from → to, the value now);
// `U` shows what a revert would do, and `U` again reverts (docs/review.md#diff-and-revert).

import {maxDetailTop, runDetailLines} from '../../run-detail.js';
import {NONE, type ScreenState} from '../../state.js';
import {bodyRows} from '../rows.js';
import {bind, listBinding, none, say, type OverlaySlice} from '../feature.js';
import {HISTORY_EFFECTS} from './effects.js';

/** The run under the history's cursor, while the history is open. */
const runAtCursor = (state: ScreenState) => (state.overlay.kind === 'history' ? state.history.runs[state.overlay.cursor] : undefined);

/** The open run's detail scrolled by `lines`, never past its last screen. */
function scrollDetail(state: ScreenState, lines: number): ScreenState {
	const {open} = state.history;
	if (!open) return state;
	const height = bodyRows(state);
	const top = Math.min(maxDetailTop(runDetailLines(open.run, open.steps, state.size.columns).length, height), Math.max(0, (open.top ?? 0) + lines));
	return {...state, history: {...state.history, open: {...open, top}}};
}

/** A page of the detail: its rows less the title, the instruction and the two markers. */
const detailPage = (state: ScreenState) => Math.max(1, bodyRows(state) - 4);

export const HISTORY = {
	scope: () => 'history',
	effects: HISTORY_EFFECTS,
	scopes: {history: 'Run history (R)'},
	bindings: [
		listBinding('history', {type: 'openHistory'}),
		bind('history', 'down', ['j', 'down'], 'j ↓', 'next run', {type: 'cursor', delta: 1}, {hint: 'move'}),
		bind('history', 'up', ['k', 'up'], 'k ↑', 'previous run', {type: 'cursor', delta: -1}),
		bind('history', 'open', ['enter'], 'Enter', 'show the run\'s steps and answer', {type: 'choose'}, {hint: 'open'}),
		bind('history', 'cancel', ['escape', 'q', 'R'], 'Esc', 'close', {type: 'cancel'}, {hint: 'close'}),
		bind('history', 'diff', ['D'], 'D', 'the run\'s diff: each field from → to, and the value now', {type: 'runDiff'}, {hint: 'diff'}),
		bind('history', 'revert', ['U'], 'U', 'revert the run: U shows what it would do, U again does it', {type: 'runRevert'}, {hint: 'revert'}),
		bind('history', 'pageDown', ['pagedown', 'space', 'ctrl+d'], 'PgDn', 'an open run: the next page of its steps and answer (j/k a line)', {type: 'page', pages: 1}, {hint: 'page'}),
		bind('history', 'pageUp', ['pageup', 'ctrl+u'], 'PgUp', 'an open run: the page before', {type: 'page', pages: -1}),
	],
	keys: {
		cursor(state, overlay, {delta}) {
			if (state.history.diff) return none(state);
			if (overlay.open) return none(scrollDetail(state, delta));
			const count = state.history.runs.length;
			return none({...state, overlay: {...overlay, cursor: Math.min(Math.max(0, count - 1), Math.max(0, overlay.cursor + delta))}});
		},
		choose(state, overlay) {
			const run = state.history.runs[overlay.cursor];
			if (!run) return none(state);
			return {state: {...state, overlay: {...overlay, open: true}, history: {...state.history, open: null, diff: null}}, effects: [{kind: 'loadSteps', run}]};
		},
		cancel(state, overlay) {
			if (state.history.diff) return none({...state, history: {...state.history, diff: null}});
			return none({...state, overlay: overlay.open ? {...overlay, open: false} : NONE});
		},
		page: (state, overlay, {pages}) => none(overlay.open ? scrollDetail(state, pages * detailPage(state)) : state),
	},
	events: {
		openHistory: state => ({state: {...state, awaiting: 'history'}, effects: [{kind: 'loadHistory'}]}),
		historyLoaded: (state, event) => none({...state, history: {runs: event.runs, open: null, diff: null}, overlay: {kind: 'history', cursor: 0, open: false}, awaiting: null}),
		stepsLoaded(state, event) {
			const {overlay} = state;
			if (overlay.kind !== 'history' || !overlay.open || state.history.runs[overlay.cursor] !== event.run) return none(state);
			return none({...state, history: {...state.history, open: {run: event.run, steps: event.steps, top: 0}}});
		},
		runDiff(state) {
			const run = runAtCursor(state);
			if (!run) return none(state);
			return {state: say(state, `Reading the diff of run ${run.runId}…`), effects: [{kind: 'runDiff', runId: run.runId, preview: false}]};
		},
		runRevert(state) {
			const run = runAtCursor(state);
			if (!run) return none(state);
			// The first `U` shows what a revert would do; the second, on that preview, does it.
			if (state.history.diff?.runId === run.runId && state.history.diff.revert) return {state: say(state, `Reverting run ${run.runId}…`), effects: [{kind: 'runRevert', runId: run.runId}]};
			return {state, effects: [{kind: 'runDiff', runId: run.runId, preview: true}]};
		},
		runDiffLoaded(state, {runId, lines, revert}) {
			if (runAtCursor(state)?.runId !== runId) return none(state);
			const next = {...state, history: {...state.history, diff: {runId, lines, revert}}};
			return none(say(next, revert ? 'U again reverts: fields changed since are left as they are. Esc goes back.' : 'The run\'s diff · U reverts it · Esc goes back.', revert ? 'warn' : 'info'));
		},
		runReverted(state, {runId, lines, ok}) {
			const next = runAtCursor(state)?.runId === runId ? {...state, history: {...state.history, diff: {runId, lines, revert: false}}} : state;
			return {state: say(next, lines[0] ?? 'Reverted.', ok ? 'ok' : 'warn'), effects: [{kind: 'pollEvents'}]};
		},
	},
} satisfies OverlaySlice<'history', 'openHistory' | 'historyLoaded' | 'stepsLoaded' | 'runDiff' | 'runRevert' | 'runDiffLoaded' | 'runReverted'>;
