import {render} from 'ink-testing-library';
import type {AsyncStore} from '../../store/api.js';
import {App} from '../../source/ui/app.js';
import {makeTheme} from '../../source/ui/theme.js';

export const tick = (ms = 0) => new Promise(resolve => setTimeout(resolve, ms));

/** Renders the whole app on a store, NO_COLOR so frames compare as plain text. */
export function renderApp(store: AsyncStore, options: {dbPath?: string; stateDir?: string; codex?: string; env?: NodeJS.ProcessEnv} = {}) {
	const env = {...process.env, ...options.env};
	const instance = render(
		<App
			store={store}
			dbPath={options.dbPath ?? store.location}
			theme={makeTheme({NO_COLOR: '1'})}
			run={{codex: options.codex, env, stateDir: options.stateDir, codexConfig: []}}
		/>,
	);
	return {
		...instance,
		/** Types keys and waits for the app to settle. */
		async keys(...keys: string[]) {
			for (const key of keys) {
				instance.stdin.write(key);
				await tick(15);
			}

			await tick(30);
		},
		frame: () => instance.lastFrame() ?? '',
		async waitFor(test: (frame: string) => boolean, timeoutMs = 5000) {
			const started = Date.now();
			while (!test(instance.lastFrame() ?? '')) {
				if (Date.now() - started > timeoutMs) throw new Error(`timed out; last frame:\n${instance.lastFrame()}`);
				await tick(20);
			}

			return instance.lastFrame() ?? '';
		},
	};
}
