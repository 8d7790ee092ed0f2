// What the TUI benches share (ui.ts, ui-speed.ts, ui-triage.ts, ui-keystrokes.ts, visidata.ts): the
// pseudo-terminal's size, reading the cursor's row number off the screen, the first frame, opening
// and closing the built app, bursts of keys and keys timed to the frame that shows them.

import {KEYS, launch, type LaunchOptions, type PtyApp} from '../support/pty.js';
import {median, percentile} from './support.js';

export const COLS = 140;
export const ROWS = 40;

/** The header's row number (`row 1,234`), 0 when the header shows none. */
export const rowNumber = (screen: string) => Number(/row ([\d,]+)/.exec(screen)?.[1]?.replaceAll(',', '') ?? 0);

/** sift's first frame: the header's row 1 and a ticket drawn. */
export const firstFrame = (screen: string) => /row 1\b/.test(screen) && /BUG-\d+/.test(screen);

export const pause = async (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/** Median / p99 of a series of ms, one decimal. */
export const medianP99 = (values: number[]) => `${median(values).toFixed(1)} / ${percentile(values, 0.99).toFixed(1)}`;

export type SiftOptions = {
	/** The built CLI to run (default: this checkout's). */
	cli?: string;
	/** Flags after `--db PATH`. */
	args?: string[];
	/** The pseudo-terminal's size (default COLS×ROWS). */
	terminal?: Terminal;
} & Pick<LaunchOptions, 'env' | 'nodeArgs'>;

export type Terminal = {cols: number; rows: number};

/** The built sift on a database, in a COLS×ROWS pseudo-terminal unless told another size. */
export function openSift(dbPath: string, options: SiftOptions = {}): PtyApp {
	return launch({entry: options.cli, args: ['--db', dbPath, ...(options.args ?? [])], cols: options.terminal?.cols ?? COLS, rows: options.terminal?.rows ?? ROWS, env: options.env, nodeArgs: options.nodeArgs});
}

/** Quits with q (killed after 5 s if it has not exited). */
export async function close(app: PtyApp): Promise<void> {
	await app.quit(5000);
}

/** Kills at once and waits for the exit (when how it quits is not what is measured). */
export async function stop(app: PtyApp): Promise<void> {
	app.kill();
	await app.exited;
}

/** The row the cursor settles on: `rowOf` the screen unchanged for a second. */
export async function settledRow(app: PtyApp, rowOf: (screen: string) => number = rowNumber): Promise<number> {
	let last = -1;
	for (let quiet = 0; quiet < 10;) {
		await pause(100);
		const at = rowOf(app.screen());
		quiet = at === last ? quiet + 1 : 0;
		last = at;
	}

	return last;
}

/** Sends `key` `count` times, one write each, without waiting; then the row the cursor settles on. */
export async function burst(app: PtyApp, key: string, count: number): Promise<number> {
	for (let index = 0; index < count; index++) app.press(key);
	return settledRow(app);
}

/** How a bench reads an app's cursor: its row number on screen (from 1), and how to reach its ends. */
export type Cursor = {
	/** The cursor's row number on the screen, 0 when none shows. */
	row: (screen: string) => number;
	/** Rows in the view. */
	total: number;
	/** The key that goes to the first row (sift's g; vd's gg). */
	top: string;
	/** The screen once G has reached the last row, given the row before it. */
	atBottom: (screen: string, before: number) => boolean;
};

export type KeyTimes = {j: number[]; pageDown: number[]; top: number[]; bottom: number[]};

/** Goes to the first row, untimed. */
async function toTop(app: PtyApp, cursor: Cursor): Promise<void> {
	if (cursor.row(app.screen()) === 1) return;
	app.press(cursor.top);
	await app.waitFor(screen => cursor.row(screen) === 1, 30_000);
	await pause(20);
}

/**
 * Each key timed from its write to the frame showing the cursor's new row, `steps` times: j (the
 * next row), PgDn (a row further on; back to the top when a page more would pass the end), and G then
 * g by turns (`steps / 5` of each). The same for any app that shows its row number.
 */
export async function timeKeys(app: PtyApp, cursor: Cursor, steps: number): Promise<KeyTimes> {
	const times: KeyTimes = {j: [], pageDown: [], top: [], bottom: []};
	await toTop(app, cursor);
	for (let index = 0; index < steps; index++) {
		const at = cursor.row(app.screen());
		if (at + 1 > cursor.total) await toTop(app, cursor);
		const from = cursor.row(app.screen());
		times.j.push(await app.timeKeys('j', screen => cursor.row(screen) === from + 1, 10_000));
		await pause(20);
	}

	await toTop(app, cursor);
	let page = 0;
	for (let index = 0; index < steps; index++) {
		if (cursor.row(app.screen()) + 2 * page > cursor.total) await toTop(app, cursor);
		const from = cursor.row(app.screen());
		times.pageDown.push(await app.timeKeys(KEYS.pageDown, screen => cursor.row(screen) > from, 10_000));
		page = Math.max(page, cursor.row(app.screen()) - from);
		await pause(20);
	}

	await toTop(app, cursor);
	for (let index = 0; index < Math.max(1, Math.round(steps / 5)); index++) {
		const from = cursor.row(app.screen());
		times.bottom.push(await app.timeKeys('G', screen => cursor.atBottom(screen, from), 30_000));
		await pause(20);
		times.top.push(await app.timeKeys(cursor.top, screen => cursor.row(screen) === 1, 30_000));
		await pause(20);
	}

	return times;
}

/** The ticket on the row under the cursor (the inverse one), if one is drawn. */
export function selectedTicket(app: PtyApp): string | undefined {
	const buffer = app.term.buffer.active;
	for (let y = 0; y < app.term.rows; y++) {
		const line = buffer.getLine(buffer.viewportY + y);
		const text = line?.translateToString(true) ?? '';
		const at = text.search(/BUG-\d+/);
		if (at >= 0 && line!.getCell(at)!.isInverse()) return /BUG-\d+/.exec(text)![0];
	}

	return undefined;
}
