// Opening the PostgreSQL store: the URL checked, a pool made, and every way of failing to reach the
// server turned into one line naming the host and the reason. The password never appears.

import pg from 'pg';
import {shownLocation} from '../api.js';
import {StoreError} from '../errors.js';

export type Target = {url: string; /** host:port/database, for messages. */ where: string; /** The URL without its password. */ display: string};

const INT8_OID = 20;

/** Counts and sequences come back as numbers (they stay far below 2^53), not strings. */
const types = {
	getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
		oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

const unavailable = (message: string) => new StoreError({error: 'invalid_argument', message});

export function parseTarget(url: string): Target {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		throw unavailable('the PostgreSQL store URL is not a valid URL; expected postgres://USER@HOST:PORT/DATABASE');
	}

	if (!/^postgres(ql)?:$/.test(parsed.protocol) || parsed.hostname === '') {
		throw unavailable(`the PostgreSQL store URL must look like postgres://USER@HOST:PORT/DATABASE, got one for ${JSON.stringify(parsed.protocol + '//' + parsed.host)}`);
	}

	const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username) || 'postgres';
	const where = `${parsed.hostname}:${parsed.port || '5432'}/${database}`;
	return {url, where, display: shownLocation(url)};
}

/** Why a connection failed, in a few words (the server's own message for login and database errors). */
export function reasonOf(error: unknown): string {
	const {code, message} = (error ?? {}) as {code?: string; message?: string};
	const known: Record<string, string> = {
		ECONNREFUSED: 'connection refused (is PostgreSQL running?)',
		ENOTFOUND: 'host not found',
		EAI_AGAIN: 'host name lookup failed',
		ETIMEDOUT: 'connection timed out',
		EHOSTUNREACH: 'host unreachable',
		ECONNRESET: 'connection reset by the server',
	};
	if (code !== undefined && known[code]) {
		return known[code];
	}

	const text = (message ?? String(error)).split('\n')[0]!.trim();
	return /timeout/i.test(text) ? 'connection timed out' : text;
}

export function connectionError(target: Target, error: unknown): StoreError {
	return unavailable(`cannot open the PostgreSQL store at ${target.where}: ${reasonOf(error)}`);
}

export function makePool(target: Target, max = 10): pg.Pool {
	const pool = new pg.Pool({connectionString: target.url, max, types, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 10_000, allowExitOnIdle: true});
	// An idle client losing its server is not a crash: the next query reconnects or reports it.
	pool.on('error', () => {});
	return pool;
}

/** A client outside the pool (for LISTEN), with the same type parsing. */
export function makeClient(target: Target): pg.Client {
	return new pg.Client({connectionString: target.url, types, connectionTimeoutMillis: 10_000});
}

/** Runs `work` in one transaction on one pooled client; any throw rolls back everything. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
	const client = await pool.connect();
	let broken: Error | undefined;
	try {
		await client.query('BEGIN');
		const result = await work(client);
		await client.query('COMMIT');
		return result;
	} catch (error) {
		try {
			await client.query('ROLLBACK');
		} catch (rollbackError) {
			broken = rollbackError as Error;
		}

		throw error;
	} finally {
		// A client whose rollback failed is in an unknown state: destroy it rather than reuse it.
		client.release(broken);
	}
}
