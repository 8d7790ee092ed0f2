import type {AsyncStore} from '../../store/api.js';
import {historySteps, loadRunHistory as loadHistory, type HistoryRun} from '../codex/history.js';
import type {Step} from '../codex/steps.js';

/** One past run, as the history screen lists it. */
export type RunSummary = {
	runId: string;
	channelId: string | null;
	startedAt: string | null;
	/** null: the run has no end yet (it is still going, or its sift died and no sift has noticed yet). */
	outcome: string | null;
	instruction: string;
	itemIds: string[];
	durationMs: number | null;
	editsApplied: number;
	/** Valid edits kept as proposals, not written (propose mode). */
	proposals: number;
	rejections: number;
	followupsOpened: number;
	error: string | null;
	text: string;
	logPath: string;
	/** Where the steps come from; not shown. */
	source: HistoryRun;
};

/**
 * The runs of the open database, newest first: the same list as `sift runs`, from the same module
 * (codex/history.ts), in the screen's terms.
 */
export async function loadRunHistory(stateDir: string, db: AsyncStore | null, limit = 50): Promise<RunSummary[]> {
	if (!db) return [];
	try {
		return (await loadHistory(db, stateDir, limit)).map(summaryOf);
	} catch {
		// A database too old or too damaged to list its runs: the screen says "No runs yet".
		return [];
	}
}

function summaryOf(run: HistoryRun): RunSummary {
	return {
		runId: run.id,
		channelId: run.channel_id,
		startedAt: run.started_at,
		outcome: run.outcome,
		instruction: run.instruction,
		itemIds: run.item_ids,
		durationMs: run.duration_ms,
		editsApplied: run.edits_applied,
		proposals: run.proposals ?? 0,
		rejections: run.rejections,
		followupsOpened: run.followups_opened,
		error: run.error,
		text: run.text,
		logPath: run.log_path ?? '',
		source: run,
	};
}

/** A past run's steps, rebuilt by replaying its logged stream. */
export function runSteps(run: RunSummary): Step[] {
	return historySteps(run.source);
}
