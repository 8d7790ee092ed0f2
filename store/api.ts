// The store's asynchronous interface: one contract, two backends. A file path opens the embedded
// SQLite store; a postgres:// URL opens the shared PostgreSQL store. The contract's types are in
// store/contract.ts, so the backends never import this module, which imports them.

import type {AsyncStore, AsyncStoreOptions} from './contract.js';

export type * from './contract.js';
export {isPostgresUrl, shownLocation} from './location.js';
import {isPostgresUrl} from './location.js';

/** Opens the store at `location`: a postgres:// or postgresql:// URL, or else a SQLite file path. */
export async function openAsyncStore(location: string, options: AsyncStoreOptions = {}): Promise<AsyncStore> {
	if (isPostgresUrl(location)) {
		// Loaded on demand: the embedded default never pays for the PostgreSQL client.
		const {openPostgresStore} = await import('./postgres/store.js');
		return openPostgresStore(location, options);
	}

	const {openSqliteAsyncStore} = await import('./sqlite/async-store.js');
	return openSqliteAsyncStore(location, options);
}
