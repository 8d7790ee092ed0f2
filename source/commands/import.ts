import {openStore, removeStoreFiles, SqliteAsyncStore} from '../../store/index.js';
import {readImportFile} from '../import/read-import-file.js';
import {reapAbandonedRuns} from '../codex/reap.js';
import {sanitizeValue} from '../text/sanitize.js';
import {databasePath, onlyArgument, output} from './common.js';
import type {Command} from './context.js';

/** Removes a database file this command created, with its WAL companions. */
export function removeDatabase(path: string): void {
	removeStoreFiles(path);
}

const command: Command = async context => {
	const file = onlyArgument(context, 'FILE to import');
	const path = databasePath(context);
	const source = readImportFile(file);
	const store = openStore(path, {create: true});
	try {
		void reapAbandonedRuns(new SqliteAsyncStore(store), context.env);
		const result = store.importChannel(source);
		output(context, {channel_id: result.channel.id, items_created: result.items_created, db: path},
			() => `imported channel ${result.channel.id} (${sanitizeValue(result.channel.name)}) with ${result.items_created} items into ${path}`);
		store.close();
		return 0;
	} catch (error) {
		store.close();
		if (store.created.file) {
			removeStoreFiles(path, store.created.dirs);
		}

		throw error;
	} finally {
		source.close();
	}
};

export default command;
