// Runs through `sift serve`: the token minted for one run, and `startStoreRun`, where `sift run`,
// `sift watch` and the TUI start every recorded run (through the server or a `sift mcp` of its own).

import type {AsyncStore} from '../../store/index.js';
import {newRunId} from './paths.js';
import {startRecordedRun} from './record.js';
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
