// A store's files on disk: private modes, companions, removal.

import {accessSync, chmodSync, closeSync, constants, existsSync, fchmodSync, mkdirSync, openSync, rmdirSync, rmSync, statSync} from 'node:fs';
import {dirname, resolve} from 'node:path';

/**
 * The files of a store on disk. Records are private: directories sift creates are 0700 and
 * database files 0600 (set with chmod, whatever the umask). Existing files keep their mode.
 */

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;
/** SQLite's companions of a database file in WAL mode. */
const COMPANIONS = ['-wal', '-shm'];

/** Creates `dir` and any missing parents, each 0700; returns the ones it created, outermost first. */
export function ensurePrivateDir(dir: string): string[] {
	const missing: string[] = [];
	for (let current = resolve(dir); !existsSync(current); current = dirname(current)) {
		missing.unshift(current);
		if (dirname(current) === current) {
			break;
		}
	}

	for (const path of missing) {
		mkdirSync(path, {mode: PRIVATE_DIR});
		chmodSync(path, PRIVATE_DIR);
	}

	return missing;
}

/** Creates an empty database file, 0600; fails if something is already there. */
export function createPrivateFile(path: string): void {
	const fd = openSync(path, 'wx', PRIVATE_FILE);
	try {
		fchmodSync(fd, PRIVATE_FILE);
	} finally {
		closeSync(fd);
	}
}

/** Makes a new store's -wal and -shm as private as the database file (SQLite creates them as it goes). */
export function restrictCompanions(path: string): void {
	for (const suffix of COMPANIONS) {
		if (existsSync(path + suffix)) {
			chmodSync(path + suffix, PRIVATE_FILE);
		}
	}
}

/** True when this process may write the database: the file, and its directory (for the -wal and -shm files). */
export function canWrite(path: string): boolean {
	try {
		accessSync(path, constants.W_OK);
		accessSync(dirname(path), constants.W_OK);
		return true;
	} catch {
		return false;
	}
}

/** True when users other than the owner can read the database file (its group or everyone). */
export function isDatabaseReadableByOthers(path: string): boolean {
	return (statSync(path).mode & 0o044) !== 0;
}

/** Removes a database file and its companions, then the directories listed (innermost first) if they are empty. */
export function removeStoreFiles(path: string, createdDirs: readonly string[] = []): void {
	for (const suffix of ['', ...COMPANIONS]) {
		rmSync(path + suffix, {force: true});
	}

	for (const dir of [...createdDirs].reverse()) {
		try {
			rmdirSync(dir);
		} catch {
			// Not empty (something else was put there) or already gone: leave it.
			return;
		}
	}
}
