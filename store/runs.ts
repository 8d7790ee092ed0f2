// Runs as both backends keep them: start, end, row (with the channel's latest sequence at start and
// end, the agent cursor), which outcomes move the cursor, and the one reading of a stored row.

import type {EditMode} from './writes.js';

// The runs of the Codex runner as both backends keep them: what a start and an end record, a row,
// and one reading of a stored row. The SQL is store/sqlite/runs.ts and store/postgres/runs.ts.

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
	/** propose: the agent's valid edits become proposals for a person (docs/review.md); default apply. */
	mode?: EditMode;
};

export type RunEnd = {
	finishedAt: string;
	outcome: string;
	usage: Record<string, number> | null;
	editsApplied: number;
	rejections: number;
	followupsOpened: number;
	/** Valid edits the agent proposed instead of writing (propose mode). */
	proposals?: number;
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
	/** How the agent's valid edits landed: written (apply) or kept as proposals for a person (propose). */
	mode: EditMode;
	/** Proposals the run made (propose mode). */
	proposals: number;
	/** Of those, how many a person accepted and declined so far (a proposal accepted field by field counts once all is decided). */
	accepted: number;
	declined: number;
};

/** The decided counts of a run's proposals, as a column list both backends select beside a runs row. */
export const DECIDED_COLUMNS = "(SELECT count(*) FROM proposals p WHERE p.run_id = runs.id AND p.status = 'accepted') AS accepted, (SELECT count(*) FROM proposals p WHERE p.run_id = runs.id AND p.status = 'declined') AS declined";

/** A runs row as either backend stores it: the JSON columns as text. */
export type StoredRunRow = Omit<RunRow, 'item_ids' | 'usage' | 'mode' | 'proposals' | 'accepted' | 'declined'> & {item_ids: string; usage: string | null; mode?: string | null; proposals?: number | null; accepted?: number | string | null; declined?: number | string | null};

export type UnfinishedRun = {id: string; owner_pid: number | null; process_group: number | null; log_path: string | null};

/** A stored row with its JSON columns parsed: one reading for both backends. */
export function parseRunRow(row: StoredRunRow): RunRow {
	return {
		...row,
		item_ids: parseJson(row.item_ids, []),
		usage: row.usage === null ? null : parseJson(row.usage, null),
		// A file opened read-only is not migrated: its runs may lack the cursor columns.
		start_sequence: row.start_sequence ?? null,
		end_sequence: row.end_sequence ?? null,
		mode: row.mode === 'propose' ? 'propose' : 'apply',
		proposals: row.proposals ?? 0,
		// PostgreSQL's count(*) is a bigint, read as text.
		accepted: Number(row.accepted ?? 0),
		declined: Number(row.declined ?? 0),
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
