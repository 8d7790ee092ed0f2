// `sift demo`: load the demo channel into the default database, then the TUI.

import {existsSync, renameSync} from 'node:fs';
import {dirname} from 'node:path';
import {ensurePrivateDir, isPostgresUrl, openAsyncStore, shownLocation, type AsyncStore} from '../../store/index.js';
import {bugsChannel, generateBugItems} from '../../demo-data/generate.js';
import {reapAbandonedRuns} from '../codex/reap.js';
import {databasePath, openExistingStore, openOrCreateStore, output, sweepDeadBuilds, wholeNumber} from './common.js';
import {UsageError, type Command, type CommandContext} from './context.js';
import {invocation} from './invocation.js';
import {removeDatabase} from './import.js';
import {counted} from '../text/format.js';

const DEFAULT_ITEMS = 1000;
const DEFAULT_SEED = 1;

/**
 * Which channels the store holds besides the demo, and whether it has the demo. Like every start
 * of sift on an existing store, it closes the runs a killed sift left behind.
 */
async function channelsOf(store: AsyncStore, env: NodeJS.ProcessEnv): Promise<{hasDemo: boolean; others: string[]}> {
	await reapAbandonedRuns(store, env);
	const ids = (await store.listChannelNames()).map(channel => channel.id);
	return {hasDemo: ids.includes(bugsChannel.id), others: ids.filter(id => id !== bugsChannel.id)};
}

/** Builds the demo beside its final path and renames it in, so an interrupted build leaves nothing half-made. */
async function createDemo(path: string, count: number, seed: number): Promise<void> {
	const building = `${path}.building-${process.pid}`;
	removeDatabase(building);
	const store = await openAsyncStore(building, {create: true});
	try {
		await store.importChannel({channel: bugsChannel, items: generateBugItems({count, seed})});
		// The renamed file must hold everything: no write-ahead log left beside the old name.
		await store.checkpoint();
	} finally {
		await store.close();
	}

	removeDatabase(path);
	renameSync(building, path);
	removeDatabase(building);
}

/** Adds the demo channel to a store that holds other channels: one transaction, all or nothing. */
async function addDemo(store: AsyncStore, count: number, seed: number): Promise<void> {
	await store.importChannel({channel: bugsChannel, items: generateBugItems({count, seed})});
}

type Plan = {count: number; seed: number; reset: boolean};

/** A SQLite file: built aside and renamed in when new or --reset, else the channel is added. */
async function demoInFile(context: CommandContext, path: string, plan: Plan): Promise<boolean> {
	// Records are private: every folder made on the way is 0700, as XDG asks of its data directories.
	ensurePrivateDir(dirname(path));
	sweepDeadBuilds(dirname(path));
	let existing: {hasDemo: boolean; others: string[]} | undefined;
	if (existsSync(path)) {
		const store = await openExistingStore(context);
		try {
			existing = await channelsOf(store, context.env);
		} finally {
			await store.close();
		}
	}

	if (existing && plan.reset && existing.others.length > 0) {
		throw new UsageError(`${path} holds other channels (${existing.others.join(', ')}); --reset only replaces a database that holds nothing but the demo`);
	}

	if (!existing || plan.reset) {
		context.stderr.write(`creating the demo database with ${counted(plan.count, 'item')} at ${path}…\n`);
		await createDemo(path, plan.count, plan.seed);
		return true;
	}

	if (existing.hasDemo) return false;
	const store = await openExistingStore(context);
	try {
		context.stderr.write(`adding the demo channel with ${counted(plan.count, 'item')} to ${path}…\n`);
		await addDemo(store, plan.count, plan.seed);
	} finally {
		await store.close();
	}

	return true;
}

/**
 * PostgreSQL: the store is shared and has no file to build aside, so the demo channel is only ever
 * added (one transaction). --reset is refused: replacing a shared store is not the demo's to do.
 */
async function demoInPostgres(context: CommandContext, plan: Plan): Promise<boolean> {
	if (plan.reset) {
		throw new UsageError(`--reset rebuilds a SQLite file; on PostgreSQL (${shownLocation(databasePath(context))}) drop the schema or database yourself, then run sift demo again`);
	}

	const store = await openOrCreateStore(context);
	try {
		const existing = await channelsOf(store, context.env);
		if (existing.hasDemo) return false;
		context.stderr.write(`adding the demo channel with ${counted(plan.count, 'item')} to ${store.location}…\n`);
		await addDemo(store, plan.count, plan.seed);
		return true;
	} finally {
		await store.close();
	}
}

/**
 * `sift demo`: the demo channel in the default database (the one every other command opens
 * without --db), then the TUI. An existing database gains the channel; --reset rebuilds a SQLite
 * file, and is refused when it holds anything but the demo (and always on PostgreSQL).
 */
const command: Command = async context => {
	const path = databasePath(context);
	const plan = {
		count: wholeNumber(context.flags.items, '--items', 1) ?? DEFAULT_ITEMS,
		seed: wholeNumber(context.flags.seed, '--seed', 0) ?? DEFAULT_SEED,
		reset: context.flags.reset,
	};
	const created = isPostgresUrl(path) ? await demoInPostgres(context, plan) : await demoInFile(context, path, plan);
	if (context.flags.open) {
		const {default: tui} = await import('./tui.js');
		return tui({...context, flags: {...context.flags, db: path, channel: bugsChannel.id}});
	}

	const shown = shownLocation(path);
	output(context, {db: shown, created}, () => `demo ready in ${shown}\nopen it with: ${invocation(context.env)}${context.flags.db === undefined ? '' : ` --db ${shown}`}`);
	return 0;
};

export default command;
