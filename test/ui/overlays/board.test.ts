// The board slice (source/ui/overlays/board.ts) through the root reducer: each of its events.
// CASES is typed over the slice's events, so an event added to it without a test does not compile.

import {describe, expect, it} from 'vitest';
import {BOARD} from '../../../source/ui/features/board/slice.js';
import type {Key} from 'ink';
import {reduce} from '../../../source/ui/reducer.js';
import type {ScreenState} from '../../../source/ui/state.js';
import {plain, listed, kinds} from './fixtures.js';

const CASES: {[T in keyof typeof BOARD.events]: () => void} = {
	boardState() {
		const onBoard = {...listed(), board: {runs: 3, cursor: 2, focused: false, watch: false}};
		// Fewer runs (never happens today, but the cursor stays on one).
		expect(reduce(onBoard, {type: 'boardState', runs: 2, watch: true}).state.board).toEqual({runs: 2, cursor: 1, focused: false, watch: true});
	},
	openBoard() {
		expect(reduce(listed(), {type: 'openBoard'}).state.message?.tone).toBe('warn');
		const open = reduce({...listed(), board: {runs: 2, cursor: 0, focused: false, watch: false}}, {type: 'openBoard'}).state;
		expect(open.overlay).toEqual({kind: 'board'});
		expect(open.pane).toBe('run');
	},
	boardMove() {
		let state: ScreenState = {...listed(), board: {runs: 3, cursor: 0, focused: false, watch: false}, overlay: {kind: 'board'}};
		for (const delta of [1, 1, 1] as const) state = reduce(state, {type: 'boardMove', delta}).state;
		expect(state.board.cursor).toBe(2);
		expect(reduce(state, {type: 'key', input: 'k', key: plain}).state.board.cursor).toBe(1);
		state = reduce({...state, board: {...state.board, cursor: 0}}, {type: 'boardMove', delta: -1}).state;
		expect(state.board.cursor).toBe(0);
	},
	boardFocus() {
		const state: ScreenState = {...listed(), board: {runs: 3, cursor: 1, focused: false, watch: false}, overlay: {kind: 'board'}};
		const focused = reduce(state, {type: 'key', input: '', key: {return: true} as Key}).state;
		expect(focused.board.focused).toBe(true);
		expect(reduce(focused, {type: 'boardFocus'}).state.board.focused).toBe(false);
		expect(reduce(listed(), {type: 'boardFocus'}).state.board.focused).toBe(false);
	},
	boardCancel() {
		const state: ScreenState = {...listed(), board: {runs: 3, cursor: 1, focused: false, watch: false}, overlay: {kind: 'board'}};
		const cancelling = reduce(state, {type: 'key', input: 'x', key: plain});
		expect(cancelling.effects).toEqual([{kind: 'cancelBatch', position: 1}]);
		expect(kinds(reduce(listed(), {type: 'boardCancel'}))).toEqual([]);
	},
	cancelAllRuns() {
		expect(kinds(reduce(listed(), {type: 'cancelAllRuns'}))).toEqual([]);
		const active: ScreenState = {...listed(), run: {active: true, exists: true}, board: {runs: 3, cursor: 0, focused: false, watch: false}};
		expect(kinds(reduce(active, {type: 'key', input: 'X', key: plain}))).toEqual(['cancelAllRuns']);
		expect(kinds(reduce({...active, overlay: {kind: 'board'}}, {type: 'key', input: 'X', key: plain}))).toEqual(['cancelAllRuns']);
	},
	closeBoard() {
		const state: ScreenState = {...listed(), pane: 'run', board: {runs: 3, cursor: 1, focused: true, watch: false}, overlay: {kind: 'board'}};
		const closed = reduce(state, {type: 'key', input: '', key: {escape: true} as Key}).state;
		expect(closed.overlay).toEqual({kind: 'none'});
		expect(closed.pane).toBe('run');
		expect(closed.board.focused).toBe(false);
	},
	toggleWatch() {
		expect(kinds(reduce(listed(), {type: 'key', input: 'W', key: plain}))).toEqual(['toggleWatch']);
		const on = reduce(listed(), {type: 'toggleWatch'}).state;
		expect(on.pane).toBe('run');
		expect(on.board.watch).toBe(true);
		// The board opens at once, before the watch says it is on.
		expect(reduce(on, {type: 'openBoard'}).state.overlay).toEqual({kind: 'board'});
		expect(reduce({...listed(), board: {runs: 0, cursor: 0, focused: false, watch: true}}, {type: 'toggleWatch'}).state.message?.text).toBe('Stopping watch mode (its running batches are cancelled)…');
	},
};

describe('the board slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);
});

describe('the board\'s keys with nothing to act on', () => {
	it('say why instead of doing nothing: x and Enter with no run on the board, X and the list\'s x with none active', () => {
		const open: ScreenState = {...listed(), overlay: {kind: 'board'}, board: {runs: 0, cursor: 0, focused: false, watch: true}};
		const press = (state: ScreenState, input: string, key = plain) => reduce(state, {type: 'key', input, key}).state.message;
		expect(press(open, 'x')).toEqual({text: 'No run on the board yet: c on more marks than a batch holds, or W, starts some.', tone: 'warn'});
		expect(press(open, '', {...plain, return: true})?.text).toMatch(/^No run on the board yet/);
		expect(press(open, 'X')).toEqual({text: 'No Codex run is active: nothing to cancel (c starts one).', tone: 'warn'});
		expect(press(listed(), 'x')?.text).toMatch(/^No Codex run is active/);
		expect(press(listed(), 'X')?.text).toMatch(/^No Codex run is active/);
	});
});
