import type {Db} from '../../store/database.js';
import {recordRunEnd, recordRunStart} from '../../store/runs.js';
import {newRunId, resolveStateDir, runLogPath} from './paths.js';
import {startRun, type RunHandle, type RunOptions} from './runner.js';

/**
 * startRun, with the run in the store's runs table: the row exists before Codex (and the MCP
 * server that tags its writes with the run id) starts, and is completed before `done` resolves.
 */
export function startRecordedRun(db: Db, options: RunOptions): RunHandle {
	const runId = options.runId ?? newRunId();
	const stateDir = options.stateDir ?? resolveStateDir(options.env ?? process.env);
	recordRunStart(db, {
		id: runId,
		channelId: options.channelId,
		itemIds: options.itemIds ?? [],
		instruction: options.instruction,
		startedAt: new Date().toISOString(),
		logPath: runLogPath(stateDir, runId),
	});
	const handle = startRun({...options, runId, stateDir});
	const done = handle.done.then(result => {
		recordRunEnd(db, result.runId, {
			finishedAt: new Date().toISOString(),
			outcome: result.outcome,
			usage: result.usage,
			editsApplied: result.editsApplied,
			rejections: result.rejections,
			followupsOpened: result.followupsOpened,
			error: result.error,
		});
		return result;
	});
	return {...handle, done};
}
