import {parseRunRow, type RunEnd, type RunRow, type RunStart, type StoredRunRow, type UnfinishedRun} from '../runs.js';
import type {Db} from './database.js';

/** One Codex run: who asked what of which items, and how it ended. Fed by the runner, read by `sift runs`. */
export const RUNS_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS runs (
	id TEXT PRIMARY KEY,
	channel_id TEXT NOT NULL,
	item_ids TEXT NOT NULL,
	instruction TEXT NOT NULL,
	started_at TEXT NOT NULL,
	finished_at TEXT,
	outcome TEXT,
	usage TEXT,
	edits_applied INTEGER NOT NULL DEFAULT 0,
	rejections INTEGER NOT NULL DEFAULT 0,
	followups_opened INTEGER NOT NULL DEFAULT 0,
	error TEXT,
	log_path TEXT,
	owner_pid INTEGER,
	process_group INTEGER
);
CREATE INDEX IF NOT EXISTS runs_unfinished ON runs(id) WHERE finished_at IS NULL;
`;

/**
 * Adds the columns that tie a run to its processes (the sift that owns it, Codex's process group)
 * to a runs table made before they existed, and the index of unfinished runs. Idempotent.
 */
export function migrateRunsOwnership(db: Db): void {
	const columns = new Set((db.prepare('PRAGMA table_info(runs)').all() as Array<{name: string}>).map(column => column.name));
	if (!columns.has('owner_pid')) db.exec('ALTER TABLE runs ADD COLUMN owner_pid INTEGER');
	if (!columns.has('process_group')) db.exec('ALTER TABLE runs ADD COLUMN process_group INTEGER');
	db.exec('CREATE INDEX IF NOT EXISTS runs_unfinished ON runs(id) WHERE finished_at IS NULL');
}

export function recordRunStart(db: Db, run: RunStart): void {
	db.prepare(
		`INSERT INTO runs (id, channel_id, item_ids, instruction, started_at, log_path, owner_pid)
		 VALUES (@id, @channelId, @itemIds, @instruction, @startedAt, @logPath, @ownerPid)`,
	).run({...run, itemIds: JSON.stringify(run.itemIds), ownerPid: run.ownerPid ?? null});
}

/** Codex's process group, once it started: what must be killed if the run is abandoned. */
export function recordRunProcessGroup(db: Db, id: string, group: number): void {
	db.prepare('UPDATE runs SET process_group = ? WHERE id = ?').run(group, id);
}

/** Runs without an end, through the partial index: cheap enough for every start of sift. */
export function listUnfinishedRuns(db: Db): UnfinishedRun[] {
	return db.prepare('SELECT id, owner_pid, process_group, log_path FROM runs WHERE finished_at IS NULL').all() as UnfinishedRun[];
}

/** Fills in how the run ended; false when no run has this id. */
export function recordRunEnd(db: Db, id: string, end: RunEnd): boolean {
	const result = db
		.prepare(
			`UPDATE runs SET finished_at = @finishedAt, outcome = @outcome, usage = @usage, edits_applied = @editsApplied,
			 rejections = @rejections, followups_opened = @followupsOpened, error = @error WHERE id = @id${end.onlyIfUnfinished ? ' AND finished_at IS NULL' : ''}`,
		)
		.run({...withoutFlag(end), id, usage: end.usage === null ? null : JSON.stringify(end.usage)});
	return result.changes === 1;
}

/** The latest runs first (run ids sort by start time). */
export function listRuns(db: Db, options: {limit?: number} = {}): RunRow[] {
	const rows = db.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT ?').all(options.limit ?? 50) as StoredRunRow[];
	return rows.map(parseRunRow);
}

export function getRun(db: Db, id: string): RunRow | undefined {
	const row = db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as StoredRunRow | undefined;
	return row && parseRunRow(row);
}

function withoutFlag(end: RunEnd): Omit<RunEnd, 'onlyIfUnfinished'> {
	const {onlyIfUnfinished: _ignored, ...rest} = end;
	return rest;
}
