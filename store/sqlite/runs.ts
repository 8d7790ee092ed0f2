// The runs table: its schema, migration and SQL, the sequences at start and end, the last finished
// run (the agent cursor); a run's end revokes its tokens in the same transaction.

import {CURSOR_OUTCOMES, DECIDED_COLUMNS, parseRunRow, type RunEnd, type RunRow, type RunStart, type StoredRunRow, type UnfinishedRun} from '../runs.js';
import type {Db} from './db.js';
import {immediate} from './write-lock.js';
import {LAST_SEQUENCE_SQL} from './events.js';
import {revokeRunTokens} from './tokens.js';

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
	process_group INTEGER,
	start_sequence INTEGER,
	end_sequence INTEGER,
	-- v7: propose (an agent's valid edits become proposals) or NULL for apply; proposals made.
	mode TEXT,
	proposals INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS runs_unfinished ON runs(id) WHERE finished_at IS NULL;
CREATE INDEX IF NOT EXISTS runs_cursor ON runs(channel_id, end_sequence) WHERE end_sequence IS NOT NULL;
`;

/** Columns added to the runs table after version 1, in the order they came. */
const LATER_COLUMNS = ['owner_pid', 'process_group', 'start_sequence', 'end_sequence'];

/**
 * Adds the columns a runs table made by an older sift lacks: those that tie a run to its processes
 * (v3: the sift that owns it, Codex's process group) and the agent cursor (v4: the channel's latest
 * sequence at the run's start and end), then the index of unfinished runs. Idempotent.
 */
export function migrateRunsColumns(db: Db): void {
	const columns = new Set((db.prepare('PRAGMA table_info(runs)').all() as Array<{name: string}>).map(column => column.name));
	for (const column of LATER_COLUMNS.filter(name => !columns.has(name))) db.exec(`ALTER TABLE runs ADD COLUMN ${column} INTEGER`);
	db.exec('CREATE INDEX IF NOT EXISTS runs_unfinished ON runs(id) WHERE finished_at IS NULL');
}

/** The channel's latest sequence, read inside the statement that records a start or an end. */
const LATEST_SEQUENCE = `(${LAST_SEQUENCE_SQL.replace('?', '@channelId')})`;

/** Records the start, with the channel's latest sequence at this moment as the run's start sequence. */
export function recordRunStart(db: Db, run: RunStart): void {
	db.prepare(
		`INSERT INTO runs (id, channel_id, item_ids, instruction, started_at, log_path, owner_pid, start_sequence, mode)
		 VALUES (@id, @channelId, @itemIds, @instruction, @startedAt, @logPath, @ownerPid, ${LATEST_SEQUENCE}, @mode)`,
	).run({...run, itemIds: JSON.stringify(run.itemIds), ownerPid: run.ownerPid ?? null, mode: run.mode === 'propose' ? 'propose' : null});
}

/** Codex's process group, once it started: what must be killed if the run is abandoned. */
export function recordRunProcessGroup(db: Db, id: string, group: number): void {
	db.prepare('UPDATE runs SET process_group = ? WHERE id = ?').run(group, id);
}

/** Runs without an end, through the partial index: cheap enough for every start of sift. */
export function listUnfinishedRuns(db: Db): UnfinishedRun[] {
	return db.prepare('SELECT id, owner_pid, process_group, log_path FROM runs WHERE finished_at IS NULL').all() as UnfinishedRun[];
}

/**
 * Fills in how the run ended, with the channel's latest sequence now as its end sequence, and
 * revokes the run's tokens in the same transaction: however a run ends (its sift, or the reaper
 * after a SIGKILL), no token of it answers again. False when no run has this id.
 */
export function recordRunEnd(db: Db, id: string, end: RunEnd): boolean {
	const endSequence = end.endSequenceUnknown ? 'NULL' : `(${LAST_SEQUENCE_SQL.replace('?', 'runs.channel_id')})`;
	return immediate(db, () => {
		const result = db
			.prepare(
				`UPDATE runs SET finished_at = @finishedAt, outcome = @outcome, usage = @usage, edits_applied = @editsApplied,
				 rejections = @rejections, followups_opened = @followupsOpened, proposals = @proposals, error = @error, end_sequence = ${endSequence}
				 WHERE id = @id${end.onlyIfUnfinished ? ' AND finished_at IS NULL' : ''}`,
			)
			.run({...withoutFlags(end), id, usage: end.usage === null ? null : JSON.stringify(end.usage), proposals: end.proposals ?? 0});
		revokeRunTokens(db, id, new Date());
		return result.changes === 1;
	});
}

/**
 * The agent cursor: the channel's run that finished its turn last (the largest end sequence), or
 * undefined when none has. A run without explicit items catches up from its end sequence.
 */
export function lastFinishedRun(db: Db, channelId: string): RunRow | undefined {
	const row = db.prepare(`SELECT * FROM runs WHERE channel_id = ? AND end_sequence IS NOT NULL AND outcome IN (${CURSOR_OUTCOMES.map(() => '?').join(', ')})
		ORDER BY end_sequence DESC, finished_at DESC, id DESC LIMIT 1`).get(channelId, ...CURSOR_OUTCOMES) as StoredRunRow | undefined;
	return row && parseRunRow(row);
}

/** The latest runs first (run ids sort by start time). */
export function listRuns(db: Db, options: {limit?: number} = {}): RunRow[] {
	const rows = db.prepare(`SELECT *, ${DECIDED_COLUMNS} FROM runs ORDER BY id DESC LIMIT ?`).all(options.limit ?? 50) as StoredRunRow[];
	return rows.map(parseRunRow);
}

export function getRun(db: Db, id: string): RunRow | undefined {
	const row = db.prepare(`SELECT *, ${DECIDED_COLUMNS} FROM runs WHERE id = ?`).get(id) as StoredRunRow | undefined;
	return row && parseRunRow(row);
}

function withoutFlags(end: RunEnd): Omit<RunEnd, 'onlyIfUnfinished' | 'endSequenceUnknown'> {
	const {onlyIfUnfinished: _only, endSequenceUnknown: _unknown, ...rest} = end;
	return rest;
}
