import {BINDINGS, SCOPE_TITLES, type Scope} from './keys.js';
import type {Overlay, Pane} from './state.js';
import {fit} from './width.js';

/** The header: the channel's line, then the views' tabs and the order. */
export const HEADER_ROWS = 2;

/** Side-by-side pane from this width on; below it the pane sits under the list. */
const SIDE_PANE_COLUMNS = 140;

export type Layout = {
	columns: number;
	bodyHeight: number;
	/** The pane stands beside the list (else under it). */
	side: boolean;
	paneWidth: number;
	paneHeight: number;
	listWidth: number;
	listHeight: number;
};

/** Where the list and the pane go on a terminal of this size, with this overlay and pane open. */
export function screenLayout(size: {columns: number; rows: number}, overlay: Overlay, pane: Pane): Layout {
	const bodyHeight = Math.max(1, size.rows - HEADER_ROWS - 2 - 1);
	// The record full screen (record-view.ts) takes the whole body.
	if (overlay.kind === 'record') return {columns: size.columns, bodyHeight, side: false, paneWidth: size.columns, paneHeight: bodyHeight, listWidth: size.columns, listHeight: bodyHeight};
	const paneContent = overlay.kind === 'edit' || overlay.kind === 'instruction' || overlay.kind === 'filter' || overlay.kind === 'fieldEdit' ? overlay.kind : pane;
	const paneOpen = paneContent !== 'none';
	const side = size.columns >= SIDE_PANE_COLUMNS;
	const paneWidth = paneOpen && side ? Math.min(72, Math.floor(size.columns * 0.42)) : size.columns;
	const listWidth = paneOpen && side ? size.columns - paneWidth - 1 : size.columns;
	// Under the list on a short terminal the pane leaves the list its label line and a row.
	const paneHeight = paneOpen ? (side ? bodyHeight : Math.max(1, Math.min(bodyHeight - 2, Math.max(6, Math.min(bodyHeight - 5, Math.floor(bodyHeight * 0.45)))))) : 0;
	const listHeight = paneOpen && !side ? bodyHeight - paneHeight : bodyHeight;
	return {columns: size.columns, bodyHeight, side, paneWidth, paneHeight, listWidth, listHeight};
}

const ORDER: Scope[] = ['list', 'record', 'board', 'picker', 'choice', 'text', 'queue', 'history', 'help', 'confirm'];
/** A help column is at least this wide, so descriptions are not cut (one column at 80). */
const COLUMN_MIN = 64;

export type HelpLine = {key: string; text: string; bold?: boolean};

/** Every key, straight from the key table, one line each under its scope's title. */
export const HELP_LINES: HelpLine[] = ORDER.flatMap(scope => [
	{key: `${scope}-title`, text: SCOPE_TITLES[scope], bold: true},
	...BINDINGS.filter(binding => binding.scope === scope).map(binding => ({key: `${scope}-${binding.action}`, text: `  ${fit(binding.label, 7)} ${binding.description}`})),
]);

/** The help with more lines (the field hotkeys) after the list's keys. */
export function helpLines(extra: HelpLine[] = []): HelpLine[] {
	if (extra.length === 0) return HELP_LINES;
	const at = HELP_LINES.findIndex(line => line.key === 'picker-title');
	return [...HELP_LINES.slice(0, at), ...extra, ...HELP_LINES.slice(at)];
}

/** How the help (of `count` lines) fits a body of this size: columns, lines per column, and the furthest scroll. */
export function helpLayout(width: number, height: number, count = HELP_LINES.length): {columns: number; room: number; maxScroll: number} {
	const room = Math.max(1, height - 1);
	const columns = Math.min(3, Math.max(1, Math.floor(width / COLUMN_MIN)), Math.ceil(count / room));
	return {columns, room, maxScroll: Math.max(0, count - columns * room)};
}
