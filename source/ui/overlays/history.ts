// `R`: the run history, and one run's steps.

import {NONE} from '../state.js';
import {none, type OverlaySlice} from './slice.js';

export const HISTORY = {
	scope: () => 'history',
	keys: {
		cursor(state, overlay, {delta}) {
			if (overlay.open) return none(state);
			const count = state.history.runs.length;
			return none({...state, overlay: {...overlay, cursor: Math.min(Math.max(0, count - 1), Math.max(0, overlay.cursor + delta))}});
		},
		choose(state, overlay) {
			const run = state.history.runs[overlay.cursor];
			if (!run) return none(state);
			return {state: {...state, overlay: {...overlay, open: true}, history: {...state.history, open: null}}, effects: [{kind: 'loadSteps', run}]};
		},
		cancel: (state, overlay) => none({...state, overlay: overlay.open ? {...overlay, open: false} : NONE}),
	},
	events: {
		openHistory: state => ({state: {...state, awaiting: 'history'}, effects: [{kind: 'loadHistory'}]}),
		historyLoaded: (state, event) => none({...state, history: {runs: event.runs, open: null}, overlay: {kind: 'history', cursor: 0, open: false}, awaiting: null}),
		stepsLoaded(state, event) {
			const {overlay} = state;
			if (overlay.kind !== 'history' || !overlay.open || state.history.runs[overlay.cursor] !== event.run) return none(state);
			return none({...state, history: {...state.history, open: {run: event.run, steps: event.steps}}});
		},
	},
} satisfies OverlaySlice<'history', 'openHistory' | 'historyLoaded' | 'stepsLoaded'>;
