// The screen's state machine on its own: every event, as (state, event) -> {state, effects}.
// CASES is typed over every event type, so an event added without a test does not compile.

import type {Key} from 'ink';
import {describe, expect, it} from 'vitest';
import {bugsChannel} from '../../demo-data/generate.js';
import type {Field, FollowUp, Item} from '../../store/index.js';
import {UNDO_LIMIT, pushUndo, type UndoEntry} from '../../source/ui/edit-outcome.js';
import {HANDLERS, keyEvents, scopeOf} from '../../source/ui/input/handlers.js';
import {BINDINGS, type Scope} from '../../source/ui/keys.js';
import {helpLayout} from '../../source/ui/layout.js';
import {CANCEL_QUESTION, initialScreen, listRows, QUIT_QUESTION, reduce} from '../../source/ui/reducer.js';
import type {EditRequest, Effect, QueueOverlay, ScreenEvent, ScreenState, Transition} from '../../source/ui/state.js';
import {textState} from '../../source/ui/text-input.js';
import type {RunSummary} from '../../source/ui/history.js';

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
		// In the help at 80×24: a screen of lines at a time, never past the last screen.
		const help = reduce(reduce(listed(40, false, 24), {type: 'resize', columns: 80, rows: 24}).state, {type: 'openHelp'}).state;
		const {room, maxScroll} = helpLayout(80, 20);
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
		const down = reduce(listed(), {type: 'scrollPane', lines: 5}).state;
		expect(down.paneScroll).toBe(5);
		expect(reduce(reduce(down, {type: 'scrollPane', lines: -5}).state, {type: 'scrollPane', lines: -5}).state.paneScroll).toBe(0);
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
		const {state: start} = initialScreen({channelId: 'bugs', fields, size: {columns: 100, rows: 30}, total: 300, followUpCount: 0});
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
};

describe('the screen reducer', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);
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
		expect(stack[0]!.itemId).toBe('i5');
	});
});
