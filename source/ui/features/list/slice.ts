// The list (no overlay open): the cursor, pages read as it moves, marks, the record pane, and the
// world as it reaches the list (pages, rows read again, the channel's events, its schema).

import type {MarkedRow} from '../../model/bulk.js';
import {previewFromValues} from '../../format.js';
import {baseQuery} from '../../model/views.js';
import type {Effect, ScreenState, Transition} from '../../state.js';
import {appendPage, canLoadAfter, canLoadBefore, endWindow, firstWindow, moveCursor, patchRow, prependPage} from '../../window.js';
import {currentRow, listRows, moveBy, moveTo, recount, recountAsking, relist, seenRow} from '../rows.js';
import {reviewEffects} from '../review/slice.js';
import {listBinding, none, say, type EventOf, type OverlaySlice} from '../feature.js';
import {LIST_EFFECTS} from './effects.js';
import type {SyncMarks} from '../../sync-marks.js';
import type {SyncProgress} from '../../../sync/engine-loop.js';

declare module '../../state.js' {
	interface ScreenState {
		/** The channel's sync with its tracker, as last read (null: not synced): the header's words and the rows' marks. */
		sync: SyncMarks | null;
		/** The live sync's round under way, while it says how far it got (null between rounds). */
		syncProgress: SyncProgress | null;
	}

	interface EventVariants {
		list: {type: 'syncState'; sync: SyncMarks | null} | {type: 'syncProgress'; progress: SyncProgress | null};
	}

	interface EffectVariants {
		/** The channel's sync state read again: at start, after the channel's events, after a sync cycle or a conflict resolved. */
		list: {kind: 'readSyncState'};
	}
}

/** The header's follow-up count read again: when it moved, the views asking `has:followup` are counted again (rows.ts). */
function followUpsCounted(state: ScreenState, {count}: EventOf<'followUpCount'>): Transition {
	const next = {...state, followUpCount: count};
	return count === state.followUpCount ? none(next) : recountAsking(next, 'followUps');
}

/** How long a row stays marked as "changed just now" (ms). */
export const CHANGED_MS = 3000;

function mark(state: ScreenState): ScreenState {
	const row = currentRow(state);
	if (!row) return state;
	const marks = new Set(state.marks);
	const seen = new Map(state.seen);
	if (marks.has(row.id)) {
		marks.delete(row.id);
		seen.delete(row.id);
	} else {
		marks.add(row.id);
		seen.set(row.id, seenRow(state.fields, row));
	}

	return moveBy({...state, marks, seen}, 1);
}

function markAll(state: ScreenState): ScreenState {
	const {rows} = state.window;
	const all = rows.every(row => state.marks.has(row.id));
	const marks = all ? new Set<string>() : new Set([...state.marks, ...rows.map(row => row.id)]);
	const seen = all ? new Map<string, MarkedRow>() : new Map([...rows.map(row => [row.id, seenRow(state.fields, row)] as const), ...state.seen]);
	return say({...state, marks, seen}, all ? 'All marks cleared.' : `${rows.length} loaded rows marked.`);
}

function togglePane(state: ScreenState): ScreenState {
	const row = currentRow(state);
	if (state.pane === 'run') return {...state, pane: row ? 'detail' : 'none', paneScroll: 0};
	if (state.run.exists) return {...state, pane: 'run', paneScroll: 0};
	if (row) return {...state, pane: 'detail', paneScroll: 0};
	return state;
}

function listed(state: ScreenState, event: EventOf<'listed'>): Transition {
	if (event.generation !== state.generation) return none(state);
	if (event.from === 'end' && event.page.prev_cursor === undefined) {
		// A store without cursor paging answered with its first page: stay, at the end of what is loaded.
		return none(say(moveBy(moveTo({...state, loading: null, listMoves: 0}, state.window.rows.length - 1), state.listMoves), 'This store cannot read from the end yet; this is the end of what is loaded.', 'warn'));
	}

	const {pageSize, maxPages} = state.window;
	const fresh = event.from === 'end' ? endWindow(event.page, pageSize, maxPages) : firstWindow(event.page, pageSize, maxPages, event.at === undefined ? 'start' : 'item');
	const window = moveCursor(fresh, fresh.cursor, listRows(state));
	// The rows moved while it was read, from where it opens (rows.ts, moveBy).
	const next = moveBy({...state, window, loading: null, want: null, listMoves: 0, newItems: 0}, state.listMoves);
	return none(event.note ? say(next, event.note) : next);
}

function pageLoaded(state: ScreenState, event: EventOf<'pageLoaded'>): Transition {
	if (event.generation !== state.generation) return none(state);
	let window = event.direction === 'after' ? appendPage(state.window, event.page) : prependPage(state.window, event.page);
	let {want} = state;
	if (want !== null) {
		// The rows a pending move counted on shift by the rows put in front, or dropped from the front.
		want += event.direction === 'before' ? event.page.items.length : window.rows.length - event.page.items.length - state.window.rows.length;
		window = moveCursor(window, want, listRows(state));
		const waiting = (want >= window.rows.length && canLoadAfter(window)) || (want < 0 && canLoadBefore(window));
		if (!waiting) want = null;
	}

	return none({...state, window, loading: null, want});
}

/** Events of the channel read by cursor: totals, deleted rows, and the changed rows to read again. */
function storeEvents(state: ScreenState, {events, at}: EventOf<'storeEvents'>): Transition {
	const touched = new Set<string>();
	let created = 0;
	let deleted = 0;
	let {window} = state;
	let schemaChanged = false;
	for (const event of events) {
		if (event.type === 'channel.updated') schemaChanged = true;
		else if (event.type === 'item.created') created++;
		else if (event.type === 'item.deleted') {
			deleted++;
			window = patchRow(window, event.item_id, row => ({...row, deleted: true}));
		} else touched.add(event.item_id);
	}

	let next: ScreenState = {...state, window, total: state.total + created - deleted, newItems: state.newItems + created};
	if (touched.size > 0) {
		const changed = new Map(state.changed);
		for (const id of touched) changed.set(id, at + CHANGED_MS);
		next = {...next, changed, detailTick: state.detailTick + 1};
	}

	const effects: Effect[] = [{kind: 'countFollowUps'}];
	// A pull or an edit moves what waits to be sent and the conflicts (a channel linked since is seen on r).
	if (state.sync) effects.push({kind: 'readSyncState'});
	if (touched.size > 0) effects.unshift({kind: 'readRows', ids: [...touched]});
	if (schemaChanged) effects.unshift({kind: 'reloadSchema'});
	effects.push(...reviewEffects(state, events));
	return {state: next, effects};
}

export const LIST = {
	scope: () => 'list',
	effects: LIST_EFFECTS,
	initial: {sync: null, syncProgress: null} as Pick<ScreenState, 'sync' | 'syncProgress'>,
	scopes: {list: 'List'},
	bindings: [
		listBinding('down', {type: 'move', rows: 1}),
		listBinding('up', {type: 'move', rows: -1}),
		listBinding('pageDown', {type: 'page', pages: 1}),
		listBinding('pageUp', {type: 'page', pages: -1}),
		listBinding('top', {type: 'top'}),
		listBinding('bottom', {type: 'bottom'}),
		listBinding('open', {type: 'openDetail'}),
		listBinding('back', {type: 'back'}),
		listBinding('mark', {type: 'mark'}),
		listBinding('markAll', {type: 'markAll'}),
		listBinding('togglePane', {type: 'togglePane'}),
		listBinding('reload', {type: 'reload'}),
	],
	keys: {
		page: (state, _overlay, {pages}) => none(moveBy(state, pages * Math.max(1, listRows(state) - 1))),
	},
	events: {
		move: (state, event) => none(moveBy(state, event.rows)),
		top(state) {
			// The newest record of the query, loaded or not (while a listing is read, perhaps from the end, read it again from the start).
			if (canLoadBefore(state.window) || state.loading === 'list') return relist(state, state.query, 'The newest records.');
			return none(moveTo(state, 0));
		},
		bottom(state) {
			// The oldest record of the query: its last page, read from the end (not the end of what is loaded).
			if (!canLoadAfter(state.window) && state.loading !== 'list') return none(moveTo(state, state.window.rows.length - 1));
			const generation = state.generation + 1;
			return {state: {...state, generation, loading: 'list', want: null, listMoves: 0}, effects: [{kind: 'list', generation, query: state.query, from: 'end', note: 'The oldest records.'}]};
		},
		openDetail: state => none(currentRow(state) ? {...state, pane: 'detail', paneScroll: 0} : state),
		back(state) {
			if (state.pane !== 'none') return none({...state, pane: 'none', paneScroll: 0});
			if (state.marks.size > 0) return none(say({...state, marks: new Set(), seen: new Map()}, `${state.marks.size === 1 ? '1 mark' : `${state.marks.size} marks`} cleared.`));
			const base = baseQuery(state.views, state.query);
			if (state.query.sort !== base.sort) return relist(state, base, 'Search, filter and sort cleared.');
			if (state.query.search || state.query.filter) return relist(state, base, 'Search and filter cleared.');
			return none(state);
		},
		mark: state => none(mark(state)),
		markAll: state => none(markAll(state)),
		togglePane: state => none(togglePane(state)),
		// The views are counted again too: counts are read at start, on r and when a view is saved
		// (on SQLite a count runs on this thread, seconds at a million records, so not after every change).
		reload(state) {
			const reloaded = recount(relist(state, state.query, 'Reloaded from the newest record.'));
			return {state: reloaded.state, effects: [...reloaded.effects, {kind: 'readSyncState'}]};
		},
		resize: (state, event) => none({...state, size: {columns: event.columns, rows: event.rows}}),
		listed,
		pageLoaded,
		loadFailed: (state, event) => none(event.generation === state.generation ? say({...state, loading: null, want: null, listMoves: 0}, event.message, 'error') : state),
		rowRead(state, {id, item}) {
			const window = item
				? patchRow(state.window, id, row => (row.version >= item.version && !row.deleted ? row : {...row, version: item.version, updated_at: item.updated_at, preview: previewFromValues(state.fields, item.values)}))
				: patchRow(state.window, id, row => ({...row, deleted: true}));
			return none(window === state.window ? state : {...state, window});
		},
		storeEvents,
		detailLoaded: (state, event) => none(event.for === state.detailFor ? {...state, detail: event.detail} : state),
		followUpCount: followUpsCounted,
		syncState: (state, {sync}) => none({...state, sync}),
		syncProgress: (state, {progress}) => none({...state, syncProgress: progress}),
		expire(state, event) {
			if (state.changed.size === 0) return none(state);
			const changed = new Map([...state.changed].filter(([, until]) => until > event.at));
			return none(changed.size === state.changed.size ? state : {...state, changed});
		},
		say: (state, event) => none(say(state, event.text, event.tone)),
		effectFailed: (state, event) => none(say({...state, awaiting: null}, event.message, 'error')),
		// Pickers, columns and edits use the new fields from now on; the hotkeys stay as configured.
		// The schema is read again at once (other screens get it by the channel.updated event).
		channelChanged: (state, event) => (event.ok ? {state: say(state, event.message, 'ok'), effects: [{kind: 'reloadSchema', quiet: true}]} : none(say(state, event.message, 'error'))),
		schemaLoaded(state, event) {
			if (JSON.stringify(event.fields) === JSON.stringify(state.fields)) return none(state);
			const next = {...state, fields: event.fields, detailTick: state.detailTick + 1};
			return none(event.quiet ? next : say(next, 'The channel\'s schema changed; showing it.', 'info'));
		},
	},
} satisfies OverlaySlice<'none', 'move' | 'top' | 'bottom' | 'openDetail' | 'back' | 'mark' | 'markAll' | 'togglePane' | 'reload' | 'resize' | 'listed' | 'pageLoaded' | 'loadFailed' | 'rowRead' | 'storeEvents' | 'detailLoaded' | 'followUpCount' | 'syncState' | 'syncProgress' | 'expire' | 'say' | 'effectFailed' | 'channelChanged' | 'schemaLoaded'>;
