// The PostgreSQL schema and its migrations. Opening a store brings the schema up to date under a
// transaction-scoped advisory lock, so processes opening one database at once migrate it once.

import type pg from 'pg';
import {StoreError} from '../errors.js';

type Migration = {version: number; name: string; sql: string};

/** Every step is applied once, in order, and recorded in schema_version. Append new steps; never edit old ones. */
export const MIGRATIONS: Migration[] = [
	{
		version: 1,
		name: 'records, events, idempotency, follow-ups, runs',
		sql: `
CREATE TABLE channels (
	id text PRIMARY KEY,
	name text NOT NULL,
	fields jsonb NOT NULL,
	last_sequence bigint NOT NULL DEFAULT 0,
	created_at text NOT NULL
);
-- Item ids are this counter in base 36: they sort by creation and are never reused.
CREATE SEQUENCE item_seq;
-- The id is derived from seq, so (channel_id, seq) finds an item by id and pages a channel: one
-- index, not three, to maintain on every insert. Channels are never deleted, and every write
-- reads its channel first, so a foreign key would only add a check per imported row.
CREATE TABLE items (
	channel_id text NOT NULL,
	seq bigint NOT NULL,
	id text NOT NULL,
	version integer NOT NULL,
	created_at text NOT NULL,
	updated_at text NOT NULL,
	data jsonb NOT NULL,
	PRIMARY KEY (channel_id, seq)
);
CREATE TABLE events (
	channel_id text NOT NULL,
	sequence bigint NOT NULL,
	type text NOT NULL,
	item_id text NOT NULL,
	version integer NOT NULL,
	actor_kind text NOT NULL,
	run_id text,
	changes json NOT NULL,
	at text NOT NULL,
	PRIMARY KEY (channel_id, sequence)
);
CREATE INDEX events_by_item ON events (item_id, version);
CREATE TABLE idempotency (
	channel_id text NOT NULL,
	actor text NOT NULL,
	key text NOT NULL,
	fingerprint text NOT NULL,
	result json NOT NULL,
	at text NOT NULL,
	PRIMARY KEY (channel_id, actor, key)
);
CREATE TABLE followups (
	id bigserial PRIMARY KEY,
	channel_id text NOT NULL,
	item_id text NOT NULL,
	key text NOT NULL,
	status text NOT NULL,
	attempted json NOT NULL,
	message text NOT NULL,
	allowed json,
	min double precision,
	max double precision,
	run_id text,
	created_at text NOT NULL,
	updated_at text NOT NULL,
	resolution text
);
CREATE UNIQUE INDEX followups_open_per_field ON followups (item_id, key) WHERE status = 'open';
CREATE INDEX followups_by_channel ON followups (channel_id, status, id);
CREATE TABLE runs (
	id text PRIMARY KEY,
	channel_id text NOT NULL,
	item_ids json NOT NULL,
	instruction text NOT NULL,
	started_at text NOT NULL,
	finished_at text,
	outcome text,
	usage json,
	edits_applied integer NOT NULL DEFAULT 0,
	rejections integer NOT NULL DEFAULT 0,
	followups_opened integer NOT NULL DEFAULT 0,
	error text,
	log_path text
);
`,
	},
	{
		version: 2,
		name: 'tokens; the owner of each run (host, pid, process group)',
		sql: `
-- Bearer tokens of sift serve: only the sha256 of each secret (store/token-rules.ts).
CREATE TABLE tokens (
	name text PRIMARY KEY,
	hash text NOT NULL UNIQUE,
	grants jsonb NOT NULL,
	actor text NOT NULL,
	run_id text,
	created_at text NOT NULL,
	expires_at text,
	last_used_at text,
	revoked_at text
);
-- A pid and a process group mean something only on the host that recorded them.
ALTER TABLE runs ADD COLUMN owner_host text, ADD COLUMN owner_pid integer, ADD COLUMN process_group integer;
CREATE INDEX runs_unfinished ON runs (owner_host) WHERE finished_at IS NULL;
`,
	},
	{
		version: 3,
		name: 'the agent cursor: the channel\'s latest sequence at each run\'s start and end',
		sql: `
ALTER TABLE runs ADD COLUMN start_sequence bigint, ADD COLUMN end_sequence bigint;
-- The last finished run of a channel: where a run without explicit items catches up from.
CREATE INDEX runs_cursor ON runs (channel_id, end_sequence) WHERE end_sequence IS NOT NULL;
`,
	},
	{
		version: 4,
		name: 'token scopes: read or write',
		sql: `
-- Tokens made before scopes could write, and keep doing so.
ALTER TABLE tokens ADD COLUMN scope text NOT NULL DEFAULT 'write';
`,
	},
];

export const PG_SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

/** One constant key for the migration lock ("sift" in ASCII). */
const MIGRATION_LOCK = 0x73696674;

/** Brings the schema up to date; refuses a database migrated by a newer sift. `where` names it in messages. */
export async function migrate(client: pg.ClientBase, where: string): Promise<void> {
	await client.query('BEGIN');
	try {
		await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
		await client.query('CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)');
		const {rows} = await client.query<{version: number | null}>('SELECT max(version) AS version FROM schema_version');
		const current = rows[0]?.version ?? 0;
		if (current > PG_SCHEMA_VERSION) {
			throw new StoreError({error: 'invalid_argument', message: `the PostgreSQL store at ${where} has schema version ${current}, newer than this sift knows (${PG_SCHEMA_VERSION}): upgrade sift to open it`});
		}

		for (const migration of MIGRATIONS.filter(step => step.version > current)) {
			await client.query(migration.sql);
			await client.query('INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)', [migration.version, migration.name, new Date().toISOString()]);
		}

		await client.query('COMMIT');
	} catch (error) {
		await client.query('ROLLBACK').catch(() => {});
		throw error;
	}
}
