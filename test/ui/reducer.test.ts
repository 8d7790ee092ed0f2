// The screen's root reducer: keys routed by the open overlay's scope, the events it hands to the
// open overlay's slice, and a write's outcome sent back to where it came from. Each slice's own
// events are tested in test/ui/overlays/. CASES is typed over the routed events.

import {describe, expect, it} from 'vitest';
import type {Key} from 'ink';
import {UNDO_LIMIT, pushUndo, type UndoEntry} from '../../source/ui/edit-outcome.js';
import {BINDINGS, HELP_LINES, keyEvents, scopeOf} from '../../source/ui/registry.js';
import {helpLayout} from '../../source/ui/help-lines.js';
import {screenLayout} from '../../source/ui/layout.js';
import {helpLinesOf, initialScreen, setField, listRows, reduce} from '../../source/ui/reducer.js';
import type {QueueOverlay, ScreenEvent, ScreenState} from '../../source/ui/state.js';
import {textState} from '../../source/ui/text-input.js';
import {fields, field, plain, idOf, page, item, listed, kinds, effect, run1, editing, queued, request, ok, problem} from './overlays/fixtures.js';
import type {OverlayEventType, Scope} from '../../source/ui/features/feature.js';

const CASES: {[T in OverlayEventType | 'key' | 'edited']: () => void} = {
	key() {
		// Routed by the scope it meets: j moves the list, and in an open picker the picker.
		expect(reduce(listed(), {type: 'key', input: 'j', key: plain}).state.window.cursor).toBe(1);
		expect(reduce(editing(), {type: 'key', input: 'j', key: plain}).state.overlay).toMatchObject({fieldCursor: 1});
		// While an overlay is being opened, keys wait, then act in its scope.
		const opening = run1(listed(), {type: 'key', input: 'e', key: plain}, {type: 'key', input: 'j', key: plain});
		expect(opening.state.window.cursor).toBe(0);
		expect(opening.state.deferred).toHaveLength(1);
		const open = reduce(opening.state, {type: 'editOpened', item: item(300, 1)});
		expect(open.state.overlay).toMatchObject({kind: 'fieldEdit', chooser: true, fieldCursor: 1});
		expect(open.state.deferred).toEqual([]);
		// Ctrl+C never waits.
		expect(kinds(reduce(opening.state, {type: 'key', input: 'c', key: {ctrl: true} as Key}))).toEqual(['quit']);
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
		expect(options.overlay).toMatchObject({kind: 'fieldEdit', field: {key: 'status'}, picker: {cursor: 0}});
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
		expect(ticked.overlay).toMatchObject({picker: {checked: [multi.config.options![0]!.value]}});
		expect(reduce(ticked, {type: 'toggle'}).state.overlay).toMatchObject({picker: {checked: []}});
	},
	cancel() {
		expect(reduce(editing('options'), {type: 'cancel'}).state.overlay).toMatchObject({kind: 'fieldEdit', field: null, chooser: true});
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
		const points = reduce(editing('text', 'points'), {type: 'type', input: '5', key: plain}).state;
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
		expect(reduce(queued(), {type: 'queueType'}).state.overlay).toMatchObject({typing: textState('')});
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
	edited() {
		const saved = reduce(editing('options'), {type: 'edited', request: request('picker'), outcome: ok(4)});
		expect(saved.state.overlay).toEqual({kind: 'none'});
		expect(saved.state.window.rows[0]).toMatchObject({version: 4});
		expect(saved.state.undo).toEqual([{itemId: idOf(300), name: 'BUG-300', key: 'status', before: 'new', after: 'triaged', version: 4, seen: 3}]);
		expect(saved.state.message?.text).toBe('BUG-300: Status New → Triaged (v4) · u undoes');
		expect(kinds(saved)).toEqual(['countFollowUps', 'pollEvents']);
		const refused = reduce(editing('options'), {type: 'edited', request: request('picker'), outcome: {kind: 'refused', problem}});
		expect(refused.state.overlay).toMatchObject({kind: 'fieldEdit', notice: `Refused: ${problem.message}\nAllowed: new (New)`});
		const conflict = reduce(editing('options'), {type: 'edited', request: request('picker'), outcome: {kind: 'conflict', changes: {owner: {from: null, to: 'mika'}}, item: item(300, 5, {owner: 'mika'})}});
		expect(conflict.state.overlay).toMatchObject({kind: 'fieldEdit', targets: [{version: 5, values: {owner: 'mika'}}]});
		expect((conflict.state.overlay as {notice: string}).notice).toMatch(/^Not saved: changed since you opened it \(now v5\): Owner: — → /);
		// From the queue: the queue reloads, and a refusal shows in it in the one wording (value, then label).
		const fromQueue = reduce(queued(), {type: 'edited', request: request('queue'), outcome: ok(3)});
		expect(effect(fromQueue, 'loadQueue')?.note).toBe('BUG-300: Status set to Triaged');
		const queueRefused = reduce(queued(), {type: 'edited', request: request('queue'), outcome: {kind: 'refused', problem}});
		expect((queueRefused.state.overlay as QueueOverlay).problem).toContain('Allowed: new (New)');
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
};

describe('the root reducer', () => {
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
		// Saved: the cursor moves on to the next row, then the j typed meanwhile.
		expect(saved.window.cursor).toBe(2);
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

/** The Ink key a key name stands for. */
function keyOf(name: string): Key {
	const flags: Record<string, keyof Key> = {up: 'upArrow', down: 'downArrow', left: 'leftArrow', right: 'rightArrow', pagedown: 'pageDown', pageup: 'pageUp', home: 'home', end: 'end', enter: 'return', escape: 'escape', tab: 'tab', backspace: 'backspace'};
	if (name === 'space') return plain;
	if (name.startsWith('ctrl+')) return {...plain, ctrl: true};
	return flags[name] ? {...plain, [flags[name]!]: true} : plain;
}

describe('the key handlers', () => {
	it('give every bound key an event, and nothing for unbound keys outside text', () => {
		for (const binding of BINDINGS) {
			for (const name of binding.keys) {
				if (name === 'ctrl+c') continue;
				const input = name === 'space' ? ' ' : (name.startsWith('ctrl+') ? name.slice(5) : (name.length === 1 ? name : ''));
				const [event] = keyEvents(binding.scope, input, keyOf(name));
				expect(event, `${binding.scope}:${binding.action} ${name}`).toEqual(typeof binding.event === 'function' ? binding.event(name) : binding.event);
			}
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
