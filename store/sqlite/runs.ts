import type {Db} from './database.js';
import {LAST_SEQUENCE_SQL} from './events.js';

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
	end_sequence INTEGER
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

/**
 * The outcomes after which the agent finished its turn (`partial`: it answered, then was stopped).
 * Only such a run moves the agent cursor: after a failed, cancelled or abandoned run the next run
 * catches up from further back rather than skip what no agent saw.
 */
export const CURSOR_OUTCOMES = ['ok', 'partial'] as const;

export type RunStart = {
	id: string;
	channelId: string;
	itemIds: string[];
	instruction: string;
	startedAt: string;
	logPath: string | null;
	/** The sift process that runs it: when it is gone, so is every reason for the run to go on. */
	ownerPid?: number | null;
};

export type RunEnd = {
	finishedAt: string;
	outcome: string;
	usage: Record<string, number> | null;
	editsApplied: number;
	rejections: number;
	followupsOpened: number;
	error: string | null;
	/** Leave a run that already has its end alone (another sift may have just finished it). */
	onlyIfUnfinished?: boolean;
	/**
	 * The end is recorded after the fact (by the reaper, for a run whose sift died): the channel's
	 * latest sequence now says nothing of where the run stopped, so no end sequence is kept.
	 */
	endSequenceUnknown?: boolean;
};

/** A runs row with its JSON columns parsed; finished_at and outcome stay null while the run is going (or if sift died). */
export type RunRow = {
	id: string;
	channel_id: string;
	item_ids: string[];
	instruction: string;
	started_at: string;
	finished_at: string | null;
	outcome: string | null;
	usage: Record<string, number> | null;
	edits_applied: number;
	rejections: number;
	followups_opened: number;
	error: string | null;
	log_path: string | null;
	owner_pid: number | null;
	process_group: number | null;
	/** The channel's latest event sequence when the run started (null for runs recorded before sift kept it). */
	start_sequence: number | null;
	/** The channel's latest event sequence when the run ended; null while it runs, or when its end came late (the reaper). */
	end_sequence: number | null;
};

/** A runs row as either backend stores it: the JSON columns as text. */
export type StoredRunRow = Omit<RunRow, 'item_ids' | 'usage'> & {item_ids: string; usage: string | null};

/** The channel's latest sequence, read inside the statement that records a start or an end. */
const LATEST_SEQUENCE = `(${LAST_SEQUENCE_SQL.replace('?', '@channelId')})`;

/** Records the start, with the channel's latest sequence at this moment as the run's start sequence. */
export function recordRunStart(db: Db, run: RunStart): void {
	db.prepare(
		`INSERT INTO runs (id, channel_id, item_ids, instruction, started_at, log_path, owner_pid, start_sequence)
		 VALUES (@id, @channelId, @itemIds, @instruction, @startedAt, @logPath, @ownerPid, ${LATEST_SEQUENCE})`,
	).run({...run, itemIds: JSON.stringify(run.itemIds), ownerPid: run.ownerPid ?? null});
}

/** Codex's process group, once it started: what must be killed if the run is abandoned. */
export function recordRunProcessGroup(db: Db, id: string, group: number): void {
	db.prepare('UPDATE runs SET process_group = ? WHERE id = ?').run(group, id);
}

export type UnfinishedRun = {id: string; owner_pid: number | null; process_group: number | null; log_path: string | null};

/** Runs without an end, through the partial index: cheap enough for every start of sift. */
export function listUnfinishedRuns(db: Db): UnfinishedRun[] {
	return db.prepare('SELECT id, owner_pid, process_group, log_path FROM runs WHERE finished_at IS NULL').all() as UnfinishedRun[];
}

/** Fills in how the run ended, with the channel's latest sequence now as its end sequence; false when no run has this id. */
export function recordRunEnd(db: Db, id: string, end: RunEnd): boolean {
	const endSequence = end.endSequenceUnknown ? 'NULL' : `(${LAST_SEQUENCE_SQL.replace('?', 'runs.channel_id')})`;
	const result = db
		.prepare(
			`UPDATE runs SET finished_at = @finishedAt, outcome = @outcome, usage = @usage, edits_applied = @editsApplied,
			 rejections = @rejections, followups_opened = @followupsOpened, error = @error, end_sequence = ${endSequence}
			 WHERE id = @id${end.onlyIfUnfinished ? ' AND finished_at IS NULL' : ''}`,
		)
		.run({...withoutFlags(end), id, usage: end.usage === null ? null : JSON.stringify(end.usage)});
	return result.changes === 1;
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
	const rows = db.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT ?').all(options.limit ?? 50) as StoredRunRow[];
	return rows.map(parseRunRow);
}

export function getRun(db: Db, id: string): RunRow | undefined {
	const row = db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as StoredRunRow | undefined;
	return row && parseRunRow(row);
}

/** A stored row with its JSON columns parsed: one reading for both backends. */
export function parseRunRow(row: StoredRunRow): RunRow {
	return {
		...row,
		item_ids: parseJson(row.item_ids, []),
		usage: row.usage === null ? null : parseJson(row.usage, null),
		// A file opened read-only is not migrated: its runs may lack the cursor columns.
		start_sequence: row.start_sequence ?? null,
		end_sequence: row.end_sequence ?? null,
	};
}

/** A damaged JSON column reads as its empty value rather than making the whole history unreadable. */
function parseJson<T>(text: string, fallback: T): T {
	try {
		return JSON.parse(text) as T;
	} catch {
		return fallback;
	}
}

function withoutFlags(end: RunEnd): Omit<RunEnd, 'onlyIfUnfinished' | 'endSequenceUnknown'> {
	const {onlyIfUnfinished: _only, endSequenceUnknown: _unknown, ...rest} = end;
	return rest;
}
