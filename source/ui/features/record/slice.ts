// `Z`: the record full screen, and the record pane's scroll wherever it is shown (J/K in the list;
// PgDn, Space and the rest full screen); full screen, the next and previous record and editing
// (`e`, field hotkeys). The line counting and clamping is record-view.ts.

import {PANE_SCROLL_STEP} from '../../record-scroll.js';
import {recordStep} from '../../record-view.js';
import {bind, listBinding, none, type OverlaySlice} from '../feature.js';

export const RECORD = {
	scope: () => 'record',
	effects: {},
	scopes: {record: 'The record full screen (Z)'},
	bindings: [
		listBinding('scrollPaneDown', {type: 'scrollPane', move: {lines: PANE_SCROLL_STEP}}),
		listBinding('scrollPaneUp', {type: 'scrollPane', move: {lines: -PANE_SCROLL_STEP}}),
		listBinding('fullRecord', {type: 'fullRecord'}),
		bind('record', 'pageDown', ['pagedown', 'space', 'ctrl+d'], 'PgDn', 'the next page of the record', {type: 'scrollPane', move: {pages: 1}}, {hint: 'page'}),
		bind('record', 'pageUp', ['pageup', 'ctrl+u'], 'PgUp', 'the page before', {type: 'scrollPane', move: {pages: -1}}),
		bind('record', 'down', ['j', 'down'], 'j ↓', 'scroll down a line', {type: 'scrollPane', move: {lines: 1}}, {hint: 'scroll'}),
		bind('record', 'up', ['k', 'up'], 'k ↑', 'scroll up a line', {type: 'scrollPane', move: {lines: -1}}),
		bind('record', 'scrollPaneDown', ['J'], 'J', 'scroll down five lines', {type: 'scrollPane', move: {lines: PANE_SCROLL_STEP}}),
		bind('record', 'scrollPaneUp', ['K'], 'K', 'scroll up five lines', {type: 'scrollPane', move: {lines: -PANE_SCROLL_STEP}}),
		bind('record', 'top', ['g', 'home'], 'g', 'the start of the record', {type: 'scrollPane', move: {to: 'top'}}),
		bind('record', 'bottom', ['G', 'end'], 'G', 'the end of the record', {type: 'scrollPane', move: {to: 'bottom'}}),
		bind('record', 'next', ['right', ']'], '→ ]', 'the next record', {type: 'move', rows: 1}, {hint: 'next'}),
		bind('record', 'previous', ['left', '['], '← [', 'the previous record', {type: 'move', rows: -1}),
		bind('record', 'edit', ['e'], 'e', 'edit a field of the record (its field hotkeys too)', {type: 'openEdit'}, {hint: 'edit'}),
		bind('record', 'cancel', ['escape', 'q', 'Z'], 'Esc', 'back to the list and its pane', {type: 'fullRecord'}, {hint: 'back'}),
	],
	keys: {},
	events: {
		scrollPane: (state, event) => none(recordStep(state, event)),
		fullRecord: (state, event) => none(recordStep(state, event)),
	},
} satisfies OverlaySlice<'record', 'scrollPane' | 'fullRecord'>;
