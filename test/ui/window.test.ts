// The bounded window of pages.

import {describe, expect, it} from 'vitest';
import {nextDelay, ACTIVE_INTERVAL, IDLE_MAX, IDLE_MIN} from '../../source/ui/poll-schedule.js';
import {absoluteIndex, appendPage, endWindow, firstWindow, moveCursor, patchRow, prependPage, requestAfter, requestBefore, type FetchedPage} from '../../source/ui/window.js';

/** Pages of a fake listing of `total` items, newest first, ids it_<n>. */
function pageOf(total: number, before: string | null, size: number): FetchedPage {
	const start = before === null ? total : Number(before.slice(3));
	const items = [];
	for (let n = start - 1; n >= Math.max(0, start - size); n--) items.push({id: `it_${n}`, version: 1, updated_at: '', preview: {n}});
	const last = items.at(-1);
	return {items, next_before_id: last && Number(last.id.slice(3)) > 0 ? last.id : null};
}

describe('the page window', () => {
	it('keeps at most maxPages pages while paging on, and pages back by the stored cursors', () => {
		let w = firstWindow(pageOf(1000, null, 50), 50, 4);
		for (let index = 0; index < 10; index++) {
			w = appendPage(w, pageOf(1000, w.nextBefore, 50));
			w = moveCursor(w, w.rows.length - 1, 20);
			expect(w.rows.length).toBeLessThanOrEqual(200);
		}

		expect(w.firstPage).toBe(7);
		expect(w.rows[0]!.id).toBe('it_649');
		expect(absoluteIndex(w, w.cursor)).toBe(549);
		// Back up: the pages dropped come back in order, and the far end goes.
		while (w.firstPage > 0) w = prependPage(w, pageOf(1000, w.cursors[w.firstPage - 1] ?? null, 50));
		expect(w.rows[0]!.id).toBe('it_999');
		expect(w.rows.length).toBe(200);
		expect(w.nextBefore).toBe('it_800');
		expect(absoluteIndex(w, w.cursor)).toBe(199);
	});

	it('ends at the last page and clamps the cursor to what is loaded', () => {
		let w = firstWindow(pageOf(70, null, 50), 50, 4);
		w = appendPage(w, pageOf(70, w.nextBefore, 50));
		expect(w.rows.length).toBe(70);
		expect(w.nextBefore).toBeNull();
		expect(moveCursor(w, 500, 10).cursor).toBe(69);
		expect(moveCursor(w, 500, 10).top).toBe(60);
	});

	it('patches a loaded row in place and ignores rows that are not loaded', () => {
		const w = firstWindow(pageOf(10, null, 50), 50, 4);
		const patched = patchRow(w, 'it_5', row => ({...row, version: 2}));
		expect(patched.rows.find(row => row.id === 'it_5')!.version).toBe(2);
		expect(patchRow(w, 'it_99', row => row)).toBe(w);
	});
});

describe('event polling intervals', () => {
	it('doubles while idle up to the cap, snaps back on an event, and stays sub-second during a run', () => {
		let idle = IDLE_MIN;
		const delays: number[] = [];
		for (let index = 0; index < 8; index++) {
			const next = nextDelay(idle, false, false, false);
			delays.push(next.delay);
			idle = next.idle;
		}

		expect(delays).toEqual([500, 1000, 2000, 4000, 4000, 4000, 4000, 4000]);
		expect(Math.max(...delays)).toBe(IDLE_MAX);
		expect(nextDelay(idle, true, false, false)).toEqual({delay: IDLE_MIN, idle: IDLE_MIN});
		expect(nextDelay(idle, false, false, true).delay).toBe(ACTIVE_INTERVAL);
		expect(nextDelay(idle, true, true, false).delay).toBe(0);
	});

	it('opened at the end, pages back by the store cursors and counts positions from the total', () => {
		const cursorPage = (from: number, count: number, previous: boolean): FetchedPage => ({...pageOf(from + 1, null, count), next_before_id: null, prev_cursor: previous ? `before-${from}` : null, next_cursor: `after-${from - count + 1}`});
		let w = endWindow({...cursorPage(30, 30, true), next_cursor: null}, 50, 2);
		expect(w.cursor).toBe(29);
		expect(absoluteIndex(w, w.cursor, 1000)).toBe(999);
		expect(requestAfter(w)).toBeNull();
		expect(requestBefore(w)).toEqual({cursor: 'before-30'});
		w = prependPage(w, cursorPage(80, 50, true));
		w = prependPage(w, cursorPage(130, 50, true));
		// Two pages at most: the oldest page is dropped and is now after the window.
		expect(w.sizes).toEqual([50, 50]);
		expect(w.after).toBe(30);
		expect(absoluteIndex(w, w.rows.length - 1, 1000)).toBe(969);
		expect(requestBefore(w)).toEqual({cursor: 'before-130'});
		expect(requestAfter(w)).toEqual({cursor: 'after-31'});
	});
});
