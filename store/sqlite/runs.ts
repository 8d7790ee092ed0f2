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
};

/** A runs row as either backend stores it: the JSON columns as text. */
export type StoredRunRow = Omit<RunRow, 'item_ids' | 'usage'> & {item_ids: string; usage: string | null};

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

export type UnfinishedRun = {id: string; owner_pid: number | null; process_group: number | null; log_path: string | null};

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

/** A stored row with its JSON columns parsed: one reading for both backends. */
export function parseRunRow(row: StoredRunRow): RunRow {
	return {...row, item_ids: parseJson(row.item_ids, []), usage: row.usage === null ? null : parseJson(row.usage, null)};
}

/** A damaged JSON column reads as its empty value rather than making the whole history unreadable. */
function parseJson<T>(text: string, fallback: T): T {
	try {
		return JSON.parse(text) as T;
	} catch {
		return fallback;
	}
}

function withoutFlag(end: RunEnd): Omit<RunEnd, 'onlyIfUnfinished'> {
	const {onlyIfUnfinished: _ignored, ...rest} = end;
	return rest;
}
