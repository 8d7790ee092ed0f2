// Stores made before the agent cursor: a SQLite file at schema version 3 and a PostgreSQL schema at
// migration 2 gain the start and end sequence of each run, keep their runs (without sequences),
// and an old run never serves as a cursor, since where it stopped is not known.

import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openAsyncStore} from '../../store/api.js';
import {openDatabase, SCHEMA_VERSION} from '../../store/sqlite/database.js';
import {getRun, lastFinishedRun, recordRunEnd, recordRunStart} from '../../store/sqlite/runs.js';
import {MIGRATIONS, PG_SCHEMA_VERSION} from '../../store/postgres/schema.js';
import {tempDir} from '../codex/support.js';
import {createTestDatabase, describePg, type TestDatabase} from '../support/pg.js';

const OLD_RUN = {id: 'run-old', channel_id: 'bugs', item_ids: '[]', instruction: 'x', started_at: 't', finished_at: 't', outcome: 'ok'};

const ended = {finishedAt: '2026-01-01T00:05:00.000Z', outcome: 'ok', usage: null, editsApplied: 0, rejections: 0, followupsOpened: 0, error: null};

describe('a SQLite store of version 3', () => {
	it('gets start_sequence and end_sequence on its runs table, keeps its rows, and reopening changes nothing', () => {
		const file = path.join(tempDir(), 'v3.db');
		openDatabase(file, {create: true}).db.close();
		// The runs table as version 3 made it.
		const old = new Database(file);
		old.exec('DROP TABLE runs');
		old.exec(`CREATE TABLE runs (id TEXT PRIMARY KEY, channel_id TEXT NOT NULL, item_ids TEXT NOT NULL, instruction TEXT NOT NULL,
			started_at TEXT NOT NULL, finished_at TEXT, outcome TEXT, usage TEXT, edits_applied INTEGER NOT NULL DEFAULT 0,
			rejections INTEGER NOT NULL DEFAULT 0, followups_opened INTEGER NOT NULL DEFAULT 0, error TEXT, log_path TEXT,
			owner_pid INTEGER, process_group INTEGER)`);
		old.prepare('INSERT INTO runs (id, channel_id, item_ids, instruction, started_at, finished_at, outcome) VALUES (@id, @channel_id, @item_ids, @instruction, @started_at, @finished_at, @outcome)').run(OLD_RUN);
		old.pragma('user_version = 3');
		old.close();

		for (let open = 0; open < 2; open++) {
			const {db} = openDatabase(file);
			expect(db.pragma('user_version', {simple: true})).toBe(SCHEMA_VERSION);
			expect(getRun(db, 'run-old')).toMatchObject({id: 'run-old', outcome: 'ok', start_sequence: null, end_sequence: null});
			expect(lastFinishedRun(db, 'bugs')).toBeUndefined();
			const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'runs'").all() as Array<{name: string}>).map(row => row.name);
			expect(indexes).toEqual(expect.arrayContaining(['runs_unfinished', 'runs_cursor']));
			db.close();
		}

		const {db} = openDatabase(file);
		recordRunStart(db, {id: 'run-new', channelId: 'bugs', itemIds: [], instruction: 'y', startedAt: 't', logPath: null});
		recordRunEnd(db, 'run-new', ended);
		expect(lastFinishedRun(db, 'bugs')).toMatchObject({id: 'run-new', start_sequence: 0, end_sequence: 0});
		db.close();
	});

	it('a file opened read-only (not migrated) still lists its runs, their sequences null', () => {
		const file = path.join(tempDir(), 'v3-read.db');
		openDatabase(file, {create: true}).db.close();
		const old = new Database(file);
		old.exec('DROP INDEX runs_cursor');
		old.exec('ALTER TABLE runs DROP COLUMN start_sequence');
		old.exec('ALTER TABLE runs DROP COLUMN end_sequence');
		old.prepare('INSERT INTO runs (id, channel_id, item_ids, instruction, started_at, finished_at, outcome) VALUES (@id, @channel_id, @item_ids, @instruction, @started_at, @finished_at, @outcome)').run(OLD_RUN);
		const row = getRun(old, 'run-old');
		old.close();
		expect(row).toMatchObject({id: 'run-old', start_sequence: null, end_sequence: null});
	});
});

describePg('a PostgreSQL store at migration 2', () => {
	let database: TestDatabase;
	beforeAll(async () => {
		database = await createTestDatabase();
	});
	afterAll(() => database.drop());

	it('migration 3 adds the sequences; the old runs stay, without a cursor', async () => {
		expect(MIGRATIONS.map(step => step.version)).toEqual(Array.from({length: PG_SCHEMA_VERSION}, (_, n) => n + 1));
		const url = await database.freshSchemaUrl();
		const client = new pg.Client({connectionString: url});
		await client.connect();
		try {
			await client.query('CREATE TABLE schema_version (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)');
			for (const step of MIGRATIONS.filter(step => step.version <= 2)) {
				await client.query(step.sql);
				await client.query('INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)', [step.version, step.name, 'then']);
			}

			await client.query('INSERT INTO runs (id, channel_id, item_ids, instruction, started_at, finished_at, outcome) VALUES ($1, $2, $3, $4, $5, $6, $7)', Object.values(OLD_RUN));
			const store = await openAsyncStore(url);
			try {
				expect((await client.query('SELECT max(version) AS v FROM schema_version')).rows[0].v).toBe(PG_SCHEMA_VERSION);
				expect(await store.runs.get('run-old')).toMatchObject({id: 'run-old', outcome: 'ok', start_sequence: null, end_sequence: null});
				expect(await store.runs.lastFinished('bugs')).toBeUndefined();
				await store.runs.start({id: 'run-new', channelId: 'bugs', itemIds: [], instruction: 'y', startedAt: 't', logPath: null});
				await store.runs.end('run-new', ended);
				expect(await store.runs.lastFinished('bugs')).toMatchObject({id: 'run-new', start_sequence: 0, end_sequence: 0});
			} finally {
				await store.close();
			}
		} finally {
			await client.end();
		}
	});
});
