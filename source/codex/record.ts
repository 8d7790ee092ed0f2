// A run with its row in the runs table: created before Codex starts, completed before it is
// reported done; reads the agent cursor for a run without items.

import type {AsyncStore} from '../../store/api.js';
import type {AgentCursor} from './prompt.js';
import {newRunId, resolveStateDir, runLogPath} from './paths.js';
import {RunLogWriter} from './runlog.js';
import {startRun, type RunHandle, type RunOptions} from './runner.js';

/**
 * startRun, with the run in the store's runs table: the row exists before Codex (and the MCP
 * server that tags its writes with the run id) starts, names this process as its owner, gets
 * Codex's process group as soon as it runs, and is completed before `done` resolves. A later sift
 * uses owner and group to stop and close a run this process could not (see reap.ts).
 * A run without explicit items is told the agent cursor: where the channel's last finished run stopped.
 * Rejects, recording nothing, when the run log cannot be written.
 */
export async function startRecordedRun(store: AsyncStore, options: RunOptions): Promise<RunHandle> {
	const runId = options.runId ?? newRunId();
	const stateDir = options.stateDir ?? resolveStateDir(options.env ?? process.env);
	const logPath = runLogPath(stateDir, runId);
	RunLogWriter.assertWritable(logPath);
	const itemIds = options.itemIds ?? [];
	// Read before this run's own row exists; a run with explicit items is told nothing of it.
	const cursor = options.cursor ?? (itemIds.length === 0 ? await agentCursor(store, options.channelId) : undefined);
	await store.runs.start({
		id: runId,
		channelId: options.channelId,
		itemIds,
		instruction: options.instruction,
		startedAt: new Date().toISOString(),
		logPath,
		ownerPid: process.pid,
		mode: options.mode,
	});
	return startRun({
		...options,
		runId,
		stateDir,
		cursor,
		hooks: {
			spawned(group) {
				void store.runs.setProcessGroup(runId, group).catch(() => {});
				options.hooks?.spawned?.(group);
			},
			async finished(result) {
				// A failed write of the end is left to the reaper: the log has the end.
				await store.runs.end(result.runId, {
					finishedAt: new Date().toISOString(),
					outcome: result.outcome,
					usage: result.usage,
					editsApplied: result.editsApplied,
					proposals: result.proposals,
					rejections: result.rejections,
					followupsOpened: result.followupsOpened,
					error: result.error,
				}).catch(() => {});
				await options.hooks?.finished?.(result);
			},
		},
	});
}

/** The agent cursor: where the channel's last finished run stopped (the store records each run's end sequence). */
export async function agentCursor(store: AsyncStore, channelId: string): Promise<AgentCursor> {
	const last = await store.runs.lastFinished(channelId);
	return {afterSequence: last?.end_sequence ?? null};
}
