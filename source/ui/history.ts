import type {Db} from '../../store/database.js';
import {listRuns} from '../../store/runs.js';
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

/**
 * The newest runs first: this database's runs table, each with its answer from its log; runs
 * that only left a log in the state dir (not recorded in this database) come after.
 */
export function loadRunHistory(stateDir: string, db: Db | null, limit = 50): RunSummary[] {
	const fromTable: RunSummary[] = [];
	if (db) {
		try {
			for (const row of listRuns(db, {limit})) {
				let end;
				try {
					end = row.log_path ? loadRunLog(row.log_path).end : null;
				} catch {
					end = null;
				}

				fromTable.push({
					runId: row.id,
					channelId: row.channel_id,
					startedAt: row.started_at,
					outcome: row.outcome,
					instruction: row.instruction,
					itemIds: row.item_ids,
					durationMs: end?.duration_ms ?? (row.finished_at ? Date.parse(row.finished_at) - Date.parse(row.started_at) : null),
					editsApplied: row.edits_applied,
					rejections: row.rejections,
					followupsOpened: row.followups_opened,
					error: row.error,
					text: end?.text ?? '',
					logPath: row.log_path ?? '',
				});
			}
		} catch {
			// An older file without the runs table: the logs still tell.
		}
	}

	const known = new Set(fromTable.map(run => run.runId));
	const fromLogs = loadLogHistory(stateDir, limit).filter(run => !known.has(run.runId));
	return [...fromTable, ...fromLogs].slice(0, limit);
}

/** Runs as their logs tell them (damaged logs are repaired on the way). */
function loadLogHistory(stateDir: string, limit: number): RunSummary[] {
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
