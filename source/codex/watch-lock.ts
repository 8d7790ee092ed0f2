// One watch per cursor: a lock file beside the cursor (`CURSOR.lock`, holding the watcher's pid),
// so two watches on the same database, channel and query never both send an item. A lock whose
// process is gone (a killed sift) is taken over.

import {closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync} from 'node:fs';
import {dirname} from 'node:path';

/** Another live watch holds the cursor. */
export class WatchLockedError extends Error {}

/** The lock file of a cursor file. */
export const watchLockPath = (cursorFile: string) => `${cursorFile}.lock`;

const alive = (pid: number) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
};

/**
 * Takes the cursor's lock; throws, naming the holder, when a live process holds it. Returns the
 * release (removes the lock if it is still this process's).
 */
export function lockWatch(cursorFile: string): () => void {
	const lock = watchLockPath(cursorFile);
	// The first watch of a state folder comes before any cursor was saved there.
	mkdirSync(dirname(lock), {recursive: true, mode: 0o700});
	for (let attempt = 0; ; attempt++) {
		try {
			const fd = openSync(lock, 'wx', 0o600);
			writeSync(fd, `${process.pid}\n`);
			closeSync(fd);
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
			const holder = Number.parseInt(readText(lock), 10);
			if (Number.isSafeInteger(holder) && holder > 0 && alive(holder)) {
				throw new WatchLockedError(`another watch (pid ${holder}) is watching this channel and query; stop it first (its lock: ${lock})`);
			}

			// Its watcher is gone: the lock is stale.
			rmSync(lock, {force: true});
		}
	}

	return () => {
		if (readText(lock).trim() === String(process.pid)) rmSync(lock, {force: true});
	};
}

function readText(file: string): string {
	try {
		return readFileSync(file, 'utf8');
	} catch {
		return '';
	}
}
