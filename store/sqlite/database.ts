// Opens a SQLite file (WAL, busy timeout), the schema, migrations and `SCHEMA_VERSION`; refuses a
// newer schema, and an older one it cannot upgrade (read-only)

import {existsSync} from 'node:fs';
import {dirname} from 'node:path';
import Database from 'better-sqlite3';
import {ITEM_COUNT_TRIGGERS_SQL, migrateToChannelIndexes} from './channels.js';
import {StoreError} from '../errors.js';
import {canWrite, createPrivateFile, ensurePrivateDir, removeStoreFiles, restrictCompanions} from './files.js';
import {migrateRunsColumns, RUNS_SCHEMA_SQL} from './runs.js';
import {addTokenScope, TOKENS_SCHEMA_SQL} from './tokens.js';
import {addProposalConfidence, addReviewColumns, PROPOSALS_SCHEMA_SQL} from './proposals.js';
import {checkIsStore, openReadOnly, SIFT_APPLICATION_ID} from './store-file.js';
import {addFullText} from './full-text.js';
import {addMembers} from './members.js';
import {addValueColumns, VALUE_COLUMNS} from './value-columns.js';
import {addFollowUpKind, SYNC_SCHEMA_SQL} from './sync.js';
import {NOT_DUPLICATES_SCHEMA_SQL} from './not-duplicates.js';

export {immediate, withWriteLock} from './write-lock.js';
export type {Db} from './db.js';
import type {Db} from './db.js';

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS channels (
	id TEXT PRIMARY KEY,
	name TEXT NOT NULL,
	fields TEXT NOT NULL,
	-- No longer maintained: a channel's latest sequence is the largest in events (store/sqlite/events.ts).
	last_sequence INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL,
	-- The channel's items, kept by the triggers below (v10): a summary reads it instead of counting.
	item_count INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS items (
	seq INTEGER PRIMARY KEY AUTOINCREMENT,
	id TEXT NOT NULL UNIQUE,
	channel_id TEXT NOT NULL REFERENCES channels(id),
	version INTEGER NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	data TEXT NOT NULL,
	-- Value columns: a copy of each indexed field's value, which the channel's indexes read (store/sqlite/value-columns.ts).
	${VALUE_COLUMNS.join(', ')}
);
CREATE INDEX IF NOT EXISTS items_by_channel ON items(channel_id, seq);
${ITEM_COUNT_TRIGGERS_SQL}
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
	-- Why, beyond the actor (v7): a proposal, or a revert of a run (JSON, store/types.ts EventCause).
	cause TEXT,
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
	resolution TEXT,
	-- v11: 'refused' or 'sync_conflict', and a conflict's three values as JSON (store/sqlite/sync.ts).
	kind TEXT NOT NULL DEFAULT 'refused',
	base TEXT,
	ours TEXT,
	theirs TEXT
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
	/**
	 * How long a synchronous call waits for another process's lock before it fails. The asynchronous
	 * store writes with none at all and waits on a timer instead (store/sqlite/write-lock.ts).
	 */
	busyTimeoutMs?: number;
	/**
	 * Called before an existing store is brought to this sift's schema, with both versions: an
	 * upgrade may rewrite every row (schema 5: about 10 s for a million items), so the caller can
	 * say why it waits. Not called for a new file.
	 */
	onUpgrade?: (from: number, to: number) => void;
	/**
	 * The connection's page cache, in KiB (default 16 MiB, better-sqlite3's build). A reader that
	 * goes once through a big file (sift export) gains nothing from it, and it is resident memory.
	 */
	pageCacheKiB?: number;
};

export type OpenedDatabase = {
	db: Db;
	/** The file (or its directory) is not writable here: reads work, writes are refused. */
	readOnly: boolean;
	/** What this open created, so a command that fails right after can remove it again. */
	created: {file: boolean; dirs: string[]};
};

const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

/**
 * Opens a store file: WAL so readers never block the writer, a busy timeout so several processes
 * can share the file, and the schema brought up to date. A file that is not a sift store is only
 * ever opened read-only, to look, and refused; one this process cannot write is served read-only.
 */
export function openDatabase(path: string, options: OpenOptions = {}): OpenedDatabase {
	const opened = openDatabaseFile(path, options);
	if (options.pageCacheKiB !== undefined) opened.db.pragma(`cache_size = -${Math.max(1, Math.round(options.pageCacheKiB))}`);
	return opened;
}

function openDatabaseFile(path: string, options: OpenOptions): OpenedDatabase {
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
		const db = openReadOnly(path, timeout);
		try {
			checkSchemaVersion(db, path, true);
		} catch (error) {
			db.close();
			throw error;
		}

		return {db, readOnly: true, created};
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

		migrate(db, path, options.onUpgrade);
		return db;
	} catch (error) {
		db.close();
		throw error;
	}
}

/**
 * Bump when the schema changes. Steps run in order inside one transaction and are idempotent;
 * SCHEMA_SQL then creates whatever is missing (IF NOT EXISTS).
 */
export const SCHEMA_VERSION = 14;

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

/**
 * v3: runs made before it have no owner_pid / process_group yet; v4: no start_sequence /
 * end_sequence (the agent cursor). Added before the indexes on them.
 */
function addRunColumns(db: Db): void {
	if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'").get()) migrateRunsColumns(db);
}

/**
 * v10: each channel's item count is kept in its row (a summary at 1M items counted for ~100 ms
 * before the TUI's first frame); filled here once, kept by SCHEMA_SQL's triggers from then on.
 */
function addItemCount(db: Db): void {
	const columns = (db.prepare("SELECT name FROM pragma_table_info('channels')").all() as Array<{name: string}>).map(row => row.name);
	if (columns.length === 0 || columns.includes('item_count')) return;
	db.exec('ALTER TABLE channels ADD COLUMN item_count INTEGER NOT NULL DEFAULT 0');
	db.exec('UPDATE channels SET item_count = (SELECT count(*) FROM items WHERE items.channel_id = channels.id)');
}

/**
 * Steps before SCHEMA_SQL, in order. v5: items get their value columns (store/sqlite/value-columns.ts); v6: tokens get a scope;
 * v7: events their cause, runs their mode and proposal count (store/sqlite/proposals.ts); v10: channels their item count;
 * v11: follow-ups their kind and a sync conflict's values (store/sqlite/sync.ts); v13: proposals their confidence. Each step checks what is there, so a store
 * that skipped a version number comes up to date all the same.
 */
const MIGRATION_STEPS: Array<(db: Db) => void> = [scopeIdempotencyKeys, addRunColumns, addValueColumns, addTokenScope, addReviewColumns, addItemCount, addFollowUpKind, addProposalConfidence];
/** v3: per-channel partial indexes replace the indexes over every channel's rows; v5: on value columns; v6: on created_at and updated_at too; v8: on the axis and each sort key (store/query/sql.ts axisOf); v9: full-text search of long text (store/sqlite/full-text.ts); v12: multi-select membership (store/sqlite/members.ts); v14: short text and multi_select fields sort, so they take value columns too (the columns are filled again in the new layout). Each is idempotent, so a store skipping a number upgrades alike. */
const AFTER_SCHEMA_STEPS: Array<(db: Db) => void> = [addFullText, addMembers, migrateToChannelIndexes];

/**
 * The store's schema version, if this sift can read the store as it is: not made by a newer sift (its tables may mean something
 * else), and, when it cannot be upgraded here (read-only), not made by an older one either.
 */
function checkSchemaVersion(db: Db, path: string, readOnly: boolean): number {
	const version = db.pragma('user_version', {simple: true}) as number;
	if (version > SCHEMA_VERSION) {
		throw new StoreError({error: 'invalid_argument', message: `the store at ${path} has schema version ${version}, newer than this sift knows (${SCHEMA_VERSION}): upgrade sift to open it`});
	}

	if (readOnly && version < SCHEMA_VERSION) {
		throw new StoreError({error: 'read_only', message: `the store at ${path} has schema version ${version}, older than this sift's (${SCHEMA_VERSION}), and is read-only for this user: open it once with write access to upgrade it`});
	}

	return version;
}

function migrate(db: Db, path: string, onUpgrade?: (from: number, to: number) => void): void {
	const version = checkSchemaVersion(db, path, false);
	if (version >= SCHEMA_VERSION) {
		return;
	}

	if (version > 0) {
		onUpgrade?.(version, SCHEMA_VERSION);
	}

	db.transaction(() => {
		for (const step of MIGRATION_STEPS) {
			step(db);
		}

		db.exec(SCHEMA_SQL);
		db.exec(RUNS_SCHEMA_SQL);
		// Bearer tokens of `sift serve` (store/tokens.ts).
		db.exec(TOKENS_SCHEMA_SQL);
		// Proposals of runs in propose mode (docs/review.md).
		db.exec(PROPOSALS_SCHEMA_SQL);
		// The sync engine's links, bases, outbox and comments (docs/architecture.md#the-sync-engine).
		db.exec(SYNC_SCHEMA_SQL);
		// v13: "not a duplicate" marks (store/not-duplicates.ts).
		db.exec(NOT_DUPLICATES_SCHEMA_SQL);
		for (const step of AFTER_SCHEMA_STEPS) {
			step(db);
		}

		db.pragma(`user_version = ${SCHEMA_VERSION}`);
	}).immediate();
}
