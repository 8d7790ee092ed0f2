// Demo stores for tests: the demo bug channel with seeded items on a fixed clock, so tickets,
// titles and hostile rows are the same in every run, on SQLite or PostgreSQL alike.

import {bugsChannel, generateBugItems} from '../../demo-data/generate.js';
import {openAsyncStore, openStore} from '../../store/index.js';

/** A fixed clock for demo data. */
export const FIXTURE_NOW = new Date('2025-06-02T12:00:00Z');

/** `count` demo bugs, the same for the same seed and clock (a suite with its own fixed clock passes it). */
export const demoItems = (count: number, seed = 7, now = FIXTURE_NOW) => generateBugItems({count, seed, now});

/** Creates the store at `file` (SQLite) holding the demo channel with `count` items. */
export function createDemoSqlite(file: string, count: number, seed = 7): void {
	const store = openStore(file, {create: true});
	try {
		store.importChannel({channel: bugsChannel, items: demoItems(count, seed)});
	} finally {
		store.close();
	}
}

/** Imports the demo channel with `count` items into the store at `location` (a SQLite file or a postgres:// URL). */
export async function importDemo(location: string, count: number, seed = 7): Promise<void> {
	const store = await openAsyncStore(location, {create: true});
	try {
		await store.importChannel({channel: bugsChannel, items: demoItems(count, seed)});
	} finally {
		await store.close();
	}
}
