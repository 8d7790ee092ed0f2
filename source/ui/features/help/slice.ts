// `?`: every key, from the key table, with this channel's field hotkeys; scrolled by line or page.

import {helpLayout, helpLines} from '../../help-lines.js';
import {hotkeyHelpLines} from '../../model/hotkeys.js';
import type {ScreenState} from '../../state.js';
import {bodyRows} from '../rows.js';
import {none, type OverlaySlice} from '../feature.js';

/** The help's lines: the key table's, with this channel's field hotkeys. */
export const helpLinesOf = (state: Pick<ScreenState, 'hotkeys' | 'fields'>) => helpLines(hotkeyHelpLines(state.hotkeys, state.fields));

const layoutOf = (state: ScreenState) => helpLayout(state.size.columns, bodyRows(state), helpLinesOf(state).length);

/** The help scrolled by `lines`, never past its last screen. */
function scrollHelp(state: ScreenState, scroll: number, lines: number): ScreenState {
	const {maxScroll} = layoutOf(state);
	return {...state, overlay: {kind: 'help', scroll: Math.min(maxScroll, Math.max(0, scroll + lines))}};
}

export const HELP = {
	scope: () => 'help',
	keys: {
		cursor: (state, overlay, {delta}) => none(scrollHelp(state, overlay.scroll, delta)),
		page: (state, overlay, {pages}) => none(scrollHelp(state, overlay.scroll, pages * Math.max(1, layoutOf(state).room - 1))),
		cancel: state => none({...state, overlay: {kind: 'none'}}),
	},
	events: {
		openHelp: state => none({...state, overlay: {kind: 'help', scroll: 0}}),
	},
} satisfies OverlaySlice<'help', 'openHelp'>;
