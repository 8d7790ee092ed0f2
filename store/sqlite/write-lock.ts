import type {Db} from './database.js';

/**
 * Waiting for another process's write lock. By default a write waits the busy timeout and then
 * fails; a store opened with a lock-wait policy tells its caller once and waits longer, so a
 * person editing while a long import runs sees why nothing happens instead of "database is locked".
 */

type LockPolicy = {onWait: () => void; waitMs: number; noticed: boolean};

/** Stores opened with onLockWait: how long their writes may wait for a busy lock. */
const lockPolicies = new WeakMap<Db, LockPolicy>();

export function setLockPolicy(db: Db, onWait: () => void, waitMs: number): void {
	lockPolicies.set(db, {onWait, waitMs, noticed: false});
}

const isBusy = (error: unknown) => (error as {code?: unknown}).code === 'SQLITE_BUSY';

/**
 * Runs a write transaction (`begin` calls a better-sqlite3 transaction's .immediate()). When the
 * write lock stays busy past the busy timeout and the store has a lock-wait policy, the caller is
 * told once and the write waits longer. BEGIN IMMEDIATE is where a busy lock is met, before any
 * work ran, so trying again repeats nothing.
 */
export function withWriteLock<T>(db: Db, begin: () => T): T {
	try {
		return begin();
	} catch (error) {
		const policy = lockPolicies.get(db);
		if (!policy || !isBusy(error)) {
			throw error;
		}

		if (!policy.noticed) {
			policy.noticed = true;
			policy.onWait();
		}

		const saved = db.pragma('busy_timeout', {simple: true}) as number;
		db.pragma(`busy_timeout = ${policy.waitMs}`);
		try {
			return begin();
		} finally {
			db.pragma(`busy_timeout = ${saved}`);
		}
	}
}
