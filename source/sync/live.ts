// Keeping linked channels in step while `sift serve` or the TUI runs (the config's `sync: {live:
// true}`, docs/sync.md): the round of `sift sync --watch` (pull, then push) in the background, with
// its rate-limit-aware interval and its backoff (engine-loop.ts), until stopped. Only the GitHub
// adapter exists today; a link to another tracker is left alone.

import type {AsyncStore} from '../../store/index.js';
import type {WatchClock} from '../codex/watch-loop.js';
import {syncChannel, untriedEdit, watchChannels, type SyncOutcome, type SyncProgress} from './engine-loop.js';
import {heapBudget} from './heap-budget.js';
import {connectGithub} from './github/connect.js';
import {tokenFilePath} from './github/token.js';
import {durationMs} from '../config/config-file.js';
import type {LoadedConfig} from '../config/schema.js';

export type LiveSyncOptions = {
	/** The channels kept in step (absent: every linked channel); one not linked is skipped each round. */
	channels?: readonly string[];
	intervalMs: number;
	env: NodeJS.ProcessEnv;
	/** The token file the config names. */
	tokenFile?: string;
	clock?: WatchClock;
	/** After each channel's round. */
	onRound?: (outcome: SyncOutcome) => void;
	/** The work of a round under way (a first pull of a large repository takes minutes). */
	onProgress?: (progress: SyncProgress) => void;
	/** A failed round (retried after a backoff), or the end of the loop (no token, no access): the message, never the token. */
	onError?: (message: string, fatal: boolean) => void;
};

export type LiveSync = {
	/** Ends the loop (a round under way finishes its request) and waits for it. */
	stop(): Promise<void>;
};

/** Starts the loop; it runs until `stop` (or a fatal refusal: no token, a repository gone). */
export function keepInStep(store: AsyncStore, options: LiveSyncOptions): LiveSync {
	const controller = new AbortController();
	const {signal} = controller;
	const say = (error: unknown, fatal: boolean) => options.onError?.((error as Error).message, fatal);
	const running = (async () => {
		const connection = await connectGithub({env: options.env, tokenFile: options.tokenFile, clock: options.clock, signal});
		const watched = async () => (await store.sync.links()).filter(link => link.tracker === 'github' && (!options.channels || options.channels.includes(link.channel_id)));
		await watchChannels(async () => {
			for (const link of await watched()) {
				if (signal.aborted) return;
				options.onRound?.(await syncChannel(store, connection.adapter, link, {pull: true, push: true}, {progress: options.onProgress, afterPage: heapBudget()}));
			}
		}, {intervalMs: options.intervalMs, signal, clock: options.clock, rate: () => connection.client.rate, onError: error => say(error, false), localEdit: untriedEdit(store, async () => (await watched()).map(link => link.channel_id))});
	})().catch((error: unknown) => {
		if (!signal.aborted) say(error, true);
	});
	return {
		async stop() {
			controller.abort();
			await running;
		},
	};
}

/** What the loop tells whoever shows it: a round done, or a failure in words. */
export type LiveNotice = {kind: 'round'} | {kind: 'progress'; progress: SyncProgress} | {kind: 'error'; message: string; fatal: boolean};

/**
 * The loop the config asks for (`sync: {live: true, interval}`), on `channels` (absent: every
 * linked one), or null when the config does not ask for it.
 */
export function liveSyncFromConfig(store: AsyncStore, config: Pick<LoadedConfig, 'config'>, configFile: string, env: NodeJS.ProcessEnv, channels: readonly string[] | undefined, notify: (notice: LiveNotice) => void): LiveSync | null {
	const sync = config.config.sync;
	if (!sync?.live) return null;
	return keepInStep(store, {
		channels,
		intervalMs: sync.interval === undefined ? DEFAULT_INTERVAL_MS : durationMs(sync.interval),
		env,
		tokenFile: tokenFilePath(configFile, sync.github_token_file),
		onRound: () => notify({kind: 'round'}),
		onProgress: progress => notify({kind: 'progress', progress}),
		onError: (message, fatal) => notify({kind: 'error', message, fatal}),
	});
}

/** A live sync's interval when the config gives none (as `sift sync --watch`'s). */
export const DEFAULT_INTERVAL_MS = 60_000;
