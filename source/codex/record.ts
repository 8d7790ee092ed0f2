import type {AsyncStore} from '../../store/api.js';
import {newRunId, resolveStateDir, runLogPath} from './paths.js';
import {RunLogWriter} from './runlog.js';
import {startRun, type RunHandle, type RunOptions} from './runner.js';

/**
 * startRun, with the run in the store's runs table: the row exists before Codex (and the MCP
 * server that tags its writes with the run id) starts, names this process as its owner, gets
 * Codex's process group as soon as it runs, and is completed before `done` resolves. A later sift
 * uses owner and group to stop and close a run this process could not (see reap.ts).
 * Rejects, recording nothing, when the run log cannot be written.
 */
export async function startRecordedRun(store: AsyncStore, options: RunOptions): Promise<RunHandle> {
	const runId = options.runId ?? newRunId();
	const stateDir = options.stateDir ?? resolveStateDir(options.env ?? process.env);
	const logPath = runLogPath(stateDir, runId);
	RunLogWriter.assertWritable(logPath);
	await store.runs.start({
		id: runId,
		channelId: options.channelId,
		itemIds: options.itemIds ?? [],
		instruction: options.instruction,
		startedAt: new Date().toISOString(),
		logPath,
		ownerPid: process.pid,
	});
	return startRun({
		...options,
		runId,
		stateDir,
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
					rejections: result.rejections,
					followupsOpened: result.followupsOpened,
					error: result.error,
				}).catch(() => {});
				await options.hooks?.finished?.(result);
			},
		},
	});
}
