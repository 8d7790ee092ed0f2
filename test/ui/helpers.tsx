// Rendering helpers for UI tests.

import {render} from 'ink-testing-library';
import {afterEach, beforeEach} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {openStore, type Store} from '../../store/index.js';
import {makeDemoDb, type DemoDb} from '../support/pty-fixtures.js';
import {App} from '../../source/ui/app.js';
import type {Opening} from '../../source/ui/first-screen.js';
import {makeTheme} from '../../source/ui/theme.js';
import {present} from '../support/present.js';
import {setImmediate as nextTurn} from 'node:timers/promises';
import {effectsUnderWay} from '../../source/ui/hooks/effects.js';
import {waitUntil} from '../support/wait.js';

/**
 * Resolves once the app has handled what was typed: a turn of the event loop (Ink holds a lone
 * Escape until then, in case a sequence follows, and React runs the commit's effects) and then no
 * effect's work under way (the store reads a key asked for have answered and been drawn).
 */
export async function settled(): Promise<void> {
	await nextTurn();
	await waitUntil(() => effectsUnderWay() === 0, 'the app to finish the work a key started', {intervalMs: 2});
}

/** Renders the whole app on a store, NO_COLOR so frames compare as plain text. */
export function renderApp(store: AsyncStore, options: {dbPath?: string; stateDir?: string; codex?: string; env?: NodeJS.ProcessEnv; endpoint?: string; opening?: Opening} = {}) {
	const env = {...process.env, ...options.env};
	const instance = render(
		<App
			store={store}
			dbPath={options.dbPath ?? store.location}
			theme={makeTheme({NO_COLOR: '1'})}
			run={{codex: options.codex, env, stateDir: options.stateDir, codexConfig: [], endpoint: options.endpoint}}
			opening={options.opening}
		/>,
	);
	return {
		...instance,
		/** Types keys, each once the app has handled the one before, and waits for the app to settle. */
		async keys(...keys: string[]) {
			for (const key of keys) {
				instance.stdin.write(key);
				await settled();
			}
		},
		frame: () => instance.lastFrame() ?? '',
		async waitFor(test: (frame: string) => boolean, timeoutMs = 10_000) {
			await waitUntil(() => test(instance.lastFrame() ?? ''), 'a frame', {timeoutMs}).catch((error: Error) => {
				throw new Error(`${error.message}; last frame:\n${instance.lastFrame()}`);
			});
			return instance.lastFrame() ?? '';
		},
	};
}

export type AppDemo = {
	readonly db: DemoDb;
	/** The store the app is given. */
	readonly store: AsyncStore;
	/** A second connection to the same file: another process's view, to change or check data. */
	readonly other: Store;
};

/** A fresh demo database of `count` items for each test, opened twice; all closed and removed after it. */
export function appDemo(count: number, prefix?: string): AppDemo {
	let current: {db: DemoDb; store: AsyncStore; other: Store} | undefined;
	beforeEach(async () => {
		const db = makeDemoDb(count, {prefix});
		current = {db, store: await openAsyncStore(db.dbPath), other: openStore(db.dbPath)};
	});
	afterEach(async () => {
		if (!current) return;
		await current.store.close();
		current.other.close();
		current.db.cleanup();
		current = undefined;
	});
	const now = () => present(current, 'the demo database exists only inside a test');

	return {
		get db() {
			return now().db;
		},
		get store() {
			return now().store;
		},
		get other() {
			return now().other;
		},
	};
}
