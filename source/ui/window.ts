import type {ItemPreview} from '../../store/index.js';

/**
 * The list's bounded window of pages (pure functions; use-page.ts drives it).
 *
 * Pages come newest first, by `before_id`. The window keeps at most `maxPages` pages: paging on
 * drops pages at the far end, and paging back re-fetches them by the cursor each page was
 * fetched with (one string per page visited), so memory stays flat however far one scrolls.
 */

export type Row = ItemPreview & {deleted?: boolean};

export type PageWindow = {
	rows: Row[];
	/** Row count of each page in the window, in order. */
	sizes: number[];
	/** Absolute index of the window's first page. */
	firstPage: number;
	/** The before_id each absolute page was fetched with (null for the first). */
	cursors: Array<string | null>;
	/** Cursor of the page after the window; null when the window ends at the last page. */
	nextBefore: string | null;
	cursor: number;
	/** First row drawn in the viewport. */
	top: number;
	/** The page size the store was asked for: every page but the last is this full. */
	pageSize: number;
	maxPages: number;
};

export type FetchedPage = {items: ItemPreview[]; next_before_id: string | null};

export function emptyWindow(pageSize: number, maxPages: number): PageWindow {
	return {rows: [], sizes: [], firstPage: 0, cursors: [null], nextBefore: null, cursor: 0, top: 0, pageSize, maxPages};
}

/** The first page of a (re)listing. */
export function firstWindow(page: FetchedPage, pageSize: number, maxPages: number): PageWindow {
	return {...emptyWindow(pageSize, maxPages), rows: [...page.items], sizes: [page.items.length], nextBefore: page.next_before_id};
}

export const canLoadAfter = (w: PageWindow) => w.nextBefore !== null;
export const canLoadBefore = (w: PageWindow) => w.firstPage > 0;

/** Appends the page fetched with `w.nextBefore`, dropping the window's first page if full. */
export function appendPage(w: PageWindow, page: FetchedPage): PageWindow {
	const absolute = w.firstPage + w.sizes.length;
	const cursors = [...w.cursors];
	cursors[absolute] = w.nextBefore;
	let rows = [...w.rows, ...page.items];
	let sizes = [...w.sizes, page.items.length];
	let {firstPage, cursor, top} = w;
	if (sizes.length > w.maxPages) {
		const dropped = sizes[0]!;
		rows = rows.slice(dropped);
		sizes = sizes.slice(1);
		firstPage++;
		cursor = Math.max(0, cursor - dropped);
		top = Math.max(0, top - dropped);
	}

	return {...w, rows, sizes, firstPage, cursors, cursor, top, nextBefore: page.next_before_id};
}

/** Prepends the page before the window (fetched with `w.cursors[w.firstPage - 1]`), dropping the last page if full. */
export function prependPage(w: PageWindow, page: FetchedPage): PageWindow {
	let rows = [...page.items, ...w.rows];
	let sizes = [page.items.length, ...w.sizes];
	let {nextBefore} = w;
	if (sizes.length > w.maxPages) {
		const dropped = sizes.at(-1)!;
		rows = rows.slice(0, rows.length - dropped);
		sizes = sizes.slice(0, -1);
		// The cursor of the dropped page is the last id now in the window.
		nextBefore = rows.at(-1)?.id ?? null;
	}

	const added = page.items.length;
	const last = Math.max(0, rows.length - 1);
	return {...w, rows, sizes, firstPage: w.firstPage - 1, nextBefore, cursor: Math.min(last, w.cursor + added), top: Math.min(last, w.top + added)};
}

/** Moves the cursor (clamped to what is loaded) and keeps it inside a viewport of `height` rows. */
export function moveCursor(w: PageWindow, to: number, height: number): PageWindow {
	const last = Math.max(0, w.rows.length - 1);
	const cursor = Math.min(last, Math.max(0, to));
	return {...w, cursor, top: scrollTop(w.top, cursor, height, w.rows.length)};
}

export function scrollTop(top: number, cursor: number, height: number, count: number): number {
	const h = Math.max(1, height);
	let next = top;
	if (cursor < next) next = cursor;
	if (cursor >= next + h) next = cursor - h + 1;
	next = Math.min(next, Math.max(0, count - h));
	return Math.max(0, next);
}

/** Absolute position of a window row in the whole listing (0-based). */
export const absoluteIndex = (w: PageWindow, row: number) => w.firstPage * w.pageSize + row;

/** Replaces one row in place, by id; the window is returned unchanged if the row is not loaded. */
export function patchRow(w: PageWindow, id: string, patch: (row: Row) => Row): PageWindow {
	const index = w.rows.findIndex(row => row.id === id);
	if (index === -1) {
		return w;
	}

	const rows = [...w.rows];
	rows[index] = patch(rows[index]!);
	return {...w, rows};
}

export const rowAt = (w: PageWindow) => w.rows[w.cursor];
