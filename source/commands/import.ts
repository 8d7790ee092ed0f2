import {removeStoreFiles} from '../../store/index.js';
import {readImportFile} from '../import/read-import-file.js';
import {reapAbandonedRuns} from '../codex/reap.js';
import {sanitizeValue} from '../text/sanitize.js';
import {databasePath, onlyArgument, openOrCreateStore, output} from './common.js';
import type {Command} from './context.js';

/** Removes a database file this command created, with its WAL companions. */
export function removeDatabase(path: string): void {
	removeStoreFiles(path);
}

/**
 * `sift import FILE`: the channel and its items in one transaction, streamed from the file. A
 * SQLite file is created when missing (and removed again if the import fails); on PostgreSQL the
 * failed transaction leaves nothing behind.
 */
const command: Command = async context => {
	const file = onlyArgument(context, 'FILE to import');
	const path = databasePath(context);
	// The file's head is checked before any store is opened or created.
	const source = readImportFile(file);
	try {
		const store = await openOrCreateStore(context);
		try {
			await reapAbandonedRuns(store, context.env);
			const result = await store.importChannel(source);
			if (result.indexes_missing) {
				context.stderr.write(`sift: this database role may not create indexes, so channel ${result.channel.id} has none of its ${result.indexes_missing} sort and lookup indexes yet (every page is still right; big sorted pages are slower); run \`sift migrate --db ${sanitizeValue(store.location)}\` as the owner of sift's tables to build them\n`);
			}

			output(context, {channel_id: result.channel.id, items_created: result.items_created, db: store.location},
				() => `imported channel ${result.channel.id} (${sanitizeValue(result.channel.name)}) with ${result.items_created} items into ${sanitizeValue(store.location)}`);
			await store.close();
			return 0;
		} catch (error) {
			await store.close();
			if (store.created.file) {
				removeStoreFiles(path, store.created.dirs);
			}

			throw error;
		}
	} finally {
		source.close();
	}
};

export default command;
