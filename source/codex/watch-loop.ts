// The watch loop, one for `sift watch` and the TUI's W: read the events after the cursor, take in
// what they did, send the batches now due, then sleep until the next poll, a PostgreSQL
// notification, a run that ended or the end of a settle. While the events cannot be read it
// tries again with doubling waits (docs/reference.md#sift-watch).

import type {AsyncStore, Unlisten} from '../../store/api.js';
import {sanitize} from '../text/sanitize.js';
import type {Fanout, FanoutEvent} from './fanout.js';
import type {Outcome} from './outcome.js';
import {NEEDS_A_PERSON} from './ready.js';
import {giveBack, saveWatchCursor, sendDue, settleEndsAt, takeInEvents, type WatchCursor} from './watch.js';

/** How often the events are read: on SQLite the only way to hear of them. */
export const POLL_MS = 500;
/** On PostgreSQL a notification wakes the watch at once; the poll is then only a safety net. */
export const PUSHED_POLL_MS = 5000;
/** The longest wait between tries while the events cannot be read. */
export const MAX_RETRY_MS = 30_000;

/**
 * The loop's time: when items arrived and settle, and how long it sleeps. The real clock by
 * default; tests pass a clock they step, so a schedule is checked without waiting it out.
 */
export type WatchClock = {
	now(): number;
	/** Resolves at `at` (this clock's ms), or as soon as `signal` aborts. */
	sleepUntil(at: number, signal: AbortSignal): Promise<void>;
};

export const systemClock: WatchClock = {
	now: () => Date.now(),
	async sleepUntil(at, signal) {
		await new Promise<void>(resolve => {
			const timer = setTimeout(done, Math.max(0, at - Date.now()));
			signal.addEventListener('abort', done, {once: true});
			function done() {
				clearTimeout(timer);
				signal.removeEventListener('abort', done);
				resolve();
			}
		});
	},
};

export type WatchLoopOptions = {
	store: AsyncStore;
	channelId: string;
	where: string | undefined;
	/** The cursor file, and the cursor as loaded from it. */
	file: string;
	cursor: WatchCursor;
	fanout: Pick<Fanout, 'free' | 'add' | 'subscribe' | 'cancelAll'>;
	batchSize: number;
	settleMs: number;
	/** After each pass that read the events, with the cursor as it now is. */
	onPass?: (cursor: WatchCursor) => void;
	/** The events could not be read; the next try is in `retryMs`. */
	onReadFailed?: (error: unknown, retryMs: number) => void;
	clock?: WatchClock;
};

export type WatchLoop = {
	/** Woken by PostgreSQL notifications (else it polls every POLL_MS). */
	pushed: boolean;
	/** Ends the loop after its current step; `done` then resolves. */
	stop(): void;
	/** The cursor when the loop ended; rejects if the cursor file cannot be written. */
	done: Promise<WatchCursor>;
	/** Why the loop stopped on its own: a batch's run needed a person (not logged in, no codex); null otherwise. */
	halted(): WatchHalt | null;
};

/** A run that never reached the agent for a reason only a person can mend; its items wait again in the cursor. */
export type WatchHalt = {outcome: Outcome; error: string | null};

/**
 * The items of a batch the agent never saw, to give back to the cursor: a batch whose run could
 * not start, one skipped while queued, or one whose run needed a person. The last also halts the
 * watch. Undefined for a batch the agent worked on.
 */
export function batchNotSeen(event: FanoutEvent): {itemIds: readonly string[]; halt?: WatchHalt} | undefined {
	if (event.type === 'unstarted' || event.type === 'skipped') return {itemIds: event.run.itemIds};
	if (event.type === 'finished' && NEEDS_A_PERSON.has(event.result.outcome)) {
		return {itemIds: event.run.itemIds, halt: {outcome: event.result.outcome, error: event.result.error}};
	}

	return undefined;
}

/** What a watch says when the events could not be read (store text sanitized: it reaches the terminal). */
export const readFailedText = (error: unknown, retryMs: number) => `reading the events failed (${sanitize(error instanceof Error ? error.message : String(error))}); trying again in ${Math.round(retryMs / 1000)} s`;

/** The wait before try number `failures + 1` after that many failed reads in a row. */
export const retryDelay = (failures: number) => Math.min(MAX_RETRY_MS, POLL_MS * 2 ** failures);

export async function startWatchLoop(options: WatchLoopOptions): Promise<WatchLoop> {
	const {store, channelId, where, file, fanout, batchSize, settleMs} = options;
	const clock = options.clock ?? systemClock;
	const waker = new Waker(clock);
	const notSeen: string[] = [];
	let halt: WatchHalt | null = null;
	const unsubscribe = fanout.subscribe(event => {
		const returned = batchNotSeen(event);
		if (returned) notSeen.push(...returned.itemIds);
		if (returned?.halt && !halt) {
			halt = returned.halt;
			// Every other batch would be refused the same way: the queued ones are skipped (and so given back).
			fanout.cancelAll();
		}

		// A free slot may take a batch that waits.
		if (event.type === 'finished' || event.type === 'unstarted' || returned) waker.wake();
	});
	const unlisten = await listenFor(store, channelId, () => waker.wake());
	let stopped = false;
	const done = (async () => {
		let cursor = options.cursor;
		let failures = 0;
		try {
			while (!stopped) {
				if (notSeen.length > 0) saveWatchCursor(file, (cursor = giveBack(cursor, notSeen.splice(0), clock.now())));
				if (halt) break;
				let taken: WatchCursor;
				try {
					taken = await takeInEvents(store, channelId, where, cursor, () => clock.now());
				} catch (error) {
					// A store that cannot be read for a while (a lock, a restarting server) is waited out.
					const delay = retryDelay(failures++);
					options.onReadFailed?.(error, delay);
					await waker.sleepUntil(clock.now() + delay);
					continue;
				}

				failures = 0;
				if (taken !== cursor) saveWatchCursor(file, (cursor = taken));
				if (stopped) break;
				cursor = sendDue(cursor, file, fanout, {batchSize, settleMs, now: clock.now()});
				options.onPass?.(cursor);
				const settleAt = fanout.free > 0 ? settleEndsAt(cursor, settleMs) : undefined;
				await waker.sleepUntil(Math.min(clock.now() + (unlisten ? PUSHED_POLL_MS : POLL_MS), settleAt ?? Number.POSITIVE_INFINITY));
			}

			if (notSeen.length > 0) saveWatchCursor(file, (cursor = giveBack(cursor, notSeen.splice(0), clock.now())));
			return cursor;
		} finally {
			unsubscribe();
			await unlisten?.().catch(() => undefined);
		}
	})();
	return {
		pushed: unlisten !== undefined,
		stop() {
			stopped = true;
			waker.wake();
		},
		done,
		halted: () => halt,
	};
}

/** LISTEN on PostgreSQL (store.listen); undefined on SQLite or when the listener cannot connect (polling alone then). */
async function listenFor(store: AsyncStore, channelId: string, onEvent: () => void): Promise<Unlisten | undefined> {
	if (!store.listen) return undefined;
	try {
		return await store.listen(channelId, () => onEvent());
	} catch {
		return undefined;
	}
}

/** A sleep that anything can cut short: a notification, a run that ended, a stop. */
class Waker {
	private pending: AbortController | undefined;
	private woken = false;

	constructor(private readonly clock: WatchClock) {}

	wake(): void {
		this.woken = true;
		this.pending?.abort();
	}

	async sleepUntil(at: number): Promise<void> {
		if (this.woken) {
			this.woken = false;
			return;
		}

		this.pending = new AbortController();
		await this.clock.sleepUntil(at, this.pending.signal);
		this.pending = undefined;
		this.woken = false;
	}
}
