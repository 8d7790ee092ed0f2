// `sift migrate`: creates sift's tables or brings them to this sift's schema (PostgreSQL: run by
// the owner, so other roles need no CREATE right)

import {sanitize} from '../text/sanitize.js';
import {openOrCreateStore, output} from './common.js';
import type {Command} from './context.js';

/**
 * `sift migrate`: creates sift's tables where there are none, or brings them to this sift's
 * schema, then stops. On PostgreSQL the owner runs it once per upgrade, so roles that only read
 * and write rows never need a CREATE right (opening a store runs no DDL unless a migration is due).
 */
const command: Command = async context => {
	let upgraded: {from: number; to: number} | undefined;
	const store = await openOrCreateStore(context, (from, to) => {
		upgraded = {from, to};
	});
	try {
		const done = upgraded ? `upgraded from schema ${upgraded.from} to ${upgraded.to}` : store.created.file ? 'created' : 'at this sift\'s schema';
		output(context, {db: store.location, backend: store.backend, ready: true, ...(upgraded ? {upgraded_from: upgraded.from, schema: upgraded.to} : {})}, () => `${sanitize(store.location)}: sift store ${done}`);
		return 0;
	} finally {
		await store.close();
	}
};

export default command;
