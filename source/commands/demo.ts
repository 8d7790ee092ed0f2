import {existsSync, mkdirSync, renameSync} from 'node:fs';
import {dirname} from 'node:path';
import {openStore, SqliteAsyncStore} from '../../store/index.js';
import {bugsChannel, generateBugItems} from '../../demo-data/generate.js';
import {reapAbandonedRuns} from '../codex/reap.js';
import {databasePath, output, sweepDeadBuilds, wholeNumber} from './common.js';
import {UsageError, type Command} from './context.js';
import {removeDatabase} from './import.js';

const DEFAULT_ITEMS = 1000;
const DEFAULT_SEED = 1;

/**
 * Which channels the database at `path` holds besides the demo, and whether it has the demo. Like
 * every start of sift on an existing database, it closes the runs a killed sift left behind.
 */
function channelsOf(path: string, env: NodeJS.ProcessEnv): {hasDemo: boolean; others: string[]} {
	const store = openStore(path);
	try {
		void reapAbandonedRuns(new SqliteAsyncStore(store), env);
		const ids = store.listChannelNames().map(channel => channel.id);
		return {hasDemo: ids.includes(bugsChannel.id), others: ids.filter(id => id !== bugsChannel.id)};
	} finally {
		store.close();
	}
}

/** Builds the demo beside its final path and renames it in, so an interrupted build leaves nothing half-made. */
function createDemo(path: string, count: number, seed: number): void {
	const building = `${path}.building-${process.pid}`;
	removeDatabase(building);
	const store = openStore(building, {create: true});
	try {
		store.importChannel({channel: bugsChannel, items: generateBugItems({count, seed})});
		store.db.pragma('wal_checkpoint(TRUNCATE)');
	} finally {
		store.close();
	}

	removeDatabase(path);
	renameSync(building, path);
	removeDatabase(building);
}

/** Adds the demo channel to a database that holds other channels: one transaction, all or nothing. */
function addDemo(path: string, count: number, seed: number): void {
	const store = openStore(path);
	try {
		store.importChannel({channel: bugsChannel, items: generateBugItems({count, seed})});
	} finally {
		store.close();
	}
}

/**
 * `sift demo`: the demo channel in the default database (the one every other command opens
 * without --db), then the TUI. An existing database gains the channel; --reset rebuilds it, and
 * is refused when the database holds anything but the demo.
 */
const command: Command = async context => {
	const path = databasePath(context);
	const count = wholeNumber(context.flags.items, '--items', 1) ?? DEFAULT_ITEMS;
	const seed = wholeNumber(context.flags.seed, '--seed', 0) ?? DEFAULT_SEED;
	mkdirSync(dirname(path), {recursive: true});
	sweepDeadBuilds(dirname(path));
	const existing = existsSync(path) ? channelsOf(path, context.env) : undefined;
	if (existing && context.flags.reset && existing.others.length > 0) {
		throw new UsageError(`${path} holds other channels (${existing.others.join(', ')}); --reset only replaces a database that holds nothing but the demo`);
	}

	let created = false;
	if (!existing || context.flags.reset) {
		context.stderr.write(`creating the demo database with ${count} items at ${path}…\n`);
		createDemo(path, count, seed);
		created = true;
	} else if (!existing.hasDemo) {
		context.stderr.write(`adding the demo channel with ${count} items to ${path}…\n`);
		addDemo(path, count, seed);
		created = true;
	}

	if (context.flags.open) {
		const {default: tui} = await import('./tui.js');
		return tui({...context, flags: {...context.flags, db: path, channel: bugsChannel.id}});
	}

	output(context, {db: path, created}, () => `demo ready in ${path}\nopen it with: sift${context.flags.db === undefined ? '' : ` --db ${path}`}`);
	return 0;
};

export default command;
