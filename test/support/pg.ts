// PostgreSQL for the tests: a fresh, uniquely named database per test file (dropped afterwards), and
// a fresh schema per test inside it. The server comes from SIFT_TEST_PG_URL. An unreachable server
// fails the suite loudly; only SIFT_TEST_PG=off skips the PostgreSQL suites, and says so.

import {randomBytes} from 'node:crypto';
import {join} from 'node:path';
import pg from 'pg';
import {afterAll, beforeAll, describe, it} from 'vitest';
import {present} from './present.js';
import {tempDir} from './temp.js';

export const PG_ADMIN_URL = process.env.SIFT_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const PG_OFF = process.env.SIFT_TEST_PG === 'off';

export const PG_OFF_NOTE = 'skipped: SIFT_TEST_PG=off (PostgreSQL suites turned off on purpose)';

let warned = false;

/** A visible skip: the test list and the console both say the PostgreSQL suites did not run. */
export function notePgOff(): void {
	if (!warned) {
		warned = true;
		console.warn(`\n*** PostgreSQL suites ${PG_OFF_NOTE} ***\n`);
	}

	it.skip(PG_OFF_NOTE, () => {});
}

/** `describe` for a PostgreSQL-only suite: skipped with a visible message when SIFT_TEST_PG=off. */
export function describePg(name: string, body: () => void): void {
	if (PG_OFF) {
		describe(`${name} [${PG_OFF_NOTE}]`, notePgOff);
		return;
	}

	describe(name, body);
}

function withDatabase(url: string, database: string, searchPath?: string): string {
	const target = new URL(url);
	target.pathname = `/${database}`;
	if (searchPath !== undefined) {
		target.searchParams.set('options', `-c search_path=${searchPath}`);
	}

	return target.toString();
}

async function adminQuery(url: string, sql: string): Promise<void> {
	const client = new pg.Client({connectionString: url, connectionTimeoutMillis: 5000});
	try {
		await client.connect();
	} catch (error) {
		const where = new URL(url).host;
		throw new Error(`PostgreSQL for the tests is unreachable at ${where}: ${(error as Error).message || String(error)}. `
			+ 'Start it (see .ci/run), point SIFT_TEST_PG_URL at a server, or run the SQLite suites alone with SIFT_TEST_PG=off.', {cause: error});
	}

	try {
		await client.query(sql);
	} finally {
		await client.end();
	}
}

export type TestDatabase = {
	/** The database's URL. */
	url: string;
	/** A URL on a new, empty schema of this database: one store per test, no leftovers between tests. */
	freshSchemaUrl(): Promise<string>;
	drop(): Promise<void>;
};

/** CREATE DATABASE sift_test_<random> on the test server; drop() removes it, closing any leftover connection. */
export async function createTestDatabase(): Promise<TestDatabase> {
	const name = `sift_test_${randomBytes(6).toString('hex')}`;
	await adminQuery(PG_ADMIN_URL, `CREATE DATABASE ${name}`);
	const url = withDatabase(PG_ADMIN_URL, name);
	let schemas = 0;
	return {
		url,
		async freshSchemaUrl() {
			const schema = `t${++schemas}`;
			await adminQuery(url, `CREATE SCHEMA ${schema}`);
			return withDatabase(PG_ADMIN_URL, name, schema);
		},
		async drop() {
			await adminQuery(PG_ADMIN_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
		},
	};
}

/**
 * This suite's test database, made before its tests and dropped after them (call it inside a
 * describePg body, before the hooks that use it).
 */
export function useTestDatabase(): TestDatabase {
	let database: TestDatabase | undefined;
	beforeAll(async () => {
		database = await createTestDatabase();
	});
	afterAll(async () => database?.drop());
	const made = () => present(database, 'the test database is made in beforeAll');

	return {
		get url() {
			return made().url;
		},
		freshSchemaUrl: async () => made().freshSchemaUrl(),
		drop: async () => made().drop(),
	};
}

/** Where a CLI suite keeps its stores on one backend: a SQLite file per store, or a fresh schema of the suite's own database. */
export type CliStoreTarget = {name: 'sqlite' | 'postgres'; setUp(): Promise<void>; tearDown(): Promise<void>; fresh(): Promise<string>};

/** The backends a CLI suite runs on (PostgreSQL unless SIFT_TEST_PG=off), each giving `--db` values; `prefix` names the SQLite temp dirs. */
export function cliStoreTargets(prefix: string): CliStoreTarget[] {
	let database: TestDatabase | undefined;
	const sqlite: CliStoreTarget = {name: 'sqlite', async setUp() {}, async tearDown() {}, fresh: async () => join(tempDir(prefix), 'store.db')};
	const postgres: CliStoreTarget = {
		name: 'postgres',
		async setUp() {
			database = await createTestDatabase();
		},
		async tearDown() {
			await database?.drop();
		},
		fresh: async () => present(database, 'the test database is made in setUp').freshSchemaUrl(),
	};
	return PG_OFF ? [sqlite] : [sqlite, postgres];
}
