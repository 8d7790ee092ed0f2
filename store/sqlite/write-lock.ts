// Waiting for another process's write lock off the event loop: writes tried with no busy timeout,
// queued in order behind one timer while the lock is held, bounded (then `busy`), stopped at
// shutdown; `immediate`, a transaction that takes the lock up front.

import {StoreError} from '../errors.js';
import type {Db} from './db.js';

/**
 * Waiting for another process's write lock without blocking the event loop. better-sqlite3 is
 * synchronous: a busy timeout waits inside the call, and with it every other request, key and
 * signal of the process. So the asynchronous store tries each write with no busy timeout at all,
 * and when the lock is held it waits on a timer and tries again, up to a bound, then answers
 * `busy`. A write meets a busy lock before it changed anything (BEGIN IMMEDIATE, or the single
 * statement of an autocommit write), and better-sqlite3 rolls back a transaction that throws,
 * so trying the whole call again repeats nothing.
 */

/** How long a write waits for another process's write lock before it answers `busy`. */
export const DEFAULT_LOCK_WAIT_MS = 30_000;
/** A write that waited this long is said to wait (onLockWait): a brief overlap of two writers is not news. */
export const LOCK_NOTICE_AFTER_MS = 300;
/** The longest pause between two tries: how late a write may start after the lock is released. */
const MAX_RETRY_PAUSE_MS = 20;
/** How long one turn of the event loop may spend on queued writes once the lock is free. */
const WRITES_PER_TURN_MS = 5;

/**
 * Runs a write transaction (`begin` calls a better-sqlite3 transaction's .immediate()). BEGIN
 * IMMEDIATE is where a held lock is met, before any work ran: the error goes to the caller,
 * which may wait (LockWaiter) and call again.
 */
export function withWriteLock<T>(_db: Db, begin: () => T): T {
	return begin();
}

/** SQLITE_BUSY and its extended codes (SQLITE_BUSY_SNAPSHOT, …): the lock was not ours, nothing was written. */
export const isBusy = (error: unknown) => String((error as {code?: unknown} | null)?.code ?? '').startsWith('SQLITE_BUSY');

export type LockWaitOptions = {
	/** How long a write may wait for the lock; default 30 s. */
	waitMs?: number;
	/** Told each time a write has waited LOCK_NOTICE_AFTER_MS for another process's lock. */
	onWait?: () => void;
};

const busyError = (message: string) => new StoreError({error: 'busy', message});

/** A write waiting for its turn. */
type Waiting = {work: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void; since: number; told: boolean};

/**
 * The writes of one connection, each tried without blocking; while another process holds the
 * lock they queue, in order, and one timer tries the first of them again. However many writes
 * wait, the lock is probed at most once per pause, so waiting costs next to nothing.
 */
export class LockWaiter {
	private readonly waitMs: number;
	private readonly queue: Waiting[] = [];
	private timer: NodeJS.Timeout | undefined;
	private pause = 0;
	private stopped: string | null = null;

	constructor(private readonly db: Db, private readonly options: LockWaitOptions = {}) {
		this.waitMs = options.waitMs ?? DEFAULT_LOCK_WAIT_MS;
	}

	/** Runs `work` (synchronous store calls that write) once the write lock is free, or fails with `busy`. */
	async write<T>(work: () => T): Promise<T> {
		// Behind writes that already wait, so writes land in the order they were asked for.
		if (this.queue.length === 0) {
			try {
				return this.tryOnce(work);
			} catch (error) {
				if (!isBusy(error)) throw error;
			}

			if (this.stopped !== null) throw busyError(this.stopped);
		}

		return new Promise<T>((resolve, reject) => {
			this.queue.push({work, resolve: resolve as (value: unknown) => void, reject, since: Date.now(), told: false});
			this.schedule();
		});
	}

	/**
	 * Tries the waiting writes in order until one meets the lock again (a few milliseconds of them
	 * at most, so a long queue does not hold the event loop either); then expires, tells and sleeps.
	 */
	private probe(): void {
		this.timer = undefined;
		const began = performance.now();
		let more = false;
		while (this.queue.length > 0) {
			if (performance.now() - began > WRITES_PER_TURN_MS) {
				more = true;
				break;
			}

			const first = this.queue[0]!;
			try {
				const value = this.tryOnce(first.work);
				this.queue.shift();
				this.pause = 0;
				first.resolve(value);
			} catch (error) {
				if (!isBusy(error)) {
					this.queue.shift();
					first.reject(error);
					continue;
				}

				break;
			}
		}

		if (more) {
			this.timer = setTimeout(() => this.probe(), 0);
			return;
		}

		const now = Date.now();
		for (const waiting of [...this.queue]) {
			const waited = now - waiting.since;
			if (waited >= this.waitMs) {
				this.queue.splice(this.queue.indexOf(waiting), 1);
				waiting.reject(busyError(`another process has held the store's write lock for ${Math.round(waited / 1000)} s; nothing was written, try again when it is done`));
			} else if (!waiting.told && waited >= LOCK_NOTICE_AFTER_MS) {
				waiting.told = true;
				this.options.onWait?.();
			}
		}

		this.schedule();
	}

	private schedule(): void {
		if (this.timer !== undefined || this.queue.length === 0) return;
		// Never past the first deadline, so a bounded wait ends on time.
		const first = Math.min(...this.queue.map(waiting => waiting.since + this.waitMs)) - Date.now();
		const notice = Math.min(...this.queue.filter(waiting => !waiting.told).map(waiting => waiting.since + LOCK_NOTICE_AFTER_MS)) - Date.now();
		this.timer = setTimeout(() => this.probe(), Math.max(0, Math.min(this.pause, first, notice)));
		this.pause = Math.min(Math.max(1, this.pause * 2), MAX_RETRY_PAUSE_MS);
	}

	/** One try, never waiting: `busy` at once when another process holds the lock (for best-effort writes). */
	tryOnce<T>(work: () => T): T {
		const saved = this.db.pragma('busy_timeout', {simple: true}) as number;
		this.db.pragma('busy_timeout = 0');
		try {
			return work();
		} finally {
			this.db.pragma(`busy_timeout = ${saved}`);
		}
	}

	/** One try; skipped (nothing written, no error) when another process holds the lock: for writes that are only hints. */
	unlessBusy(work: () => void): void {
		try {
			this.tryOnce(work);
		} catch (error) {
			if (!isBusy(error)) throw error;
		}
	}

	/** Every waiting write gives up now with `busy`, and a later write that meets the lock does not wait (shutting down). */
	stop(reason = 'this sift is shutting down: it stopped waiting for another process\'s write lock; nothing was written'): void {
		this.stopped = reason;
		clearTimeout(this.timer);
		this.timer = undefined;
		for (const waiting of this.queue.splice(0)) waiting.reject(busyError(reason));
	}
}

/** Runs `work` inside BEGIN IMMEDIATE: the write lock is taken up front, so no reader upgrades late. */
export function immediate<T>(db: Db, work: () => T): T {
	return withWriteLock(db, () => db.transaction(work).immediate());
}
