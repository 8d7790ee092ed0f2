import {closeSync, existsSync, openSync, readFileSync, readSync, statSync} from 'node:fs';
import {dirname} from 'node:path';
import Database from 'better-sqlite3';
import {StoreError} from './errors.js';
import {canWrite, createPrivateFile, ensurePrivateDir, removeStoreFiles, restrictCompanions} from './files.js';
import {RUNS_SCHEMA_SQL} from './runs.js';

export type Db = Database.Database;

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS channels (
	id TEXT PRIMARY KEY,
	name TEXT NOT NULL,
	fields TEXT NOT NULL,
	last_sequence INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS items (
	seq INTEGER PRIMARY KEY AUTOINCREMENT,
	id TEXT NOT NULL UNIQUE,
	channel_id TEXT NOT NULL REFERENCES channels(id),
	version INTEGER NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS items_by_channel ON items(channel_id, seq);
CREATE TABLE IF NOT EXISTS events (
	channel_id TEXT NOT NULL,
	sequence INTEGER NOT NULL,
	type TEXT NOT NULL,
	item_id TEXT NOT NULL,
	version INTEGER NOT NULL,
	actor_kind TEXT NOT NULL,
	run_id TEXT,
	changes TEXT NOT NULL,
	at TEXT NOT NULL,
	PRIMARY KEY (channel_id, sequence)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS events_by_item ON events(item_id, version);
CREATE TABLE IF NOT EXISTS idempotency (
	channel_id TEXT NOT NULL,
	actor TEXT NOT NULL,
	key TEXT NOT NULL,
	fingerprint TEXT NOT NULL,
	result TEXT NOT NULL,
	at TEXT NOT NULL,
	PRIMARY KEY (channel_id, actor, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS followups (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	channel_id TEXT NOT NULL,
	item_id TEXT NOT NULL,
	key TEXT NOT NULL,
	status TEXT NOT NULL,
	attempted TEXT NOT NULL,
	message TEXT NOT NULL,
	allowed TEXT,
	min REAL,
	max REAL,
	run_id TEXT,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	resolution TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS followups_open_per_field ON followups(item_id, key) WHERE status = 'open';
CREATE INDEX IF NOT EXISTS followups_by_channel ON followups(channel_id, status, id);
`;

export type OpenOptions = {
	/**
	 * Create the file when it is missing (its directories 0700, the file 0600). Only commands that
	 * make a store (import, demo) pass it; everything else opens an existing store or fails.
	 */
	create?: boolean;
	/** How long a write waits for another process's write lock before it fails, or before onLockWait. */
	busyTimeoutMs?: number;
	/**
	 * Called once per open store when a write has waited busyTimeoutMs for another process (a long
	 * import, say); the write then keeps waiting up to lockWaitMs instead of failing. The caller says
	 * so to its user: the store itself prints nothing.
	 */
	onLockWait?: () => void;
	lockWaitMs?: number;
};

export type OpenedDatabase = {
	db: Db;
	/** The file (or its directory) is not writable here: reads work, writes are refused. */
	readOnly: boolean;
	/** What this open created, so a command that fails right after can remove it again. */
	created: {file: boolean; dirs: string[]};
};

const DEFAULT_BUSY_TIMEOUT_MS = 10_000;
const DEFAULT_LOCK_WAIT_MS = 30 * 60_000;
/** The tables that make a file a sift store. */
const SIFT_TABLES = ['channels', 'items', 'events'];
/** SQLite's application_id for sift stores ("sift" in ASCII): the file header says whose it is. */
const SIFT_APPLICATION_ID = 0x73_69_66_74;
const SQLITE_HEADER = 'SQLite format 3\u0000';
const APPLICATION_ID_OFFSET = 68;

const notAStore = (path: string, why: string) => new StoreError({error: 'not_a_store', message: `${path} is not a sift database (${why})`});

/**
 * Opens a store file: WAL so readers never block the writer, a busy timeout so several processes
 * can share the file, and the schema brought up to date. A file that is not a sift store is only
 * ever opened read-only, to look, and refused; one this process cannot write is served read-only.
 */
export function openDatabase(path: string, options: OpenOptions = {}): OpenedDatabase {
	const timeout = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
	const created = {file: false, dirs: [] as string[]};
	if (path === ':memory:') {
		return {db: openWritable(path, options), readOnly: false, created};
	}

	if (existsSync(path)) {
		checkIsStore(path, options.create === true);
	} else if (options.create) {
		created.dirs = ensurePrivateDir(dirname(path));
		createPrivateFile(path);
		created.file = true;
	} else {
		throw new StoreError({error: 'not_found', message: `no database at ${path}`});
	}

	if (!created.file && !canWrite(path)) {
		return {db: openReadOnly(path, timeout), readOnly: true, created};
	}

	try {
		const db = openWritable(path, options);
		if (created.file) {
			restrictCompanions(path);
		}

		return {db, readOnly: false, created};
	} catch (error) {
		if (created.file) {
			removeStoreFiles(path, created.dirs);
		}

		throw error;
	}
}

function openWritable(path: string, options: OpenOptions): Db {
	const db = new Database(path, {timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS, fileMustExist: path !== ':memory:'});
	try {
		db.pragma('journal_mode = WAL');
		// NORMAL in WAL mode keeps every commit atomic and durable across a process crash.
		db.pragma('synchronous = NORMAL');
		db.pragma('foreign_keys = ON');
		if (db.pragma('application_id', {simple: true}) !== SIFT_APPLICATION_ID) {
			db.pragma(`application_id = ${SIFT_APPLICATION_ID}`);
		}

		if (options.onLockWait) {
			lockPolicies.set(db, {onWait: options.onLockWait, waitMs: options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS, noticed: false});
		}

		migrate(db);
		return db;
	} catch (error) {
		db.close();
		throw error;
	}
}

/** Refuses a file that is not a sift store, looking at it read-only; `forCreate` accepts an empty one. */
function checkIsStore(path: string, forCreate: boolean): void {
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
function openReadOnly(path: string, timeout: number): Db {
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

/**
 * Bump when the schema changes. Steps run in order inside one transaction and are idempotent;
 * SCHEMA_SQL then creates whatever is missing (IF NOT EXISTS).
 */
const SCHEMA_VERSION = 3;

/**
 * v3: idempotency keys belong to a channel and an actor (before, one global namespace: a key used
 * on one channel was refused on another). The old table cannot say whose its keys were, so it is
 * dropped; a retry of an edit made before the upgrade then applies as a new edit.
 */
function scopeIdempotencyKeys(db: Db): void {
	const columns = (db.prepare("SELECT name FROM pragma_table_info('idempotency')").all() as Array<{name: string}>).map(row => row.name);
	if (columns.length > 0 && !columns.includes('channel_id')) {
		db.exec('DROP TABLE idempotency');
	}
}

const MIGRATION_STEPS: Array<(db: Db) => void> = [scopeIdempotencyKeys];

function migrate(db: Db): void {
	if ((db.pragma('user_version', {simple: true}) as number) >= SCHEMA_VERSION) {
		return;
	}

	db.transaction(() => {
		for (const step of MIGRATION_STEPS) {
			step(db);
		}

		db.exec(SCHEMA_SQL);
		db.exec(RUNS_SCHEMA_SQL);
		db.pragma(`user_version = ${SCHEMA_VERSION}`);
	}).immediate();
}

type LockPolicy = {onWait: () => void; waitMs: number; noticed: boolean};

/** Stores opened with onLockWait: how long their writes may wait for a busy lock. */
const lockPolicies = new WeakMap<Db, LockPolicy>();

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

/** Runs `work` inside BEGIN IMMEDIATE: the write lock is taken up front, so no reader upgrades late. */
export function immediate<T>(db: Db, work: () => T): T {
	return withWriteLock(db, () => db.transaction(work).immediate());
}
