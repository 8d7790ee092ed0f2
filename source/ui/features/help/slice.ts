// `?`: every key, from the bindings of every feature, with this channel's field hotkeys; scrolled
// by line or page. The lines are the registry's (it gathers the bindings), handed in.

import {helpLayout, type HelpLinesOf} from '../../help-lines.js';
import type {ScreenState} from '../../state.js';
import {bodyRows} from '../rows.js';
import {bind, listBinding, none, type OverlaySlice} from '../feature.js';

/** The help feature, over the lines the registry makes from every feature's bindings. */
export const helpFeature = (helpLinesOf: HelpLinesOf) => {
	const layoutOf = (state: ScreenState) => helpLayout(state.size.columns, bodyRows(state), helpLinesOf(state).length);

	/** The help scrolled by `lines`, never past its last screen. */
	const scrollHelp = (state: ScreenState, scroll: number, lines: number): ScreenState => ({...state, overlay: {kind: 'help', scroll: Math.min(layoutOf(state).maxScroll, Math.max(0, scroll + lines))}});

	return {
		scope: () => 'help',
		effects: {},
		scopes: {help: 'Help'},
		bindings: [
			listBinding('help', {type: 'openHelp'}),
			bind('help', 'down', ['j', 'down'], 'j ↓', 'scroll down a line', {type: 'cursor', delta: 1}, {hint: 'scroll'}),
			bind('help', 'up', ['k', 'up'], 'k ↑', 'scroll up a line', {type: 'cursor', delta: -1}),
			bind('help', 'pageDown', ['pagedown', 'space', 'ctrl+d'], 'PgDn', 'scroll down a screen', {type: 'page', pages: 1}, {hint: 'page'}),
			bind('help', 'pageUp', ['pageup', 'ctrl+u'], 'PgUp', 'scroll up a screen', {type: 'page', pages: -1}),
			bind('help', 'cancel', ['escape', 'q', '?'], 'Esc', 'close help', {type: 'cancel'}, {hint: 'close'}),
		],
		keys: {
			cursor: (state, overlay, {delta}) => none(scrollHelp(state, overlay.scroll, delta)),
			page: (state, overlay, {pages}) => none(scrollHelp(state, overlay.scroll, pages * Math.max(1, layoutOf(state).room - 1))),
			cancel: state => none({...state, overlay: {kind: 'none'}}),
		},
		events: {
			openHelp: state => none({...state, overlay: {kind: 'help', scroll: 0}}),
		},
	} satisfies OverlaySlice<'help', 'openHelp'>;
};
