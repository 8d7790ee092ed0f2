// Opening a store made by an older sift: the first command upgrades it in place and says so once,
// before the (possibly long) rewrite; later commands say nothing.

import Database from 'better-sqlite3';
import {beforeAll, describe, expect, it} from 'vitest';
import {demoDatabase, ensureBuilt, sift} from '../support/cli.js';
import {SCHEMA_VERSION} from '../../store/sqlite/database.js';

beforeAll(ensureBuilt);

describe('a store of an older schema', () => {
	it('is upgraded by the first command, which says so once on stderr; the next says nothing', () => {
		const db = demoDatabase(5);
		const file = new Database(db);
		file.pragma('user_version = 4');
		file.close();

		const first = sift(['list', '--db', db, '--json']);
		expect(first.code).toBe(0);
		expect(first.stderr).toBe(`sift: upgrading ${db} from schema 4 to ${SCHEMA_VERSION}, once (about 10 s per million items)…\n`);
		expect((JSON.parse(first.stdout) as {items: unknown[]}).items).toHaveLength(5);
		const again = sift(['list', '--db', db, '--json']);
		expect(again.code).toBe(0);
		expect(again.stderr).toBe('');
	});
});
