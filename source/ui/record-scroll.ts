// The record pane's scroll: how far it may go and which lines it shows. Pure numbers, so the
// reducer clamps every move (the pane never scrolls past its end, and the first move back always
// moves) and the pane draws the same window the reducer reasons about.

/** The furthest scroll: the last line on the pane's last row. */
export const maxScroll = (total: number, height: number) => Math.max(0, total - Math.max(1, height));

/** `scroll` kept between the top and the furthest scroll. */
export const clampScroll = (scroll: number, total: number, height: number) => Math.min(maxScroll(total, height), Math.max(0, scroll));

/**
 * Lines a page moves: the pane's height less the two marker lines, so the first line of the next
 * page is the line after the last one shown, none skipped.
 */
export const pageLines = (height: number) => Math.max(1, height - 2);

export type ScrollMove = {lines: number} | {pages: number} | {to: 'top' | 'bottom'};

/** The scroll after a move, within the lines there are. */
export function scrollBy(scroll: number, move: ScrollMove, total: number, height: number): number {
	const from = clampScroll(scroll, total, height);
	if ('to' in move) return move.to === 'top' ? 0 : maxScroll(total, height);
	const delta = 'lines' in move ? move.lines : move.pages * pageLines(height);
	return clampScroll(from + delta, total, height);
}

/**
 * The window a pane of `height` rows shows: lines `start` to `end` (exclusive), with a marker
 * row in place of the first when lines lie above (`above` of them, the covered one counted) and
 * in place of the last when lines lie below. A pane under three rows shows no markers.
 */
export function visibleWindow(total: number, height: number, scroll: number): {start: number; end: number; above: number; below: number} {
	const rows = Math.max(1, height);
	const start = clampScroll(scroll, total, rows);
	const end = Math.min(total, start + rows);
	if (rows < 3) return {start, end, above: 0, below: 0};
	return {start, end, above: start > 0 ? start + 1 : 0, below: end < total ? total - end + 1 : 0};
}

/** The record pane's events (the list's J/K and `Z`, and the full-screen record's keys). */
export type RecordEvent =
	| {type: 'scrollPane'; move: ScrollMove}
	/** The record under the cursor full screen, or (when it is) back to the list. */
	| {type: 'fullRecord'};

/** The record full screen: the record pane takes the body; its keys scroll it. */
export type RecordOverlay = {kind: 'record'};

/** Lines J and K scroll the record pane by. */
export const PANE_SCROLL_STEP = 5;
