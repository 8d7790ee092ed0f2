import {useCallback, useEffect, useRef, useState} from 'react';
import type {Store} from '../../../store/index.js';
import {appendPage, canLoadAfter, canLoadBefore, emptyWindow, firstWindow, moveCursor, patchRow, prependPage, scrollTop, type PageWindow, type Row} from '../window.js';

export type ListQuery = {filter?: Record<string, unknown>; search?: string};

export type PageOptions = {
	/** Rows the viewport shows. */
	height: number;
	pageSize?: number;
	/** Pages kept in memory at once (the window). */
	maxPages?: number;
	/** Reports a store refusal (for the footer). */
	onError?: (message: string) => void;
};

export const PAGE_SIZE = 50;
export const MAX_PAGES = 8;

/**
 * The list's rows: cursor paging by before_id over a bounded window of pages, prefetching
 * after each frame when the cursor nears either end of what is loaded.
 */
export function usePage(store: Store, channelId: string, options: PageOptions) {
	const pageSize = options.pageSize ?? PAGE_SIZE;
	const maxPages = options.maxPages ?? MAX_PAGES;
	const heightRef = useRef(options.height);
	heightRef.current = options.height;
	const onErrorRef = useRef(options.onError);
	onErrorRef.current = options.onError;
	const queryRef = useRef<ListQuery>({});

	const fetch = useCallback((before: string | null) => {
		const {filter, search} = queryRef.current;
		return store.listPage(channelId, {beforeId: before, limit: pageSize, filter, search: search || undefined});
	}, [store, channelId, pageSize]);

	const [initial] = useState(() => {
		try {
			return firstWindow(fetch(null), pageSize, maxPages);
		} catch (error) {
			onErrorRef.current?.((error as Error).message);
			return emptyWindow(pageSize, maxPages);
		}
	});
	const ref = useRef<PageWindow>(initial);
	const [window, setWindow] = useState<PageWindow>(initial);
	const [query, setQueryState] = useState<ListQuery>({});

	const commit = useCallback((next: PageWindow) => {
		ref.current = next;
		setWindow(next);
	}, []);

	/** Loads pages after the window until `need` rows past the cursor exist (or the end). */
	const loadAfter = useCallback((w: PageWindow, need: number): PageWindow => {
		let next = w;
		try {
			while (canLoadAfter(next) && next.rows.length - next.cursor <= need) {
				next = appendPage(next, fetch(next.nextBefore));
			}
		} catch (error) {
			onErrorRef.current?.((error as Error).message);
		}

		return next;
	}, [fetch]);

	const loadBefore = useCallback((w: PageWindow, need: number): PageWindow => {
		let next = w;
		try {
			while (canLoadBefore(next) && next.cursor < need) {
				next = prependPage(next, fetch(next.cursors[next.firstPage - 1] ?? null));
			}
		} catch (error) {
			onErrorRef.current?.((error as Error).message);
		}

		return next;
	}, [fetch]);

	/** Moves by `delta` rows, loading what the move itself needs first. */
	const move = useCallback((delta: number) => {
		const height = heightRef.current;
		let w = ref.current;
		w = delta > 0 ? loadAfter(w, delta) : loadBefore(w, -delta);
		commit(moveCursor(w, w.cursor + delta, height));
	}, [commit, loadAfter, loadBefore]);

	const moveTo = useCallback((index: number) => {
		commit(moveCursor(ref.current, index, heightRef.current));
	}, [commit]);

	const relist = useCallback((next: ListQuery = queryRef.current) => {
		queryRef.current = next;
		setQueryState(next);
		try {
			commit(moveCursor(firstWindow(fetch(null), pageSize, maxPages), 0, heightRef.current));
			return true;
		} catch (error) {
			onErrorRef.current?.((error as Error).message);
			return false;
		}
	}, [commit, fetch, pageSize, maxPages]);

	const patch = useCallback((id: string, change: (row: Row) => Row) => {
		const next = patchRow(ref.current, id, change);
		if (next !== ref.current) {
			commit(next);
		}
	}, [commit]);

	// Prefetch after the frame: keep two viewports loaded past the cursor, both ways.
	useEffect(() => {
		const margin = Math.max(options.height * 2, 20);
		const needsAfter = canLoadAfter(window) && window.rows.length - window.cursor <= margin;
		const needsBefore = canLoadBefore(window) && window.cursor < margin;
		if (!needsAfter && !needsBefore) {
			return;
		}

		const timer = setTimeout(() => {
			let w = ref.current;
			if (needsAfter) w = loadAfter(w, margin);
			if (needsBefore) w = loadBefore(w, margin);
			if (w !== ref.current) commit(w);
		}, 0);
		return () => {
			clearTimeout(timer);
		};
	}, [window, options.height, loadAfter, loadBefore, commit]);

	// Keep the cursor visible when the viewport changes size.
	useEffect(() => {
		const w = ref.current;
		const top = scrollTop(w.top, w.cursor, options.height, w.rows.length);
		if (top !== w.top) commit({...w, top});
	}, [options.height, commit]);

	return {window, query, move, moveTo, relist, patch};
}

export type PageApi = ReturnType<typeof usePage>;
