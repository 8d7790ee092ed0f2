// The screen's state machine on its own: every event, as (state, event) -> {state, effects}.
// CASES is typed over every event type, so an event added without a test does not compile.

import type {Key} from 'ink';
import {describe, expect, it} from 'vitest';
import {bugsChannel} from '../../demo-data/generate.js';
import type {Field, FollowUp, Item} from '../../store/index.js';
import {UNDO_LIMIT, pushUndo, type UndoEntry} from '../../source/ui/edit-outcome.js';
import {HANDLERS, keyEvents, scopeOf} from '../../source/ui/input/handlers.js';
import {BINDINGS, type Scope} from '../../source/ui/keys.js';
import {HELP_LINES, helpLayout, screenLayout} from '../../source/ui/layout.js';
import {DEFAULT_VIEWS} from '../../source/config/schema.js';
import {CANCEL_QUESTION, helpLinesOf, initialScreen, setField, listRows, QUIT_QUESTION, reduce} from '../../source/ui/reducer.js';
import type {EditRequest, Effect, QueueOverlay, ScreenEvent, ScreenState, Transition} from '../../source/ui/state.js';
import {textState} from '../../source/ui/text-input.js';
import {recordExtent} from '../../source/ui/record-view.js';
import type {RunSummary} from '../../source/ui/history.js';
import type {BulkOutcome} from '../../source/ui/model/bulk.js';

const fields = bugsChannel.fields as unknown as Field[];
const field = (key: string) => fields.find(candidate => candidate.key === key)!;
const editable = fields.filter(candidate => candidate.type !== 'formula');
const plain = {} as Key;

const idOf = (n: number) => `itm_${String(n).padStart(4, '0')}`;
const previewOf = (n: number, version = 1) => ({id: idOf(n), version, updated_at: '2026-01-01T00:00:00.000Z', preview: {ticket: `BUG-${n}`, status: 'new'}});
/** A page of rows newest first from `from`, with a next page when `more`. */
const page = (from: number, count: number, more: boolean) => ({items: Array.from({length: count}, (_, index) => previewOf(from - index)), next_before_id: more ? idOf(from - count + 1) : null});
const item = (n: number, version: number, values: Record<string, unknown> = {}): Item => ({id: idOf(n), channel_id: 'bugs', version, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-02T00:00:00.000Z', values: {ticket: `BUG-${n}`, status: 'new', ...values}});
const followUp = (id: number, n: number): FollowUp => ({id, channel_id: 'bugs', item_id: idOf(n), key: 'status', status: 'open', attempted: 'Done', message: 'not an option', allowed: [{value: 'new', label: 'New'}, {value: 'triaged', label: 'Triaged'}], run_id: null, created_at: '', updated_at: '', resolution: null});
const run = (id: string) => ({runId: id}) as RunSummary;

/** A screen with one listed page (the last one unless `more`). */
function listed(count = 40, more = false, rows = 30): ScreenState {
	const {state} = initialScreen({channelId: 'bugs', fields, size: {columns: 100, rows}, total: 300, followUpCount: 2});
	return reduce(state, {type: 'listed', generation: 1, query: {}, page: page(300, count, more)}).state;
}

const kinds = (transition: Transition) => transition.effects.map(effect => effect.kind);
const effect = <K extends Effect['kind']>(transition: Transition, kind: K) => transition.effects.find((candidate): candidate is Extract<Effect, {kind: K}> => candidate.kind === kind);
const run1 = (state: ScreenState, ...events: ScreenEvent[]) => events.reduce<Transition>((previous, event) => {
	const next = reduce(previous.state, event);
	return {state: next.state, effects: [...previous.effects, ...next.effects]};
}, {state, effects: []});

function editing(stage: 'field' | 'options' | 'text' = 'field', key = 'status'): ScreenState {
	let state = reduce(listed(), {type: 'openEdit'}).state;
	state = reduce(state, {type: 'editOpened', item: item(300, 3)}).state;
	if (stage === 'field') return state;
	const index = editable.findIndex(candidate => candidate.key === key);
	for (let step = 0; step < index; step++) state = reduce(state, {type: 'cursor', delta: 1}).state;
	return reduce(state, {type: 'choose'}).state;
}

/** The record pane open on the first row, its record read with a body of `lines` lines. */
function withRecord(lines: number): {state: ScreenState; height: number} {
	const opened = reduce(listed(), {type: 'openDetail'});
	const wanted = effect(opened, 'readDetail')!;
	const description = Array.from({length: lines}, (_, index) => `line ${index + 1}`).join('\n');
	const detail = {id: idOf(300), item: item(300, 1, {description}), error: null, flagged: new Set<string>()};
	const state = reduce(opened.state, {type: 'detailLoaded', for: wanted.for, detail}).state;
	return {state, height: screenLayout(state.size, state.overlay, state.pane).paneHeight};
}

function queued(): ScreenState {
	let state = reduce(listed(), {type: 'openQueue'}).state;
	state = reduce(state, {type: 'queueLoaded', followUps: [followUp(1, 300), followUp(2, 299)]}).state;
	return reduce(state, {type: 'queueEntry', entry: {followUp: followUp(1, 300), item: item(300, 2)}}).state;
}

const request = (origin: 'picker' | 'queue'): EditRequest => ({itemId: idOf(300), name: 'BUG-300', key: 'status', value: 'triaged', before: 'new', version: 3, origin});
const ok = (version: number, values: Record<string, unknown> = {status: 'triaged'}) => ({kind: 'ok' as const, result: {ok: true as const, item: item(300, version, values), sequence: 9}});
const problem = {key: 'status', message: 'values.status must be one of the option values, got "x"', allowed: [{value: 'new', label: 'New'}]};

const CASES: {[T in ScreenEvent['type']]: () => void} = {
	key() {
		// Routed by the scope it meets: j moves the list, and in an open picker the picker.
		expect(reduce(listed(), {type: 'key', input: 'j', key: plain}).state.window.cursor).toBe(1);
		expect(reduce(editing(), {type: 'key', input: 'j', key: plain}).state.overlay).toMatchObject({fieldCursor: 1});
		// While an overlay is being opened, keys wait, then act in its scope.
		const opening = run1(listed(), {type: 'key', input: 'e', key: plain}, {type: 'key', input: 'j', key: plain});
		expect(opening.state.window.cursor).toBe(0);
		expect(opening.state.deferred).toHaveLength(1);
		const open = reduce(opening.state, {type: 'editOpened', item: item(300, 1)});
		expect(open.state.overlay).toMatchObject({kind: 'edit', fieldCursor: 1});
		expect(open.state.deferred).toEqual([]);
		// Ctrl+C never waits.
		expect(kinds(reduce(opening.state, {type: 'key', input: 'c', key: {ctrl: true} as Key}))).toEqual(['quit']);
	},
	move() {
		const state = listed();
		expect(reduce(state, {type: 'move', rows: 1}).state.window.cursor).toBe(1);
		expect(reduce(state, {type: 'move', rows: -1}).state.window.cursor).toBe(0);
		// Past what is loaded: as far as it goes, the rest once the next page is in.
		const more = {...listed(50, true), loading: null};
		const moved = reduce(more, {type: 'move', rows: 60});
		expect(moved.state.window.cursor).toBe(49);
		expect(moved.state.want).toBe(60);
	},
	page() {
		// In the help at 80×24 (the key table's lines and the field hotkeys): a screen of lines at a time, never past the last screen.
		const help = reduce(reduce(listed(40, false, 24), {type: 'resize', columns: 80, rows: 24}).state, {type: 'openHelp'}).state;
		const {room, maxScroll} = helpLayout(80, screenLayout({columns: 80, rows: 24}, {kind: 'help', scroll: 0}, 'none').bodyHeight, helpLinesOf(help).length);
		expect(helpLinesOf(help).length).toBe(HELP_LINES.length + 7);
		expect(maxScroll).toBeGreaterThan(0);
		expect(reduce(help, {type: 'page', pages: 1}).state.overlay).toEqual({kind: 'help', scroll: Math.min(maxScroll, room - 1)});
		const bottom = Array.from({length: 10}).reduce<ScreenState>(state => reduce(state, {type: 'page', pages: 1}).state, help);
		expect(bottom.overlay).toEqual({kind: 'help', scroll: maxScroll});
		expect(reduce(bottom, {type: 'cursor', delta: 1}).state.overlay).toEqual({kind: 'help', scroll: maxScroll});
		expect(reduce(bottom, {type: 'cursor', delta: -1}).state.overlay).toEqual({kind: 'help', scroll: maxScroll - 1});
		const state = listed();
		const rows = listRows(state);
		expect(reduce(state, {type: 'page', pages: 1}).state.window.cursor).toBe(rows - 1);
		expect(reduce(reduce(state, {type: 'page', pages: 1}).state, {type: 'page', pages: -1}).state.window.cursor).toBe(0);
	},
	top() {
		const state = reduce(listed(), {type: 'bottom'}).state;
		expect(reduce(state, {type: 'top'}).state.window.cursor).toBe(0);
		// A window that does not start at the newest record: back to it at once (a relisting), wherever the cursor is.
		const deep = {...listed(), window: {...listed().window, firstPage: 2, cursor: 7}};
		const back = reduce(deep, {type: 'top'});
		expect(effect(back, 'list')).toMatchObject({generation: 2, query: {}, note: 'The newest records.'});
		expect(effect(back, 'list')?.from).toBeUndefined();
	},
	bottom() {
		// All loaded: the last row.
		expect(reduce(listed(), {type: 'bottom'}).state.window.cursor).toBe(39);
		// More to load: the last page of the query, read from the end.
		const more = {...listed(50, true), loading: null};
		const reading = reduce(more, {type: 'bottom'});
		expect(effect(reading, 'list')).toMatchObject({generation: 2, from: 'end'});
		const end = reduce(reading.state, {type: 'listed', generation: 2, query: {}, from: 'end', page: {...page(20, 20, false), prev_cursor: 'c-before-20', next_cursor: null}});
		expect(end.state.window.rows.at(-1)?.id).toBe(idOf(1));
		expect(end.state.window.cursor).toBe(19);
		// The page before (newer) is read ahead by the store's cursor.
		expect(effect(end, 'loadPage')).toMatchObject({direction: 'before', request: {cursor: 'c-before-20'}});
		// A store that cannot read from the end answers with its first page: stay, and say so.
		const unsupported = reduce(reading.state, {type: 'listed', generation: 2, query: {}, from: 'end', page: page(300, 50, true)});
		expect(unsupported.state.window.rows[0]?.id).toBe(idOf(300));
		expect(unsupported.state.window.cursor).toBe(49);
		expect(unsupported.state.message?.tone).toBe('warn');
	},
	openDetail() {
		const opened = reduce(listed(), {type: 'openDetail'});
		expect(opened.state.pane).toBe('detail');
		expect(effect(opened, 'readDetail')).toMatchObject({id: idOf(300)});
		const {state} = initialScreen({channelId: 'bugs', fields, size: {columns: 100, rows: 30}, total: 0, followUpCount: 0});
		expect(reduce(state, {type: 'openDetail'}).state.pane).toBe('none');
	},
	back() {
		const withPane = reduce(listed(), {type: 'openDetail'}).state;
		expect(reduce(withPane, {type: 'back'}).state.pane).toBe('none');
		const searched = {...listed(), query: {search: 'x'}};
		expect(effect(reduce(searched, {type: 'back'}), 'list')).toMatchObject({query: {}, note: 'Search and filter cleared.'});
		expect(reduce(listed(), {type: 'back'}).effects).toEqual([]);
	},
	openSearch() {
		expect(reduce({...listed(), query: {search: 'crash'}}, {type: 'openSearch'}).state.overlay).toEqual({kind: 'search', text: textState('crash')});
	},
	openFilter() {
		expect(reduce(listed(), {type: 'openFilter'}).state.overlay).toEqual({kind: 'filter', stage: 'field', cursor: 0, field: null});
	},
	mark() {
		const marked = reduce(listed(), {type: 'mark'}).state;
		expect([...marked.marks]).toEqual([idOf(300)]);
		expect(marked.window.cursor).toBe(1);
		const unmarked = reduce(reduce(marked, {type: 'move', rows: -1}).state, {type: 'mark'}).state;
		expect(unmarked.marks.size).toBe(0);
	},
	markAll() {
		const all = reduce(listed(), {type: 'markAll'}).state;
		expect(all.marks.size).toBe(40);
		expect(all.message).toEqual({text: '40 loaded rows marked.', tone: 'info'});
		expect(reduce(all, {type: 'markAll'}).state.marks.size).toBe(0);
	},
	openEdit() {
		const opening = reduce(listed(), {type: 'openEdit'});
		expect(effect(opening, 'readForEdit')).toEqual({kind: 'readForEdit', itemId: idOf(300)});
		expect(opening.state.awaiting).toBe('edit');
	},
	undo() {
		expect(reduce(listed(), {type: 'undo'}).state.message?.text).toBe('Nothing to undo: no edit of yours in this session.');
		const entry: UndoEntry = {itemId: idOf(300), name: 'BUG-300', key: 'status', before: 'new', after: 'triaged', version: 4};
		const undoing = reduce({...listed(), undo: [entry]}, {type: 'undo'});
		expect(effect(undoing, 'undo')).toEqual({kind: 'undo', entry});
		expect(undoing.state.undo).toEqual([]);
	},
	askRun() {
		const asked = reduce(listed(), {type: 'askRun'}).state;
		expect(asked.overlay).toMatchObject({kind: 'instruction', itemIds: [idOf(300)]});
		const marked = reduce(reduce(listed(), {type: 'mark'}).state, {type: 'mark'}).state;
		expect(reduce(marked, {type: 'askRun'}).state.overlay).toMatchObject({itemIds: [idOf(300), idOf(299)]});
		expect(reduce({...listed(), run: {active: true, exists: true}}, {type: 'askRun'}).state.message?.text).toBe('A run is already active; x cancels it.');
	},
	askCancelRun() {
		expect(reduce(listed(), {type: 'askCancelRun'}).state.message).toEqual({text: 'No run is active.', tone: 'warn'});
		expect(reduce({...listed(), run: {active: true, exists: true}}, {type: 'askCancelRun'}).state.overlay).toEqual({kind: 'confirm', question: CANCEL_QUESTION, action: 'cancelRun'});
	},
	openQueue() {
		const opening = reduce(listed(), {type: 'openQueue'});
		expect(kinds(opening)).toEqual(['loadQueue']);
		expect(opening.state.awaiting).toBe('queue');
	},
	openHistory() {
		expect(kinds(reduce(listed(), {type: 'openHistory'}))).toEqual(['loadHistory']);
	},
	togglePane() {
		expect(reduce(listed(), {type: 'togglePane'}).state.pane).toBe('detail');
		const withRun = {...listed(), run: {active: false, exists: true}};
		const onRun = reduce(withRun, {type: 'togglePane'}).state;
		expect(onRun.pane).toBe('run');
		expect(reduce(onRun, {type: 'togglePane'}).state.pane).toBe('detail');
	},
	scrollPane() {
		// Nothing read yet: nothing to scroll.
		expect(reduce(listed(), {type: 'scrollPane', move: {lines: 5}}).state.paneScroll).toBe(0);
		const {state, height} = withRecord(55);
		const down = reduce(state, {type: 'scrollPane', move: {lines: 5}}).state;
		expect(down.paneScroll).toBe(5);
		expect(reduce(reduce(down, {type: 'scrollPane', move: {lines: -5}}).state, {type: 'scrollPane', move: {lines: -5}}).state.paneScroll).toBe(0);
		// Defect 5: never past the end, so the first move back moves.
		const far = run1(state, ...Array.from({length: 12}, () => ({type: 'scrollPane', move: {lines: 5}}) as const)).state;
		const {total} = recordExtent(far);
		expect(far.paneScroll).toBe(total - height);
		expect(reduce(far, {type: 'scrollPane', move: {lines: -5}}).state.paneScroll).toBe(total - height - 5);
		// A new record starts at its top.
		expect(reduce(down, {type: 'move', rows: 1}).state.paneScroll).toBe(0);
	},
	fullRecord() {
		const {state} = withRecord(55);
		const scrolled = reduce(state, {type: 'scrollPane', move: {lines: 5}}).state;
		const full = reduce(scrolled, {type: 'fullRecord'}).state;
		expect(full.overlay).toEqual({kind: 'record'});
		expect(scopeOf(full.overlay)).toBe('record');
		expect(full.paneScroll).toBe(5);
		// Full screen a page is the body's height less the two marker lines.
		const paged = reduce(full, {type: 'scrollPane', move: {pages: 1}}).state;
		expect(paged.paneScroll).toBe(5 + screenLayout(full.size, full.overlay, full.pane).bodyHeight - 2);
		expect(reduce(paged, {type: 'fullRecord'}).state.overlay).toEqual({kind: 'none'});
		// No record under the cursor: nothing to show.
		const {state: empty} = initialScreen({channelId: 'bugs', fields, size: {columns: 100, rows: 30}, total: 0, followUpCount: 0});
		expect(reduce(empty, {type: 'fullRecord'}).state.overlay).toEqual({kind: 'none'});
	},
	reload() {
		const reloading = reduce({...listed(), query: {search: 'x'}}, {type: 'reload'});
		expect(effect(reloading, 'list')).toEqual({kind: 'list', generation: 2, query: {search: 'x'}, note: 'Reloaded from the newest record.'});
		expect(reloading.state.loading).toBe('list');
	},
	openHelp() {
		expect(reduce(listed(), {type: 'openHelp'}).state.overlay).toEqual({kind: 'help', scroll: 0});
	},
	quit() {
		expect(kinds(reduce(listed(), {type: 'quit'}))).toEqual(['quit']);
		const active = reduce({...listed(), run: {active: true, exists: true}}, {type: 'quit'});
		expect(active.effects).toEqual([]);
		expect(active.state.overlay).toEqual({kind: 'confirm', question: QUIT_QUESTION, action: 'quit'});
	},
	interrupt() {
		expect(kinds(reduce(listed(), {type: 'interrupt'}))).toEqual(['quit']);
		const asking = reduce({...listed(), run: {active: true, exists: true}}, {type: 'interrupt'}).state;
		expect(asking.overlay).toMatchObject({kind: 'confirm', action: 'quit'});
		// Asked already: a second Ctrl+C quits.
		expect(kinds(reduce(asking, {type: 'interrupt'}))).toEqual(['quit']);
	},
	cursor() {
		const filter = reduce(listed(), {type: 'openFilter'}).state;
		const up = reduce(filter, {type: 'cursor', delta: -1}).state;
		// The field list wraps to its last entry, "(no filter)".
		expect(up.overlay).toMatchObject({cursor: fields.filter(candidate => candidate.type === 'select' || candidate.type === 'boolean').length});
		const queue = queued();
		expect(reduce(queue, {type: 'cursor', delta: -1}).state.overlay).toMatchObject({optionCursor: 1});
	},
	choose() {
		// Edit: choosing a field opens its options on the current value; choosing an option writes it.
		const options = editing('options');
		expect(options.overlay).toMatchObject({stage: 'options', field: {key: 'status'}, optionCursor: 0});
		const writing = reduce(reduce(options, {type: 'cursor', delta: 1}).state, {type: 'choose'});
		expect(effect(writing, 'edit')?.request).toMatchObject({itemId: idOf(300), key: 'status', before: 'new', version: 3, origin: 'picker'});
		// The same value again changes nothing and says so.
		const same = reduce(options, {type: 'choose'});
		expect(same.effects).toEqual([]);
		expect(same.state.message?.text).toContain('is already');
		// Filter: field, then value, relists.
		const status = fields.filter(candidate => candidate.type === 'select' || candidate.type === 'boolean').findIndex(candidate => candidate.key === 'status');
		let filter = reduce(listed(), {type: 'openFilter'}).state;
		for (let step = 0; step < status; step++) filter = reduce(filter, {type: 'cursor', delta: 1}).state;
		filter = reduce(filter, {type: 'choose'}).state;
		expect(effect(reduce(filter, {type: 'choose'}), 'list')?.query).toEqual({filter: {status: field('status').config.options![0]!.value}});
		// Queue: sets the allowed value under the cursor.
		expect(effect(reduce(queued(), {type: 'choose'}), 'edit')?.request).toMatchObject({key: 'status', value: 'new', version: 2, origin: 'queue'});
	},
	toggle() {
		const multi = fields.find(candidate => candidate.type === 'multi_select');
		if (!multi) return;
		const state = editing('options', multi.key);
		const ticked = reduce(state, {type: 'toggle'}).state;
		expect(ticked.overlay).toMatchObject({chosen: [multi.config.options![0]!.value]});
		expect(reduce(ticked, {type: 'toggle'}).state.overlay).toMatchObject({chosen: []});
	},
	cancel() {
		expect(reduce(editing('options'), {type: 'cancel'}).state.overlay).toMatchObject({kind: 'edit', stage: 'field'});
		expect(reduce(editing(), {type: 'cancel'}).state.overlay).toEqual({kind: 'none'});
		const closing = reduce(queued(), {type: 'cancel'});
		expect(closing.state.overlay).toEqual({kind: 'none'});
		expect(kinds(closing)).toEqual(['countFollowUps']);
		expect(reduce(reduce(listed(), {type: 'openHelp'}).state, {type: 'cancel'}).state.overlay).toEqual({kind: 'none'});
	},
	submit() {
		const searching = reduce(reduce(listed(), {type: 'openSearch'}).state, {type: 'type', input: 'leak', key: plain}).state;
		const searched = reduce(searching, {type: 'submit'});
		expect(effect(searched, 'list')).toMatchObject({query: {search: 'leak'}, note: 'Search: "leak" · Esc clears'});
		const points = reduce(editing('text', 'points').overlay.kind === 'edit' ? editing('text', 'points') : editing(), {type: 'type', input: '5', key: plain}).state;
		expect(effect(reduce(points, {type: 'submit'}), 'edit')?.request).toMatchObject({key: 'points', value: 5});
		const instruction = reduce(listed(), {type: 'askRun'}).state;
		expect(effect(reduce(instruction, {type: 'submit'}), 'startRun')).toMatchObject({itemIds: [idOf(300)]});
	},
	type() {
		const state = reduce(listed(), {type: 'openSearch'}).state;
		expect(reduce(state, {type: 'type', input: 'ab', key: plain}).state.overlay).toEqual({kind: 'search', text: {value: 'ab', pos: 2}});
		// Nothing to type into: nothing changes.
		const list = listed();
		expect(reduce(list, {type: 'type', input: 'a', key: plain}).state).toBe(list);
	},
	queueType() {
		expect(reduce(queued(), {type: 'queueType'}).state.overlay).toMatchObject({typing: textState('Done')});
	},
	queueDismiss() {
		const asking = reduce(queued(), {type: 'queueDismiss'}).state;
		expect(asking.overlay).toMatchObject({confirmDismiss: true});
		expect(scopeOf(asking.overlay)).toBe('confirm');
	},
	queueStep() {
		const next = reduce(queued(), {type: 'queueStep', delta: 1});
		expect(next.state.overlay).toMatchObject({index: 1});
		expect(effect(next, 'readQueueEntry')?.followUp.id).toBe(2);
		expect(reduce(next.state, {type: 'queueStep', delta: 1}).state.overlay).toMatchObject({index: 0});
	},
	answer() {
		const asking = reduce(queued(), {type: 'queueDismiss'}).state;
		expect(effect(reduce(asking, {type: 'answer', yes: true}), 'dismissFollowUp')).toEqual({kind: 'dismissFollowUp', id: 1});
		expect(reduce(asking, {type: 'answer', yes: false}).state.overlay).toMatchObject({confirmDismiss: false});
		const cancelling = reduce({...listed(), run: {active: true, exists: true}}, {type: 'askCancelRun'}).state;
		expect(kinds(reduce(cancelling, {type: 'answer', yes: true}))).toEqual(['cancelRun']);
		const quitting = reduce({...listed(), run: {active: true, exists: true}}, {type: 'quit'}).state;
		expect(kinds(reduce(quitting, {type: 'answer', yes: true}))).toEqual(['quit']);
		expect(reduce(quitting, {type: 'answer', yes: false}).state.overlay).toEqual({kind: 'none'});
	},
	resize() {
		const small = reduce(listed(), {type: 'resize', columns: 80, rows: 12}).state;
		expect(small.size).toEqual({columns: 80, rows: 12});
		expect(listRows(small)).toBeLessThan(listRows(listed()));
	},
	listed() {
		const state = listed();
		expect(state.window.rows).toHaveLength(40);
		expect(state.loading).toBeNull();
		// A listing of an older generation is dropped.
		const stale = reduce({...state, generation: 3}, {type: 'listed', generation: 2, query: {}, page: page(10, 1, false)});
		expect(stale.state.window.rows).toHaveLength(40);
	},
	pageLoaded() {
		// The first page of 50 (with more) is read ahead at once: the cursor is within two screens of its end.
		const {state: start} = initialScreen({channelId: 'bugs', fields, size: {columns: 100, rows: 31}, total: 300, followUpCount: 0});
		const first = reduce(start, {type: 'listed', generation: 1, query: {}, page: page(300, 50, true)});
		expect(effect(first, 'loadPage')).toMatchObject({direction: 'after', request: {beforeId: idOf(251)}});
		const wanting = reduce(first.state, {type: 'move', rows: 60}).state;
		const second = reduce(wanting, {type: 'pageLoaded', generation: 1, direction: 'after', page: page(250, 50, false)}).state;
		expect(second.window.rows).toHaveLength(100);
		expect(second.window.cursor).toBe(60);
		expect(second.want).toBeNull();
	},
	loadFailed() {
		const failed = reduce({...listed(), loading: 'after'}, {type: 'loadFailed', generation: 1, message: 'disk \u001b[31mgone'});
		expect(failed.state.loading).toBeNull();
		expect(failed.state.message?.text).not.toContain('\u001b');
	},
	editOpened() {
		expect(editing().overlay).toMatchObject({kind: 'edit', itemId: idOf(300), name: 'BUG-300', version: 3, stage: 'field'});
	},
	effectFailed() {
		const opening = run1(listed(), {type: 'key', input: 'F', key: plain}, {type: 'key', input: 'j', key: plain});
		const failed = reduce(opening.state, {type: 'effectFailed', message: 'no such table'});
		expect(failed.state.awaiting).toBeNull();
		expect(failed.state.message).toEqual({text: 'no such table', tone: 'error'});
		// The key typed meanwhile acts on the list.
		expect(failed.state.window.cursor).toBe(1);
	},
	edited() {
		const saved = reduce(editing('options'), {type: 'edited', request: request('picker'), outcome: ok(4)});
		expect(saved.state.overlay).toEqual({kind: 'none'});
		expect(saved.state.window.rows[0]).toMatchObject({version: 4});
		expect(saved.state.undo).toEqual([{itemId: idOf(300), name: 'BUG-300', key: 'status', before: 'new', after: 'triaged', version: 4}]);
		expect(saved.state.message?.text).toBe('BUG-300: Status New → Triaged (v4) · u undoes');
		expect(kinds(saved)).toEqual(['countFollowUps', 'pollEvents']);
		const refused = reduce(editing('options'), {type: 'edited', request: request('picker'), outcome: {kind: 'refused', problem}});
		expect(refused.state.overlay).toMatchObject({problem});
		const conflict = reduce(editing('options'), {type: 'edited', request: request('picker'), outcome: {kind: 'conflict', changes: {owner: {from: null, to: 'mika'}}, item: item(300, 5, {owner: 'mika'})}});
		expect(conflict.state.overlay).toMatchObject({version: 5, conflict: {owner: {from: null, to: 'mika'}}});
		// From the queue: the queue reloads, and a refusal shows in it in the one wording (value, then label).
		const fromQueue = reduce(queued(), {type: 'edited', request: request('queue'), outcome: ok(3)});
		expect(effect(fromQueue, 'loadQueue')?.note).toBe('BUG-300: Status set to Triaged');
		const queueRefused = reduce(queued(), {type: 'edited', request: request('queue'), outcome: {kind: 'refused', problem}});
		expect((queueRefused.state.overlay as QueueOverlay).problem).toContain('Allowed: new (New)');
	},
	undone() {
		const entry: UndoEntry = {itemId: idOf(300), name: 'BUG-300', key: 'status', before: 'new', after: 'triaged', version: 4};
		const back = reduce(listed(), {type: 'undone', entry, outcome: ok(5, {status: 'new'})});
		expect(back.state.message?.text).toBe('Undone: BUG-300 Status back to New (v5)');
		const lost = reduce(listed(), {type: 'undone', entry, outcome: {kind: 'lost', change: {status: {from: 'triaged', to: 'fixed'}}}});
		expect(lost.state.message?.text).toMatch(/^Not undone: BUG-300 Status: Triaged → .* was changed by someone else/);
		expect(kinds(lost)).toEqual(['readRows']);
	},
	storeEvents() {
		const at = 1000;
		const event = (type: 'item.created' | 'item.updated' | 'item.deleted', n: number) => ({sequence: n, type, item_id: idOf(n), version: 2, actor: {kind: 'human' as const}, changes: {}, at: ''});
		const next = reduce(listed(), {type: 'storeEvents', at, events: [event('item.created', 301), event('item.updated', 299), event('item.deleted', 298)]});
		expect(next.state.total).toBe(300);
		expect(next.state.newItems).toBe(1);
		expect(next.state.changed.get(idOf(299))).toBe(at + 3000);
		expect(next.state.window.rows[2]).toMatchObject({deleted: true});
		expect(effect(next, 'readRows')?.ids).toEqual([idOf(299)]);
		expect(effect(next, 'reloadSchema')).toBeUndefined();
		// A schema change touches no row and counts no item: the schema is read again.
		const changed = reduce(listed(), {type: 'storeEvents', at, events: [{sequence: 302, type: 'channel.updated', item_id: '', version: 0, actor: {kind: 'human'}, changes: {}, at: ''}]});
		expect(effect(changed, 'reloadSchema')).toEqual({kind: 'reloadSchema'});
		expect(effect(changed, 'readRows')).toBeUndefined();
		expect(changed.state.total).toBe(listed().total);
	},
	schemaLoaded() {
		const status = fields.find(field => field.key === 'status')!;
		const grown = fields.map(field => (field === status ? {...status, config: {...status.config, options: [...status.config.options!, {value: 'sam', label: 'Sam'}]}} : field));
		const next = reduce(listed(), {type: 'schemaLoaded', fields: grown}).state;
		expect(next.fields.find(field => field.key === 'status')!.config.options!.at(-1)).toEqual({value: 'sam', label: 'Sam'});
		expect(next.message?.text).toMatch(/schema changed/);
		// The same schema again (this screen's own change, then its event) changes nothing.
		expect(reduce(next, {type: 'schemaLoaded', fields: grown}).state).toBe(next);
		expect(reduce(listed(), {type: 'schemaLoaded', fields: grown, quiet: true}).state.message).toBe(listed().message);
	},
	channelChanged() {
		const done = reduce(listed(), {type: 'channelChanged', ok: true, message: 'Schema changed: owner.'});
		expect(done.state.message).toEqual({text: 'Schema changed: owner.', tone: 'ok'});
		expect(effect(done, 'reloadSchema')).toEqual({kind: 'reloadSchema', quiet: true});
		const refused = reduce(listed(), {type: 'channelChanged', ok: false, message: '3 items hold status "wontfix": BUG-0001'});
		expect(refused.state.message?.tone).toBe('error');
		expect(refused.effects).toEqual([]);
	},
	rowRead() {
		const updated = reduce(listed(), {type: 'rowRead', id: idOf(299), item: item(299, 2, {status: 'triaged'})}).state;
		expect(updated.window.rows[1]).toMatchObject({version: 2, preview: expect.objectContaining({status: 'triaged'})});
		expect(reduce(listed(), {type: 'rowRead', id: idOf(299), item: null}).state.window.rows[1]).toMatchObject({deleted: true});
	},
	detailLoaded() {
		const opened = reduce(listed(), {type: 'openDetail'});
		const wanted = effect(opened, 'readDetail')!;
		const detail = {id: idOf(300), item: item(300, 1), error: null, flagged: new Set<string>()};
		expect(reduce(opened.state, {type: 'detailLoaded', for: wanted.for, detail}).state.detail).toBe(detail);
		// A read for a row the cursor has left is dropped.
		const moved = reduce(opened.state, {type: 'move', rows: 1}).state;
		expect(reduce(moved, {type: 'detailLoaded', for: wanted.for, detail}).state.detail).toBeNull();
	},
	followUpCount() {
		expect(reduce(listed(), {type: 'followUpCount', count: 7}).state.followUpCount).toBe(7);
	},
	queueLoaded() {
		const opened = reduce(reduce(listed(), {type: 'openQueue'}).state, {type: 'queueLoaded', followUps: [followUp(1, 300)]});
		expect(opened.state.overlay).toMatchObject({kind: 'queue', index: 0});
		expect(effect(opened, 'readQueueEntry')?.followUp.id).toBe(1);
		const empty = reduce(reduce(listed(), {type: 'openQueue'}).state, {type: 'queueLoaded', followUps: []});
		expect(empty.state.message).toEqual({text: 'No open follow-ups.', tone: 'ok'});
	},
	queueEntry() {
		expect(queued().queue.entry?.item?.version).toBe(2);
		// Not in the queue any more: ignored.
		expect(reduce(listed(), {type: 'queueEntry', entry: null}).state.queue.entry).toBeNull();
	},
	followUpDismissed() {
		const asking = reduce(queued(), {type: 'queueDismiss'}).state;
		const done = reduce(asking, {type: 'followUpDismissed', ok: true, left: [followUp(2, 299)]});
		expect(done.state.message?.text).toBe('Follow-up dismissed · 1 left');
		expect(done.state.overlay).toMatchObject({confirmDismiss: false, index: 0});
		const failed = reduce(asking, {type: 'followUpDismissed', ok: false, message: 'gone'});
		expect(failed.state.overlay).toMatchObject({confirmDismiss: false, problem: 'gone'});
	},
	historyLoaded() {
		const shown = reduce(listed(), {type: 'historyLoaded', runs: [run('a'), run('b')]}).state;
		expect(shown.overlay).toEqual({kind: 'history', cursor: 0, open: false});
		expect(reduce(reduce(shown, {type: 'cursor', delta: 1}).state, {type: 'cursor', delta: 1}).state.overlay).toMatchObject({cursor: 1});
	},
	stepsLoaded() {
		const runs = [run('a')];
		const opening = reduce(reduce(listed(), {type: 'historyLoaded', runs}).state, {type: 'choose'});
		expect(effect(opening, 'loadSteps')?.run).toBe(runs[0]);
		expect(reduce(opening.state, {type: 'stepsLoaded', run: runs[0]!, steps: []}).state.history.open).toEqual({run: runs[0], steps: []});
	},
	runState() {
		expect(reduce(listed(), {type: 'runState', active: true, exists: true}).state.run).toEqual({active: true, exists: true});
	},
	runStarted() {
		const started = reduce(reduce(listed(), {type: 'askRun'}).state, {type: 'runStarted', count: 2}).state;
		expect(started.pane).toBe('run');
		expect(started.overlay).toEqual({kind: 'none'});
		expect(started.message?.text).toBe('Codex started on 2 records · x cancels');
		// More than one batch: the runs board opens with the keys.
		const fanned = reduce(reduce(listed(), {type: 'askRun'}).state, {type: 'runStarted', count: 25, batches: 3}).state;
		expect(fanned.pane).toBe('run');
		expect(fanned.overlay).toEqual({kind: 'board'});
		expect(fanned.message?.text).toBe('Codex started on 25 records in 3 runs · X cancels all');
	},
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
	runFinished() {
		const finished = reduce(listed(), {type: 'runFinished', text: 'Codex ok', tone: 'ok'});
		expect(finished.state.message).toEqual({text: 'Codex ok', tone: 'ok'});
		expect(kinds(finished)).toEqual(['countFollowUps']);
	},
	say() {
		expect(reduce(listed(), {type: 'say', text: 'hi', tone: 'warn'}).state.message).toEqual({text: 'hi', tone: 'warn'});
	},
	expire() {
		const state = {...listed(), changed: new Map([[idOf(300), 1000], [idOf(299), 5000]])};
		expect([...reduce(state, {type: 'expire', at: 2000}).state.changed.keys()]).toEqual([idOf(299)]);
	},

	// Field hotkeys, bulk edits, $EDITOR.
	hotkey() {
		// The demo's defaults reach the list: s is status's hotkey, and opens its picker on the row's value.
		const state = listed();
		expect(state.hotkeys).toMatchObject({status: 's', owner: 'o', severity: 'v', points: 'p', area: 'a', due: 'd'});
		const opened = reduce(state, {type: 'key', input: 's', key: plain, at: 0}).state;
		expect(opened.overlay).toMatchObject({kind: 'fieldEdit', bulk: false, field: {key: 'status'}, targets: [{id: idOf(300), version: 1}], picker: {cursor: 0}});
		expect(scopeOf(opened.overlay)).toBe('choice');
		// A typed field gets a one-line input.
		const points = reduce(state, {type: 'hotkey', key: 'points', at: 0}).state;
		expect(points.overlay).toMatchObject({kind: 'fieldEdit', picker: null, text: {value: ''}});
		expect(scopeOf(points.overlay)).toBe('text');
		// With marks, the hotkey edits every marked row, each as it was when marked.
		const marked = run1(state, {type: 'mark'}, {type: 'mark'}).state;
		expect(marked.seen.get(idOf(300))).toMatchObject({version: 1, name: 'BUG-300'});
		const bulk = reduce({...marked, window: {...marked.window, rows: marked.window.rows.map(row => ({...row, version: 9}))}}, {type: 'hotkey', key: 'status', at: 0}).state;
		expect(bulk.overlay).toMatchObject({kind: 'fieldEdit', bulk: true, targets: [{id: idOf(300), version: 1}, {id: idOf(299), version: 1}]});
		// e with marks chooses the field first; Esc from the value goes back to the fields.
		const chooser = reduce(marked, {type: 'openEdit'});
		expect(chooser.effects).toEqual([]);
		expect(scopeOf(chooser.state.overlay)).toBe('picker');
		const chosen = reduce(chooser.state, {type: 'choose'}).state;
		expect(chosen.overlay).toMatchObject({field: {key: 'title'}, text: {value: ''}});
		expect(reduce(chosen, {type: 'cancel'}).state.overlay).toMatchObject({kind: 'fieldEdit', field: null});
		// Unmarking forgets the snapshot; letters that are no hotkey do nothing.
		expect(reduce({...marked, window: {...marked.window, cursor: 0}}, {type: 'mark'}).state.seen.has(idOf(300))).toBe(false);
		expect(reduce(state, {type: 'key', input: 'z', key: plain}).state).toBe(state);
	},
	pickType() {
		// s 2: the second option written at once, with the version of the row.
		const done = run1(listed(), {type: 'key', input: 's', key: plain, at: 0}, {type: 'key', input: '2', key: plain});
		expect(done.state.overlay).toEqual({kind: 'none'});
		expect(effect(done, 'edit')?.request).toEqual({itemId: idOf(300), name: 'BUG-300', key: 'status', value: 'triaged', before: 'new', version: 1, origin: 'picker'});
		// Typing jumps to a label, Enter picks it; the optional field's last entry is none.
		const jumped = run1(listed(), {type: 'hotkey', key: 'status', at: 0}, {type: 'pickType', input: 'w', key: plain});
		expect(jumped.state.overlay).toMatchObject({picker: {cursor: 4, typed: 'w'}});
		expect(effect(reduce(jumped.state, {type: 'choose'}), 'edit')?.request.value).toBe('wont_fix');
		expect(effect(run1(listed(), {type: 'hotkey', key: 'status', at: 0}, {type: 'pickType', input: '6', key: plain}), 'edit')?.request.value).toBeNull();
		// A key that matches nothing says so and writes nothing; the current value is not written again.
		const missed = run1(listed(), {type: 'hotkey', key: 'status', at: 0}, {type: 'pickType', input: 'z', key: plain});
		expect(missed.effects).toEqual([]);
		expect((missed.state.overlay as {notice: string}).notice).toMatch(/no choice starts with "z"/);
		const same = run1(listed(), {type: 'hotkey', key: 'status', at: 0}, {type: 'pickType', input: '1', key: plain});
		expect(same.effects).toEqual([]);
		expect(same.state.message?.text).toBe('BUG-300: Status is already New; nothing changed.');
		// On marks: one bulk edit of every marked row.
		const bulk = run1(listed(), {type: 'mark'}, {type: 'mark'}, {type: 'hotkey', key: 'status', at: 0}, {type: 'pickType', input: '3', key: plain});
		expect(effect(bulk, 'bulkEdit')).toMatchObject({field: {key: 'status'}, value: 'in_progress', rows: [{id: idOf(300)}, {id: idOf(299)}]});
		// A relative date is resolved from the day the input opened, and refused words write nothing.
		const now = new Date(2026, 11, 1, 12).getTime(); // a Tuesday
		const typed = run1(listed(), {type: 'hotkey', key: 'due', at: now}, ...[...'friday'].map(input => ({type: 'type', input, key: plain}) as ScreenEvent), {type: 'submit'});
		expect(effect(typed, 'edit')?.request.value).toBe('2026-12-04');
		const bad = run1(listed(), {type: 'hotkey', key: 'due', at: now}, {type: 'type', input: 'x', key: plain}, {type: 'submit'});
		expect(bad.effects).toEqual([]);
		expect((bad.state.overlay as {notice: string}).notice).toMatch(/^not a date: "x"/);
	},
	erase() {
		const typed = run1(listed(), {type: 'hotkey', key: 'status', at: 0}, {type: 'pickType', input: 'i', key: plain}, {type: 'pickType', input: 'n', key: plain});
		expect(typed.state.overlay).toMatchObject({picker: {cursor: 2, typed: 'in'}});
		expect(reduce(typed.state, {type: 'erase'}).state.overlay).toMatchObject({picker: {cursor: 2, typed: 'i'}});
		expect(reduce(listed(), {type: 'erase'}).state.overlay).toEqual({kind: 'none'});
	},
	bulkEdited() {
		const marked = run1(listed(), {type: 'mark'}, {type: 'mark'}, {type: 'mark'}).state;
		const done = reduce(marked, {type: 'bulkEdited', outcome: bulkOutcome()});
		expect(done.state.window.rows[0]).toMatchObject({version: 2, preview: {status: 'triaged'}});
		expect(done.state.seen.get(idOf(300))).toMatchObject({version: 2, values: {status: 'triaged'}});
		expect(done.state.seen.get(idOf(299))).toMatchObject({version: 1});
		expect(done.state.undo).toEqual([{kind: 'bulk', outcome: bulkOutcome()}]);
		expect(done.state.message).toEqual({text: 'status: 2 items written, 1 conflict, 0 refused · conflict on BUG-299: changed since version 1 · u undoes all', tone: 'warn'});
		expect(effect(done, 'readRows')?.ids).toEqual([idOf(299)]);
		// One u: the whole bulk edit.
		const undoing = reduce(done.state, {type: 'undo'});
		expect(undoing.effects).toEqual([{kind: 'undoBulk', outcome: bulkOutcome()}]);
		expect(undoing.state.undo).toEqual([]);
	},
	bulkUndone() {
		const outcome = bulkOutcome();
		const undone: BulkOutcome = {plan: {...outcome.plan, batch: 'b:undo'}, written: outcome.written.map(entry => ({...entry, before: 'triaged', after: 'new', version: 3})), conflicts: [], refusals: []};
		const done = reduce(listed(), {type: 'bulkUndone', outcome: undone});
		expect(done.state.window.rows[0]).toMatchObject({version: 3, preview: {status: 'new'}});
		expect(done.state.undo).toEqual([]);
		expect(done.state.message).toEqual({text: 'Undone: status: 2 items written, 0 conflicts, 0 refused', tone: 'ok'});
	},
	openEditor() {
		const asked = reduce(listed(), {type: 'key', input: 'E', key: {shift: true} as Key});
		expect(asked.effects).toEqual([{kind: 'editInEditor', itemId: idOf(300), name: 'BUG-300', key: 'description'}]);
		const noLong = reduce({...listed(), fields: fields.filter(candidate => candidate.key !== 'description')}, {type: 'openEditor'});
		expect(noLong.effects).toEqual([]);
		expect(noLong.state.message?.tone).toBe('warn');
		const running = reduce({...listed(), run: {active: true, exists: true}}, {type: 'openEditor'});
		expect(running.effects).toEqual([]);
		expect(running.state.message?.text).toMatch(/^A Codex run is active: E waits/);
		// What the editor saved comes back as an edit; long text is not repeated in the message.
		const saved = reduce(listed(), {type: 'edited', request: {...request('picker'), key: 'description', before: 'old', value: 'new'}, outcome: ok(4, {description: 'new'})});
		expect(saved.state.message).toEqual({text: 'BUG-300: Description saved (v4) · u undoes', tone: 'ok'});
	},

	// Views, sort and the `:` line.
	switchView() {
		const state = viewed();
		const inbox = reduce(state, {type: 'switchView', index: 0});
		expect(effect(inbox, 'list')).toMatchObject({query: {view: 'Inbox', where: 'status:new'}, note: 'View: Inbox'});
		const unassigned = reduce(state, {type: 'switchView', index: 1});
		expect(unassigned.state.query).toEqual({view: 'Unassigned', where: 'owner:none -status:fixed,wont_fix', sort: 'severity'});
		// A digit past the tabs says which views there are; the key's digit is the index.
		expect(reduce(state, {type: 'switchView', index: 6}).state.message).toEqual({text: 'No view 7; views: 1 Inbox, 2 Unassigned, 3 Follow-ups, 4 All.', tone: 'warn'});
		expect(keyEvents('list', '3', plain)).toEqual([{type: 'switchView', index: 2}]);
		// Esc goes back to the view's own query, and `/` opens on what was added to it.
		const sorted = reduce(unassigned.state, {type: 'commandParsed', result: {kind: 'sort', sort: '-due'}}).state;
		expect(reduce(sorted, {type: 'openSearch'}).state.overlay).toEqual({kind: 'search', text: textState('sort:-due')});
		expect(effect(reduce(sorted, {type: 'back'}), 'list')).toMatchObject({query: {view: 'Unassigned', sort: 'severity'}, note: 'Search, filter and sort cleared.'});
	},
	viewCounts() {
		const state = viewed();
		expect(state.counting).toBe('busy');
		const counted = reduce(state, {type: 'viewCounts', views: state.views, counts: [3, 5, null, 300]});
		expect([...counted.state.viewCounts]).toEqual([['Inbox', 3], ['Unassigned', 5], ['All', 300]]);
		expect(counted.state.counting).toBe('idle');
		expect(counted.effects).toEqual([]);
		// r while counting asks for one more count once this one ends; a count of views that changed since is dropped.
		const changed = reduce(state, {type: 'reload'}).state;
		expect(changed.counting).toBe('again');
		const stale = reduce(changed, {type: 'viewCounts', views: [{name: 'Inbox', query: 'status:triaged'}], counts: [9]});
		expect(stale.state.viewCounts.size).toBe(0);
		expect(effect(stale, 'countViews')).toEqual({kind: 'countViews', views: state.views});
		expect(stale.state.counting).toBe('busy');
		// A large SQLite channel: counted only on r.
		const large = initialScreen({channelId: 'bugs', fields, size: {columns: 100, rows: 30}, total: 300, followUpCount: 2, views: [...DEFAULT_VIEWS], autoCount: false});
		expect(kinds(large)).toEqual(['list']);
		expect(kinds(reduce(large.state, {type: 'reload'}))).toEqual(['list', 'countViews']);
	},
	openCommand() {
		const open = reduce(viewed(), {type: 'openCommand'}).state;
		expect(open.overlay).toEqual({kind: 'command', text: textState()});
		expect(scopeOf(open.overlay)).toBe('text');
		const typed = reduce(open, {type: 'type', input: 'sort due', key: plain}).state;
		const submitted = reduce(typed, {type: 'submit'});
		expect(submitted.state.overlay).toEqual({kind: 'none'});
		expect(effect(submitted, 'parseCommand')).toEqual({kind: 'parseCommand', line: 'sort due'});
	},
	commandParsed() {
		const state = viewed();
		const refused = reduce(state, {type: 'commandParsed', result: {error: 'title cannot be sorted; sortable: id, ticket'}});
		expect(refused.state.message).toEqual({text: ':title cannot be sorted; sortable: id, ticket', tone: 'error'});
		expect(effect(reduce(state, {type: 'commandParsed', result: {kind: 'sort', sort: 'due'}}), 'list')).toMatchObject({query: {view: 'All', sort: 'due'}});
		expect(effect(reduce(state, {type: 'commandParsed', result: {kind: 'view', name: 'Follow-ups'}}), 'list')).toMatchObject({query: {view: 'Follow-ups', where: 'has:followup'}});
		expect(kinds(reduce(state, {type: 'commandParsed', result: {kind: 'quit'}}))).toEqual(['quit']);
		expect(reduce(state, {type: 'commandParsed', result: {kind: 'nothing'}}).state).toBe(state);
		const searched = {...state, query: {...state.query, search: 'crash', filter: {status: 'new'}, sort: '-due'}};
		expect(effect(reduce(searched, {type: 'commandParsed', result: {kind: 'saveView', name: 'Mine'}}), 'saveView')).toEqual({kind: 'saveView', view: {name: 'Mine', query: 'status:new crash sort:-due'}});
		// :set on the row: the hotkeys' write, at the version the row shows; on marks, one bulk edit.
		expect(effect(reduce(state, {type: 'commandParsed', result: {kind: 'set', key: 'status', value: 'triaged'}}), 'edit')?.request).toMatchObject({itemId: idOf(300), key: 'status', value: 'triaged', version: 1});
		expect(effect(reduce(reduce(state, {type: 'mark'}).state, {type: 'commandParsed', result: {kind: 'set', key: 'status', value: 'triaged'}}), 'bulkEdit')).toMatchObject({field: {key: 'status'}, value: 'triaged', rows: [{id: idOf(300), version: 1}]});
		// A jump to a loaded row moves there; to another, the store is asked.
		expect(reduce(state, {type: 'commandParsed', result: {kind: 'jump', name: 'bug-290'}}).state.window.cursor).toBe(10);
		expect(effect(reduce(state, {type: 'commandParsed', result: {kind: 'jump', name: 'BUG-0042'}}), 'findItem')).toEqual({kind: 'findItem', name: 'BUG-0042'});
	},
	viewSaved() {
		const state = viewed();
		const saved = reduce(state, {type: 'viewSaved', view: {name: 'Mine', query: 'owner:ren sort:-due'}, ok: true, message: '/x/config.yaml'});
		expect(saved.state.views.map(view => view.name)).toEqual(['Inbox', 'Unassigned', 'Follow-ups', 'All', 'Mine']);
		expect(effect(saved, 'list')).toMatchObject({query: {view: 'Mine', where: 'owner:ren', sort: '-due'}, note: 'View Mine saved (key 5) in /x/config.yaml'});
		expect(saved.state.counting).toBe('again');
		const replaced = reduce(state, {type: 'viewSaved', view: {name: 'inbox', query: 'status:triaged'}, ok: true});
		expect(replaced.state.views[0]).toEqual({name: 'inbox', query: 'status:triaged'});
		expect(reduce(state, {type: 'viewSaved', view: {name: 'Mine', query: ''}, ok: false, message: 'cannot save the view: config.yaml line 2: …'}).state.message).toEqual({text: 'cannot save the view: config.yaml line 2: …', tone: 'error'});
	},
	jumpFound() {
		const state = viewed();
		expect(reduce(state, {type: 'jumpFound', name: 'BUG-9', ids: []}).state.message?.text).toMatch(/^No item is named BUG-9/);
		expect(reduce(state, {type: 'jumpFound', name: 'x', ids: ['a', 'b']}).state.message?.text).toBe('x names 2 items (a, b): jump by id.');
		expect(reduce(state, {type: 'jumpFound', name: 'BUG-295', ids: [idOf(295)]}).state.window.cursor).toBe(5);
		// Not loaded: the All view is listed from the item on, and the window knows no row number there.
		const far = reduce(state, {type: 'jumpFound', name: 'BUG-0042', ids: ['it_0000000016']});
		expect(effect(far, 'list')).toMatchObject({query: {view: 'All'}, at: 'it_0000000016'});
		const landed = reduce(far.state, {type: 'listed', generation: far.state.generation, query: far.state.query, page: {...page(42, 20, true), next_cursor: 'n', prev_cursor: 'p'}, at: 'it_0000000016'}).state;
		expect(landed.window.origin).toBe('item');
		expect(landed.window.cursor).toBe(0);
	},
};

function bulkOutcome(): BulkOutcome {
	const edit = (n: number) => ({id: idOf(n), name: `BUG-${n}`, before: 'new', request: {channelId: 'bugs', itemId: idOf(n), values: {status: 'triaged'}, actor: {kind: 'human' as const}, expectedVersion: 1, idempotencyKey: `b:${idOf(n)}`}});
	return {
		plan: {channelId: 'bugs', key: 'status', batch: 'b', edits: [edit(300), edit(299), edit(298)]},
		written: [{id: idOf(300), name: 'BUG-300', before: 'new', after: 'triaged', version: 2}, {id: idOf(298), name: 'BUG-298', before: 'new', after: 'triaged', version: 2}],
		conflicts: [{id: idOf(299), name: 'BUG-299', message: 'changed since version 1', currentVersion: 2}],
		refusals: [],
	};
}

/** A screen listed with the default views, on All. */
function viewed(): ScreenState {
	const {state} = initialScreen({channelId: 'bugs', fields, size: {columns: 100, rows: 30}, total: 300, followUpCount: 2, views: [...DEFAULT_VIEWS]});
	return reduce(state, {type: 'listed', generation: 1, query: state.query, page: page(300, 40, false)}).state;
}

describe('the screen reducer', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);
});

describe('setField (for commands such as :set)', () => {
	it('writes the row, or every marked row as one bulk edit, through the hotkeys\' path', () => {
		const one = setField(listed(), 'status', 'fixed');
		expect(one.state.overlay).toEqual({kind: 'none'});
		expect(effect(one, 'edit')?.request).toMatchObject({itemId: idOf(300), key: 'status', value: 'fixed', version: 1});
		const marked = run1(listed(), {type: 'mark'}, {type: 'mark'}).state;
		expect(effect(setField(marked, 'status', 'fixed'), 'bulkEdit')?.rows.map(row => row.id)).toEqual([idOf(300), idOf(299)]);
		expect(setField(listed(), 'nope', 1).state.message).toEqual({text: 'nope is not a field of this channel.', tone: 'warn'});
	});
});

describe('a typed value from a field hotkey', () => {
	const typed = (text: string) => run1(listed(), {type: 'hotkey', key: 'points', at: 0}, ...[...text].map(input => ({type: 'type', input, key: plain}) as ScreenEvent), {type: 'submit'});

	it('stays open until the store answers, keys typed meanwhile waiting for it', () => {
		const sent = typed('20');
		expect(effect(sent, 'edit')?.request).toMatchObject({key: 'points', value: 20, version: 1, origin: 'picker'});
		const waiting = reduce(sent.state, {type: 'key', input: 'j', key: plain}).state;
		expect(waiting.deferred).toHaveLength(1);
		const saved = reduce(waiting, {type: 'edited', request: effect(sent, 'edit')!.request, outcome: ok(2, {points: 20})}).state;
		expect(saved.overlay).toEqual({kind: 'none'});
		expect(saved.window.cursor).toBe(1);
	});

	it('shows a refusal inline with what is allowed, and a conflict with what changed, then writes on top of it', () => {
		const sent = typed('20');
		const request = effect(sent, 'edit')!.request;
		const refused = reduce(sent.state, {type: 'edited', request, outcome: {kind: 'refused', problem: {key: 'points', message: 'values.points must be between 0 and 13, got 20', min: 0, max: 13}}}).state;
		expect(refused.awaiting).toBeNull();
		expect(refused.overlay).toMatchObject({kind: 'fieldEdit', notice: 'Refused: values.points must be between 0 and 13, got 20\nAllowed: 0 to 13'});
		const conflict = reduce(sent.state, {type: 'edited', request, outcome: {kind: 'conflict', changes: {status: {from: 'new', to: 'fixed'}}, item: item(300, 4, {status: 'fixed'})}}).state;
		expect((conflict.overlay as {notice: string}).notice).toMatch(/^Not saved: changed since you opened it \(now v4\): Status: New → Fixed/);
		expect(effect(reduce(conflict, {type: 'submit'}), 'edit')?.request).toMatchObject({value: 20, version: 4});
	});
});

describe('the key handlers', () => {
	it('give every bound key an event, and nothing for unbound keys outside text', () => {
		for (const binding of BINDINGS) {
			const events = (HANDLERS[binding.scope] as Record<string, ScreenEvent>)[binding.action];
			expect(events, `${binding.scope}:${binding.action}`).toBeDefined();
		}

		expect(keyEvents('list', 'z', plain)).toEqual([]);
		expect(keyEvents('text', 'z', plain)).toEqual([{type: 'type', input: 'z', key: plain}]);
		expect(keyEvents('help' as Scope, 'c', {ctrl: true} as Key)).toEqual([{type: 'interrupt'}]);
	});
});

describe('the undo stack', () => {
	it('keeps the last UNDO_LIMIT edits, whichever path made them', () => {
		let stack: UndoEntry[] = [];
		for (let index = 0; index < UNDO_LIMIT + 5; index++) stack = pushUndo(stack, {itemId: `i${index}`, name: '', key: 'k', before: 0, after: 1, version: 1});
		expect(stack).toHaveLength(UNDO_LIMIT);
		expect(stack[0]).toMatchObject({itemId: 'i5'});
	});
});

describe('the config file on the screen', () => {
	it('starts a run with its instruction, says what it ignored, and holds the hotkeys it resolved', () => {
		const {state} = initialScreen({channelId: 'bugs', fields, size: {columns: 100, rows: 30}, total: 300, followUpCount: 0, instruction: 'Triage by the book.', hotkeys: {status: 's'}, message: {text: 'Ignored in the config file: config.yaml line 1: …', tone: 'warn'}});
		expect(state.message?.text).toMatch(/^Ignored in the config file/);
		expect(state.hotkeys).toEqual({status: 's'});
		const listedState = reduce(state, {type: 'listed', generation: 1, query: {}, page: page(300, 10, false)}).state;
		expect(reduce(listedState, {type: 'askRun'}).state.overlay).toMatchObject({kind: 'instruction', text: textState('Triage by the book.')});
	});
});
