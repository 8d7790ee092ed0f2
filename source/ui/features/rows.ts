// The list's rows as every slice sees them: the cursor moved, the list read again, a record's
// name, the rows an edit applies to and a written record shown in its row.

import type {Field, Item} from '../../../store/index.js';
import {sanitizeValue} from '../../text/sanitize.js';
import {shortValue} from '../edit.js';
import {pushUndo} from '../edit-outcome.js';
import {nameField, previewFromValues} from '../format.js';
import {screenLayout} from '../layout.js';
import type {MarkedRow} from '../model/bulk.js';
import {asksQueue, type Queue} from '../model/views.js';
import type {EditRequest, ListQuery, ScreenState, Transition} from '../state.js';
import {canLoadAfter, canLoadBefore, moveCursor, patchRow, rowAt, type Row} from '../window.js';

/** Rows the list shows at once, from the layout the state implies (the header line excluded). */
export const listRows = (state: ScreenState) => Math.max(1, screenLayout(state.size, state.overlay, state.pane).listHeight - 1);

/** Rows of the body between header and footer. */
export const bodyRows = (state: ScreenState) => screenLayout(state.size, state.overlay, state.pane).bodyHeight;

/** The row under the cursor. */
export const currentRow = (state: ScreenState) => rowAt(state.window);

export function moveTo(state: ScreenState, index: number): ScreenState {
	return {...state, window: moveCursor(state.window, index, listRows(state)), want: null};
}

/**
 * Moves by `delta` rows. Past the loaded rows the cursor goes as far as it can and the rest waits
 * for the page: the next key counts on from where the last one wanted to be, not from the clamped
 * cursor, so a burst of keys is not cut short at the end of what is loaded. While a listing is
 * read (start, `r`, `/`), the rows wait for it and are moved from where it opens (list.ts, listed).
 */
export function moveBy(state: ScreenState, delta: number): ScreenState {
	if (state.loading === 'list') return {...state, listMoves: state.listMoves + delta};
	const w = state.window;
	const to = (state.want ?? w.cursor) + delta;
	const next = moveTo(state, to);
	const past = (to >= w.rows.length && canLoadAfter(w)) || (to < 0 && canLoadBefore(w));
	return past ? {...next, want: to} : next;
}

/** The list read again for `query` from its first page; a page of an older listing is dropped. */
export function relist(state: ScreenState, query: ListQuery, note?: string): Transition {
	const generation = state.generation + 1;
	return {state: {...state, query, generation, loading: 'list', want: null, listMoves: 0}, effects: [{kind: 'list', generation, query, note}]};
}

/** The views (every one, unless named) counted again, or once more after the count under way. */
export function recount({state, effects}: Transition, views = state.views): Transition {
	if (views.length === 0) return {state, effects};
	if (state.counting !== 'idle') return {state: {...state, counting: 'again'}, effects};
	return {state: {...state, counting: 'busy'}, effects: [...effects, {kind: 'countViews', views}]};
}

/**
 * A queue's count moved (the header's: a run's refusals, a follow-up resolved, a proposal made or
 * decided): the views that ask its term are counted again (they were counted at start and on `r`
 * only), so the list's count under them is right. Only those: counting every view at 1M items
 * takes seconds. A count under way is followed by a full one. The queue's own tab needs no count:
 * it shows the header's (model/views.ts, tabCounts).
 */
export function recountAsking(state: ScreenState, queue: Queue): Transition {
	const views = state.views.filter(view => asksQueue(view, queue));
	// A count under way before any has finished is the first full one (use-screen.ts): it counts these too.
	if (views.length > 0 && state.counting !== 'idle' && state.viewCounts.size === 0) return {state, effects: []};
	return recount({state, effects: []}, views);
}

/** A record's name for messages: its unique name field, else its id; raw (escaped where it is drawn). */
export function nameOf(fields: Field[], values: Record<string, unknown> | undefined, id: string): string {
	const key = nameField(fields)?.key;
	const name = key ? values?.[key] : undefined;
	return typeof name === 'string' && name ? name : id;
}

/** A row as the person sees it now: what a write from it expects. */
export const seenRow = (fields: Field[], row: Row): MarkedRow => ({id: row.id, version: row.version, values: row.preview, name: nameOf(fields, row.preview, row.id)});

/** The rows an edit applies to: every marked row as it was marked, else the row under the cursor. */
export function editTargets(state: ScreenState): MarkedRow[] {
	if (state.marks.size > 0) {
		return [...state.marks].flatMap(id => {
			const seen = state.seen.get(id);
			if (seen) return [seen];
			const row = state.window.rows.find(candidate => candidate.id === id);
			return row ? [seenRow(state.fields, row)] : [];
		});
	}

	const row = currentRow(state);
	return row && !row.deleted ? [seenRow(state.fields, row)] : [];
}

/** A record as the store returned it after a write, shown in its row at once. */
export function showItem(state: ScreenState, item: {id: string; version: number; updated_at: string; values: Record<string, unknown>}): ScreenState {
	return {...state, window: patchRow(state.window, item.id, row => ({...row, version: item.version, updated_at: item.updated_at, preview: previewFromValues(state.fields, item.values)}))};
}

/** A marked row's snapshot moved on by our own write, so the next bulk edit expects the version we made. */
export function reseen(state: ScreenState, id: string, version: number, values: Record<string, unknown>): ScreenState {
	const seen = state.seen.get(id);
	if (!seen) return state;
	return {...state, seen: new Map(state.seen).set(id, {...seen, version, values: {...seen.values, ...values}})};
}

/** How a field reads in an edit's message: its label, and a value as the list shows it. */
export function editWording(state: ScreenState, key: string): {field: Field | undefined; label: string; show: (value: unknown) => string} {
	const field = state.fields.find(candidate => candidate.key === key);
	return {field, label: field?.label ?? key, show: value => (field ? shortValue(field, value) : sanitizeValue(value))};
}

/** A one-row edit the store wrote, from whichever overlay: the row shows the item, and one undo entry takes it back. */
export function oneRowWritten(state: ScreenState, request: EditRequest, item: Item): ScreenState {
	return showItem({...state, undo: pushUndo(state.undo, {itemId: item.id, name: request.name, key: request.key, before: request.before, after: request.value, version: item.version, seen: request.version})}, item);
}
