import type {Overlay, Pane} from './state.js';

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
	const paneContent = overlay.kind === 'instruction' || overlay.kind === 'filter' || overlay.kind === 'fieldEdit' || overlay.kind === 'columns' ? overlay.kind : pane;
	const paneOpen = paneContent !== 'none';
	const side = size.columns >= SIDE_PANE_COLUMNS;
	const paneWidth = paneOpen && side ? Math.min(72, Math.floor(size.columns * 0.42)) : size.columns;
	const listWidth = paneOpen && side ? size.columns - paneWidth - 1 : size.columns;
	// Under the list on a short terminal the pane leaves the list its label line and a row.
	const paneHeight = paneOpen ? (side ? bodyHeight : Math.max(1, Math.min(bodyHeight - 2, Math.max(6, Math.min(bodyHeight - 5, Math.floor(bodyHeight * 0.45)))))) : 0;
	const listHeight = paneOpen && !side ? bodyHeight - paneHeight : bodyHeight;
	return {columns: size.columns, bodyHeight, side, paneWidth, paneHeight, listWidth, listHeight};
}


