import type {ItemPreview} from '../../store/index.js';

/**
 * The list's bounded window of pages (pure functions; the screen's reducer drives it).
 *
 * Pages come newest first, by `before_id`. The window keeps at most `maxPages` pages: paging on
 * drops pages at the far end, and paging back re-fetches them by the cursor each page was
 * fetched with (one string per page visited), so memory stays flat however far one scrolls.
 * A window opened at the end of the listing (G: the oldest) pages by the store's cursors instead,
 * each page keeping the cursors before and after it (`ends`).
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
	/** Opened at the end: per page in the window, the store's cursors before and after it. */
	ends: Array<{prev: string | null; next: string | null}> | null;
	/** Opened at the end: how many rows of the listing lie after the window. */
	after: number;
	/**
	 * Where the window was opened: at the start of the listing, at its end (G), or at one item
	 * (a `:` jump), where its position in the listing is not known.
	 */
	origin: 'start' | 'end' | 'item';
};

export type FetchedPage = {items: ItemPreview[]; next_before_id: string | null; next_cursor?: string | null; prev_cursor?: string | null};

/** How to fetch a page next to the window: by the store's cursor, or by before_id. */
export type PageRequest = {cursor: string} | {beforeId: string | null};

export function emptyWindow(pageSize: number, maxPages: number): PageWindow {
	return {rows: [], sizes: [], firstPage: 0, cursors: [null], nextBefore: null, cursor: 0, top: 0, pageSize, maxPages, ends: null, after: 0, origin: 'start'};
}

/** The last page of a listing (fetched with from: 'end'), the cursor on its last row. */
export function endWindow(page: FetchedPage, pageSize: number, maxPages: number): PageWindow {
	const rows = [...page.items];
	return {...emptyWindow(pageSize, maxPages), rows, sizes: [rows.length], ends: [{prev: page.prev_cursor ?? null, next: page.next_cursor ?? null}], cursor: Math.max(0, rows.length - 1), origin: 'end'};
}

/** The request for the page after the window, or null at the end. */
export function requestAfter(w: PageWindow): PageRequest | null {
	if (w.ends) {
		const next = w.ends.at(-1)?.next ?? null;
		return next === null ? null : {cursor: next};
	}

	return w.nextBefore === null ? null : {beforeId: w.nextBefore};
}

/** The request for the page before the window, or null at the start. */
export function requestBefore(w: PageWindow): PageRequest | null {
	if (w.ends) {
		const previous = w.ends[0]?.prev ?? null;
		return previous === null ? null : {cursor: previous};
	}

	return w.firstPage > 0 ? {beforeId: w.cursors[w.firstPage - 1] ?? null} : null;
}

/**
 * The first page of a (re)listing. A page that carries the store's cursors (a query, a sort, or a
 * start at one item) is paged by them both ways; else by before_id.
 */
export function firstWindow(page: FetchedPage, pageSize: number, maxPages: number, origin: 'start' | 'item' = 'start'): PageWindow {
	const ends = page.next_cursor === undefined ? null : [{prev: page.prev_cursor ?? null, next: page.next_cursor ?? null}];
	return {...emptyWindow(pageSize, maxPages), rows: [...page.items], sizes: [page.items.length], nextBefore: page.next_before_id, ends, origin};
}

export const canLoadAfter = (w: PageWindow) => requestAfter(w) !== null;
export const canLoadBefore = (w: PageWindow) => requestBefore(w) !== null;

/** Appends the page fetched with `w.nextBefore`, dropping the window's first page if full. */
export function appendPage(w: PageWindow, page: FetchedPage): PageWindow {
	const absolute = w.firstPage + w.sizes.length;
	const cursors = [...w.cursors];
	cursors[absolute] = w.nextBefore;
	let rows = [...w.rows, ...page.items];
	let sizes = [...w.sizes, page.items.length];
	let ends = w.ends ? [...w.ends, {prev: page.prev_cursor ?? null, next: page.next_cursor ?? null}] : null;
	let {firstPage, cursor, top} = w;
	if (sizes.length > w.maxPages) {
		const dropped = sizes[0]!;
		rows = rows.slice(dropped);
		sizes = sizes.slice(1);
		ends = ends?.slice(1) ?? null;
		firstPage++;
		cursor = Math.max(0, cursor - dropped);
		top = Math.max(0, top - dropped);
	}

	return {...w, rows, sizes, firstPage, cursors, cursor, top, nextBefore: page.next_before_id, ends, after: Math.max(0, w.after - page.items.length)};
}

/** Prepends the page before the window (fetched with `w.cursors[w.firstPage - 1]`), dropping the last page if full. */
export function prependPage(w: PageWindow, page: FetchedPage): PageWindow {
	let rows = [...page.items, ...w.rows];
	let sizes = [page.items.length, ...w.sizes];
	let ends = w.ends ? [{prev: page.prev_cursor ?? null, next: page.next_cursor ?? null}, ...w.ends] : null;
	let {nextBefore, after} = w;
	if (sizes.length > w.maxPages) {
		const dropped = sizes.at(-1)!;
		rows = rows.slice(0, rows.length - dropped);
		sizes = sizes.slice(0, -1);
		ends = ends?.slice(0, -1) ?? null;
		after += dropped;
		// The cursor of the dropped page is the last id now in the window.
		nextBefore = rows.at(-1)?.id ?? null;
	}

	const added = page.items.length;
	const last = Math.max(0, rows.length - 1);
	const firstPage = w.ends && w.origin !== 'start' ? 0 : w.firstPage - 1;
	return {...w, rows, sizes, firstPage, nextBefore, ends, after, cursor: Math.min(last, w.cursor + added), top: Math.min(last, w.top + added)};
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

/**
 * Absolute position of a window row in the whole listing (0-based); a window opened at the end
 * counts back from `total` (the listing's size); one opened at an item does not know (null).
 */
export function absoluteIndex(w: PageWindow, row: number, total = 0): number | null {
	if (w.origin === 'item') return null;
	return w.origin === 'end' ? Math.max(0, total - w.after - w.rows.length + row) : w.firstPage * w.pageSize + row;
}

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
