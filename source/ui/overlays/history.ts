// `R`: the run history, and one run's steps.

import {maxDetailTop, runDetailLines} from '../run-detail.js';
import {NONE, type ScreenState} from '../state.js';
import {bodyRows} from './rows.js';
import {none, type OverlaySlice} from './slice.js';

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
	keys: {
		cursor(state, overlay, {delta}) {
			if (overlay.open) return none(scrollDetail(state, delta));
			const count = state.history.runs.length;
			return none({...state, overlay: {...overlay, cursor: Math.min(Math.max(0, count - 1), Math.max(0, overlay.cursor + delta))}});
		},
		choose(state, overlay) {
			const run = state.history.runs[overlay.cursor];
			if (!run) return none(state);
			return {state: {...state, overlay: {...overlay, open: true}, history: {...state.history, open: null}}, effects: [{kind: 'loadSteps', run}]};
		},
		page: (state, overlay, {pages}) => none(overlay.open ? scrollDetail(state, pages * detailPage(state)) : state),
		cancel: (state, overlay) => none({...state, overlay: overlay.open ? {...overlay, open: false} : NONE}),
	},
	events: {
		openHistory: state => ({state: {...state, awaiting: 'history'}, effects: [{kind: 'loadHistory'}]}),
		historyLoaded: (state, event) => none({...state, history: {runs: event.runs, open: null}, overlay: {kind: 'history', cursor: 0, open: false}, awaiting: null}),
		stepsLoaded(state, event) {
			const {overlay} = state;
			if (overlay.kind !== 'history' || !overlay.open || state.history.runs[overlay.cursor] !== event.run) return none(state);
			return none({...state, history: {...state.history, open: {run: event.run, steps: event.steps, top: 0}}});
		},
	},
} satisfies OverlaySlice<'history', 'openHistory' | 'historyLoaded' | 'stepsLoaded'>;
