// The pseudo-terminal suites' set-up: the built CLI checked and no app outliving its test
// (`suiteLauncher`), a demo database per suite (`ptyDemo`), several people's TUIs on one PostgreSQL
// demo (`ptyPgDemo`), a run in propose mode whose store makes a suite's proposals (`proposingRun`)

import {existsSync, rmSync} from 'node:fs';
import path from 'node:path';
import {afterAll, afterEach, beforeAll} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {openStore, type Store} from '../../store/index.js';
import {CLI, launch as launchApp, type LaunchOptions, type PtyApp} from './pty.js';
import {useTestDatabase} from './pg.js';
import {createDemoSqlite, importDemo} from './stores.js';
import {tempDir} from './temp.js';
import {present} from './present.js';

/** The demo data's fixed clock (support/stores.ts). */
export {FIXTURE_NOW} from './stores.js';

export type DemoDb = {dir: string; dbPath: string; stateDir: string; cleanup: () => void};

/** A temp folder with a demo bug database of `count` items (seeded), and a state dir for run logs. */
export function makeDemoDb(count: number, options: {seed?: number; prefix?: string} = {}): DemoDb {
	const dir = tempDir(options.prefix ?? 'sift-ui-');
	const dbPath = path.join(dir, 'demo.db');
	createDemoSqlite(dbPath, count, options.seed);
	return {dir, dbPath, stateDir: path.join(dir, 'state'), cleanup: () => rmSync(dir, {recursive: true, force: true})};
}

/** An empty database (no channel). */
export function makeEmptyDb(): DemoDb {
	const dir = tempDir('sift-ui-empty-');
	const dbPath = path.join(dir, 'empty.db');
	openStore(dbPath, {create: true}).close();
	return {dir, dbPath, stateDir: path.join(dir, 'state'), cleanup: () => rmSync(dir, {recursive: true, force: true})};
}

/** The item id of a ticket (the demo's unique name), by scanning pages. */
export function idOfTicket(store: Store, ticket: string): string {
	let before: string | null = null;
	for (;;) {
		const page = store.listPage('bugs', {beforeId: before, limit: 50});
		const hit = page.items.find(item => item.preview.ticket === ticket);
		if (hit) return hit.id;
		if (!page.next_before_id) throw new Error(`no item with ticket ${ticket}`);
		before = page.next_before_id;
	}
}

export type PtyDemo = {
	/** The demo database, made before the suite. */
	readonly db: DemoDb;
	/** The same database opened in the test process, to check or change what the app shows. */
	readonly store: Store;
	/** Launches the built app and kills it after the test, whatever the test did. */
	launch: (options: LaunchOptions) => PtyApp;
};

/**
 * The set-up every pty suite shares: the CLI must be built, a demo database of `count` items
 * exists for the suite, and no app outlives its test.
 */
export function ptyDemo(count: number, prefix: string): PtyDemo {
	let db: DemoDb | undefined;
	let store: Store | undefined;
	const launch = suiteLauncher();

	beforeAll(() => {
		db = makeDemoDb(count, {prefix});
		store = openStore(db.dbPath);
	});

	afterAll(() => {
		store?.close();
		db?.cleanup();
	});

	return {
		get db() {
			return present(db, 'the demo database is made in beforeAll');
		},
		get store() {
			return present(store, 'the demo database is opened in beforeAll');
		},
		launch,
	};
}

/**
 * For a pty suite (call it at its top, before hooks that use it): checks before the suite that the
 * CLI is built; the launcher it gives kills each app after its test, whatever the test did.
 */
export function suiteLauncher(): (options: LaunchOptions) => PtyApp {
	const apps: PtyApp[] = [];
	beforeAll(() => {
		if (!existsSync(CLI())) throw new Error(`${CLI()} is missing: run \`npm run build\` first (npm test does)`);
	});

	afterEach(async () => {
		for (const app of apps.splice(0)) {
			app.kill();
			await app.exited;
		}
	});

	return options => {
		const app = launchApp(options);
		apps.push(app);
		return app;
	};
}

export type PtyPgDemo = {
	/** The suite's PostgreSQL store: a fresh schema of its own test database, with the demo imported. */
	readonly url: string;
	/** The built app on that store, one person's TUI (120×30, the suite's state dir); killed after the test. */
	start: () => PtyApp;
	/** Any other launch, killed after the test as well. */
	launch: (options: LaunchOptions) => PtyApp;
	readonly stateDir: string;
};

/**
 * The set-up of the suites where several people's TUIs share one PostgreSQL store (call it in a
 * describePg body, before hooks that use it): the CLI built, a test database dropped after the
 * suite with a demo of `count` items imported, a state dir, and no app outliving its test.
 */
export function ptyPgDemo(count: number, prefix: string): PtyPgDemo {
	const launch = suiteLauncher();
	const database = useTestDatabase();
	let made: {url: string; stateDir: string} | undefined;
	beforeAll(async () => {
		const url = await database.freshSchemaUrl();
		await importDemo(url, count);
		made = {url, stateDir: tempDir(prefix)};
	});

	const setUp = () => present(made, 'the PostgreSQL demo is made in beforeAll');

	return {
		get url() {
			return setUp().url;
		},
		get stateDir() {
			return setUp().stateDir;
		},
		start: () => launch({args: ['--db', setUp().url], cols: 120, rows: 30, env: {SIFT_STATE_DIR: setUp().stateDir}}),
		launch,
	};
}

/**
 * A run recorded in propose mode on a demo's database, as an agent's would be (docs/review.md):
 * the store its proposals are made through, opened before the suite and closed after it.
 */
export function proposingRun(demo: PtyDemo, runId: string): {store: () => AsyncStore} {
	let store: AsyncStore | undefined;
	beforeAll(async () => {
		store = await openAsyncStore(demo.db.dbPath);
		await store.runs.start({id: runId, channelId: 'bugs', itemIds: [], instruction: 'triage', startedAt: new Date().toISOString(), logPath: null, mode: 'propose'});
	});

	afterAll(async () => {
		await store?.close();
	});

	return {
		store: () => present(store, 'the proposing run\'s store is opened in beforeAll'),
	};
}
