import {StoreError} from '../errors.js';
import type {Db} from './database.js';

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

/** The writes of one connection, each tried without blocking and retried on a timer while another process writes. */
export class LockWaiter {
	private readonly waitMs: number;
	private readonly pending = new Set<() => void>();
	private stopped: string | null = null;

	constructor(private readonly db: Db, private readonly options: LockWaitOptions = {}) {
		this.waitMs = options.waitMs ?? DEFAULT_LOCK_WAIT_MS;
	}

	/** Runs `work` (synchronous store calls that write) once the write lock is free, or fails with `busy`. */
	async write<T>(work: () => T): Promise<T> {
		const started = Date.now();
		let pause = 1;
		let told = false;
		for (;;) {
			try {
				return this.tryOnce(work);
			} catch (error) {
				if (!isBusy(error)) throw error;
			}

			if (this.stopped !== null) throw busyError(this.stopped);

			const waited = Date.now() - started;
			if (waited >= this.waitMs) {
				throw busyError(`another process has held the store's write lock for ${Math.round(waited / 1000)} s; nothing was written, try again when it is done`);
			}

			if (!told && waited >= LOCK_NOTICE_AFTER_MS) {
				told = true;
				this.options.onWait?.();
			}

			await this.sleep(Math.min(pause, this.waitMs - waited));
			pause = Math.min(pause * 2, MAX_RETRY_PAUSE_MS);
		}
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
		for (const wake of this.pending) wake();
		this.pending.clear();
	}

	private async sleep(ms: number): Promise<void> {
		await new Promise<void>(resolve => {
			const wake = () => {
				clearTimeout(timer);
				this.pending.delete(wake);
				resolve();
			};

			const timer = setTimeout(wake, ms);
			this.pending.add(wake);
		});
	}
}
