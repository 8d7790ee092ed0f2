// `Z`: the record full screen, and the record pane's scroll wherever it is shown (J/K in the list;
// PgDn, Space and the rest full screen); full screen, the next and previous record and editing
// (`e`, field hotkeys); `O` opens the record's link in the browser (open-url.ts). The line counting and clamping is record-view.ts.

import {sanitize} from '../../../text/sanitize.js';
import {openLink, recordLink} from '../../open-url.js';
import {PANE_SCROLL_STEP} from '../../record-scroll.js';
import {recordStep} from '../../record-view.js';
import type {ScreenState} from '../../state.js';
import {currentRow} from '../rows.js';
import {bind, listBinding, none, say, type EffectTable, type OverlaySlice} from '../feature.js';

declare module '../../state.js' {
	interface EventVariants {
		record: {type: 'openLink'} | {type: 'linkOpened'; address: string | null; ok: boolean; why?: string};
	}

	interface EffectVariants {
		/** The record's link read from the whole item (a preview may cut it) and handed to the opener. */
		record: {kind: 'openLink'; id: string};
	}
}

/** Why `O` does nothing on this row (the footer says it), or null when the row has a link. */
export const noLink = (state: ScreenState): string | null => {
	const row = currentRow(state);
	return row && recordLink(state.fields, row.preview) ? null : 'No URL on this record: O opens a record\'s url field (or GitHub\'s or Redmine\'s link).';
};

const RECORD_EFFECTS = {
	openLink(effect, {state, on, later}) {
		later(async () => {
			const item = await on.store.readItem(state.channelId, effect.id);
			const address = recordLink(state.fields, item.values) ?? null;
			if (!address) return {type: 'linkOpened', address, ok: false};
			const opened = await openLink(address, on.env ?? process.env);
			return {type: 'linkOpened', address, ...opened};
		});
	},
} satisfies EffectTable<'openLink'>;

/** The footer's word on a link handed to the opener; one that could not be opened is shown (sanitised) to copy. */
function linkOpened(state: ScreenState, event: {address: string | null; ok: boolean; why?: string}): ScreenState {
	if (!event.address) return say(state, 'No URL on this record.', 'warn');
	const shown = sanitize(event.address);
	return event.ok ? say(state, `Opened ${shown}`, 'ok') : say(state, `${event.why ?? 'Not opened'}: ${shown}`, 'warn');
}

function openCurrentLink(state: ScreenState) {
	const refused = noLink(state);
	const row = currentRow(state);
	if (refused || !row) return none(say(state, refused ?? 'No record here.', 'warn'));
	return {state, effects: [{kind: 'openLink' as const, id: row.id}]};
}

export const RECORD = {
	scope: () => 'record',
	effects: RECORD_EFFECTS,
	scopes: {record: 'The record full screen (Z)'},
	bindings: [
		listBinding('scrollPaneDown', {type: 'scrollPane', move: {lines: PANE_SCROLL_STEP}}),
		listBinding('scrollPaneUp', {type: 'scrollPane', move: {lines: -PANE_SCROLL_STEP}}),
		listBinding('fullRecord', {type: 'fullRecord'}),
		listBinding('openLink', {type: 'openLink'}, noLink),
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
		bind('record', 'openLink', ['O'], 'O', 'open the record\'s link in the browser', {type: 'openLink'}, {disabled: noLink}),
		bind('record', 'cancel', ['escape', 'q', 'Z'], 'Esc', 'back to the list and its pane', {type: 'fullRecord'}, {hint: 'back'}),
	],
	keys: {},
	events: {
		scrollPane: (state, event) => none(recordStep(state, event)),
		fullRecord: (state, event) => none(recordStep(state, event)),
		openLink: state => openCurrentLink(state),
		linkOpened: (state, event) => none(linkOpened(state, event)),
	},
} satisfies OverlaySlice<'record', 'scrollPane' | 'fullRecord' | 'openLink' | 'linkOpened'>;
