// The run history of the open database, one module for `R` and `sift runs`.

import type {AsyncStore} from '../../store/api.js';
import type {RunRow} from '../../store/runs.js';
import {loadRunLog, runLogInside, type RunLog} from './runlog.js';
import type {Step} from './steps.js';
import {RunTracker} from './tracker.js';

/**
 * One run of the open database as the history shows it (`sift runs` and R in the TUI): its row,
 * completed from its log where the row lacks the end, and the answer from the log.
 */
export type HistoryRun = RunRow & {
	/** Codex's final answer, from the log's end line ('' without one). */
	text: string;
	duration_ms: number | null;
	/** The log, when it is a run log of this state dir that could be read; else the run shows without it. */
	log: RunLog | undefined;
};

/**
 * The runs of this database, newest first: only the runs table decides which runs exist, so
 * logs of other databases in the same state dir never show up. Logs are read without being
 * written to, and only inside `<state dir>/runs` (see runLogInside).
 */
export async function loadRunHistory(store: AsyncStore, stateDir: string, limit = 50): Promise<HistoryRun[]> {
	return (await store.runs.list({limit})).map(row => withLog(row, stateDir));
}

export async function loadHistoryRun(store: AsyncStore, stateDir: string, runId: string): Promise<HistoryRun | undefined> {
	const row = await store.runs.get(runId);
	return row && withLog(row, stateDir);
}

/** A past run's steps, rebuilt by replaying its logged stream. */
export function historySteps(run: HistoryRun): Step[] {
	const tracker = new RunTracker();
	for (const event of run.log?.events ?? []) tracker.apply(event);
	return tracker.steps;
}

function withLog(row: RunRow, stateDir: string): HistoryRun {
	const log = readLog(row, stateDir);
	const end = log?.end?.run_id === row.id ? log.end : null;
	// No outcome in the row: the run is going, or its sift died after the log's end line, before the table.
	const completed = row.outcome === null && end ? {...row, outcome: end.outcome, finished_at: end.finished_at, error: end.error, usage: end.usage} : row;
	const duration = end?.duration_ms ?? (completed.finished_at ? Date.parse(completed.finished_at) - Date.parse(completed.started_at) : null);
	return {...completed, text: end?.text ?? '', duration_ms: Number.isFinite(duration) ? duration : null, log};
}

function readLog(row: RunRow, stateDir: string): RunLog | undefined {
	const file = runLogInside(stateDir, row.log_path);
	if (!file) return undefined;
	try {
		return loadRunLog(file, {repair: false});
	} catch {
		return undefined;
	}
}
