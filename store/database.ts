import {mkdirSync} from 'node:fs';
import {dirname} from 'node:path';
import Database from 'better-sqlite3';
import {RUNS_SCHEMA_SQL} from './runs.js';
import {TOKENS_SCHEMA_SQL} from './tokens.js';

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
	key TEXT PRIMARY KEY,
	fingerprint TEXT NOT NULL,
	result TEXT NOT NULL,
	at TEXT NOT NULL
);
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

/**
 * Opens (creating if needed) a store file: WAL so readers never block the writer, a busy
 * timeout so several processes can share the file, and the schema brought up to date.
 */
export function openDatabase(path: string, options: {busyTimeoutMs?: number} = {}): Db {
	if (path !== ':memory:') {
		mkdirSync(dirname(path), {recursive: true});
	}

	const db = new Database(path, {timeout: options.busyTimeoutMs ?? 10_000});
	db.pragma('journal_mode = WAL');
	// NORMAL in WAL mode keeps every commit atomic and durable across a process crash.
	db.pragma('synchronous = NORMAL');
	db.pragma('foreign_keys = ON');
	migrate(db);
	return db;
}

/** Bump when the schema changes; every statement in it is idempotent (IF NOT EXISTS). */
const SCHEMA_VERSION = 3;

function migrate(db: Db): void {
	if ((db.pragma('user_version', {simple: true}) as number) >= SCHEMA_VERSION) {
		return;
	}

	db.transaction(() => {
		db.exec(SCHEMA_SQL);
		db.exec(RUNS_SCHEMA_SQL);
		// Version 3: bearer tokens of `sift serve` (store/tokens.ts).
		db.exec(TOKENS_SCHEMA_SQL);
		db.pragma(`user_version = ${SCHEMA_VERSION}`);
	}).immediate();
}

/** Runs `work` inside BEGIN IMMEDIATE: the write lock is taken up front, so no reader upgrades late. */
export function immediate<T>(db: Db, work: () => T): T {
	return db.transaction(work).immediate();
}
