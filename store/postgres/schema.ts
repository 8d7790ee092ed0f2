// The PostgreSQL schema and its migrations. Opening a store first reads what the schema holds; only
// a migration that is due (or a store being created by import, demo or migrate) runs DDL, under a
// transaction-scoped advisory lock, so processes opening one database at once migrate it once.

import type pg from 'pg';
import {StoreError} from '../errors.js';
import {missingChannelIndexes} from './channels.js';
import {CHANNEL_TIME_INDEXES_SQL, pgParserTextIndexName} from './query.js';

/** A step: its SQL, then (for what SQL cannot compute: indexes that depend on each channel's fields) a function run in the same transaction. */
type Migration = {version: number; name: string; sql: string; then?: (client: pg.ClientBase) => Promise<void>};

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
	{
		version: 5,
		name: 'every channel\'s created_at and updated_at indexes (sort:created, updated:<…)',
		// Channels imported from now on get them at import (pgChannelIndexes); this gives older channels the same ones.
		sql: CHANNEL_TIME_INDEXES_SQL,
	},
	{
		version: 6,
		name: 'review: proposals, event causes, run modes',
		sql: `
-- Valid edits of runs in propose mode, waiting for a person (docs/review.md).
CREATE TABLE proposals (
	id bigserial PRIMARY KEY,
	channel_id text NOT NULL,
	item_id text NOT NULL,
	run_id text,
	base_version integer NOT NULL,
	changes jsonb NOT NULL,
	reason text,
	status text NOT NULL,
	created_at text NOT NULL,
	decided_at text,
	decided_by text,
	written_version integer
);
CREATE INDEX proposals_open_by_item ON proposals (item_id) WHERE status = 'open';
CREATE INDEX proposals_by_channel ON proposals (channel_id, status, id);
CREATE INDEX proposals_by_run ON proposals (run_id, id);
-- Why an event happened beyond its actor: a proposal, or a revert of a run.
ALTER TABLE events ADD COLUMN cause jsonb;
ALTER TABLE runs ADD COLUMN mode text, ADD COLUMN proposals integer NOT NULL DEFAULT 0;
`,
	},
	{
		version: 7,
		name: 'composite indexes on each channel\'s axis and every sort key (status:new sort:due)',
		// Whatever of pgChannelIndexes a channel lacks: its (axis, sort key, seq) indexes (store/query/sql.ts axisOf).
		sql: '-- each channel\'s indexes depend on its fields: made by `then`',
		then: async client => {
			for (const sql of await missingChannelIndexes(client)) await client.query(sql);
		},
	},
	{
		version: 8,
		name: 'full-text search: a GIN index on each channel\'s long text (bare words)',
		// Whatever of pgChannelIndexes a channel lacks: its text search index (store/postgres/query.ts pgTextVector).
		sql: '-- each channel\'s indexes depend on its fields: made by `then`',
		then: async client => {
			for (const sql of await missingChannelIndexes(client)) await client.query(sql);
		},
	},
	{
		version: 9,
		name: 'each channel\'s item count, kept per write',
		// A summary read count(*) over the channel's items (a scan of a million rows before the TUI's
		// first frame). Statement-level triggers add each INSERT's and DELETE's rows per channel, so a
		// bulk import bumps the count once per statement. Items are only inserted or deleted by writes
		// on one channel that lock its row anyway (to bump last_sequence), so the bump adds no new lock.
		// The functions keep the search_path they were made with: every caller updates sift's own channels.
		sql: `
ALTER TABLE channels ADD COLUMN item_count bigint NOT NULL DEFAULT 0;
UPDATE channels c SET item_count = (SELECT count(*) FROM items i WHERE i.channel_id = c.id);
CREATE OR REPLACE FUNCTION sift_count_items_in() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
	UPDATE channels c SET item_count = c.item_count + added.n FROM (SELECT channel_id, count(*) AS n FROM new_items GROUP BY channel_id) added WHERE c.id = added.channel_id;
	RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION sift_count_items_out() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
	UPDATE channels c SET item_count = c.item_count - removed.n FROM (SELECT channel_id, count(*) AS n FROM old_items GROUP BY channel_id) removed WHERE c.id = removed.channel_id;
	RETURN NULL;
END $$;
CREATE TRIGGER items_counted_in AFTER INSERT ON items REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION sift_count_items_in();
CREATE TRIGGER items_counted_out AFTER DELETE ON items REFERENCING OLD TABLE AS old_items FOR EACH STATEMENT EXECUTE FUNCTION sift_count_items_out();
`,
	},
	{
		version: 10,
		name: 'the sync engine: links, bases, outbox, comments; follow-ups\' kind',
		// Bases and outbox values are canonical JSON as text (store/sync/merge.ts), compared as text.
		// Written to run again harmlessly (IF NOT EXISTS): a store whose recorded version was taken back still opens.
		sql: `
CREATE TABLE IF NOT EXISTS sync_links (
	channel_id text PRIMARY KEY,
	tracker text NOT NULL,
	remote text NOT NULL,
	key_field text NOT NULL,
	fields jsonb NOT NULL,
	state jsonb NOT NULL,
	created_at text NOT NULL,
	last_pull_at text,
	last_push_at text
);
CREATE TABLE IF NOT EXISTS sync_bases (
	channel_id text NOT NULL,
	item_id text NOT NULL,
	source text NOT NULL,
	field text NOT NULL,
	value text NOT NULL,
	PRIMARY KEY (item_id, source, field)
);
CREATE INDEX IF NOT EXISTS sync_bases_by_channel ON sync_bases (channel_id, source);
CREATE TABLE IF NOT EXISTS sync_outbox (
	id bigserial PRIMARY KEY,
	channel_id text NOT NULL,
	item_id text NOT NULL,
	field text NOT NULL,
	kind text NOT NULL,
	base text NOT NULL,
	value text NOT NULL,
	state text NOT NULL,
	attempts integer NOT NULL DEFAULT 0,
	last_error text,
	created_at text NOT NULL,
	UNIQUE (item_id, field)
);
CREATE INDEX IF NOT EXISTS sync_outbox_by_channel ON sync_outbox (channel_id, state, id);
CREATE TABLE IF NOT EXISTS item_comments (
	channel_id text NOT NULL,
	item_id text NOT NULL,
	remote_id text NOT NULL,
	author text,
	body text NOT NULL,
	created_at text NOT NULL,
	updated_at text NOT NULL,
	PRIMARY KEY (item_id, remote_id)
);
ALTER TABLE followups ADD COLUMN IF NOT EXISTS kind text NOT NULL DEFAULT 'refused', ADD COLUMN IF NOT EXISTS base json, ADD COLUMN IF NOT EXISTS ours json, ADD COLUMN IF NOT EXISTS theirs json;
`,
	},
	{
		version: 11,
		name: 'membership: a GIN index on each channel\'s multi_select values (labels:bug)',
		// Whatever of pgChannelIndexes a channel lacks: its multi_select indexes (store/postgres/query.ts memberIndex).
		sql: '-- each channel\'s indexes depend on its fields: made by `then`',
		then: async client => {
			for (const sql of await missingChannelIndexes(client)) await client.query(sql);
		},
	},
	{
		version: 12,
		name: 'exact text: an index on each short text field\'s whole value (author:=ren)',
		// Whatever of pgChannelIndexes a channel lacks: its text fields' exact indexes (store/query/sql.ts hasExactIndex).
		sql: '-- each channel\'s indexes depend on its fields: made by `then`',
		then: async client => {
			for (const sql of await missingChannelIndexes(client)) await client.query(sql);
		},
	},
	{
		version: 13,
		name: 'duplicates: "not a duplicate" marks, proposals\' confidence',
		sql: `
-- A person's word that two records are not duplicates, the smaller id first (store/not-duplicates.ts).
CREATE TABLE IF NOT EXISTS not_duplicates (
	channel_id text NOT NULL,
	item_a text NOT NULL,
	item_b text NOT NULL,
	marked_at text NOT NULL,
	PRIMARY KEY (channel_id, item_a, item_b)
);
CREATE INDEX IF NOT EXISTS not_duplicates_by_b ON not_duplicates(channel_id, item_b);
-- How sure the agent was of a proposal, 0..1, when it said (docs/review.md#confidence).
ALTER TABLE proposals ADD COLUMN IF NOT EXISTS confidence double precision;
`,
	},
	{
		version: 14,
		name: 'full text: long text cut into words as SQLite cuts them (punctuation splits words)',
		// Each channel's old text index (the parser's words) goes; its new one (store/postgres/query.ts pgTextVector) is made.
		sql: '-- each channel\'s indexes depend on its fields: made by `then`',
		then: async client => {
			const {rows} = await client.query<{id: string}>('SELECT id FROM channels');
			for (const {id} of rows) await client.query(`DROP INDEX IF EXISTS "${pgParserTextIndexName(id)}"`);
			for (const sql of await missingChannelIndexes(client)) await client.query(sql);
		},
	},
	{
		version: 15,
		name: 'sort by short text and multi_select: an order index on each (sort:title, sort:labels)',
		// Whatever of pgChannelIndexes a channel lacks: its short text and multi_select order indexes (store/query/sql.ts orderKeySql).
		sql: '-- each channel\'s indexes depend on its fields: made by `then`',
		then: async client => {
			for (const sql of await missingChannelIndexes(client)) await client.query(sql);
		},
	},
];

export const PG_SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

/** One constant key for the migration lock ("sift" in ASCII). */
const MIGRATION_LOCK = 0x73696674;

/**
 * What the current schema (the first on the search path) holds: sift's store at some version, no
 * store, or another application's tables. sift's store is told by its schema_version table having
 * sift's columns and sift's own name for migration 1, a row no other application writes; an
 * application's own schema_version is never taken for it.
 */
export type StoreState = {kind: 'store'; version: number} | {kind: 'none'} | {kind: 'foreign'; why: string};

const SIFT_TABLES = ['channels', 'items', 'events', 'idempotency', 'followups', 'runs', 'tokens'];

export async function storeState(client: pg.ClientBase): Promise<StoreState> {
	const {rows: tables} = await client.query<{name: string}>(
		`SELECT c.relname AS name FROM pg_class c
		 WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S') AND c.relname = ANY($1)`,
		[['schema_version', ...SIFT_TABLES, 'item_seq']],
	);
	const names = new Set(tables.map(row => row.name));
	if (!names.has('schema_version')) {
		const taken = SIFT_TABLES.filter(name => names.has(name));
		return taken.length === 0 ? {kind: 'none'} : {kind: 'foreign', why: `it has tables named ${taken.join(', ')} but no sift schema_version`};
	}

	const {rows: columns} = await client.query<{name: string}>(
		`SELECT attname AS name FROM pg_attribute WHERE attrelid = (quote_ident(current_schema()) || '.schema_version')::regclass AND attnum > 0 AND NOT attisdropped`,
	);
	const has = new Set(columns.map(row => row.name));
	if (has.size !== 3 || !['version', 'name', 'applied_at'].every(name => has.has(name))) {
		return {kind: 'foreign', why: 'its schema_version table is not sift\'s (other columns)'};
	}

	const {rows} = await client.query<{first: string | null; version: number | null}>(
		'SELECT (SELECT name FROM schema_version WHERE version = 1) AS first, (SELECT max(version) FROM schema_version) AS version',
	);
	if (rows[0]?.first !== MIGRATIONS[0]!.name) {
		return {kind: 'foreign', why: 'its schema_version table was not written by sift'};
	}

	return {kind: 'store', version: rows[0].version ?? 0};
}

/** The role is the owner of sift's tables (or a member of the owning role, or a superuser). */
async function ownsStore(client: pg.ClientBase): Promise<boolean> {
	const {rows} = await client.query<{owns: boolean}>(
		`SELECT pg_has_role(current_user, relowner, 'USAGE') AS owns FROM pg_class WHERE oid = (quote_ident(current_schema()) || '.schema_version')::regclass`,
	);
	return rows[0]?.owns === true;
}

export type MigrateOptions = {
	/** Create sift's tables when the schema holds no store (import, demo, migrate); else such a schema is refused. */
	create: boolean;
	/** host:port/database, for messages. */
	where: string;
	/** The URL as it may be shown, for the command to run. */
	display: string;
	/** Told before an existing store is upgraded, with both versions (not for a new one). */
	onUpgrade?: (from: number, to: number) => void;
};

const notAStore = (where: string, why: string) => new StoreError({
	error: 'not_a_store',
	message: `the PostgreSQL database at ${where} is not a sift store (${why}); nothing was changed. Create one with \`sift import FILE\`, \`sift demo\` or \`sift migrate\`, or point --db at the right database or schema`,
});

const tooNew = (where: string, version: number) => new StoreError({error: 'invalid_argument', message: `the PostgreSQL store at ${where} has schema version ${version}, newer than this sift knows (${PG_SCHEMA_VERSION}): upgrade sift to open it`});

/** Why a migration that is due could not run, and what the owner runs instead. */
const migrationRefused = (options: MigrateOptions, from: number, reason: string) => new StoreError({
	error: 'read_only',
	message: `the PostgreSQL store at ${options.where} needs its schema upgraded (${from} to ${PG_SCHEMA_VERSION}) and this role may not do it (${reason}); run \`sift migrate --db ${options.display}\` as the owner of sift's tables`,
});

/**
 * Brings the schema up to date, or refuses what is not a store. Runs no DDL and takes no lock when
 * the store is current (every open of a store in use): a role with only SELECT, INSERT, UPDATE and
 * DELETE opens it. Refuses a database migrated by a newer sift. Returns the version it left.
 */
export async function migrate(client: pg.ClientBase, options: MigrateOptions): Promise<number> {
	const state = await storeState(client);
	if (state.kind === 'store' && state.version === PG_SCHEMA_VERSION) return state.version;
	if (state.kind === 'store' && state.version > PG_SCHEMA_VERSION) throw tooNew(options.where, state.version);
	if (state.kind === 'foreign') throw notAStore(options.where, state.why);
	if (state.kind === 'none' && !options.create) throw notAStore(options.where, 'it has no sift tables');
	// Only the owner of sift's tables can alter them: anyone else is told so before anything is tried.
	if (state.kind === 'store' && !(await ownsStore(client))) throw migrationRefused(options, state.version, 'it does not own sift\'s tables');

	await client.query('BEGIN');
	try {
		// Migrations may rewrite big tables: no statement timeout for them.
		await client.query('SET LOCAL statement_timeout = 0');
		await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
		// Another process may have migrated while this one waited for the lock.
		const locked = await storeState(client);
		if (locked.kind === 'foreign') throw notAStore(options.where, locked.why);
		if (locked.kind === 'store' && locked.version > PG_SCHEMA_VERSION) throw tooNew(options.where, locked.version);
		const current = locked.kind === 'store' ? locked.version : 0;
		if (current > 0 && current < PG_SCHEMA_VERSION) options.onUpgrade?.(current, PG_SCHEMA_VERSION);
		if (current === 0) {
			await client.query('CREATE TABLE schema_version (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)');
		}

		// Every step not yet applied, a skipped number too (steps are numbered apart, and may land in any order).
		const applied = current === 0 ? new Set<number>() : new Set((await client.query<{version: number}>('SELECT version FROM schema_version')).rows.map(row => row.version));
		for (const migration of MIGRATIONS.filter(step => !applied.has(step.version))) {
			await client.query(migration.sql);
			await migration.then?.(client);
			await client.query('INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)', [migration.version, migration.name, new Date().toISOString()]);
		}

		await client.query('COMMIT');
		return PG_SCHEMA_VERSION;
	} catch (error) {
		await client.query('ROLLBACK').catch(() => {});
		const code = (error as {code?: string}).code;
		if (code === '42501' && state.kind === 'store') throw migrationRefused(options, state.version, (error as Error).message);
		if (code === '42501') {
			throw new StoreError({error: 'read_only', message: `cannot create sift's tables in the PostgreSQL database at ${options.where}: ${(error as Error).message}; run \`sift migrate --db ${options.display}\` as a role that may create tables there (its owner)`});
		}

		if (code === '42P07') throw notAStore(options.where, `it already has a table that is not sift's: ${(error as Error).message}`);
		throw error;
	}
}
