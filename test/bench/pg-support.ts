// PostgreSQL for the benches: a fresh database (sift_bench_<run>_<random>) on the server named by
// SIFT_BENCH_PG_URL or SIFT_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres),
// dropped afterwards by the bench, and in any case by run.ts once the run ends (dropRunDatabases).
// Without a reachable server a bench says so and is left out. A connection the server drops (a
// restart) fails the query in flight; it is never an unhandled 'error' event.

import {randomBytes} from 'node:crypto';
import pg from 'pg';

export const pgServerUrl = () => process.env.SIFT_BENCH_PG_URL ?? process.env.SIFT_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** This run's tag in database names (run.ts sets it for the benches it starts). */
const runTag = () => (process.env.SIFT_BENCH_RUN ?? '').replace(/[^a-z0-9]/g, '') || 'solo';

/**
 * One connection to `url` for `work`, then closed. The server dropping it (a restart) surfaces as
 * the failed query's error; the 'error' event it also emits is heard, so it cannot crash the process.
 */
export async function withPgClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
	const client = new pg.Client({connectionString: url, connectionTimeoutMillis: 5000});
	let lost: Error | undefined;
	client.on('error', error => {
		lost = error;
	});
	await client.connect();
	try {
		return await work(client);
	} catch (error) {
		throw lost && error !== lost ? new Error(`${(error as Error).message} (the connection was lost: ${lost.message})`) : error;
	} finally {
		await client.end().catch(() => {});
	}
}

/** Runs one statement on its own connection to `url`. */
export async function pgQuery(url: string, sql: string): Promise<void> {
	await withPgClient(url, async client => {
		await client.query(sql);
	});
}

/** Drops every database this run made (sift_bench_<run>_*), whatever its bench did; returns their names. */
export async function dropRunDatabases(run: string): Promise<string[]> {
	return withPgClient(pgServerUrl(), async client => {
		const {rows} = await client.query<{datname: string}>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`sift_bench_${run}_%`]);
		for (const {datname} of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
		return rows.map(row => row.datname);
	});
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
	const name = `sift_bench_${runTag()}_${randomBytes(4).toString('hex')}`;
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
