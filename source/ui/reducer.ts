// The screen's one state machine: (state, event) -> {state, effects}. Pure: no store, no timers,
// no React. Keys arrive as their bindings' events (registry.ts); hooks perform the effects and send their
// results back as events (hooks/use-screen.ts). This root only routes: a key by the scope of the
// open overlay, an overlay's own events to its slice (registry.ts), every other event by
// the case table the slices' tables make up. After each step the list settles (viewport, pages
// read ahead, the record pane's read).

import type {Key} from '#ink';
import {DEFAULT_BATCH_SIZE} from '../codex/batches.js';
import {keyName} from './keys.js';
import {resolveHotkeys} from './model/hotkeys.js';
import type {Hotkeys} from '../config/hotkeys.js';
import type {View} from '../config/schema.js';
import {startView, viewQuery} from './model/views.js';
import {hotkeyEvents, pickerEdited} from './features/field-edit/slice.js';
import {queueEdited} from './features/followups/slice.js';
import {FEATURE_INITIAL, FEATURES, keyEvents, scopeOf, sliceOf} from './registry.js';
import {followRecord} from './record-view.js';
import {currentRow, listRows} from './features/rows.js';
import {none, OVERLAY_EVENTS, chain, type EventOf, type EventTable, type EventType, type OverlayEventType, type OverlayHandler, type OverlayKind} from './features/feature.js';
import {NONE, type Effect, type Message, type ScreenEvent, type ScreenState, type Transition} from './state.js';
import {emptyWindow, requestAfter, requestBefore, scrollTop} from './window.js';

export {CANCEL_QUESTION, QUIT_QUESTION} from './features/confirm/slice.js';
export {setField, typedFieldValue} from './features/field-edit/slice.js';
export {helpLinesOf} from './registry.js';
export {CHANGED_MS} from './features/list/slice.js';
export {currentRow, listRows, nameOf} from './features/rows.js';
export {defaultInstruction} from './features/run/slice.js';

export const PAGE_SIZE = 50;
export const MAX_PAGES = 8;

export type InitialScreen = Pick<ScreenState, 'channelId' | 'fields' | 'size'> & {
	total: number;
	followUpCount: number;
	pageSize?: number;
	maxPages?: number;
	/** The channel's views (tabs); the screen opens on All, else the first. */
	views?: View[];
	hotkeys?: Hotkeys;
	/** The config file's run instruction. */
	instruction?: string;
	/** Said in the footer from the start (what the config file had that was ignored). */
	message?: Message;
	/** Count the views at start and when one is saved (default); false: only on `r`. */
	autoCount?: boolean;
	/** Items per run: `c` on more fans out (codex/batches.ts's default unless given). */
	runBatch?: number;
	/** The view the screen opens on (the config's default view), by name; else All, else the first. */
	defaultView?: string;
	/** What the config file has wrong for this channel (`:problems` lists them). */
	configProblems?: string[];
	/** Open proposals (the header's count), and whether runs started here propose (`agent_mode`). */
	proposalCount?: number;
	propose?: boolean;
	/** The cursor moves on after an edit of one row (default true). */
	advanceAfterEdit?: boolean;
};

/** The screen before its first page: the first listing is the one effect to start with. */
export function initialScreen(init: InitialScreen): Transition {
	const views = init.views ?? [];
	const opening = views.find(view => view.name === init.defaultView) ?? startView(views);
	const query = opening ? viewQuery(opening) : {};
	const state: ScreenState = {
		channelId: init.channelId,
		fields: init.fields,
		size: init.size,
		overlay: NONE,
		pane: 'none',
		paneScroll: 0,
		marks: new Set(),
		message: init.message ?? null,
		window: emptyWindow(init.pageSize ?? PAGE_SIZE, init.maxPages ?? MAX_PAGES),
		query,
		generation: 1,
		loading: 'list',
		want: null,
		listMoves: 0,
		total: init.total,
		newItems: 0,
		changed: new Map(),
		followUpCount: init.followUpCount,
		queue: {followUps: [], entry: null},
		history: {runs: [], open: null},
		detail: null,
		detailFor: null,
		detailTick: 0,
		run: {active: false, exists: false},
		board: {runs: 0, cursor: 0, focused: false, watch: false},
		boardShown: false,
		runBatch: init.runBatch ?? DEFAULT_BATCH_SIZE,
		undo: [],
		undoing: 0,
		awaiting: null,
		deferred: [],
		seen: new Map(),
		views,
		viewCounts: new Map(),
		counting: views.length > 0 && init.autoCount !== false ? 'busy' : 'idle',
		autoCount: init.autoCount !== false,
		// The config's hotkeys resolved against the schema (config/config.ts), else the schema's defaults.
		hotkeys: init.hotkeys ?? resolveHotkeys(init.fields).hotkeys,
		instruction: init.instruction ?? null,
		configProblems: init.configProblems ?? [],
		review: {proposals: [], item: null},
		proposalCount: init.proposalCount ?? 0,
		propose: init.propose ?? false,
		advanceAfterEdit: init.advanceAfterEdit !== false,
		...FEATURE_INITIAL,
	};
	// The sync state is read at start: a channel that is not linked answers null at once.
	const effects: Effect[] = [{kind: 'list', generation: 1, query}, {kind: 'readSyncState'}];
	if (state.counting === 'busy') effects.push({kind: 'countViews', views});
	return {state, effects};
}

/** One step of the screen. */
export function reduce(state: ScreenState, event: ScreenEvent): Transition {
	if (event.type === 'key') return pressKey(state, event.input, event.key, event.at);
	const {state: stepped, effects} = step(state, event);
	// A record pane that moved to another record starts at its top (record-view.ts).
	let result = settle(followRecord(state, stepped), effects);
	if (result.state.awaiting === null && result.state.deferred.length > 0) {
		// The overlay is open (or could not be): the keys typed meanwhile act now, in order, in its scope.
		const queued = result.state.deferred;
		result = {state: {...result.state, deferred: []}, effects: result.effects};
		for (const {input, key, at} of queued) result = chain(result, reduce(result.state, {type: 'key', input, key, at}));
	}

	return result;
}

/** A key: routed by the scope of the state it meets; while an overlay is being opened it waits (Ctrl+C never does). */
function pressKey(state: ScreenState, input: string, key: Key, at?: number): Transition {
	const scope = scopeOf(state.overlay);
	let events = keyEvents(scope, input, key, at, state);
	// Field hotkeys set a field of the row, in the list and in the record full screen.
	if (events.length === 0 && (scope === 'list' || scope === 'record')) events = hotkeyEvents(state, input, key, at);
	// A list key pressed full screen does nothing there: said, with the way back.
	if (events.length === 0 && scope === 'record' && keyEvents('list', input, key, at).length > 0) events = [{type: 'say', text: `${keyName(input, key)} is a key of the list: Esc or Z goes back to it first.`, tone: 'warn'}];
	if (state.awaiting !== null && events[0]?.type !== 'interrupt') return {state: {...state, deferred: [...state.deferred, {input, key, at}]}, effects: []};
	let result: Transition = {state, effects: []};
	for (const event of events) result = chain(result, reduce(result.state, event));
	return result;
}

/**
 * After every step: the viewport keeps the cursor visible, pages near the cursor are read ahead,
 * and the detail pane asks for the record it should show.
 */
function settle(state: ScreenState, effects: Effect[]): Transition {
	let next = state;
	const out = [...effects];
	const height = listRows(next);
	const top = scrollTop(next.window.top, next.window.cursor, height, next.window.rows.length);
	if (top !== next.window.top) next = {...next, window: {...next.window, top}};
	if (next.loading === null) {
		const w = next.window;
		const margin = Math.max(height * 2, 20);
		const target = next.want ?? w.cursor;
		const after = requestAfter(w);
		const before = requestBefore(w);
		if (after && w.rows.length - target <= margin) {
			next = {...next, loading: 'after'};
			out.push({kind: 'loadPage', generation: next.generation, direction: 'after', request: after, query: next.query});
		} else if (before && target < margin) {
			next = {...next, loading: 'before'};
			out.push({kind: 'loadPage', generation: next.generation, direction: 'before', request: before, query: next.query});
		}
	}

	const row = currentRow(next);
	const wanted = next.pane === 'detail' && row ? `${row.id}:${row.version}:${next.detailTick}` : null;
	if (wanted !== next.detailFor) {
		next = {...next, detailFor: wanted};
		if (wanted && row) out.push({kind: 'readDetail', id: row.id, for: wanted});
	}

	return {state: next, effects: out};
}

/** An event of the open overlay's scope, handed to its slice; one it has no handler for does nothing. */
function toOverlay<T extends OverlayEventType>(state: ScreenState, event: EventOf<T>): Transition {
	const handler = sliceOf(state.overlay.kind).keys[(event as ScreenEvent).type as T] as OverlayHandler<OverlayKind, T> | undefined;
	return handler ? handler(state, state.overlay, event) : none(state);
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type SliceEvents = UnionToIntersection<(typeof FEATURES)[OverlayKind]['events']>;

/** Each slice's own events (the keys that open it, the reads that fill it), in one table. */
const SLICE_EVENTS = Object.assign({}, ...Object.values(FEATURES).map(slice => slice.events)) as SliceEvents;
const ROUTED = Object.fromEntries(OVERLAY_EVENTS.map(type => [type, toOverlay])) as unknown as EventTable<OverlayEventType>;

/** Every event's handler: typed over the events, so one without a handler does not compile. */
const HANDLERS = {
	...ROUTED,
	...SLICE_EVENTS,
	key: (state, event) => pressKey(state, event.input, event.key, event.at),
	// A write's outcome goes back to where it came from: the follow-up queue, or the row's edit.
	edited: (state, event) => (event.request.origin === 'queue' ? queueEdited(state, event) : pickerEdited(state, event)),
} satisfies EventTable<EventType>;

function step<T extends EventType>(state: ScreenState, event: EventOf<T>): Transition {
	return (HANDLERS[(event as ScreenEvent).type as T] as (state: ScreenState, event: EventOf<T>) => Transition)(state, event);
}
