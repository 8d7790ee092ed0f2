// The field-edit slice (source/ui/overlays/field-edit.ts) through the root reducer: each of its events.
// CASES is typed over the slice's events, so an event added to it without a test does not compile.

import {describe, expect, it} from 'vitest';
import {FIELD_EDIT} from '../../../source/ui/features/field-edit/slice.js';
import type {Key} from 'ink';
import {type UndoEntry} from '../../../source/ui/edit-outcome.js';
import {bulkFields} from '../../../source/ui/edit.js';
import {scopeOf} from '../../../source/ui/registry.js';
import {reduce} from '../../../source/ui/reducer.js';
import type {ScreenState} from '../../../source/ui/state.js';
import type {BulkOutcome} from '../../../source/ui/model/bulk.js';
import {fields, plain, idOf, listed, kinds, effect, run1, request, ok, bulkOutcome, editing, item} from './fixtures.js';

const CASES: {[T in keyof typeof FIELD_EDIT.events]: () => void} = {
	editOpened() {
		// `e` on one row: the chooser on the record as read (its version), the same overlay as on marks.
		expect(editing().overlay).toMatchObject({kind: 'fieldEdit', chooser: true, bulk: false, field: null, targets: [{id: idOf(300), name: 'BUG-300', version: 3}]});
		// A relative date typed into it counts from the day the record was read.
		let state = reduce(reduce(listed(), {type: 'openEdit'}).state, {type: 'editOpened', item: item(300, 3), at: new Date(2026, 0, 5, 12).getTime()}).state;
		const due = fields.filter(candidate => candidate.type !== 'formula').findIndex(candidate => candidate.key === 'due');
		for (let step = 0; step < due; step++) state = reduce(state, {type: 'cursor', delta: 1}).state;
		state = reduce(reduce(state, {type: 'choose'}).state, {type: 'type', input: 'tomorrow', key: plain}).state;
		expect(effect(reduce(state, {type: 'submit'}), 'edit')?.request).toMatchObject({key: 'due', value: '2026-01-06', version: 3});
	},
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

		// A burst of four u on four edits of one record (two of one field): one undo written at a
		// time, the next once the one before is back, each expecting the version that one left.
		const edits: UndoEntry[] = [['status', 'new', 'triaged'], ['severity', null, 's1'], ['status', 'triaged', 'fixed'], ['area', null, 'api']].map(([key, before, after], index) => ({itemId: idOf(300), name: 'BUG-300', key: key!, before, after, seen: index + 1, version: index + 2}));
		let burst = run1({...listed(), undo: edits}, {type: 'undo'}, {type: 'undo'}, {type: 'undo'}, {type: 'undo'});
		expect(kinds(burst)).toEqual(['undo']);
		expect(burst.state.undoing).toBe(4);
		// A fifth u has nothing left to take back.
		expect(reduce(burst.state, {type: 'undo'}).state.message?.text).toBe('Nothing more to undo: every edit of yours is being undone.');
		const written: Array<{key: string; version: number}> = [];
		for (let version = 6; version <= 9; version++) {
			const asked = effect(burst, 'undo')!.entry;
			written.push({key: asked.key, version: asked.version});
			burst = reduce(burst.state, {type: 'undone', entry: asked, outcome: {...ok(version, {[asked.key]: asked.before}), from: asked.version}});
		}

		expect(written).toEqual([{key: 'area', version: 5}, {key: 'status', version: 6}, {key: 'severity', version: 7}, {key: 'status', version: 8}]);
		expect(kinds(burst)).toEqual(['countFollowUps']);
		expect(burst.state).toMatchObject({undo: [], undoing: 0});
	},
	undone() {
		// An undo that conflicted goes back on the stack (`try again` works), and the ones waiting behind it stop.
		const [first, second] = [{itemId: idOf(300), name: 'BUG-300', key: 'status', before: 'new', after: 'triaged', version: 2, seen: 1}, {itemId: idOf(299), name: 'BUG-299', key: 'status', before: 'new', after: 'fixed', version: 5, seen: 4}];
		const asked = run1({...listed(), undo: [first, second]}, {type: 'undo'}, {type: 'undo'});
		const kept = reduce(asked.state, {type: 'undone', entry: second, outcome: {kind: 'conflict', changes: {}, item: null}});
		expect(kept.effects).toEqual([]);
		expect(kept.state).toMatchObject({undo: [first, second], undoing: 0, message: {text: 'Not undone: BUG-299 keeps changing; try again. (1 more undo not done)'}});
		// An undo written on top of someone else's change leaves the versions below it alone.
		const onTop = reduce({...listed(), undo: [first], undoing: 1}, {type: 'undone', entry: {...first, version: 3, seen: 2}, outcome: {...ok(5, {status: 'new'}), from: 4}});
		expect(onTop.state.undo).toEqual([first]);

		const entry: UndoEntry = {itemId: idOf(300), name: 'BUG-300', key: 'status', before: 'new', after: 'triaged', version: 4};
		const back = reduce(listed(), {type: 'undone', entry, outcome: ok(5, {status: 'new'})});
		expect(back.state.message?.text).toBe('Undone: BUG-300 Status back to New (v5)');
		const lost = reduce(listed(), {type: 'undone', entry, outcome: {kind: 'lost', change: {status: {from: 'triaged', to: 'fixed'}}}});
		expect(lost.state.message?.text).toMatch(/^Not undone: BUG-300 Status: Triaged → .* was changed by someone else/);
		expect(kinds(lost)).toEqual(['readRows']);
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
		const done = reduce(listed(), {type: 'bulkUndone', outcome: undone, undid: outcome});
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
};

describe('the field-edit slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);
});

describe('what triagers expect of an edit', () => {
	const hotkey = (state: ScreenState, key: string) => reduce(state, {type: 'hotkey', key, at: 0});
	const typeKeys = (state: ScreenState, text: string) => run1(state, ...[...text].map(input => ({type: 'type' as const, input, key: plain}))).state;

	it('the cursor moves on to the next row after a one-row edit, unless the config turns it off', () => {
		const picked = run1(listed(), {type: 'hotkey', key: 'status', at: 0}, {type: 'pickType', input: '2', key: plain});
		expect(effect(picked, 'edit')?.request.itemId).toBe(idOf(300));
		expect(picked.state.window.cursor).toBe(1);
		const off = run1({...listed(), advanceAfterEdit: false}, {type: 'hotkey', key: 'status', at: 0}, {type: 'pickType', input: '2', key: plain});
		expect(off.state.window.cursor).toBe(0);
		// A typed value stays open until the store answers: the cursor moves on once it is saved.
		const typed = reduce(typeKeys(hotkey(listed(), 'points').state, '5'), {type: 'submit'});
		expect(typed.state.window.cursor).toBe(0);
		const saved = reduce(typed.state, {type: 'edited', request: effect(typed, 'edit')!.request, outcome: ok(2, {points: 5})});
		expect(saved.state.overlay.kind).toBe('none');
		expect(saved.state.window.cursor).toBe(1);
	});

	it('typing into a number input replaces its value; a caret key keeps it to edit', () => {
		const withPoints = {...listed(), window: {...listed().window, rows: listed().window.rows.map((row, index) => (index === 0 ? {...row, preview: {...row.preview, points: 8}} : row))}};
		const open = hotkey(withPoints, 'points').state;
		expect(open.overlay).toMatchObject({text: {value: '8', selected: true}});
		expect(typeKeys(open, '13').overlay).toMatchObject({text: {value: '13', pos: 2}});
		const kept = reduce(open, {type: 'type', input: '', key: {...plain, end: true}}).state;
		expect(typeKeys(kept, '0').overlay).toMatchObject({text: {value: '80'}});
		// A text field opens holding its value, to edit.
		const title = hotkey(withPoints, 'title').state;
		expect(title.overlay).toMatchObject({kind: 'fieldEdit', text: {value: ''}});
		expect((title.overlay as {text?: {selected?: boolean}}).text?.selected).toBeUndefined();
	});
});

describe('a relative date typed on marked rows', () => {
	it('`e` on marks reads tomorrow from when the overlay opened, as the one-row edit does', () => {
		// Monday 2026-01-05, local time: tomorrow is 2026-01-06 (not 1970-01-02).
		const at = new Date(2026, 0, 5, 12).getTime();
		let state = run1(listed(), {type: 'mark'}, {type: 'mark'}).state;
		state = reduce(state, {type: 'key', input: 'e', key: plain, at}).state;
		expect(state.overlay).toMatchObject({kind: 'fieldEdit', bulk: true, chooser: true, now: at});
		const due = bulkFields(fields).findIndex(candidate => candidate.key === 'due');
		for (let step = 0; step < due; step++) state = reduce(state, {type: 'cursor', delta: 1}).state;
		state = reduce(reduce(state, {type: 'choose'}).state, {type: 'type', input: 'tomorrow', key: plain}).state;
		expect(effect(reduce(state, {type: 'submit'}), 'bulkEdit')).toMatchObject({field: {key: 'due'}, value: '2026-01-06'});
	});
});

describe('undo across a one-row edit and a bulk edit of the same record', () => {
	it('the second undo expects the version the first one left, and is written', () => {
		// BUG-300: status new → triaged by one-row edit (v1 → v2), then fixed by a bulk edit on marks (v2 → v3).
		const field: UndoEntry = {itemId: idOf(300), name: 'BUG-300', key: 'status', before: 'new', after: 'triaged', seen: 1, version: 2};
		const edit = (n: number, version: number) => ({id: idOf(n), name: `BUG-${n}`, before: 'triaged', request: {channelId: 'bugs', itemId: idOf(n), values: {status: 'fixed'}, actor: {kind: 'human' as const}, expectedVersion: version, idempotencyKey: `b:${idOf(n)}`}});
		const bulk: BulkOutcome = {plan: {channelId: 'bugs', key: 'status', batch: 'b', edits: [edit(300, 2), edit(299, 1)]}, written: [{id: idOf(300), name: 'BUG-300', before: 'triaged', after: 'fixed', version: 3}, {id: idOf(299), name: 'BUG-299', before: 'new', after: 'fixed', version: 2}], conflicts: [], refusals: []};
		let state = run1({...listed(), undo: [field, {kind: 'bulk', outcome: bulk}]}, {type: 'undo'}, {type: 'undo'});
		expect(effect(state, 'undoBulk')?.outcome).toBe(bulk);
		// The bulk undo lands on v3 as v4 (and BUG-299 on v2 as v3).
		const undid: BulkOutcome = {plan: {...bulk.plan, batch: 'b:undo'}, written: [{id: idOf(300), name: 'BUG-300', before: 'fixed', after: 'triaged', version: 4}, {id: idOf(299), name: 'BUG-299', before: 'fixed', after: 'new', version: 3}], conflicts: [], refusals: []};
		state = reduce(state.state, {type: 'bulkUndone', outcome: undid, undid: bulk});
		expect(effect(state, 'undo')?.entry).toEqual({...field, version: 4});
		// The other way round: a bulk edit below a one-row edit of the same record is moved on too.
		const after: UndoEntry = {itemId: idOf(300), name: 'BUG-300', key: 'severity', before: null, after: 's1', seen: 3, version: 4};
		const undone = reduce({...listed(), undo: [{kind: 'bulk', outcome: bulk}], undoing: 1}, {type: 'undone', entry: after, outcome: {...ok(5, {severity: null}), from: 4}});
		expect(undone.state.undo).toEqual([{kind: 'bulk', outcome: {...bulk, written: [{...bulk.written[0]!, version: 5}, bulk.written[1]]}}]);
	});
});
