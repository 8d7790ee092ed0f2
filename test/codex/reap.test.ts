// Reaping runs whose sift died.

import {spawn, spawnSync} from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import {afterEach, describe, expect, it} from 'vitest';
import {openDatabase} from '../../store/sqlite/database.js';
import {getRun, lastFinishedRun, recordRunStart} from '../../store/sqlite/runs.js';
import {openStore, SqliteAsyncStore} from '../../store/index.js';
import {runLogPath} from '../../source/codex/paths.js';
import {reapAbandonedRuns} from '../../source/codex/reap.js';
import {RunLogWriter} from '../../source/codex/runlog.js';
import {tempDir} from './support.js';

const sleepers: Array<ReturnType<typeof spawn>> = [];
afterEach(() => {
	for (const sleeper of sleepers.splice(0)) sleeper.kill('SIGKILL');
});

/** A pid that was a process and no longer is. */
function deadPid(): number {
	return Number(spawnSync('sh', ['-c', 'echo $$'], {encoding: 'utf8'}).stdout.trim());
}

const start = (id: string, ownerPid: number | null, logPath: string | null = null) => ({id, channelId: 'bugs', itemIds: [], instruction: 'triage', startedAt: '2025-01-02T03:04:05.000Z', logPath, ownerPid});

describe('reapAbandonedRuns', () => {
	it('closes the runs of a dead owner only: abandoned, or the outcome its log already has', async () => {
		const dir = tempDir();
		const stateDir = path.join(dir, 'state');
		const store = openStore(path.join(dir, 'sift.db'), {create: true});
		const {db} = store;
		const asyncOf = (_db: unknown) => new SqliteAsyncStore(store);
		const live = spawn('sleep', ['30'], {stdio: 'ignore'});
		sleepers.push(live);
		const logged = runLogPath(stateDir, 'run-logged');
		const writer = new RunLogWriter(logged);
		writer.start({run_id: 'run-logged', started_at: '', channel_id: 'bugs', item_ids: [], instruction: 'triage', model: null});
		writer.end({run_id: 'run-logged', finished_at: '2025-01-02T03:05:00.000Z', outcome: 'ok', text: 'done', error: null, usage: null, duration_ms: 5, edits_applied: 2, rejections: 0, followups_opened: 0, exit_code: 0, signal: null, stderr_tail: ''});

		recordRunStart(db, start('run-dead', deadPid()));
		recordRunStart(db, start('run-logged', deadPid(), logged));
		recordRunStart(db, start('run-live', live.pid!));
		recordRunStart(db, start('run-legacy', null));

		expect((await reapAbandonedRuns(asyncOf(db), {SIFT_STATE_DIR: stateDir})).sort()).toEqual(['run-dead', 'run-logged']);
		expect(getRun(db, 'run-dead')).toMatchObject({outcome: 'abandoned', error: expect.stringContaining('gone')});
		expect(getRun(db, 'run-logged')).toMatchObject({outcome: 'ok', edits_applied: 2, finished_at: '2025-01-02T03:05:00.000Z'});
		// Closed after the fact: where the runs stopped is not known, so neither is the agent cursor.
		expect([getRun(db, 'run-dead')!.end_sequence, getRun(db, 'run-logged')!.end_sequence]).toEqual([null, null]);
		expect(lastFinishedRun(db, 'bugs')).toBeUndefined();
		expect(getRun(db, 'run-live')).toMatchObject({outcome: null});
		expect(getRun(db, 'run-legacy')).toMatchObject({outcome: null});
		// Nothing left to do: a second start changes nothing.
		expect(await reapAbandonedRuns(asyncOf(db), {SIFT_STATE_DIR: stateDir})).toEqual([]);
		db.close();
	});

	it('never throws, even when the store cannot be read', async () => {
		const file = path.join(tempDir(), 'sift.db');
		const store = openStore(file, {create: true});
		recordRunStart(store.db, start('run-dead', deadPid()));
		store.close();
		// A closed store fails every call, as a damaged or vanished one would.
		await expect(reapAbandonedRuns(new SqliteAsyncStore(store))).resolves.toEqual([]);
	});
});

describe('schema version 3', () => {
	it('adds owner_pid and process_group to a version 2 runs table, keeping its rows; reopening changes nothing', () => {
		const file = path.join(tempDir(), 'old.db');
		openDatabase(file, {create: true}).db.close();
		// A version 2 store: the runs table as it was then.
		const old = new Database(file);
		old.exec('DROP TABLE runs');
		old.exec(`CREATE TABLE runs (id TEXT PRIMARY KEY, channel_id TEXT NOT NULL, item_ids TEXT NOT NULL, instruction TEXT NOT NULL,
			started_at TEXT NOT NULL, finished_at TEXT, outcome TEXT, usage TEXT, edits_applied INTEGER NOT NULL DEFAULT 0,
			rejections INTEGER NOT NULL DEFAULT 0, followups_opened INTEGER NOT NULL DEFAULT 0, error TEXT, log_path TEXT)`);
		old.prepare("INSERT INTO runs (id, channel_id, item_ids, instruction, started_at) VALUES ('run-old', 'bugs', '[]', 'x', 't')").run();
		old.pragma('user_version = 2');
		old.close();
		for (let open = 0; open < 2; open++) {
			const db = openDatabase(file).db;
			expect(getRun(db, 'run-old')).toMatchObject({id: 'run-old', owner_pid: null, process_group: null});
			expect(db.pragma('user_version', {simple: true})).toBeGreaterThanOrEqual(3);
			db.close();
		}
	});
});
