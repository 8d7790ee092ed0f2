import {render} from '#ink';
import type {Store} from '../../store/index.js';
import {App, type AppProps} from './app.js';
import {makeTheme} from './theme.js';

export type StartOptions = {store: Store; dbPath: string; channelId?: string; env: NodeJS.ProcessEnv; run: AppProps['run']};

/** Renders the app on the terminal and resolves when the person quits. */
export async function startApp(options: StartOptions): Promise<void> {
	const instance = render(
		<App store={options.store} dbPath={options.dbPath} channelId={options.channelId} theme={makeTheme(options.env)} run={options.run}/>,
		{exitOnCtrlC: false, patchConsole: true, maxFps: 60},
	);
	await instance.waitUntilExit();
}
