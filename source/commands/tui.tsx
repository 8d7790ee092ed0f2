// The TUI command: opens the store and starts the Ink app with the TUI's run settings.

import {existsSync} from 'node:fs';
import {isPostgresUrl} from '../../store/api.js';
import {StoreError} from '../../store/index.js';
import {exitCodeOfSignal} from '../codex/group.js';
import {sanitize} from '../text/sanitize.js';
import {reapAbandonedRuns} from '../codex/reap.js';
import type {LiveSync} from '../sync/live.js';
import {SyncNotices} from '../ui/sync-marks.js';
import {configPath, loadConfig, type LoadedConfig} from '../config/config.js';
import type {AsyncStore} from '../../store/api.js';
import {channelNamed, databasePath, openExistingStore, serverEndpoint, wholeNumber} from './common.js';
import type {Command} from './context.js';
import {LockWaits} from '../ui/lock-waits.js';
import {invocation} from './invocation.js';

/** A run started from the TUI is stopped after 10 minutes unless --timeout says otherwise (`sift run`: 30). */
const TUI_DEADLINE_S = 600;

const CI_MARKERS = ['CI', 'CONTINUOUS_INTEGRATION'] as const;

/**
 * Ink decides once, when it loads, that a CI environment gets no live frames (only the last one,
 * at exit). We already know there is a terminal (stdin is a TTY), so the markers are hidden while
 * Ink loads and put back at once: Codex and other children still see them.
 */
async function loadWithoutCiMarkers<T>(load: () => Promise<T>): Promise<T> {
	const saved = CI_MARKERS.map(name => [name, process.env[name]] as const);
	for (const [name] of saved) delete process.env[name];
	try {
		return await load();
	} finally {
		for (const [name, value] of saved) {
			if (value !== undefined) process.env[name] = value;
		}
	}
}

/**
 * The channel the TUI opens on without `--channel`: the config's `default_channel` (an id, or a
 * name in any case) when the database has it; else none (the only channel, or the chooser), and
 * the config's problems say why.
 */
async function defaultChannel(store: AsyncStore, config: LoadedConfig): Promise<string | undefined> {
	const wanted = config.config.defaultChannel;
	if (wanted === undefined) return undefined;
	const channels = await store.listChannelNames();
	const found = channelNamed(channels, wanted);
	if (!found) config.problems.push(config.problemAt(['default_channel'], `no channel ${wanted} in this database; channels: ${channels.map(channel => channel.id).join(', ') || 'none'}; not used`));
	return found?.id;
}

/**
 * `sift [--db FILE] [--channel ID]`: the Ink TUI. Resolves when the person quits; any Codex run
 * still going is cancelled (its whole process group) before the promise resolves.
 */
const tui: Command = async context => {
	const dbPath = databasePath(context);
	// The config file never stops sift: what it has wrong is said on screen, and the defaults stand in.
	const configFile = context.flags.config ?? configPath(context.env);
	const config = await loadConfig(configFile);
	// A flag wins over the config file, which wins over the TUI's own default.
	const timeoutSeconds = wholeNumber(context.flags.timeout, '--timeout', 1) ?? config.config.timeout ?? TUI_DEADLINE_S;
	// Codex runs reach the store through `sift serve` when a server is given (the config's is checked when loaded).
	const endpoint = serverEndpoint(context.flags.server ?? config.config.server);
	if (!isPostgresUrl(dbPath) && !existsSync(dbPath)) {
		context.stderr.write(`sift: no database at ${dbPath}; start the demo with \`${invocation(context.env)} demo\`, or import a channel with \`${invocation(context.env)} import FILE --db ${dbPath}\`\n`);
		return 1;
	}

	const stdin = process.stdin;
	if (!stdin.isTTY) {
		context.stderr.write('sift: the TUI needs a terminal (stdin is not a TTY); use the subcommands (sift list, sift edit, ...) in scripts\n');
		return 2;
	}

	// Raw mode before anything renders: keys typed while Ink mounts are neither echoed nor line-buffered.
	stdin.setRawMode(true);
	const {startApp} = await loadWithoutCiMarkers(async () => import('../ui/start.js'));

	// A write waiting for another process's lock is said on screen, not on stderr behind it.
	const lockWaits = new LockWaits();
	let store;
	let live: LiveSync | null = null;
	try {
		store = await openExistingStore(context, lockWaits.notify);
	} catch (error) {
		stdin.setRawMode(false);
		// A PostgreSQL error names the host itself; its URL may hold a password, so it is not repeated.
		const message = sanitize((error as Error).message);
		context.stderr.write(isPostgresUrl(dbPath) ? `sift: ${message}\n` : `sift: cannot open ${sanitize(dbPath)}: ${message}\n`);
		return 1;
	}

	try {
		if (context.flags.channel !== undefined) {
			try {
				await store.getChannel(context.flags.channel);
			} catch (error) {
				context.stderr.write(`sift: ${sanitize(error instanceof StoreError ? error.message : String(error))}\n`);
				return 1;
			}
		}

		await reapAbandonedRuns(store, context.env);
		const channelId = context.flags.channel ?? await defaultChannel(store, config);
		// The config's `sync: {live: true}`: the channel (else every linked one) kept in step while the screen is open.
		const syncNotices = new SyncNotices();
		// Loaded only when asked for: the GitHub client stays off the TUI's start otherwise.
		live = config.config.sync?.live ? (await import('../sync/live.js')).liveSyncFromConfig(store, config, configFile, context.env, channelId === undefined ? undefined : [channelId], syncNotices.notify) : null;
		const signal = await startApp({
			store,
			dbPath,
			// --channel wins over the config's default channel.
			channelId,
			env: context.env,
			config,
			lockWaits,
			syncNotices,
			run: {codex: context.flags.codex, model: context.flags.model ?? config.config.model, codexConfig: context.flags.codexConfig, keepApiEnv: context.flags.keepApiEnv, allowAgentShell: context.flags.allowAgentShell, autoAcceptAbove: config.config.auto_accept_above, env: context.env, timeoutMs: timeoutSeconds * 1000, endpoint, batch: context.flags.batch, parallel: context.flags.parallel},
		});
		return signal ? exitCodeOfSignal(signal) : 0;
	} finally {
		await live?.stop();
		if (stdin.isTTY) stdin.setRawMode(false);
		await store.close();
	}
};

export default tui;
