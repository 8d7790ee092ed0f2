// Starting recorded runs: through `sift serve` (a token minted for one run) or a `sift mcp` of
// their own; `startStoreRun`, where every recorded run starts, and `batchStarter`, a fan-out's.

import type {AsyncStore} from '../../store/index.js';
import {newRunId} from './paths.js';
import {startRecordedRun} from './record.js';
import type {StartBatch} from './fanout.js';
import {DEFAULT_RUN_DEADLINE_MS, type RunHandle, type RunOptions} from './runner.js';

/**
 * A recorded run whose agent reaches the tools through `sift serve` at `endpoint`, with a token
 * minted for this run alone: actor agent, this run id, this run's channel, expiring at its
 * deadline. The token goes only into Codex's environment and is revoked when the run ends,
 * whatever the outcome.
 */
export async function startServerRun(store: AsyncStore, options: RunOptions & {endpoint: string}): Promise<RunHandle> {
	const {endpoint, ...runOptions} = options;
	const runId = runOptions.runId ?? newRunId();
	const deadline = Date.now() + (runOptions.timeoutMs ?? DEFAULT_RUN_DEADLINE_MS);
	const name = `run-${runId}`;
	const {token} = await store.tokens.create({name, grants: [runOptions.channelId], actor: 'agent', runId, expiresAt: new Date(deadline).toISOString()});
	const revoke = async () => store.tokens.revoke(name);
	let handle: RunHandle;
	try {
		handle = await startRecordedRun(store, {...runOptions, runId, server: {url: endpoint, token}});
	} catch (error) {
		await revoke();
		throw error;
	}

	return {...handle, done: handle.done.finally(revoke)};
}

/**
 * A recorded run: through `sift serve` at `endpoint` when one is given (a token for this run
 * alone), else with a `sift mcp` of its own. `sift run`, `sift watch` and the TUI start every run here.
 */
export async function startStoreRun(store: AsyncStore, options: RunOptions, endpoint: string | undefined): Promise<RunHandle> {
	return endpoint === undefined ? startRecordedRun(store, options) : startServerRun(store, {...options, endpoint});
}

/** A run's options but the batch's own (its id and items), which each batch gets from the fan-out. */
export type BatchRunOptions = Omit<RunOptions, 'itemIds' | 'runId'>;

/**
 * The one way a fan-out starts a batch: each batch its own recorded run (`startStoreRun`), through
 * `sift serve` at `endpoint` when one is given. `sift run`, `sift watch` and the TUI start theirs
 * here; options given as a function are read as each batch starts (the TUI's propose mode then).
 */
export function batchStarter(store: AsyncStore, options: BatchRunOptions | (() => BatchRunOptions), endpoint: string | undefined): StartBatch {
	return async ({runId, itemIds}) => startStoreRun(store, {...(typeof options === 'function' ? options() : options), runId, itemIds}, endpoint);
}
