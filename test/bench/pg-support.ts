// PostgreSQL for the benches: a fresh database (sift_bench_<random>) on the server named by
// SIFT_BENCH_PG_URL or SIFT_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres),
// dropped afterwards. Without a reachable server a bench says so and is left out.

import {randomBytes} from 'node:crypto';
import pg from 'pg';

export const pgServerUrl = () => process.env.SIFT_BENCH_PG_URL ?? process.env.SIFT_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs one statement on its own connection to `url`. */
export async function pgQuery(url: string, sql: string): Promise<void> {
	const client = new pg.Client({connectionString: url, connectionTimeoutMillis: 5000});
	await client.connect();
	try {
		await client.query(sql);
	} finally {
		await client.end();
	}
}

/** Empties a bench database: everything a store made goes. */
export const RESET_SQL = 'DROP SCHEMA public CASCADE; CREATE SCHEMA public';

export type BenchDatabase = {
	url: string;
	/** Empties the database, so the next store starts from nothing. */
	reset(): Promise<void>;
	drop(): Promise<void>;
};

/** A new database for one bench, or null (after saying why) when no server answers. */
export async function benchDatabase(bench: string): Promise<BenchDatabase | null> {
	const name = `sift_bench_${randomBytes(5).toString('hex')}`;
	try {
		await pgQuery(pgServerUrl(), `CREATE DATABASE ${name}`);
	} catch (error) {
		console.log(`\n${bench} left out: no PostgreSQL at ${new URL(pgServerUrl()).host} (${(error as Error).message})`);
		return null;
	}

	const url = new URL(pgServerUrl());
	url.pathname = `/${name}`;
	return {
		url: url.toString(),
		reset: () => pgQuery(url.toString(), RESET_SQL),
		drop: () => pgQuery(pgServerUrl(), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
	};
}
