// A yes/no question in the footer: quitting or cancelling while a run is active.

import {NONE, type ScreenState, type Transition} from '../../state.js';
import {bind, listBinding, none, say, type OverlaySlice} from '../feature.js';
import {CONFIRM_EFFECTS} from './effects.js';

export const QUIT_QUESTION = 'A Codex run is active. Cancel it and quit? y/n';
export const CANCEL_QUESTION = 'Cancel the Codex run? Codex and every process it started are stopped. y/n';

/** Why `x` or `X` cancels nothing: no run is active (said in the footer, a disabled binding's reason). */
export const noActiveRun = (state: ScreenState): string | null => (state.run.active ? null : 'No Codex run is active: nothing to cancel (c starts one).');

const askToQuit = (state: ScreenState): Transition => none({...state, overlay: {kind: 'confirm', question: QUIT_QUESTION, action: 'quit'}});

export const CONFIRM = {
	scope: () => 'confirm',
	effects: CONFIRM_EFFECTS,
	scopes: {confirm: 'Questions'},
	bindings: [
		listBinding('cancelRun', {type: 'askCancelRun'}, noActiveRun),
		listBinding('quit', {type: 'quit'}),
		bind('confirm', 'yes', ['y', 'Y'], 'y', 'yes', {type: 'answer', yes: true}, {hint: 'yes'}),
		bind('confirm', 'no', ['n', 'N', 'escape'], 'n', 'no', {type: 'answer', yes: false}, {hint: 'no'}),
	],
	keys: {
		answer(state, overlay, {yes}) {
			if (!yes) return none({...state, overlay: NONE});
			if (overlay.action === 'quit') return {state: {...state, overlay: NONE}, effects: [{kind: 'quit'}]};
			return {state: say({...state, overlay: NONE}, 'Cancelling the run…', 'warn'), effects: [{kind: 'cancelRun', position: state.boardShown ? state.board.cursor : null}]};
		},
	},
	events: {
		quit: state => (state.run.active ? askToQuit(state) : {state, effects: [{kind: 'quit'}]}),
		// Ctrl+C: asks once while a run is active; pressed again at the question, quits.
		interrupt: state => (state.run.active && state.overlay.kind !== 'confirm' ? askToQuit(state) : {state, effects: [{kind: 'quit'}]}),
		askCancelRun(state) {
			const reason = noActiveRun(state);
			if (reason) return none(say(state, reason, 'warn'));
			return none({...state, overlay: {kind: 'confirm', question: CANCEL_QUESTION, action: 'cancelRun'}});
		},
	},
} satisfies OverlaySlice<'confirm', 'quit' | 'interrupt' | 'askCancelRun'>;
