import {loadRunLog, listRunLogPaths} from '../codex/runlog.js';
import type {Step} from '../codex/steps.js';
import {RunTracker} from '../codex/tracker.js';

/** One past run, as the history screen lists it. */
export type RunSummary = {
	runId: string;
	channelId: string | null;
	startedAt: string | null;
	/** null: the log has no end line (sift was killed mid-run, or the run is still going). */
	outcome: string | null;
	instruction: string;
	itemIds: string[];
	durationMs: number | null;
	editsApplied: number;
	rejections: number;
	followupsOpened: number;
	error: string | null;
	text: string;
	logPath: string;
};

/** The newest runs first, read from the run logs (damaged logs are repaired on the way). */
export function loadRunHistory(stateDir: string, limit = 30): RunSummary[] {
	const paths = listRunLogPaths(stateDir).slice(-limit).reverse();
	const runs: RunSummary[] = [];
	for (const path of paths) {
		try {
			const log = loadRunLog(path);
			const {start, end} = log;
			runs.push({
				runId: start?.run_id ?? end?.run_id ?? path,
				channelId: start?.channel_id ?? null,
				startedAt: start?.started_at ?? null,
				outcome: end?.outcome ?? null,
				instruction: start?.instruction ?? '',
				itemIds: start?.item_ids ?? [],
				durationMs: end?.duration_ms ?? null,
				editsApplied: end?.edits_applied ?? 0,
				rejections: end?.rejections ?? 0,
				followupsOpened: end?.followups_opened ?? 0,
				error: end?.error ?? null,
				text: end?.text ?? '',
				logPath: path,
			});
		} catch {
			// An unreadable log is skipped; the others still show.
		}
	}

	return runs;
}

/** A past run's steps, rebuilt by replaying its logged stream. */
export function runSteps(logPath: string): Step[] {
	try {
		const tracker = new RunTracker();
		for (const event of loadRunLog(logPath).events) tracker.apply(event);
		return tracker.steps;
	} catch {
		return [];
	}
}
