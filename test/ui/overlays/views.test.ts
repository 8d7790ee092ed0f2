// The views slice (source/ui/overlays/views.ts) through the root reducer: each of its events.
// CASES is typed over the slice's events, so an event added to it without a test does not compile.

import {describe, expect, it} from 'vitest';
import {COMMAND} from '../../../source/ui/features/views/slice.js';
import {keyEvents} from '../../../source/ui/registry.js';
import {scopeOf} from '../../../source/ui/registry.js';
import {DEFAULT_VIEWS} from '../../../source/config/schema.js';
import {initialScreen, reduce} from '../../../source/ui/reducer.js';
import {textState} from '../../../source/ui/text-input.js';
import {fields, plain, idOf, page, kinds, effect, viewed} from './fixtures.js';

const CASES: {[T in keyof typeof COMMAND.events]: () => void} = {
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
		expect(refused.state.message).toEqual({text: 'title cannot be sorted; sortable: id, ticket', tone: 'error'});
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
		// :channel NAME asks for that channel's screen, never while a run goes; a schema change stays one.
		expect(effect(reduce(state, {type: 'commandParsed', result: {kind: 'switchChannel', name: 'tasks'}}), 'switchChannel')).toEqual({kind: 'switchChannel', name: 'tasks'});
		const running = reduce({...state, run: {active: true, exists: true}}, {type: 'commandParsed', result: {kind: 'switchChannel', name: 'tasks'}});
		expect(kinds(running)).toEqual([]);
		expect(running.state.message).toMatchObject({tone: 'warn', text: expect.stringMatching(/^A run is going on this channel/)});
		expect(effect(reduce(state, {type: 'commandParsed', result: {kind: 'channel', change: {kind: 'add_option', key: 'owner', value: 'sam'}, text: 'add-option owner sam'}}), 'changeChannel')).toEqual({kind: 'changeChannel', change: {kind: 'add_option', key: 'owner', value: 'sam'}});
		// :problems opens the list of the config's problems.
		expect(reduce({...state, configProblems: ['config.yaml line 1: x']}, {type: 'commandParsed', result: {kind: 'problems'}}).state.overlay).toEqual({kind: 'problems', scroll: 0});
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
	switchView() {
		const state = viewed();
		const inbox = reduce(state, {type: 'switchView', index: 0});
		expect(effect(inbox, 'list')).toMatchObject({query: {view: 'Inbox', where: 'status:new'}, note: 'View: Inbox'});
		const unassigned = reduce(state, {type: 'switchView', index: 1});
		expect(unassigned.state.query).toEqual({view: 'Unassigned', where: 'owner:none -status:fixed,wont_fix', sort: 'severity'});
		// A digit past the tabs says which views there are; the key's digit is the index.
		expect(reduce(state, {type: 'switchView', index: 6}).state.message).toEqual({text: 'No view 7; views: 1 Inbox, 2 Unassigned, 3 Follow-ups, 4 All, 5 Review.', tone: 'warn'});
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
		// A large SQLite channel: counted only on r (the start and r also read the channel's sync state, which costs no count).
		const large = initialScreen({channelId: 'bugs', fields, size: {columns: 100, rows: 30}, total: 300, followUpCount: 2, views: [...DEFAULT_VIEWS], autoCount: false});
		expect(kinds(large)).toEqual(['list', 'readSyncState']);
		expect(kinds(reduce(large.state, {type: 'reload'})).filter(kind => kind !== 'readSyncState')).toEqual(['list', 'countViews']);
	},
	viewSaved() {
		const state = viewed();
		const saved = reduce(state, {type: 'viewSaved', view: {name: 'Mine', query: 'owner:ren sort:-due'}, ok: true, message: '/x/config.yaml'});
		expect(saved.state.views.map(view => view.name)).toEqual(['Inbox', 'Unassigned', 'Follow-ups', 'All', 'Review', 'Mine']);
		expect(effect(saved, 'list')).toMatchObject({query: {view: 'Mine', where: 'owner:ren', sort: '-due'}, note: 'View Mine saved (key 6) in /x/config.yaml'});
		expect(saved.state.counting).toBe('again');
		const replaced = reduce(state, {type: 'viewSaved', view: {name: 'inbox', query: 'status:triaged'}, ok: true});
		expect(replaced.state.views[0]).toEqual({name: 'inbox', query: 'status:triaged'});
		expect(reduce(state, {type: 'viewSaved', view: {name: 'Mine', query: ''}, ok: false, message: 'cannot save the view: config.yaml line 2: …'}).state.message).toEqual({text: 'cannot save the view: config.yaml line 2: …', tone: 'error'});
	},
};

describe('the views slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);
});
