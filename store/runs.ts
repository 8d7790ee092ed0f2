// The runs of the Codex runner as both backends keep them: what a start and an end record, a row,
// and one reading of a stored row. The SQL is store/sqlite/runs.ts and store/postgres/runs.ts.

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

export type UnfinishedRun = {id: string; owner_pid: number | null; process_group: number | null; log_path: string | null};

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
