// Views (the tabs, `1`–`9`), their counts, and the `:` command line (jump, sort, view, view save,
// set, channel (a schema change, or switching channel), problems, quit).

import type {View} from '../../../config/schema.js';
import {queryText, viewQuery} from '../../model/views.js';
import {NONE, type ScreenState, type Transition} from '../../state.js';
import {applyTextKey, textState} from '../../text-input.js';
import {CONFIRM} from '../confirm/slice.js';
import {setField} from '../field-edit/slice.js';
import {moveTo, nameOf, recount, relist} from '../rows.js';
import {openProblems} from '../problems/slice.js';
import {REVIEW} from '../review/slice.js';
import {listBinding, none, say, type EventOf, type OverlaySlice} from '../feature.js';
import {VIEWS_EFFECTS} from './effects.js';

const viewList = (views: View[]) => views.map((view, index) => `${index + 1} ${view.name}`).join(', ');

function switchView(state: ScreenState, index: number): Transition {
	const view = state.views[index];
	if (!view) return none(say(state, state.views.length === 0 ? 'This channel has no views.' : `No view ${index + 1}; views: ${viewList(state.views)}.`, 'warn'));
	return relist(state, viewQuery(view), `View: ${view.name}`);
}

/** Counts of the views as they were when counted: a view changed since keeps its old count (it is counted again). */
function viewCounts(state: ScreenState, {views, counts}: EventOf<'viewCounts'>): Transition {
	const viewCounts = new Map(state.viewCounts);
	for (const [index, view] of views.entries()) {
		const count = counts[index];
		if (count !== null && count !== undefined && state.views.some(current => current.name === view.name && current.query === view.query)) viewCounts.set(view.name, count);
	}

	const next = {...state, viewCounts, counting: 'idle' as const};
	return state.counting === 'again' ? recount(none(next)) : none(next);
}

function commandParsed(state: ScreenState, {result}: EventOf<'commandParsed'>): Transition {
	// A refusal is said as written (model/command-line.ts): it names its command itself.
	if ('error' in result) return none(say(state, result.error, 'error'));
	switch (result.kind) {
		case 'nothing': return none(state);
		case 'quit': return CONFIRM.events.quit(state);
		case 'sort': return relist(state, {...state.query, sort: result.sort}, `Sorted by ${result.sort} · Esc goes back to the view's order`);
		case 'view': return switchView(state, state.views.findIndex(view => view.name === result.name));
		case 'saveView': return {state: say(state, `Saving the view ${result.name}…`), effects: [{kind: 'saveView', view: {name: result.name, query: queryText(state.query)}}]};
		case 'set': return setField(state, result.key, result.value);
		case 'channel': return {state: say(state, `Changing the schema: ${result.text}…`), effects: [{kind: 'changeChannel', change: result.change}]};
		case 'jump': return jump(state, result.name);
		case 'problems': return none(openProblems(state));
		case 'switchChannel': return switchChannel(state, result.name);
		case 'propose': return REVIEW.events.proposeMode(state, {type: 'proposeMode', on: result.on});
	}
}

/** `:channel NAME`: another channel's screen; never while a run goes (it belongs to this screen). */
function switchChannel(state: ScreenState, name: string): Transition {
	if (state.run.active) return none(say(state, `A run is going on this channel: wait for it or cancel it (x) before switching to ${name}.`, 'warn'));
	return {state: say(state, `Opening the channel ${name}…`), effects: [{kind: 'switchChannel', name}]};
}

/** `:NAME`: the loaded row of that name (or id), else the store is asked which item it names. */
function jump(state: ScreenState, name: string): Transition {
	const wanted = name.toLowerCase();
	const index = state.window.rows.findIndex(row => row.id === name || nameOf(state.fields, row.preview, row.id).toLowerCase() === wanted);
	if (index >= 0) return none(say(moveTo(state, index), `${name}`));
	return {state: say(state, `Looking for ${name}…`), effects: [{kind: 'findItem', name}]};
}

function jumpFound(state: ScreenState, {name, ids, message}: EventOf<'jumpFound'>): Transition {
	if (message !== undefined) return none(say(state, message, 'error'));
	if (ids.length === 0) return none(say(state, `No item is named ${name}: give an item id or a unique field's value (such as a ticket).`, 'error'));
	if (ids.length > 1) return none(say(state, `${name} names ${ids.length} items (${ids.map(id => id).join(', ')}): jump by id.`, 'error'));
	const id = ids[0]!;
	const index = state.window.rows.findIndex(row => row.id === id);
	if (index >= 0) return none(say(moveTo(state, index), name));
	// Not loaded: everything, newest first, read from the item on (it may not match the view).
	const all = state.views.find(view => view.query.trim() === '');
	const query = all ? viewQuery(all) : {};
	const generation = state.generation + 1;
	const note = `${name}${all && state.query.view !== all.name ? ` (view: ${all.name})` : ''}`;
	return {state: {...state, query, generation, loading: 'list', want: null}, effects: [{kind: 'list', generation, query, note, at: id}]};
}

function viewSaved(state: ScreenState, {view, ok, message}: EventOf<'viewSaved'>): Transition {
	if (!ok) return none(say(state, message ?? 'The view was not saved.', 'error'));
	const at = state.views.findIndex(other => other.name.toLowerCase() === view.name.toLowerCase());
	const views = at >= 0 ? state.views.map((other, index) => (index === at ? view : other)) : [...state.views, view];
	const next = {...state, views, viewCounts: new Map([...state.viewCounts].filter(([name]) => name !== state.views[at]?.name))};
	const number = (at >= 0 ? at : views.length - 1) + 1;
	const listed = relist(next, viewQuery(view), `View ${view.name} saved${number <= 9 ? ` (key ${number})` : ''}${message ? ` in ${message}` : ''}`);
	return state.autoCount ? recount(listed) : listed;
}

/** The `:` line: typed here, parsed where the clock is (relative dates), then acted on. */
export const COMMAND = {
	scope: () => 'text',
	effects: VIEWS_EFFECTS,
	scopes: {},
	bindings: [
		// The digit says which view.
		listBinding('view', input => ({type: 'switchView', index: Number(input) - 1})),
		listBinding('command', {type: 'openCommand'}),
	],
	keys: {
		type: (state, overlay, {input, key}) => none({...state, overlay: {...overlay, text: applyTextKey(overlay.text, input, key)}}),
		cancel: state => none({...state, overlay: NONE}),
		submit: (state, overlay) => ({state: {...state, overlay: NONE}, effects: [{kind: 'parseCommand', line: overlay.text.value}]}),
	},
	events: {
		openCommand: state => none({...state, overlay: {kind: 'command', text: textState()}}),
		commandParsed,
		jumpFound,
		switchView: (state, event) => switchView(state, event.index),
		viewCounts,
		viewSaved,
	},
} satisfies OverlaySlice<'command', 'openCommand' | 'commandParsed' | 'jumpFound' | 'switchView' | 'viewCounts' | 'viewSaved'>;
