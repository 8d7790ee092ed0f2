// The record pane's slice of the screen: its scroll (J/K in the list; PgDn, Space and the rest
// full screen) and the full-screen record (Z). Every move is clamped to the lines the record has
// at the pane's size (record-lines.ts), so the pane never scrolls past its end; a new record starts
// at its top. The reducer routes the record's events here.

import {relationNames} from './format.js';
import {screenLayout} from './layout.js';
import {recordLines} from './record-lines.js';
import {scrollBy, type RecordEvent} from './record-scroll.js';
import type {ScreenState} from './state.js';
import {rowAt} from './window.js';

/** A day before every date: counting lines does not depend on which dates are overdue. */
const NO_DAY = '0000-00-00';

/** How many lines the record under the cursor has at the pane's size, and the pane's height (0 lines while it is not read). */
export function recordExtent(state: ScreenState): {total: number; height: number} {
	const layout = screenLayout(state.size, state.overlay, state.pane);
	const row = rowAt(state.window);
	const detail = state.detail;
	if (!row || !detail?.item || detail.id !== row.id) return {total: 0, height: layout.paneHeight};
	const lines = recordLines({fields: state.fields, item: detail.item, flagged: detail.flagged, comments: detail.comments, width: layout.paneWidth, today: NO_DAY, names: relationNames(state.fields, state.window.rows)});
	return {total: lines.length, height: layout.paneHeight};
}

/** One of the record pane's events. */
export function recordStep(state: ScreenState, event: RecordEvent): ScreenState {
	if (event.type === 'fullRecord') {
		if (state.overlay.kind === 'record') return {...state, overlay: {kind: 'none'}};
		if (state.overlay.kind !== 'none' || !rowAt(state.window)) return state;
		// Full screen keeps the place read so far in the pane.
		return {...state, overlay: {kind: 'record'}, pane: 'detail', paneScroll: state.pane === 'detail' ? state.paneScroll : 0};
	}

	const {total, height} = recordExtent(state);
	return {...state, paneScroll: scrollBy(state.paneScroll, event.move, total, height)};
}

/** After any step: when the cursor went to another record, its pane starts at the top. */
export function followRecord(before: ScreenState, after: ScreenState): ScreenState {
	if (after.paneScroll === 0 || rowAt(before.window)?.id === rowAt(after.window)?.id) return after;
	return {...after, paneScroll: 0};
}
