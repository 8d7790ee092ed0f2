// The watch loop, one for `sift watch` and the TUI's W: read the events after the cursor, take in
// what they did, send the batches now due, then sleep until the next poll, a PostgreSQL
// notification, a run that ended or the end of a settle. While the events cannot be read it
// tries again with doubling waits (docs/reference.md#sift-watch).

import {rmSync} from 'node:fs';
import type {AsyncStore, Unlisten} from '../../store/api.js';
import {sanitize} from '../text/sanitize.js';
import type {Fanout, FanoutEvent} from './fanout.js';
import type {Outcome} from './outcome.js';
import {NEEDS_A_PERSON} from './ready.js';
import {lockWatch} from './watch-lock.js';
import {cursorFor, giveBack, loadWatchedChannel, sameChannel, saveWatchCursor, sendDue, settleEndsAt, takeInEvents, watchedChannel, type WatchCursor, type WatchedChannel} from './watch.js';

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
	/** The cursor belonged to an earlier channel of this id: the watch goes on from the new one's latest event. */
	onRestarted?: (why: string) => void;
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
	/** The loop stopped because the store no longer holds the channel (its cursor is removed). */
	channelGone(): boolean;
	/** The cursor the loop started from (a new one when the saved one was another channel's). */
	startCursor: WatchCursor;
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

/** How often a watch with nothing to take in makes sure its channel is still the one it watches. */
const CHANNEL_CHECK_MS = 5000;

/**
 * Starts the loop on the cursor's lock (a second watch on the same cursor is refused) and on the
 * channel as it is now: a cursor saved for an earlier channel of this id starts over.
 */
export async function startWatchLoop(options: WatchLoopOptions): Promise<WatchLoop> {
	const {store, channelId, where, file, fanout, batchSize, settleMs} = options;
	const clock = options.clock ?? systemClock;
	const unlock = lockWatch(file);
	let channel: WatchedChannel;
	let startCursor: WatchCursor;
	try {
		const found = await watchedChannel(store, channelId);
		// The store's own refusal names the missing channel.
		if (!found) await store.getChannel(channelId);
		channel = found!;
		const resumed = cursorFor(options.cursor, loadWatchedChannel(file), channel, await store.latestSequence(channelId));
		startCursor = resumed.cursor;
		if (resumed.restarted) options.onRestarted?.(resumed.restarted);
		saveWatchCursor(file, startCursor, channel);
	} catch (error) {
		unlock();
		throw error;
	}

	/** Whether the channel is still the one watched: 'gone', 'same', or made again (the cursor then starts over). */
	async function recheck(cursor: WatchCursor): Promise<{state: 'gone'} | {state: 'same'} | {state: 'again'; cursor: WatchCursor}> {
		const now = await watchedChannel(store, channelId);
		if (!now) return {state: 'gone'};
		if (sameChannel(now, channel)) return {state: 'same'};
		const resumed = cursorFor(cursor, channel, now, await store.latestSequence(channelId));
		channel = now;
		if (resumed.restarted) options.onRestarted?.(resumed.restarted);
		return {state: 'again', cursor: resumed.cursor};
	}

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
	let gone = false;
	const done = (async () => {
		let cursor = startCursor;
		let failures = 0;
		let checkedAt = clock.now();
		/** After a failed read, or now and then when nothing came: the channel gone ends the watch, one made again restarts its cursor. */
		const channelStillWatched = async (): Promise<boolean> => {
			checkedAt = clock.now();
			const found = await recheck(cursor);
			if (found.state === 'gone') {
				gone = true;
				return false;
			}

			if (found.state === 'again') saveWatchCursor(file, (cursor = found.cursor), channel);
			return true;
		};

		try {
			while (!stopped) {
				if (notSeen.length > 0) saveWatchCursor(file, (cursor = giveBack(cursor, notSeen.splice(0), clock.now())), channel);
				if (halt) break;
				let taken: WatchCursor;
				try {
					taken = await takeInEvents(store, channelId, where, cursor, () => clock.now());
				} catch (error) {
					// A store that cannot be read for a while (a lock, a restarting server) is waited out;
					// a channel that is gone (or made again) is not.
					 
					if (!await channelStillWatched().catch(() => true)) break;
					const delay = retryDelay(failures++);
					options.onReadFailed?.(error, delay);
					await waker.sleepUntil(clock.now() + delay);
					continue;
				}

				failures = 0;
				if (taken !== cursor) saveWatchCursor(file, (cursor = taken), channel);
				 
				else if (clock.now() - checkedAt >= CHANNEL_CHECK_MS && !await channelStillWatched()) break;
				if (stopped) break;
				cursor = sendDue(cursor, file, fanout, {batchSize, settleMs, now: clock.now(), channel});
				options.onPass?.(cursor);
				const settleAt = fanout.free > 0 ? settleEndsAt(cursor, settleMs) : undefined;
				await waker.sleepUntil(Math.min(clock.now() + (unlisten ? PUSHED_POLL_MS : POLL_MS), settleAt ?? Number.POSITIVE_INFINITY));
			}

			if (gone) {
				// A dead cursor: nothing it holds can be sent any more.
				rmSync(file, {force: true});
				return cursor;
			}

			if (notSeen.length > 0) saveWatchCursor(file, (cursor = giveBack(cursor, notSeen.splice(0), clock.now())), channel);
			return cursor;
		} finally {
			unsubscribe();
			await unlisten?.().catch(() => undefined);
			unlock();
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
		channelGone: () => gone,
		startCursor,
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
