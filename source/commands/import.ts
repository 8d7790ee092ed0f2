import {existsSync, rmSync} from 'node:fs';
import {openStore} from '../../store/index.js';
import {readImportFile} from '../import/read-import-file.js';
import {sanitizeValue} from '../text/sanitize.js';
import {databasePath, onlyArgument, output} from './common.js';
import type {Command} from './context.js';

/** Removes a database file this command created, with its WAL companions. */
export function removeDatabase(path: string): void {
	for (const suffix of ['', '-wal', '-shm']) {
		rmSync(path + suffix, {force: true});
	}
}

const command: Command = async context => {
	const file = onlyArgument(context, 'FILE to import');
	const path = databasePath(context);
	const isNew = !existsSync(path);
	const source = readImportFile(file);
	const store = openStore(path);
	try {
		const result = store.importChannel(source);
		output(context, {channel_id: result.channel.id, items_created: result.items_created, db: path},
			() => `imported channel ${result.channel.id} (${sanitizeValue(result.channel.name)}) with ${result.items_created} items into ${path}`);
		store.close();
		return 0;
	} catch (error) {
		store.close();
		if (isNew) {
			removeDatabase(path);
		}

		throw error;
	} finally {
		source.close();
	}
};

export default command;
