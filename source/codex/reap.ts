// Closes runs whose sift died: kills what is left and records `abandoned` (which revokes the run's
// token); waits at most a second for a busy store.

import type {AsyncStore} from '../../store/api.js';
import type {UnfinishedRun} from '../../store/runs.js';
import {isProcessAlive, killAbandonedGroup} from './group.js';
import {resolveStateDir} from './paths.js';
import {loadRunLog, runLogInside} from './runlog.js';

export const ABANDONED_MESSAGE = 'The sift that ran this was gone (killed, or it crashed) before the run ended; a later sift stopped what was left of it.';

/**
 * Closes the runs whose sift is gone (SIGKILL cannot be caught, so nothing else does): kills what
 * is left of the run's process group and records the outcome `abandoned` — or the outcome its log
 * already has, when sift died between writing the log's end and the table. Runs of a live sift are
 * left alone. Costs one indexed query when there is nothing to do; never throws, and never waits
 * long (a read-only database, a busy one: the next start tries again). Returns the ids it closed.
 */
export async function reapAbandonedRuns(store: AsyncStore, env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
	try {
		const orphaned = (await store.runs.unfinished()).filter(run => run.owner_pid !== null && run.owner_pid !== process.pid && !isProcessAlive(run.owner_pid));
		const closed: string[] = [];
		for (const run of orphaned) {
			if (await reap(store, run, env)) closed.push(run.id);
		}

		return closed;
	} catch {
		return [];
	}
}

/**
 * How long sift's start waits to record one abandoned run: another process may hold the store's
 * write lock (a long import), and every command starts by reaping. The write stays queued and
 * lands once the lock is free, unless the process ends first; the next start tries again.
 */
const REAP_WAIT_MS = 1000;

async function reap(store: AsyncStore, run: UnfinishedRun, env: NodeJS.ProcessEnv): Promise<boolean> {
	if (run.process_group !== null) killAbandonedGroup(run.process_group, run.id);
	const ended = recordAbandoned(store, run, env);
	// Settled later (or given up when the store closes): never an unhandled rejection.
	ended.catch(() => undefined);
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error('the store is busy')), REAP_WAIT_MS);
	});
	try {
		return await Promise.race([ended, late]);
	} finally {
		clearTimeout(timer);
	}
}

async function recordAbandoned(store: AsyncStore, run: UnfinishedRun, env: NodeJS.ProcessEnv): Promise<boolean> {
	const end = loggedEnd(run, env);
	return store.runs.end(run.id, {
		finishedAt: end?.finished_at ?? new Date().toISOString(),
		outcome: end?.outcome ?? 'abandoned',
		usage: end?.usage ?? null,
		editsApplied: end?.edits_applied ?? 0,
		rejections: end?.rejections ?? 0,
		followupsOpened: end?.followups_opened ?? 0,
		error: end ? end.error : ABANDONED_MESSAGE,
		onlyIfUnfinished: true,
		// Closed after the fact: the latest sequence now is not where the run stopped.
		endSequenceUnknown: true,
	});
}

function loggedEnd(run: UnfinishedRun, env: NodeJS.ProcessEnv) {
	const file = runLogInside(resolveStateDir(env), run.log_path);
	if (!file) return undefined;
	try {
		return loadRunLog(file, {repair: false}).end ?? undefined;
	} catch {
		return undefined;
	}
}
