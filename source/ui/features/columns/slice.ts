// `|`: the column chooser of the active view. It lists the channel's fields, the shown ones
// checked and first in their order; Space shows or hides one, J/K move it, Enter keeps the choice
// for this view (in the state directory's columns.json, effects.ts), Esc leaves it as it was.
// Declares its own overlay, events, effects, scope and screen fields (docs/architecture.md#adding-an-overlay).

import type {Field} from '../../../../store/index.js';
import type {View} from '../../../config/schema.js';
import {activeView, columnFields} from '../../model/views.js';
import type {ScreenState, Transition} from '../../state.js';
import {bind, none, say, wrap, type OverlayOf, type OverlaySlice} from '../feature.js';
import {COLUMNS_EFFECTS, type ColumnChoices} from './effects.js';

/** One field in the chooser, shown (checked) or not. */
export type ColumnEntry = {key: string; label: string; shown: boolean};

declare module '../../state.js' {
	interface OverlayVariants {
		/** `view`: the view whose columns these are; `entries`: every field, the shown ones first in their order. */
		columns: {kind: 'columns'; view: string; entries: ColumnEntry[]; cursor: number};
	}

	interface EventVariants {
		columns:
			| {type: 'openColumns'}
			| {type: 'toggleColumn'}
			| {type: 'moveColumn'; delta: 1 | -1}
			| {type: 'columnChoicesLoaded'; choices: ColumnChoices}
			| {type: 'columnsSaved'; view: string; ok: boolean; message?: string};
	}

	interface EffectVariants {
		columns: {kind: 'saveColumnChoice'; view: string; columns: string[]};
	}
}

declare module '../feature.js' {
	interface ScopeVariants {
		columns: 'columns';
	}
}

type ColumnsOverlay = OverlayOf<'columns'>;

/** The chooser's entries for a view: its shown fields in order, checked, then the others in field order. */
export function columnEntries(fields: readonly Field[], view: View | undefined): ColumnEntry[] {
	const shown = columnFields([...fields], view);
	const entry = (field: Field, isShown: boolean): ColumnEntry => ({key: field.key, label: field.label, shown: isShown});
	return [...shown.map(field => entry(field, true)), ...fields.filter(field => !shown.includes(field)).map(field => entry(field, false))];
}

/** The views with `view`'s columns set to `columns` (the list draws the active view's, model/views.ts columnFields). */
export const withViewColumns = (views: readonly View[], view: string, columns: string[]): View[] => views.map(each => (each.name === view ? {...each, columns} : each));

/** The views with the kept choices of this channel applied, a view at a time. */
export function withChoices(views: readonly View[], choices: ColumnChoices): View[] {
	return views.map(view => (Object.hasOwn(choices, view.name) ? {...view, columns: choices[view.name]!} : view));
}

function openColumns(state: ScreenState): ScreenState {
	const view = activeView(state.views, state.query);
	if (!view) return say(state, 'Columns are kept per view: open a view (1–9) first.', 'warn');
	return {...state, overlay: {kind: 'columns', view: view.name, entries: columnEntries(state.fields, view), cursor: 0}};
}

function moveEntry(state: ScreenState, overlay: ColumnsOverlay, delta: 1 | -1): ScreenState {
	const to = overlay.cursor + delta;
	if (to < 0 || to >= overlay.entries.length) return state;
	const entries = [...overlay.entries];
	[entries[overlay.cursor], entries[to]] = [entries[to]!, entries[overlay.cursor]!];
	return {...state, overlay: {...overlay, entries, cursor: to}};
}

function save(state: ScreenState, overlay: ColumnsOverlay): Transition {
	const columns = overlay.entries.filter(entry => entry.shown).map(entry => entry.key);
	if (columns.length === 0) return none(say(state, 'Keep at least one column shown.', 'warn'));
	const next = {...state, overlay: {kind: 'none'} as const, views: withViewColumns(state.views, overlay.view, columns)};
	return {state: next, effects: [{kind: 'saveColumnChoice', view: overlay.view, columns}]};
}

export const COLUMNS = {
	scope: () => 'columns',
	effects: COLUMNS_EFFECTS,
	scopes: {columns: 'Columns of the view (|)'},
	bindings: [
		bind('list', 'columns', ['|'], '|', 'choose the columns of this view (kept for it)', {type: 'openColumns'}),
		bind('columns', 'down', ['j', 'down'], 'j ↓', 'next field', {type: 'cursor', delta: 1}, {hint: 'move'}),
		bind('columns', 'up', ['k', 'up'], 'k ↑', 'previous field', {type: 'cursor', delta: -1}),
		bind('columns', 'toggle', ['space'], 'Space', 'show or hide the field', {type: 'toggleColumn'}, {hint: 'show/hide'}),
		bind('columns', 'later', ['J'], 'J', 'move the field right (later in the row)', {type: 'moveColumn', delta: 1}, {hint: 'order'}),
		bind('columns', 'earlier', ['K'], 'K', 'move the field left (earlier in the row)', {type: 'moveColumn', delta: -1}),
		bind('columns', 'save', ['enter'], 'Enter', 'keep these columns for the view', {type: 'submit'}, {hint: 'keep'}),
		bind('columns', 'cancel', ['escape', 'q'], 'Esc', 'close, leaving the columns as they were', {type: 'cancel'}, {hint: 'cancel'}),
	],
	keys: {
		cursor: (state, overlay, {delta}) => none({...state, overlay: {...overlay, cursor: wrap(overlay.cursor, delta, overlay.entries.length)}}),
		cancel: state => none({...state, overlay: {kind: 'none'}}),
		submit: (state, overlay) => save(state, overlay),
	},
	events: {
		openColumns: state => none(openColumns(state)),
		toggleColumn(state) {
			const {overlay} = state;
			if (overlay.kind !== 'columns') return none(state);
			const entries = overlay.entries.map((entry, index) => (index === overlay.cursor ? {...entry, shown: !entry.shown} : entry));
			return none({...state, overlay: {...overlay, entries}});
		},
		moveColumn(state, {delta}) {
			const {overlay} = state;
			return none(overlay.kind === 'columns' ? moveEntry(state, overlay, delta) : state);
		},
		columnChoicesLoaded: (state, {choices}) => none({...state, views: withChoices(state.views, choices)}),
		columnsSaved: (state, {view, ok, message}) => none(ok ? say(state, `Columns kept for the view ${view}.`, 'ok') : say(state, `The columns could not be kept: ${message ?? 'unknown error'}`, 'error')),
	},
} satisfies OverlaySlice<'columns', 'openColumns' | 'toggleColumn' | 'moveColumn' | 'columnChoicesLoaded' | 'columnsSaved'>;
