// `sift demo` and `sift import` close the runs a killed sift left behind.

import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import Database from 'better-sqlite3';
import {beforeAll, describe, expect, it} from 'vitest';
import {bugsChannel} from '../../demo-data/generate.js';
import {demoDatabase, ensureBuilt, sift, tempDir} from '../support/cli.js';

beforeAll(() => ensureBuilt());

/** Above any pid_max, so never a live process. */
const DEAD_PID = 2 ** 22 + 4321;

/** A database whose runs table holds a run whose sift was killed (its owner is gone). */
function withOrphanedRun(): string {
	const db = demoDatabase(2);
	const sqlite = new Database(db);
	sqlite.prepare(`INSERT INTO runs (id, channel_id, item_ids, instruction, started_at, owner_pid) VALUES ('run-orphan', 'bugs', '[]', 'triage', ?, ?)`).run(new Date().toISOString(), DEAD_PID);
	sqlite.close();
	return db;
}

const outcomeOf = (db: string) => {
	const sqlite = new Database(db, {readonly: true});
	try {
		return (sqlite.prepare(`SELECT outcome FROM runs WHERE id = 'run-orphan'`).get() as {outcome: string | null}).outcome;
	} finally {
		sqlite.close();
	}
};

describe('demo and import close the runs a killed sift left behind', () => {
	it('sift demo on an existing database', () => {
		const db = withOrphanedRun();
		expect(outcomeOf(db)).toBeNull();
		const result = sift(['demo', '--no-open', '--db', db]);
		expect(result.code, result.stderr).toBe(0);
		expect(outcomeOf(db)).toBe('abandoned');
	});

	it('sift import into an existing database', () => {
		const db = withOrphanedRun();
		const file = join(tempDir('sift-reap-'), 'other.json');
		writeFileSync(file, JSON.stringify({channel: {...bugsChannel, id: 'other'}, items: []}));
		const result = sift(['import', file, '--db', db]);
		expect(result.code, result.stderr).toBe(0);
		expect(outcomeOf(db)).toBe('abandoned');
	});
});
