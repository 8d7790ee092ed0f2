// `b`: the runs board (a fan-out's or a watch's runs): its cursor and focus. The runs themselves
// live in the hooks (hooks/use-fanout.ts); the board's count comes back as `boardState`.

import {NONE, type ScreenState} from '../../state.js';
import {noActiveRun} from '../confirm/slice.js';
import {bind, listBinding, none, say, type OverlaySlice} from '../feature.js';
import {BOARD_EFFECTS} from './effects.js';

/** Why a key about the board's runs does nothing: none on it yet. */
const noBoardRun = (state: ScreenState): string | null => (state.board.runs === 0 ? 'No run on the board yet: c on more marks than a batch holds, or W, starts some.' : null);

export const BOARD = {
	scope: () => 'board',
	effects: BOARD_EFFECTS,
	scopes: {board: 'Runs board (b)'},
	bindings: [
		listBinding('cancelAll', {type: 'cancelAllRuns'}, noActiveRun),
		listBinding('board', {type: 'openBoard'}),
		listBinding('watch', {type: 'toggleWatch'}),
		bind('board', 'down', ['j', 'down'], 'j ↓', 'next run', {type: 'boardMove', delta: 1}, {hint: 'move'}),
		bind('board', 'up', ['k', 'up'], 'k ↑', 'previous run', {type: 'boardMove', delta: -1}),
		bind('board', 'focus', ['enter'], 'Enter', 'the run\'s live steps (again: back to the board)', {type: 'boardFocus'}, {hint: 'steps', disabled: noBoardRun}),
		bind('board', 'cancelRun', ['x'], 'x', 'cancel this run', {type: 'boardCancel'}, {hint: 'cancel', disabled: noBoardRun}),
		bind('board', 'cancelAll', ['X'], 'X', 'cancel every run', {type: 'cancelAllRuns'}, {hint: 'cancel all', disabled: noActiveRun}),
		bind('board', 'watch', ['W'], 'W', 'watch mode on/off', {type: 'toggleWatch'}),
		bind('board', 'cancel', ['escape', 'q', 'b'], 'Esc', 'back to the list (the runs go on)', {type: 'closeBoard'}, {hint: 'back'}),
	],
	keys: {},
	events: {
		boardState(state, event) {
			const {board} = state;
			const cursor = Math.max(0, Math.min(board.cursor, event.runs - 1));
			return none({...state, board: {...board, runs: event.runs, watch: event.watch, cursor}});
		},
		openBoard(state) {
			if (state.board.runs === 0 && !state.board.watch) return none(say(state, 'No runs on the board yet: c on more marks than a batch holds, or W, starts some.', 'warn'));
			return none({...state, pane: 'run', overlay: {kind: 'board'}});
		},
		boardMove: (state, event) => none({...state, board: {...state.board, cursor: Math.max(0, Math.min(state.board.runs - 1, state.board.cursor + event.delta))}}),
		boardFocus: state => none(state.board.runs === 0 ? state : {...state, board: {...state.board, focused: !state.board.focused}}),
		boardCancel(state) {
			if (state.board.runs === 0) return none(state);
			return {state: say(state, `Cancelling run ${state.board.cursor + 1}…`, 'warn'), effects: [{kind: 'cancelBatch', position: state.board.cursor}]};
		},
		cancelAllRuns(state) {
			const reason = noActiveRun(state);
			if (reason) return none(say(state, reason, 'warn'));
			return {state: say(state, 'Cancelling every run…', 'warn'), effects: [{kind: 'cancelAllRuns'}]};
		},
		closeBoard: state => none({...state, overlay: NONE, board: {...state.board, focused: false}}),
		toggleWatch(state) {
			// Turning it on shows the board, where its batches and its status line are.
			// The flag flips now (keys typed next, like b, see it); the hook's boardState confirms it.
			const {board} = state;
			const next = {...state, pane: board.watch ? state.pane : 'run' as const, board: {...board, watch: !board.watch}, boardShown: board.watch ? state.boardShown : true};
			return {state: say(next, board.watch ? 'Stopping watch mode (its running batches are cancelled)…' : 'Starting watch mode…'), effects: [{kind: 'toggleWatch'}]};
		},
	},
} satisfies OverlaySlice<'board', 'boardState' | 'openBoard' | 'boardMove' | 'boardFocus' | 'boardCancel' | 'cancelAllRuns' | 'closeBoard' | 'toggleWatch'>;
