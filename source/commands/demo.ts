import {existsSync, renameSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {openStore} from '../../store/index.js';
import {bugsChannel, generateBugItems} from '../../demo-data/generate.js';
import {dataDir, output, wholeNumber} from './common.js';
import {UsageError, type Command} from './context.js';
import {removeDatabase} from './import.js';

const DEFAULT_ITEMS = 1000;
const DEFAULT_SEED = 1;

/** --reset deletes a file: only ever one that holds nothing but the demo channel. */
function checkResettable(path: string): void {
	const store = openStore(path);
	try {
		const others = store.listChannelNames().filter(channel => channel.id !== bugsChannel.id);
		if (others.length > 0) {
			throw new UsageError(`${path} holds other channels (${others.map(channel => channel.id).join(', ')}); --reset only replaces a demo database`);
		}
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

const command: Command = async context => {
	const path = resolve(context.flags.db ?? join(dataDir(context.env), 'demo.db'));
	const count = wholeNumber(context.flags.items, '--items', 1) ?? DEFAULT_ITEMS;
	const seed = wholeNumber(context.flags.seed, '--seed', 0) ?? DEFAULT_SEED;
	const exists = existsSync(path);
	if (exists && context.flags.reset) {
		checkResettable(path);
	}

	if (!exists || context.flags.reset) {
		context.stderr.write(`creating the demo database with ${count} items at ${path}…\n`);
		createDemo(path, count, seed);
	}

	if (context.flags.open) {
		const {default: tui} = await import('./tui.js');
		return tui({...context, flags: {...context.flags, db: path}});
	}

	output(context, {db: path, created: !exists || context.flags.reset}, () => `demo database ready at ${path}\nopen it with: sift --db ${path}`);
	return 0;
};

export default command;
