import {sanitize} from '../text/sanitize.js';
import {openOrCreateStore, output} from './common.js';
import type {Command} from './context.js';

/**
 * `sift migrate`: creates sift's tables where there are none, or brings them to this sift's
 * schema, then stops. On PostgreSQL the owner runs it once per upgrade, so roles that only read
 * and write rows never need a CREATE right (opening a store runs no DDL unless a migration is due).
 */
const command: Command = async context => {
	const store = await openOrCreateStore(context);
	try {
		const created = store.created.file;
		output(context, {db: store.location, backend: store.backend, ready: true}, () => `${sanitize(store.location)} is a sift store at this sift's schema${created ? ' (created)' : ''}`);
		return 0;
	} finally {
		await store.close();
	}
};

export default command;
