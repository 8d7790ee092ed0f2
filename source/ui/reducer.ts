// The screen's one state machine: (state, event) -> {state, effects}. Pure: no store, no timers,
// no React. Keys arrive as intents (input/handlers.ts); hooks perform the effects and send their
// results back as events (hooks/use-effects.ts). New kinds of input (views, hotkeys, a command
// line, bulk edits) are new events here.

import type {Key} from '#ink';
import type {Field} from '../../store/index.js';
import {counted} from '../text/format.js';
import {sanitize, sanitizeValue} from '../text/sanitize.js';
import {bulkFields, describeChanges, editableFields, filterableFields, isPicked, optionChoices, problemNotes, queueOptions, shortValue} from './edit.js';
import {pushUndo} from './edit-outcome.js';
import {describeBulkOutcome, type BulkOutcome, type MarkedRow} from './model/bulk.js';
import {resolveDateInput} from './model/dates.js';
import {fieldForKey, hotkeyHelpLines, resolveHotkeys, type Hotkeys} from './model/hotkeys.js';
import {choosePicker, eraseInPicker, movePicker, openPicker, togglePicker, typeInPicker} from './model/picker.js';
import {shortFields} from '../text/format.js';
import {editableText, nameField, parseTyped, previewFromValues} from './format.js';
import {keyEvents, scopeOf} from './input/handlers.js';
import {keyName} from './keys.js';
import {helpLayout, helpLines, screenLayout} from './layout.js';
import type {View} from '../config/schema.js';
import {baseQuery, queryProblem, queryText, searchText, splitSort, startView, viewQuery} from './model/views.js';
import {NONE, type EditOverlay, type FieldEditOverlay, type Effect, type ListQuery, type Message, type QueueOverlay, type ScreenEvent, type ScreenState, type Transition, type Tone} from './state.js';
import {applyTextKey, textState, type TextState} from './text-input.js';
import {followRecord, recordStep} from './record-view.js';
import {appendPage, canLoadAfter, canLoadBefore, emptyWindow, endWindow, firstWindow, moveCursor, patchRow, prependPage, requestAfter, requestBefore, rowAt, scrollTop, type Row} from './window.js';

export const PAGE_SIZE = 50;
export const MAX_PAGES = 8;
/** How long a row stays marked as "changed just now" (ms). */
export const CHANGED_MS = 3000;
export const QUIT_QUESTION = 'A Codex run is active. Cancel it and quit? y/n';
export const CANCEL_QUESTION = 'Cancel the Codex run? Codex and every process it started are stopped. y/n';

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
};

/** The screen before its first page: the first listing is the one effect to start with. */
export function initialScreen(init: InitialScreen): Transition {
	const views = init.views ?? [];
	const opening = startView(views);
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
		undo: [],
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
	};
	const effects: Effect[] = [{kind: 'list', generation: 1, query}];
	if (state.counting === 'busy') effects.push({kind: 'countViews', views});
	return {state, effects};
}

/** Rows the list shows at once, from the layout the state implies (the header line excluded). */
export const listRows = (state: ScreenState) => Math.max(1, screenLayout(state.size, state.overlay, state.pane).listHeight - 1);

/** Rows of the body between header and footer. */
const bodyRows = (state: ScreenState) => screenLayout(state.size, state.overlay, state.pane).bodyHeight;

/** The help scrolled by `lines`, never past its last screen. */
function scrollHelp(state: ScreenState, lines: number): ScreenState {
	if (state.overlay.kind !== 'help') return state;
	const {maxScroll} = helpLayout(state.size.columns, bodyRows(state), helpLinesOf(state).length);
	return {...state, overlay: {...state.overlay, scroll: Math.min(maxScroll, Math.max(0, state.overlay.scroll + lines))}};
}

/** The row under the cursor. */
export const currentRow = (state: ScreenState) => rowAt(state.window);

/** The default instruction: triage the chosen records from what their text asks for. */
export function defaultInstruction(fields: Field[], count: number): string {
	const settable = fields.filter(field => field.type !== 'formula' && !field.is_unique && (field.type === 'select' || field.type === 'number' || field.type === 'date' || field.type === 'multi_select')).map(field => field.key);
	const what = count === 1 ? 'this record' : `these ${count} records`;
	return `Triage ${what}: read ${count === 1 ? 'it' : 'each one'} and set ${settable.join(', ') || 'its fields'} from what its text asks for, using only values the schema allows (option values, not labels). Where a wish does not fit the schema, do not guess: leave that field and say what you could not set and why.`;
}

/** A record's name for messages: its unique name field, else its id; escaped. */
export function nameOf(fields: Field[], values: Record<string, unknown> | undefined, id: string): string {
	const key = nameField(fields)?.key;
	const name = key ? values?.[key] : undefined;
	return typeof name === 'string' && name ? sanitize(name) : sanitize(id);
}

/** A cursor moved one step down or up a list of `length`, wrapping around. */
const wrap = (cursor: number, delta: number, length: number) => (length === 0 ? 0 : (cursor + delta + length) % length);

const say = (state: ScreenState, text: string, tone: Tone = 'info'): ScreenState => ({...state, message: {text, tone}});

/** One step of the screen. */
export function reduce(state: ScreenState, event: ScreenEvent): Transition {
	if (event.type === 'key') return pressKey(state, event.input, event.key, event.at);
	const {state: stepped, effects} = step(state, event);
	let result = settle(followRecord(state, stepped), effects);
	if (result.state.awaiting === null && result.state.deferred.length > 0) {
		// The overlay is open (or could not be): the keys typed meanwhile act now, in order, in its scope.
		const queued = result.state.deferred;
		result = {state: {...result.state, deferred: []}, effects: result.effects};
		for (const {input, key, at} of queued) result = then(result, reduce(result.state, {type: 'key', input, key, at}));
	}

	return result;
}

const then = (first: Transition, next: Transition): Transition => ({state: next.state, effects: [...first.effects, ...next.effects]});

/** A key: routed by the scope of the state it meets; while an overlay is being opened it waits (Ctrl+C never does). */
function pressKey(state: ScreenState, input: string, key: Key, at?: number): Transition {
	const scope = scopeOf(state.overlay);
	let events = keyEvents(scope, input, key);
	if (events.length === 0 && scope === 'list') events = hotkeyEvents(state, input, key, at);
	if (state.awaiting !== null && events[0]?.type !== 'interrupt') return {state: {...state, deferred: [...state.deferred, {input, key, at}]}, effects: []};
	let result: Transition = {state, effects: []};
	for (const event of events) result = then(result, reduce(result.state, event));
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

const none = (state: ScreenState): Transition => ({state, effects: []});

function step(state: ScreenState, event: ScreenEvent): Transition {
	switch (event.type) {
		case 'key': return pressKey(state, event.input, event.key, event.at);
		case 'move': return none(moveBy(state, event.rows));
		// Pickers, columns and edits use the new fields from now on; the hotkeys stay as configured.
		// The schema is read again at once (other screens get it by the channel.updated event).
		case 'channelChanged': return event.ok ? {state: say(state, sanitize(event.message), 'ok'), effects: [{kind: 'reloadSchema', quiet: true}]} : none(say(state, sanitize(event.message), 'error'));
		case 'schemaLoaded': {
			if (JSON.stringify(event.fields) === JSON.stringify(state.fields)) return none(state);
			const next = {...state, fields: event.fields, detailTick: state.detailTick + 1};
			return none(event.quiet ? next : say(next, 'The channel\'s schema changed; showing it.', 'info'));
		}
		case 'page': {
			if (state.overlay.kind === 'help') return none(scrollHelp(state, event.pages * Math.max(1, helpLayout(state.size.columns, bodyRows(state), helpLinesOf(state).length).room - 1)));
			return none(moveBy(state, event.pages * Math.max(1, listRows(state) - 1)));
		}

		case 'top': {
			// The newest record of the query, loaded or not.
			if (canLoadBefore(state.window)) return relist(state, state.query, 'The newest records.');
			return none(moveTo(state, 0));
		}

		case 'bottom': {
			// The oldest record of the query: its last page, read from the end (not the end of what is loaded).
			if (!canLoadAfter(state.window)) return none(moveTo(state, state.window.rows.length - 1));
			const generation = state.generation + 1;
			return {state: {...state, generation, loading: 'list', want: null}, effects: [{kind: 'list', generation, query: state.query, from: 'end', note: 'The oldest records.'}]};
		}

		case 'openDetail': return none(currentRow(state) ? {...state, pane: 'detail', paneScroll: 0} : state);
		case 'back': {
			if (state.pane !== 'none') return none({...state, pane: 'none', paneScroll: 0});
			const base = baseQuery(state.views, state.query);
			if (state.query.sort !== base.sort) return relist(state, base, 'Search, filter and sort cleared.');
			if (state.query.search || state.query.filter) return relist(state, base, 'Search and filter cleared.');
			return none(state);
		}

		case 'openSearch': return none({...state, overlay: {kind: 'search', text: textState(searchText(state.views, state.query))}});
		case 'openFilter': return none({...state, overlay: {kind: 'filter', stage: 'field', cursor: 0, field: null}});
		case 'mark': return none(mark(state));
		case 'markAll': return none(markAll(state));
		case 'openEdit': {
			if (state.marks.size > 0) return openBulkEdit(state);
			const row = currentRow(state);
			return row ? {state: {...state, awaiting: 'edit'}, effects: [{kind: 'readForEdit', itemId: row.id}]} : none(state);
		}

		case 'undo': {
			const entry = state.undo.at(-1);
			if (!entry) return none(say(state, 'Nothing to undo: no edit of yours in this session.', 'warn'));
			return {state: {...state, undo: state.undo.slice(0, -1)}, effects: [entry.kind === 'bulk' ? {kind: 'undoBulk', outcome: entry.outcome} : {kind: 'undo', entry}]};
		}

		case 'askRun': return none(askRun(state));
		case 'askCancelRun': {
			if (!state.run.active) return none(say(state, 'No run is active.', 'warn'));
			return none({...state, overlay: {kind: 'confirm', question: CANCEL_QUESTION, action: 'cancelRun'}});
		}

		case 'openQueue': return {state: {...state, awaiting: 'queue'}, effects: [{kind: 'loadQueue'}]};
		case 'openHistory': return {state: {...state, awaiting: 'history'}, effects: [{kind: 'loadHistory'}]};
		case 'togglePane': return none(togglePane(state));
		// The record pane's scroll and full screen: its own slice (record-view.ts).
		case 'scrollPane':
		case 'fullRecord': return none(recordStep(state, event));
		// The views are counted again too: counts are read at start, on r and when a view is saved
		// (on SQLite a count runs on this thread, seconds at a million records, so not after every change).
		case 'reload': return recount(relist(state, state.query, 'Reloaded from the newest record.'));
		case 'openHelp': return none({...state, overlay: {kind: 'help', scroll: 0}});
		case 'quit': {
			if (state.run.active) return none({...state, overlay: {kind: 'confirm', question: QUIT_QUESTION, action: 'quit'}});
			return {state, effects: [{kind: 'quit'}]};
		}

		case 'interrupt': {
			if (state.run.active && state.overlay.kind !== 'confirm') return none({...state, overlay: {kind: 'confirm', question: QUIT_QUESTION, action: 'quit'}});
			return {state, effects: [{kind: 'quit'}]};
		}

		case 'cursor': return none(moveOverlayCursor(state, event.delta));
		case 'choose': return choose(state);
		case 'toggle': return none(toggleOption(state));
		case 'cancel': return cancel(state);
		case 'submit': return submit(state);
		case 'type': return none(typeKey(state, text => applyTextKey(text, event.input, event.key)));
		case 'queueType': {
			const {overlay} = state;
			if (overlay.kind !== 'queue' || !state.queue.entry) return none(state);
			return none({...state, overlay: {...overlay, typing: typingFor(state), problem: null}});
		}

		case 'queueDismiss': {
			const {overlay} = state;
			if (overlay.kind !== 'queue' || !state.queue.entry) return none(state);
			return none({...state, overlay: {...overlay, confirmDismiss: true}});
		}

		case 'queueStep': return queueStep(state, event.delta);
		case 'answer': return answer(state, event.yes);

		case 'resize': return none({...state, size: {columns: event.columns, rows: event.rows}});
		case 'listed': {
			if (event.generation !== state.generation) return none(state);
			if (event.from === 'end' && event.page.prev_cursor === undefined) {
				// A store without cursor paging answered with its first page: stay, at the end of what is loaded.
				return none(say(moveTo({...state, loading: null}, state.window.rows.length - 1), 'This store cannot read from the end yet; this is the end of what is loaded.', 'warn'));
			}

			const {pageSize, maxPages} = state.window;
			const fresh = event.from === 'end' ? endWindow(event.page, pageSize, maxPages) : firstWindow(event.page, pageSize, maxPages, event.at === undefined ? 'start' : 'item');
			const window = moveCursor(fresh, fresh.cursor, listRows(state));
			const next = {...state, window, loading: null, want: null, newItems: 0};
			return none(event.note ? say(next, event.note) : next);
		}

		case 'pageLoaded': {
			if (event.generation !== state.generation) return none(state);
			let window = event.direction === 'after' ? appendPage(state.window, event.page) : prependPage(state.window, event.page);
			let {want} = state;
			if (want !== null && event.direction === 'after') {
				// The rows a pending move counted on may have shifted when a page was dropped in front.
				want -= state.window.rows.length - (window.rows.length - event.page.items.length);
				window = moveCursor(window, want, listRows(state));
				if (want < window.rows.length || !canLoadAfter(window)) want = null;
			}

			return none({...state, window, loading: null, want});
		}

		case 'loadFailed': {
			if (event.generation !== state.generation) return none(state);
			return none(say({...state, loading: null, want: null}, sanitize(event.message), 'error'));
		}

		case 'editOpened': {
			const {item} = event;
			const overlay: EditOverlay = {kind: 'edit', itemId: item.id, name: nameOf(state.fields, item.values, item.id), version: item.version, values: item.values, stage: 'field', fieldCursor: 0, field: null, optionCursor: 0, chosen: [], text: textState(), problem: null, conflict: null};
			return none({...state, overlay, awaiting: null});
		}

		case 'effectFailed': return none(say({...state, awaiting: null}, sanitize(event.message), 'error'));
		case 'edited': return fieldEditOutcome(state, edited(state, event), event);
		case 'undone': return undone(state, event);
		case 'storeEvents': return storeEvents(state, event);
		case 'rowRead': {
			const {id, item} = event;
			const window = item
				? patchRow(state.window, id, row => (row.version >= item.version && !row.deleted ? row : {...row, version: item.version, updated_at: item.updated_at, preview: previewFromValues(state.fields, item.values)}))
				: patchRow(state.window, id, row => ({...row, deleted: true}));
			return none(window === state.window ? state : {...state, window});
		}

		case 'detailLoaded': return none(event.for === state.detailFor ? {...state, detail: event.detail} : state);
		case 'followUpCount': return none({...state, followUpCount: event.count});
		case 'queueLoaded': return queueLoaded(state, event.followUps, event.note);
		case 'queueEntry': {
			if (state.overlay.kind !== 'queue') return none(state);
			return none({...state, queue: {...state.queue, entry: event.entry}});
		}

		case 'followUpDismissed': {
			const {overlay} = state;
			if (overlay.kind !== 'queue') return none(state);
			if (!event.ok) return none({...state, overlay: {...overlay, confirmDismiss: false, problem: sanitize(event.message ?? '')}});
			const left = event.left ?? [];
			const next = {...state, overlay: {...overlay, confirmDismiss: false, problem: null}, detailTick: state.detailTick + 1};
			return queueLoaded(say(next, `Follow-up dismissed · ${left.length} left`, 'ok'), left);
		}

		case 'historyLoaded': return none({...state, history: {runs: event.runs, open: null}, overlay: {kind: 'history', cursor: 0, open: false}, awaiting: null});
		case 'stepsLoaded': {
			const {overlay} = state;
			if (overlay.kind !== 'history' || !overlay.open || state.history.runs[overlay.cursor] !== event.run) return none(state);
			return none({...state, history: {...state.history, open: {run: event.run, steps: event.steps}}});
		}

		case 'runState': return none({...state, run: {active: event.active, exists: event.exists}});
		case 'runStarted': {
			// Marks stay: starting, finishing or cancelling a run never clears them; only the person does.
			if (event.batches !== undefined && event.batches > 1) {
				return none(say({...state, pane: 'run', overlay: {kind: 'board'}, board: {...state.board, focused: false}}, `Codex started on ${counted(event.count, 'record')} in ${event.batches} runs · X cancels all`));
			}

			return none(say({...state, pane: 'run', overlay: NONE}, `Codex started on ${counted(event.count, 'record')} · x cancels`));
		}

		case 'boardState':
		case 'openBoard':
		case 'boardMove':
		case 'boardFocus':
		case 'boardCancel':
		case 'cancelAllRuns':
		case 'closeBoard':
		case 'toggleWatch': return boardStep(state, event);
		case 'runFinished': return {state: say(state, event.text, event.tone), effects: [{kind: 'countFollowUps'}]};
		case 'say': return none(say(state, event.text, event.tone));
		case 'expire': {
			if (state.changed.size === 0) return none(state);
			const changed = new Map([...state.changed].filter(([, until]) => until > event.at));
			return none(changed.size === state.changed.size ? state : {...state, changed});
		}

		case 'hotkey': return openFieldEdit(state, event.key, event.at);
		case 'pickType': return pickType(state, event.input, event.key);
		case 'erase': return none(withPicker(state, eraseInPicker));
		case 'bulkEdited': return bulkWritten(state, event.outcome, '');
		case 'bulkUndone': return bulkWritten(state, event.outcome, 'Undone: ');
		case 'openEditor': return openEditor(state);
		// Views, sort and the `:` line.
		case 'switchView': return switchView(state, event.index);
		case 'viewCounts': return viewCounts(state, event.views, event.counts);
		case 'openCommand': return none({...state, overlay: {kind: 'command', text: textState()}});
		case 'commandParsed': return commandParsed(state, event.result);
		case 'viewSaved': return viewSaved(state, event);
		case 'jumpFound': return jumpFound(state, event);
	}
}

function moveTo(state: ScreenState, index: number): ScreenState {
	return {...state, window: moveCursor(state.window, index, listRows(state)), want: null};
}

/** Moves by `delta` rows; past the loaded rows, the cursor goes as far as it can and the rest waits for the page. */
function moveBy(state: ScreenState, delta: number): ScreenState {
	const w = state.window;
	const to = w.cursor + delta;
	const next = moveTo(state, to);
	return to >= w.rows.length && canLoadAfter(w) ? {...next, want: to} : next;
}

function relist(state: ScreenState, query: ListQuery, note?: string): Transition {
	const generation = state.generation + 1;
	return {state: {...state, query, generation, loading: 'list', want: null}, effects: [{kind: 'list', generation, query, note}]};
}

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

function askRun(state: ScreenState): ScreenState {
	if (state.run.active) return say(state, 'A run is already active; x cancels it.', 'warn');
	const row = currentRow(state);
	const itemIds = state.marks.size > 0 ? [...state.marks] : (row ? [row.id] : []);
	if (itemIds.length === 0) return say(state, 'No record to run on.', 'warn');
	return {...state, overlay: {kind: 'instruction', text: textState(state.instruction ?? defaultInstruction(state.fields, itemIds.length)), itemIds}};
}

function togglePane(state: ScreenState): ScreenState {
	const row = currentRow(state);
	if (state.pane === 'run') return {...state, pane: row ? 'detail' : 'none', paneScroll: 0};
	if (state.run.exists) return {...state, pane: 'run', paneScroll: 0};
	if (row) return {...state, pane: 'detail', paneScroll: 0};
	return state;
}

/** The choices the open picker, queue or history moves through. */
function choiceCount(state: ScreenState): number {
	const {overlay} = state;
	switch (overlay.kind) {
		case 'filter': return overlay.stage === 'field' ? filterableFields(state.fields).length + 1 : optionChoices(overlay.field!).length;
		case 'edit': return overlay.stage === 'field' ? editableFields(state.fields).length : optionChoices(overlay.field!, overlay.chosen).length;
		case 'queue': return state.queue.entry ? queueOptions(state.queue.entry, queueField(state)).length : 0;
		case 'history': return state.history.runs.length;
		case 'fieldEdit': return bulkFields(state.fields).length;
		default: return 0;
	}
}

function moveOverlayCursor(state: ScreenState, delta: 1 | -1): ScreenState {
	const {overlay} = state;
	const count = choiceCount(state);
	switch (overlay.kind) {
		case 'filter': return {...state, overlay: {...overlay, cursor: wrap(overlay.cursor, delta, count)}};
		case 'edit': {
			return overlay.stage === 'field'
				? {...state, overlay: {...overlay, fieldCursor: wrap(overlay.fieldCursor, delta, count)}}
				: {...state, overlay: {...overlay, optionCursor: wrap(overlay.optionCursor, delta, count)}};
		}

		case 'queue': return count > 0 ? {...state, overlay: {...overlay, optionCursor: wrap(overlay.optionCursor, delta, count)}} : state;
		case 'help': return scrollHelp(state, delta);
		case 'fieldEdit': {
			if (overlay.field === null) return {...state, overlay: {...overlay, fieldCursor: wrap(overlay.fieldCursor, delta, count)}};
			return withPicker(state, picker => movePicker(picker, delta));
		}

		case 'history': {
			if (overlay.open) return state;
			return {...state, overlay: {...overlay, cursor: Math.min(Math.max(0, count - 1), Math.max(0, overlay.cursor + delta))}};
		}

		default: return state;
	}
}

function choose(state: ScreenState): Transition {
	const {overlay} = state;
	switch (overlay.kind) {
		case 'filter': return overlay.stage === 'field' ? chooseFilterField(state, overlay.cursor) : chooseFilterValue(state, overlay.field!, overlay.cursor);
		case 'edit': {
			if (overlay.stage === 'field') return none(chooseEditField(state, overlay, editableFields(state.fields)[overlay.fieldCursor]!));
			const field = overlay.field!;
			const value = field.type === 'multi_select' ? overlay.chosen : optionChoices(field, overlay.chosen)[overlay.optionCursor]!.value;
			return submitEdit(state, overlay, value);
		}

		case 'queue': {
			const {entry} = state.queue;
			if (!entry) return none(state);
			const options = queueOptions(entry, queueField(state));
			if (options.length > 0) return resolveQueue(state, overlay, options[overlay.optionCursor]!.value);
			return none({...state, overlay: {...overlay, typing: typingFor(state), problem: null}});
		}

		case 'history': {
			const run = state.history.runs[overlay.cursor];
			if (!run) return none(state);
			return {state: {...state, overlay: {...overlay, open: true}, history: {...state.history, open: null}}, effects: [{kind: 'loadSteps', run}]};
		}

		case 'fieldEdit': {
			if (overlay.field === null) {
				const field = bulkFields(state.fields)[overlay.fieldCursor];
				return none(field ? {...state, overlay: withField(overlay, field)} : state);
			}

			return overlay.picker ? commitFieldEdit(state, overlay, choosePicker(overlay.picker).value) : none(state);
		}

		default: return none(state);
	}
}

function chooseFilterField(state: ScreenState, cursor: number): Transition {
	const field = filterableFields(state.fields)[cursor];
	if (!field) return relist({...state, overlay: NONE}, {...state.query, filter: undefined}, 'Filter cleared.');
	return none({...state, overlay: {kind: 'filter', stage: 'value', cursor: 0, field}});
}

function chooseFilterValue(state: ScreenState, field: Field, cursor: number): Transition {
	const choice = optionChoices(field)[cursor]!;
	const filter = {...state.query.filter};
	if (choice.value === null) delete filter[field.key];
	else filter[field.key] = choice.value;
	const query = {...state.query, filter: Object.keys(filter).length > 0 ? filter : undefined};
	return relist({...state, overlay: NONE}, query, choice.value === null ? `Filter on ${sanitize(field.label)} cleared.` : `Showing ${sanitize(field.label)} = ${shortValue(field, choice.value)}.`);
}

function chooseEditField(state: ScreenState, overlay: EditOverlay, field: Field): ScreenState {
	const value = overlay.values[field.key];
	if (isPicked(field)) {
		const at = optionChoices(field).findIndex(choice => choice.value === value);
		const chosen = Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
		return {...state, overlay: {...overlay, stage: 'options', field, optionCursor: Math.max(0, at), chosen, problem: null, conflict: null}};
	}

	return {...state, overlay: {...overlay, stage: 'text', field, text: textState(editableText(value)), problem: null, conflict: null}};
}

function submitEdit(state: ScreenState, overlay: EditOverlay, value: unknown): Transition {
	const field = overlay.field!;
	const before = overlay.values[field.key];
	if (JSON.stringify(before ?? null) === JSON.stringify(value ?? null)) {
		return none(say({...state, overlay: NONE}, `${overlay.name}: ${sanitize(field.label)} is already ${shortValue(field, value)}; nothing changed.`));
	}

	return {state, effects: [{kind: 'edit', request: {itemId: overlay.itemId, name: overlay.name, key: field.key, value, before, version: overlay.version, origin: 'picker'}}]};
}

function toggleOption(state: ScreenState): ScreenState {
	const {overlay} = state;
	if (overlay.kind === 'fieldEdit') return withPicker(state, togglePicker);
	if (overlay.kind !== 'edit' || overlay.stage !== 'options' || overlay.field?.type !== 'multi_select') return state;
	const value = optionChoices(overlay.field, overlay.chosen)[overlay.optionCursor]!.value as string;
	const chosen = overlay.chosen.includes(value) ? overlay.chosen.filter(entry => entry !== value) : [...overlay.chosen, value];
	return {...state, overlay: {...overlay, chosen}};
}

function cancel(state: ScreenState): Transition {
	const {overlay} = state;
	switch (overlay.kind) {
		case 'filter': return none({...state, overlay: overlay.stage === 'value' ? {...overlay, stage: 'field', cursor: 0} : NONE});
		case 'edit': return none({...state, overlay: overlay.stage === 'field' ? NONE : {...overlay, stage: 'field', problem: null, conflict: null}});
		case 'queue': {
			if (overlay.typing) return none({...state, overlay: {...overlay, typing: null}});
			return {state: {...state, overlay: NONE}, effects: [{kind: 'countFollowUps'}]};
		}

		case 'history': return none({...state, overlay: overlay.open ? {...overlay, open: false} : NONE});
		case 'fieldEdit': return none({...state, overlay: overlay.field !== null && overlay.chooser ? {...overlay, field: null, picker: null, text: null, notice: null} : NONE});
		default: return none({...state, overlay: NONE});
	}
}

function submit(state: ScreenState): Transition {
	const {overlay} = state;
	switch (overlay.kind) {
		case 'search': {
			// Query language, `sort:` included; a term the store would refuse is said here, the line kept open.
			const {terms, sort} = splitSort(overlay.text.value.slice(0, 200));
			const query = {...state.query, search: terms || undefined, sort: sort ?? baseQuery(state.views, state.query).sort};
			const problem = queryProblem(state.fields, queryText(query));
			if (problem) return none(say(state, sanitize(problem), 'error'));
			const search = queryText({search: terms, sort});
			const next = say({...state, overlay: NONE}, search ? `Searching for "${sanitize(search)}"…` : 'Search cleared.');
			return relist(next, query, search ? `Search: "${sanitize(search)}" · Esc clears` : 'Search cleared.');
		}

		case 'command': return {state: {...state, overlay: NONE}, effects: [{kind: 'parseCommand', line: overlay.text.value}]};

		case 'instruction': {
			if (!overlay.text.value.trim()) return none(say(state, 'The instruction is empty; nothing was started.', 'warn'));
			return {state, effects: [{kind: 'startRun', instruction: overlay.text.value, itemIds: overlay.itemIds}]};
		}

		case 'edit': return submitEdit(state, overlay, parseTyped(overlay.field!, overlay.text.value));
		case 'fieldEdit': return submitFieldText(state, overlay);
		case 'queue': {
			if (!overlay.typing) return none(state);
			const field = queueField(state);
			return resolveQueue(state, overlay, field ? parseTyped(field, overlay.typing.value) : overlay.typing.value);
		}

		default: return none(state);
	}
}

/** A key typed into whichever text input is open. */
function typeKey(state: ScreenState, type: (text: TextState) => TextState): ScreenState {
	const {overlay} = state;
	switch (overlay.kind) {
		case 'search':
		case 'command':
		case 'instruction': return {...state, overlay: {...overlay, text: type(overlay.text)}};
		case 'edit': return overlay.stage === 'text' ? {...state, overlay: {...overlay, text: type(overlay.text)}} : state;
		case 'queue': return overlay.typing ? {...state, overlay: {...overlay, typing: type(overlay.typing)}} : state;
		case 'fieldEdit': return overlay.text ? {...state, overlay: {...overlay, text: type(overlay.text), notice: null}} : state;
		default: return state;
	}
}

function answer(state: ScreenState, yes: boolean): Transition {
	const {overlay} = state;
	if (overlay.kind === 'queue' && overlay.confirmDismiss) {
		if (!yes) return none({...state, overlay: {...overlay, confirmDismiss: false}});
		const {entry} = state.queue;
		return entry ? {state, effects: [{kind: 'dismissFollowUp', id: entry.followUp.id}]} : none(state);
	}

	if (overlay.kind !== 'confirm') return none(state);
	if (!yes) return none({...state, overlay: NONE});
	if (overlay.action === 'quit') return {state: {...state, overlay: NONE}, effects: [{kind: 'quit'}]};
	return {state: say({...state, overlay: NONE}, 'Cancelling the run…', 'warn'), effects: [{kind: 'cancelRun'}]};
}

// The follow-up queue.

const queueField = (state: ScreenState) => {
	const key = state.queue.entry?.followUp.key;
	return key === undefined ? null : state.fields.find(field => field.key === key) ?? null;
};

/** The typed input for a follow-up, starting from the value Codex tried. */
function typingFor(state: ScreenState): TextState {
	const attempted = state.queue.entry?.followUp.attempted;
	return textState(typeof attempted === 'string' || typeof attempted === 'number' ? String(attempted) : '');
}

/** The open follow-ups, (re)loaded: the queue opens (or stays) on the entry at its index, read afresh. */
function queueLoaded(state: ScreenState, followUps: ScreenState['queue']['followUps'], note?: string): Transition {
	const previous = state.overlay.kind === 'queue' ? state.overlay : null;
	const index = previous ? Math.min(previous.index, Math.max(0, followUps.length - 1)) : 0;
	const overlay: QueueOverlay = previous ? {...previous, index, optionCursor: 0} : {kind: 'queue', index: 0, optionCursor: 0, typing: null, problem: null, confirmDismiss: false};
	let next: ScreenState = {...state, overlay, queue: {followUps, entry: null}, followUpCount: followUps.length, awaiting: null};
	if (note) next = say(next, `${note} · ${counted(followUps.length, 'follow-up')} left`, 'ok');
	else if (!previous && followUps.length === 0) next = say(next, 'No open follow-ups.', 'ok');
	const followUp = followUps[index];
	return {state: next, effects: followUp ? [{kind: 'readQueueEntry', followUp}, {kind: 'countFollowUps'}] : [{kind: 'countFollowUps'}]};
}

function queueStep(state: ScreenState, delta: 1 | -1): Transition {
	const {overlay} = state;
	const count = state.queue.followUps.length;
	if (overlay.kind !== 'queue' || count === 0) return none(state);
	const index = wrap(overlay.index, delta, count);
	return {state: {...state, overlay: {...overlay, index, optionCursor: 0, problem: null}, queue: {...state.queue, entry: null}}, effects: [{kind: 'readQueueEntry', followUp: state.queue.followUps[index]!}]};
}

function resolveQueue(state: ScreenState, overlay: QueueOverlay, value: unknown): Transition {
	const {entry} = state.queue;
	if (!entry) return none(state);
	const {followUp, item} = entry;
	if (!item) return none(say(state, 'That record is gone; dismiss the follow-up (d).', 'warn'));
	const request = {itemId: item.id, name: nameOf(state.fields, item.values, item.id), key: followUp.key, value, before: item.values[followUp.key], version: item.version, origin: 'queue' as const};
	return {state: {...state, overlay: {...overlay, problem: null}}, effects: [{kind: 'edit', request}]};
}

// Outcomes of writes.

/** A record as the store returned it after a write, shown in its row at once. */
function showItem(state: ScreenState, item: {id: string; version: number; updated_at: string; values: Record<string, unknown>}): ScreenState {
	return {...state, window: patchRow(state.window, item.id, row => ({...row, version: item.version, updated_at: item.updated_at, preview: previewFromValues(state.fields, item.values)}))};
}

function edited(state: ScreenState, {request, outcome}: Extract<ScreenEvent, {type: 'edited'}>): Transition {
	const field = state.fields.find(candidate => candidate.key === request.key);
	const label = sanitize(field?.label ?? request.key);
	const show = (value: unknown) => (field ? shortValue(field, value) : sanitizeValue(value));
	const {overlay} = state;
	if (request.origin === 'queue') {
		if (overlay.kind !== 'queue') return none(state);
		switch (outcome.kind) {
			case 'ok': {
				const {item} = outcome.result;
				const next = showItem({...state, undo: pushUndo(state.undo, {itemId: item.id, name: request.name, key: request.key, before: request.before, after: request.value, version: item.version}), overlay: {...overlay, typing: null, problem: null}}, item);
				return {state: next, effects: [{kind: 'loadQueue', note: `${request.name}: ${label} set to ${show(request.value)}`}, {kind: 'pollEvents'}]};
			}

			case 'refused': return none({...state, overlay: {...overlay, problem: problemNotes(outcome.problem).map(note => note.text).join('\n')}});
			case 'conflict': return none({...state, detailTick: state.detailTick + 1, overlay: {...overlay, problem: `The record changed since: ${describeChanges(state.fields, outcome.changes).join('; ')}. Check and choose again.`}, queue: {...state.queue, entry: outcome.item ? {...state.queue.entry!, item: outcome.item} : state.queue.entry}});
			case 'error': return none({...state, overlay: {...overlay, problem: sanitize(outcome.message)}});
		}
	}

	const open = overlay.kind === 'edit' && overlay.itemId === request.itemId ? overlay : null;
	switch (outcome.kind) {
		case 'ok': {
			const {item} = outcome.result;
			let next = showItem({...state, undo: pushUndo(state.undo, {itemId: item.id, name: request.name, key: request.key, before: request.before, after: request.value, version: item.version}), detailTick: state.detailTick + 1}, item);
			next = reseen(next, item.id, item.version, {[request.key]: request.value});
			if (open) next = {...next, overlay: NONE};
			// Long text (E) is not repeated in a one-line message.
			const change = field?.config.long ? 'saved' : `${show(request.before)} → ${show(request.value)}`;
			return {state: say(next, `${request.name}: ${label} ${change} (v${item.version}) · u undoes`, 'ok'), effects: [{kind: 'countFollowUps'}, {kind: 'pollEvents'}]};
		}

		case 'refused': {
			const next = open ? {...state, overlay: {...open, problem: outcome.problem, conflict: null}} : state;
			return none(say(next, `Not saved: ${sanitize(outcome.problem.message)}`, 'error'));
		}

		case 'conflict': {
			let next: ScreenState = {...state, detailTick: state.detailTick + 1};
			if (outcome.item) {
				next = showItem(next, outcome.item);
				if (open) next = {...next, overlay: {...open, version: outcome.item.version, values: outcome.item.values, conflict: outcome.changes, problem: null}};
			} else if (open) {
				next = {...next, overlay: NONE};
			}

			return none(say(next, `Not saved: ${request.name} changed since you opened it`, 'warn'));
		}

		case 'error': return none(say(state, `Not saved: ${sanitize(outcome.message)}`, 'error'));
	}
}

function undone(state: ScreenState, {entry, outcome}: Extract<ScreenEvent, {type: 'undone'}>): Transition {
	const field = state.fields.find(candidate => candidate.key === entry.key);
	const label = sanitize(field?.label ?? entry.key);
	switch (outcome.kind) {
		case 'ok': {
			const {item} = outcome.result;
			const next = showItem({...state, detailTick: state.detailTick + 1}, item);
			return {state: say(next, `Undone: ${entry.name} ${label} back to ${field ? shortValue(field, entry.before) : sanitizeValue(entry.before)} (v${item.version})`, 'ok'), effects: [{kind: 'countFollowUps'}]};
		}

		case 'lost': {
			const [line] = describeChanges(state.fields, outcome.change);
			return {state: say(state, `Not undone: ${entry.name} ${line} was changed by someone else since your edit.`, 'error'), effects: [{kind: 'readRows', ids: [entry.itemId]}]};
		}

		case 'refused': return none(say(state, `Not undone: ${sanitize(outcome.problem.message)}`, 'error'));
		case 'conflict': return none(say(state, `Not undone: ${entry.name} keeps changing; try again.`, 'error'));
		case 'error': return none(say(state, `Not undone: ${sanitize(outcome.message)}`, 'error'));
	}
}

/** Events of the channel read by cursor: totals, deleted rows, and the changed rows to read again. */
function storeEvents(state: ScreenState, {events, at}: Extract<ScreenEvent, {type: 'storeEvents'}>): Transition {
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
	if (touched.size > 0) effects.unshift({kind: 'readRows', ids: [...touched]});
	if (schemaChanged) effects.unshift({kind: 'reloadSchema'});
	return {state: next, effects};
}

// Field hotkeys, bulk edits on marks, and $EDITOR (issue 12, docs/reference.md#editing).

/** The help's lines: the key table's, with this channel's field hotkeys. */
export const helpLinesOf = (state: Pick<ScreenState, 'hotkeys' | 'fields'>) => helpLines(hotkeyHelpLines(state.hotkeys, state.fields));

/** A row as the person sees it now: what a write from it expects. */
const seenRow = (fields: Field[], row: Row): MarkedRow => ({id: row.id, version: row.version, values: row.preview, name: nameOf(fields, row.preview, row.id)});

/** A list key that is no binding of the key table: a field's hotkey, if one. */
function hotkeyEvents(state: ScreenState, input: string, key: Key, at?: number): ScreenEvent[] {
	if (key.ctrl || key.meta) return [];
	const field = fieldForKey(state.hotkeys, keyName(input, key));
	return field === undefined ? [] : [{type: 'hotkey', key: field, at: at ?? 0}];
}

/** The rows an edit applies to: every marked row as it was marked, else the row under the cursor. */
function editTargets(state: ScreenState): MarkedRow[] {
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

const fieldEditOverlay = (targets: MarkedRow[], bulk: boolean, now: number): FieldEditOverlay => ({kind: 'fieldEdit', field: null, fieldCursor: 0, chooser: false, targets, bulk, picker: null, text: null, now, notice: null});

/** The value every target holds for `key`, or undefined when they differ. */
function commonValue(targets: MarkedRow[], key: string): unknown {
	const values = targets.map(target => target.values[key] ?? null);
	const first = JSON.stringify(values[0]);
	return values.every(value => JSON.stringify(value) === first) ? values[0] : undefined;
}

/** The overlay on one field: its picker opened on the current value, or its input holding it. */
function withField(overlay: FieldEditOverlay, field: Field): FieldEditOverlay {
	const current = commonValue(overlay.targets, field.key);
	if (isPicked(field)) return {...overlay, field, picker: openPicker(field, current), text: null, notice: null};
	return {...overlay, field, picker: null, text: textState(editableText(current)), notice: null};
}

function openFieldEdit(state: ScreenState, key: string, at: number): Transition {
	const field = state.fields.find(candidate => candidate.key === key);
	if (!field) return none(state);
	if (!shortFields([field]).includes(field)) return none(say(state, `${sanitize(field.label)} is long text: E edits it in $EDITOR.`, 'warn'));
	const targets = editTargets(state);
	if (targets.length === 0) return none(say(state, 'No record to edit.', 'warn'));
	return none({...state, overlay: withField(fieldEditOverlay(targets, state.marks.size > 0, at), field)});
}

/** `e` with rows marked: choose the field, then set it on all of them. */
function openBulkEdit(state: ScreenState): Transition {
	const targets = editTargets(state);
	if (targets.length === 0) return none(say(state, 'The marked rows are not loaded; mark them again.', 'warn'));
	return none({...state, overlay: {...fieldEditOverlay(targets, true, 0), chooser: true}});
}

function withPicker(state: ScreenState, change: (picker: NonNullable<FieldEditOverlay['picker']>) => NonNullable<FieldEditOverlay['picker']>): ScreenState {
	const {overlay} = state;
	if (overlay.kind !== 'fieldEdit' || !overlay.picker) return state;
	return {...state, overlay: {...overlay, picker: change(overlay.picker), notice: null}};
}

/** A printable key in the picker: a digit picks and writes at once, a letter jumps. */
function pickType(state: ScreenState, input: string, key: Key): Transition {
	const {overlay} = state;
	if (overlay.kind !== 'fieldEdit' || !overlay.picker || key.ctrl || key.meta || [...input].length !== 1) return none(state);
	const stepped = typeInPicker(overlay.picker, input);
	const next = {...overlay, picker: stepped.state, notice: stepped.notice ?? null};
	if (stepped.chosen) return commitFieldEdit({...state, overlay: next}, next, stepped.chosen.value);
	return none({...state, overlay: next});
}

/** The typed value of a field: a date resolved from its words (shown before commit), else as typed. */
export function typedFieldValue(field: Field, text: string, now: number): {ok: true; value: unknown} | {ok: false; message: string} {
	if (field.type !== 'date' || text.trim() === '') return {ok: true, value: parseTyped(field, text.trim() === '' ? '' : text)};
	const date = resolveDateInput(text, new Date(now));
	return date.ok ? {ok: true, value: date.date} : {ok: false, message: date.message};
}

function submitFieldText(state: ScreenState, overlay: FieldEditOverlay): Transition {
	if (!overlay.field || !overlay.text) return none(state);
	const typed = typedFieldValue(overlay.field, overlay.text.value, overlay.now);
	if (!typed.ok) return none({...state, overlay: {...overlay, notice: sanitize(typed.message)}});
	return commitFieldEdit(state, overlay, typed.value);
}

/** The chosen value written: on one row as an edit of the row, on marks as one bulk edit. */
function commitFieldEdit(state: ScreenState, overlay: FieldEditOverlay, value: unknown): Transition {
	const field = overlay.field!;
	const closed = {...state, overlay: NONE};
	if (overlay.bulk) {
		return {state: say(closed, `Setting ${sanitize(field.label)} to ${shortValue(field, value)} on ${counted(overlay.targets.length, 'marked record')}…`), effects: [{kind: 'bulkEdit', field, value, rows: overlay.targets}]};
	}

	const target = overlay.targets[0]!;
	const before = target.values[field.key] ?? null;
	if (JSON.stringify(before) === JSON.stringify(value ?? null)) {
		return none(say(closed, `${target.name ?? target.id}: ${sanitize(field.label)} is already ${shortValue(field, value)}; nothing changed.`));
	}

	const edit: Effect = {kind: 'edit', request: {itemId: target.id, name: target.name ?? target.id, key: field.key, value, before, version: target.version, origin: 'picker'}};
	// A pick closes at once (typing ahead goes to the list); a typed value stays open until the store
	// answers, so a refusal is shown inline with what is allowed (keys typed meanwhile wait).
	if (!overlay.text) return {state: closed, effects: [edit]};
	return {state: {...state, overlay: {...overlay, notice: null}, awaiting: 'edit'}, effects: [edit]};
}

/**
 * Sets a field to a value without a picker (for a command such as `:set status triaged`): on the
 * marks as one bulk edit, else on the row, through the same path as a hotkey.
 */
export function setField(state: ScreenState, key: string, value: unknown): Transition {
	const field = state.fields.find(candidate => candidate.key === key);
	const targets = editTargets(state);
	if (!field || targets.length === 0) return none(say(state, field ? 'No record to edit.' : `${sanitize(key)} is not a field of this channel.`, 'warn'));
	return commitFieldEdit(state, {...fieldEditOverlay(targets, state.marks.size > 0, 0), field}, value);
}

/** The outcome of a one-row hotkey edit in its still open input: closed when saved, else why not, inline. */
function fieldEditOutcome(before: ScreenState, result: Transition, {request, outcome}: Extract<ScreenEvent, {type: 'edited'}>): Transition {
	const {overlay} = before;
	if (request.origin !== 'picker' || overlay.kind !== 'fieldEdit' || overlay.bulk || overlay.targets[0]?.id !== request.itemId) return result;
	const state: ScreenState = {...result.state, awaiting: before.awaiting === 'edit' ? null : result.state.awaiting};
	const keepOpen = (notice: string, target = overlay.targets[0]!) => ({...result, state: {...state, overlay: {...overlay, targets: [target], notice}}});
	switch (outcome.kind) {
		case 'ok': return {...result, state: {...state, overlay: NONE}};
		case 'refused': return keepOpen(problemNotes(outcome.problem).map(note => note.text).join('\n'));
		case 'conflict': {
			// What changed, and the record as it is now: Enter again writes on top of it.
			const {item} = outcome;
			const target = item ? {...overlay.targets[0]!, version: item.version, values: previewFromValues(state.fields, item.values)} : overlay.targets[0]!;
			return keepOpen(`Not saved: changed since you opened it (now v${target.version}): ${describeChanges(state.fields, outcome.changes).join('; ')}\nEnter writes yours on top of it, Esc leaves it.`, target);
		}

		case 'error': return keepOpen(`Not saved: ${sanitize(outcome.message)}`);
	}
}

/** A marked row's snapshot moved on by our own write, so the next bulk edit expects the version we made. */
function reseen(state: ScreenState, id: string, version: number, values: Record<string, unknown>): ScreenState {
	const seen = state.seen.get(id);
	if (!seen) return state;
	return {...state, seen: new Map(state.seen).set(id, {...seen, version, values: {...seen.values, ...values}})};
}

/** A bulk edit (or its undo) done: rows show what was written, one undo entry, a summary naming conflicts and refusals. */
function bulkWritten(state: ScreenState, outcome: BulkOutcome, prefix: string): Transition {
	const {key} = outcome.plan;
	let next: ScreenState = {...state, detailTick: state.detailTick + 1};
	for (const written of outcome.written) {
		next = {...next, window: patchRow(next.window, written.id, row => ({...row, version: written.version, preview: {...row.preview, [key]: written.after}}))};
		next = reseen(next, written.id, written.version, {[key]: written.after});
	}

	if (prefix === '' && outcome.written.length > 0) next = {...next, undo: pushUndo(next.undo, {kind: 'bulk', outcome})};
	const troubled = outcome.conflicts.length + outcome.refusals.length;
	const lines = describeBulkOutcome(outcome).map(line => line.split('\n').map(part => part.trim()).join(' '));
	const undoHint = prefix === '' && outcome.written.length > 0 ? ' · u undoes all' : '';
	const effects: Effect[] = [{kind: 'countFollowUps'}, {kind: 'pollEvents'}];
	const stale = [...outcome.conflicts, ...outcome.refusals].map(entry => entry.id);
	if (stale.length > 0) effects.unshift({kind: 'readRows', ids: stale});
	return {state: say(next, `${prefix}${lines.join(' · ')}${undoHint}`, troubled > 0 ? 'warn' : 'ok'), effects};
}

/** `E`: the row's long text field in $EDITOR (the first long text field of the schema). */
function openEditor(state: ScreenState): Transition {
	// The editor holds the terminal and the event loop until it exits: a run would stall meanwhile.
	if (state.run.active) return none(say(state, 'A Codex run is active: E waits until it ends (x cancels it).', 'warn'));
	const row = currentRow(state);
	if (!row || row.deleted) return none(say(state, 'No record to edit.', 'warn'));
	const field = state.fields.find(candidate => candidate.type === 'text' && candidate.config.long);
	if (!field) return none(say(state, 'This channel has no long text field; e edits the others.', 'warn'));
	const name = nameOf(state.fields, row.preview, row.id);
	return {state: say(state, `${name}: ${sanitize(field.label)} in $EDITOR…`), effects: [{kind: 'editInEditor', itemId: row.id, name, key: field.key}]};
}

// Views, sort and the `:` line.

const viewList = (views: View[]) => views.map((view, index) => `${index + 1} ${sanitize(view.name)}`).join(', ');

/** The views counted again, or once more after the count under way. */
function recount({state, effects}: Transition): Transition {
	if (state.views.length === 0) return {state, effects};
	if (state.counting !== 'idle') return {state: {...state, counting: 'again'}, effects};
	return {state: {...state, counting: 'busy'}, effects: [...effects, {kind: 'countViews', views: state.views}]};
}

function switchView(state: ScreenState, index: number): Transition {
	const view = state.views[index];
	if (!view) return none(say(state, state.views.length === 0 ? 'This channel has no views.' : `No view ${index + 1}; views: ${viewList(state.views)}.`, 'warn'));
	return relist(state, viewQuery(view), `View: ${sanitize(view.name)}`);
}

/** Counts of the views as they were when counted: a view changed since keeps its old count (it is counted again). */
function viewCounts(state: ScreenState, views: View[], counts: Array<number | null>): Transition {
	const viewCounts = new Map(state.viewCounts);
	for (const [index, view] of views.entries()) {
		const count = counts[index];
		if (count !== null && count !== undefined && state.views.some(current => current.name === view.name && current.query === view.query)) viewCounts.set(view.name, count);
	}

	const next = {...state, viewCounts, counting: 'idle' as const};
	return state.counting === 'again' ? recount(none(next)) : none(next);
}

function commandParsed(state: ScreenState, result: Extract<ScreenEvent, {type: 'commandParsed'}>['result']): Transition {
	if ('error' in result) return none(say(state, `:${sanitize(result.error)}`, 'error'));
	switch (result.kind) {
		case 'nothing': return none(state);
		case 'quit': return step(state, {type: 'quit'});
		case 'sort': return relist(state, {...state.query, sort: result.sort}, `Sorted by ${sanitize(result.sort)} · Esc goes back to the view's order`);
		case 'view': return switchView(state, state.views.findIndex(view => view.name === result.name));
		case 'saveView': return {state: say(state, `Saving the view ${sanitize(result.name)}…`), effects: [{kind: 'saveView', view: {name: result.name, query: queryText(state.query)}}]};
		case 'set': return setField(state, result.key, result.value);
		case 'channel': return {state: say(state, `Changing the schema: ${sanitize(result.text)}…`), effects: [{kind: 'changeChannel', change: result.change}]};
		case 'jump': return jump(state, result.name);
	}
}

/** `:NAME`: the loaded row of that name (or id), else the store is asked which item it names. */
function jump(state: ScreenState, name: string): Transition {
	const wanted = name.toLowerCase();
	const index = state.window.rows.findIndex(row => row.id === name || nameOf(state.fields, row.preview, row.id).toLowerCase() === wanted);
	if (index >= 0) return none(say(moveTo(state, index), `${sanitize(name)}`));
	return {state: say(state, `Looking for ${sanitize(name)}…`), effects: [{kind: 'findItem', name}]};
}

function jumpFound(state: ScreenState, {name, ids, message}: Extract<ScreenEvent, {type: 'jumpFound'}>): Transition {
	if (message !== undefined) return none(say(state, sanitize(message), 'error'));
	if (ids.length === 0) return none(say(state, `No item is named ${sanitize(name)}: give an item id or a unique field's value (such as a ticket).`, 'error'));
	if (ids.length > 1) return none(say(state, `${sanitize(name)} names ${ids.length} items (${ids.map(id => sanitize(id)).join(', ')}): jump by id.`, 'error'));
	const id = ids[0]!;
	const index = state.window.rows.findIndex(row => row.id === id);
	if (index >= 0) return none(say(moveTo(state, index), sanitize(name)));
	// Not loaded: everything, newest first, read from the item on (it may not match the view).
	const all = state.views.find(view => view.query.trim() === '');
	const query = all ? viewQuery(all) : {};
	const generation = state.generation + 1;
	const note = `${sanitize(name)}${all && state.query.view !== all.name ? ` (view: ${sanitize(all.name)})` : ''}`;
	return {state: {...state, query, generation, loading: 'list', want: null}, effects: [{kind: 'list', generation, query, note, at: id}]};
}

function viewSaved(state: ScreenState, {view, ok, message}: Extract<ScreenEvent, {type: 'viewSaved'}>): Transition {
	if (!ok) return none(say(state, sanitize(message ?? 'The view was not saved.'), 'error'));
	const at = state.views.findIndex(other => other.name.toLowerCase() === view.name.toLowerCase());
	const views = at >= 0 ? state.views.map((other, index) => (index === at ? view : other)) : [...state.views, view];
	const next = {...state, views, viewCounts: new Map([...state.viewCounts].filter(([name]) => name !== state.views[at]?.name))};
	const number = (at >= 0 ? at : views.length - 1) + 1;
	const listed = relist(next, viewQuery(view), `View ${sanitize(view.name)} saved${number <= 9 ? ` (key ${number})` : ''}${message ? ` in ${sanitize(message)}` : ''}`);
	return state.autoCount ? recount(listed) : listed;
}

// The runs board (fan-out and watch): its cursor and focus; the runs themselves live in use-fanout.

type BoardEvent = Extract<ScreenEvent, {type: 'boardState' | 'openBoard' | 'boardMove' | 'boardFocus' | 'boardCancel' | 'cancelAllRuns' | 'closeBoard' | 'toggleWatch'}>;

function boardStep(state: ScreenState, event: BoardEvent): Transition {
	const {board} = state;
	switch (event.type) {
		case 'boardState': {
			const cursor = Math.max(0, Math.min(board.cursor, event.runs - 1));
			return none({...state, board: {...board, runs: event.runs, watch: event.watch, cursor}});
		}

		case 'openBoard': {
			if (board.runs === 0 && !board.watch) return none(say(state, 'No runs on the board yet: c on more marks than a batch holds, or W, starts some.', 'warn'));
			return none({...state, pane: 'run', overlay: {kind: 'board'}});
		}

		case 'boardMove': return none({...state, board: {...board, cursor: Math.max(0, Math.min(board.runs - 1, board.cursor + event.delta))}});
		case 'boardFocus': return none(board.runs === 0 ? state : {...state, board: {...board, focused: !board.focused}});
		case 'boardCancel': {
			if (board.runs === 0) return none(state);
			return {state: say(state, `Cancelling run ${board.cursor + 1}…`, 'warn'), effects: [{kind: 'cancelBatch', position: board.cursor}]};
		}

		case 'cancelAllRuns': {
			if (!state.run.active) return none(say(state, 'No run is active.', 'warn'));
			return {state: say(state, 'Cancelling every run…', 'warn'), effects: [{kind: 'cancelAllRuns'}]};
		}

		case 'closeBoard': return none({...state, overlay: NONE, board: {...board, focused: false}});
		case 'toggleWatch': {
			// Turning it on shows the board, where its batches and its status line are.
			// The flag flips now (keys typed next, like b, see it); the hook's boardState confirms it.
			const next = {...state, pane: board.watch ? state.pane : 'run' as const, board: {...board, watch: !board.watch}};
			return {state: say(next, board.watch ? 'Stopping watch mode (its running batches are cancelled)…' : 'Starting watch mode…'), effects: [{kind: 'toggleWatch'}]};
		}
	}
}
