// Tells a sift store from any other file, read-only.

import {closeSync, existsSync, openSync, readFileSync, readSync, statSync} from 'node:fs';
import Database from 'better-sqlite3';
import type {Db} from './db.js';
import {StoreError} from '../errors.js';

/**
 * Telling a sift store from any other file, and reading one this process may not write. Both look
 * at the file read-only: a file that is not sift's is never changed, not even its journal mode.
 */

/** The tables that make a file a sift store. */
const SIFT_TABLES = ['channels', 'items', 'events'];
/** SQLite's application_id for sift stores ("sift" in ASCII): the file header says whose it is. */
export const SIFT_APPLICATION_ID = 0x73_69_66_74;
const SQLITE_HEADER = 'SQLite format 3\u0000';
const APPLICATION_ID_OFFSET = 68;

const notAStore = (path: string, why: string) => new StoreError({error: 'not_a_store', message: `${path} is not a sift database (${why})`});

/** Refuses a file that is not a sift store, looking at it read-only; `forCreate` accepts an empty one. */
export function checkIsStore(path: string, forCreate: boolean): void {
	if (statSync(path).size === 0) {
		if (forCreate) {
			return;
		}

		throw notAStore(path, 'an empty file');
	}

	// The common case, settled from the file header alone (no second connection to open).
	if (headerNamesSift(path)) {
		return;
	}

	let tables: string[];
	try {
		const db = openReadOnly(path, 0);
		try {
			tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{name: string}>).map(row => row.name);
		} finally {
			db.close();
		}
	} catch (error) {
		const code = (error as {code?: unknown}).code;
		if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
			throw notAStore(path, 'not an SQLite database file');
		}

		throw error;
	}

	if (tables.length === 0 && forCreate) {
		return;
	}

	const missing = SIFT_TABLES.filter(name => !tables.includes(name));
	if (missing.length > 0) {
		throw notAStore(path, tables.length === 0 ? 'an SQLite database with no tables' : `an SQLite database without sift's ${missing.join(', ')} tables`);
	}
}

/** True when the file's header is SQLite's and carries sift's application_id. */
function headerNamesSift(path: string): boolean {
	const header = Buffer.alloc(APPLICATION_ID_OFFSET + 4);
	const fd = openSync(path, 'r');
	try {
		return readSync(fd, header, 0, header.length, 0) === header.length
			&& header.toString('latin1', 0, SQLITE_HEADER.length) === SQLITE_HEADER
			&& header.readUInt32BE(APPLICATION_ID_OFFSET) === SIFT_APPLICATION_ID;
	} finally {
		closeSync(fd);
	}
}

/** SQLite needs the -shm file to read a WAL database; in a read-only directory it cannot make one. */
const needsWalIndex = (error: unknown) => {
	const code = String((error as {code?: unknown}).code);
	return code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN');
};

/** Byte offsets of the file header's read and write format versions: 2 means WAL, 1 a rollback journal. */
const FORMAT_VERSION_BYTES = [18, 19];

/** Opens a file for reading only; nothing is migrated, switched or created. */
export function openReadOnly(path: string, timeout: number): Db {
	const db = new Database(path, {readonly: true, fileMustExist: true, timeout});
	try {
		db.prepare('SELECT count(*) FROM sqlite_master').get();
		return db;
	} catch (error) {
		db.close();
		if (!needsWalIndex(error)) {
			throw error;
		}
	}

	// A WAL store in a read-only directory, closed cleanly (no -wal left): every row is in the file,
	// so read an in-memory copy of it, marked as a rollback-journal database so no -shm is needed.
	if (existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0) {
		throw new StoreError({error: 'read_only', message: `cannot read ${path}: its write-ahead log ${path}-wal holds changes, and reading them needs write access to the directory`});
	}

	const image = readFileSync(path);
	for (const offset of FORMAT_VERSION_BYTES) {
		image[offset] = 1;
	}

	return new Database(image, {readonly: true});
}
