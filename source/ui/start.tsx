import {render} from '#ink';
import type {AsyncStore} from '../../store/api.js';
import {stopActiveRuns} from '../codex/active.js';
import {handleTerminationSignals, type TerminationSignal} from '../codex/group.js';
import {DEFAULT_BATCH_SIZE} from '../codex/batches.js';
import {defaultConfig} from '../config/config.js';
import {App, type AppProps} from './app.js';
import {openingOf, openingScreen, withFirstListing, type Opening} from './first-screen.js';
import {measure} from './hooks/use-terminal-size.js';
import {retryMaxFromEnv} from './poll-schedule.js';
import {enterAltScreen, restoreTerminal} from './terminal.js';
import {makeTheme} from './theme.js';

export {restoreTerminal} from './terminal.js';

export type StartOptions = {store: AsyncStore; dbPath: string; channelId?: string; env: NodeJS.ProcessEnv; run: AppProps['run']; config?: AppProps['config']; lockWaits?: AppProps['lockWaits']; syncNotices?: AppProps['syncNotices']};

/**
 * What the app opens on with its first page of rows, read before it mounts so that the first frame
 * drawn has them (docs/architecture.md#start-up). A store that cannot even say what opens is left
 * to the app, which ends with the error as it always did.
 */
async function openingBeforeMount({store, channelId, config, run}: StartOptions): Promise<Opening | undefined> {
	try {
		const opening = await openingOf(store, channelId);
		return await withFirstListing(store, opening, (channel, summary) => openingScreen({channel, summary, others: opening.kind === 'screen' && opening.otherIds.length === 0 ? [] : undefined, config: config ?? defaultConfig(), size: measure(process.stdout), batch: run.batch ?? DEFAULT_BATCH_SIZE}));
	} catch {
		return undefined;
	}
}

/**
 * Renders the app on the terminal's alternate screen and resolves when the person quits, or with the
 * signal that ended it (SIGTERM, SIGHUP when the terminal closes, SIGINT): every fan-out is
 * cancelled first, as `sift run` does, so no queued batch starts after the signal; then its runs stop.
 */
export async function startApp(options: StartOptions): Promise<TerminationSignal | undefined> {
	enterAltScreen();
	let caught: TerminationSignal | undefined;
	try {
		const opening = await openingBeforeMount(options);
		// Ink holds a frame back until 1/maxFps after the last one; at its default a keypress that follows
		// a prefetch render waited up to 33 ms. Renders happen on state changes only, so a high cap is cheap.
		const instance = render(
			<App store={options.store} dbPath={options.dbPath} channelId={options.channelId} theme={makeTheme(options.env, {mono: options.config?.config.theme === 'mono'})} run={options.run} config={options.config} lockWaits={options.lockWaits} syncNotices={options.syncNotices} opening={opening} pollRetryMaxMs={retryMaxFromEnv(options.env)}/>,
			{exitOnCtrlC: false, patchConsole: true, maxFps: 250},
		);
		const uninstall = handleTerminationSignals(signal => {
			caught ??= signal;
			void stopActiveRuns().finally(() => instance.unmount());
		});
		try {
			await instance.waitUntilExit();
		} finally {
			uninstall();
		}
	} finally {
		restoreTerminal();
	}

	return caught;
}
