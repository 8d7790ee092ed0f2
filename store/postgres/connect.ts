// Reaching the PostgreSQL server: the URL checked, the password found the way libpq finds it, a pool
// made, and every way of failing to reach the server turned into one line naming the host and the
// reason. The password never appears in a message.

import {userInfo} from 'node:os';
import pg from 'pg';
import {shownLocation} from '../location.js';
import {StoreError} from '../errors.js';
import {lookUpPassword, passfilePath, type Login} from './credentials.js';
import {parseJsonb} from './ordered-json.js';

export type Target = {
	url: string;
	/** host:port/database, for messages. */
	where: string;
	/** The URL without its password. */
	display: string;
	login: Login;
	/** Every statement is cancelled after this long (0: never). */
	statementTimeoutMs: number;
};

export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
/** How long reaching the server and logging in may take. */
export const CONNECT_TIMEOUT_MS = 5000;
/** How long a call may wait for one of the pool's connections while all are busy. */
const POOL_WAIT_MS = 30_000;

const INT8_OID = 20;
const JSONB_OID = 3802;

/** Counts and sequences come back as numbers (they stay far below 2^53), not strings. */
const types = {
	getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
		oid === INT8_OID ? (value: string) => Number(value) : oid === JSONB_OID ? parseJsonb : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

const badUrl = (message: string) => new StoreError({error: 'invalid_argument', message});

export function parseTarget(url: string, statementTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS): Target {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		throw badUrl('the PostgreSQL store URL is not a valid URL; expected postgres://USER@HOST:PORT/DATABASE');
	}

	if (!/^postgres(ql)?:$/.test(parsed.protocol) || parsed.hostname === '') {
		throw badUrl(`the PostgreSQL store URL must look like postgres://USER@HOST:PORT/DATABASE, got one for ${JSON.stringify(parsed.protocol + '//' + parsed.host)}`);
	}

	const user = decodeURIComponent(parsed.username) || process.env.PGUSER || userInfo().username;
	const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || user;
	const host = parsed.hostname.replace(/^\[(.+)\]$/, '$1');
	const port = Number(parsed.port || '5432');
	return {url, where: `${parsed.hostname}:${port}/${database}`, display: shownLocation(url), login: {host, port, database, user}, statementTimeoutMs};
}

/** The server asked for a password and none was found: the URL, PGPASSWORD and the password file were empty. */
class MissingPassword extends Error {
	constructor(readonly login: Login, readonly note: string | undefined) {
		super('no password');
	}
}

function missingPasswordText(error: MissingPassword): string {
	const {host, port, database, user} = error.login;
	return `the server at ${host}:${port} asks for a password for role ${JSON.stringify(user)} and sift has none${error.note ? ` (${error.note})` : ''}; `
		+ `give it in PGPASSWORD, in ${passfilePath(process.env)} as ${host}:${port}:${database}:${user}:PASSWORD (chmod 600), or in the URL`;
}

/**
 * Why a connection or a query failed, in a few words (the server's own message for login and
 * database errors). Never the password: pg's messages do not carry it, and the URL is not quoted.
 */
export function reasonOf(error: unknown): string {
	if (error instanceof MissingPassword) return missingPasswordText(error);
	const cause = (error as {cause?: unknown})?.cause;
	if (cause instanceof MissingPassword) return missingPasswordText(cause);
	const {code, message} = (error ?? {}) as {code?: string; message?: string};
	const known: Record<string, string> = {
		ECONNREFUSED: 'connection refused (is PostgreSQL running?)',
		ENOTFOUND: 'host not found',
		EAI_AGAIN: 'host name lookup failed',
		ETIMEDOUT: 'connection timed out',
		EHOSTUNREACH: 'host unreachable',
		ECONNRESET: 'connection reset by the server',
		EPIPE: 'connection closed by the server',
		'57P01': 'the server is shutting down or restarting',
		'57P02': 'the server is shutting down or restarting',
		'57P03': 'the server is starting up or shutting down',
	};
	if (code !== undefined && known[code]) {
		return known[code];
	}

	const text = (message ?? String(error)).split('\n')[0]!.trim();
	if (/not queryable|Connection terminated/i.test(text)) return 'the connection to the server was lost';
	if (text === 'The server does not support SSL connections') {
		return 'the server does not offer TLS, and sslmode (from the URL or PGSSLMODE) asks for it; use sslmode=disable for a server without TLS';
	}

	return /timeout/i.test(text) ? 'connection timed out' : text;
}

/** Opening failed: one line naming the host and why. Unreachable servers are `unavailable`; the rest (login, database) `invalid_argument`. */
export function connectionError(target: Target, error: unknown): StoreError {
	const message = `cannot open the PostgreSQL store at ${target.where}: ${reasonOf(error)}`;
	return new StoreError({error: isConnectionLoss(error) ? 'unavailable' : 'invalid_argument', message});
}

const LOST_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300']);
const LOST_MESSAGES = /Connection terminated|connection timeout|timeout expired|timeout exceeded when trying to connect|not queryable|Client was closed|Connection ended|read ECONNRESET|write EPIPE|socket hang up/i;

/** The server went away or cannot be reached now (a restart, a dropped connection): the next call may succeed. */
export function isConnectionLoss(error: unknown): boolean {
	const {code, message} = (error ?? {}) as {code?: string; message?: string};
	if (code !== undefined && LOST_CODES.has(code)) return true;
	const cause = (error as {cause?: unknown})?.cause;
	return LOST_MESSAGES.test(message ?? '') || (cause !== undefined && cause !== error && isConnectionLoss(cause));
}

/**
 * pg.Client with sift's rules: the password is found only when the server asks (URL, PGPASSWORD,
 * then PGPASSFILE or ~/.pgpass), a failed login closes its socket at once (pg leaves it open, and
 * the process waits for the server to give up), and an 'error' event never crashes the process:
 * the query in flight fails, and the pool replaces the client.
 */
class SiftClient extends pg.Client {
	constructor(config: pg.ClientConfig) {
		// The pool's own connectionTimeoutMillis is how long a call may wait for a free client; reaching the server has its own, shorter limit.
		super({...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS});
		const self = this as unknown as {password: unknown};
		const given = typeof self.password === 'string' && self.password !== '' ? self.password : undefined;
		self.password = async (login: {host: string; port: number; database: string; user: string}) => {
			if (given !== undefined) return given;
			const found = lookUpPassword({host: login.host, port: Number(login.port), database: login.database, user: login.user});
			if (found.password !== undefined) return found.password;
			throw new MissingPassword({host: login.host, port: Number(login.port), database: login.database, user: login.user}, found.note);
		};
		this.on('error', () => {});
	}

	override connect(): Promise<pg.Client>;
	override connect(callback: (error: Error) => void): void;
	override connect(callback?: (error: Error) => void): Promise<pg.Client> | void {
		const destroy = () => (this as unknown as {connection?: {stream?: {destroy(): void}}}).connection?.stream?.destroy();
		if (callback) {
			super.connect((error: Error) => {
				if (error) destroy();
				callback(error);
			});
			return;
		}

		return super.connect().catch((error: unknown) => {
			destroy();
			throw error;
		});
	}
}

/**
 * The URL pg is given: `sslmode` from the URL, else PGSSLMODE, read as libpq reads it (`require`
 * encrypts without checking the certificate, `verify-ca` checks it against `sslrootcert`,
 * `verify-full` checks the host name too). pg's own reading of those modes differs, and says so
 * in a multi-line warning on stderr; its libpq-compatible reading does neither.
 */
export function connectionUrl(url: string, env: NodeJS.ProcessEnv = process.env): string {
	const parsed = new URL(url);
	const params = parsed.searchParams;
	if (!params.has('sslmode') && env.PGSSLMODE) params.set('sslmode', env.PGSSLMODE);
	if (!params.has('sslrootcert') && env.PGSSLROOTCERT && params.has('sslmode')) params.set('sslrootcert', env.PGSSLROOTCERT);
	const mode = params.get('sslmode');
	if (mode === 'allow') params.set('sslmode', 'prefer');
	if (mode !== null && mode !== 'no-verify' && !params.has('uselibpqcompat')) params.set('uselibpqcompat', 'true');
	return parsed.toString();
}

function clientConfig(target: Target): pg.ClientConfig {
	return {
		connectionString: connectionUrl(target.url),
		types,
		connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
		// A connection whose server vanished without a word (a dropped network) is noticed.
		keepAlive: true,
		keepAliveInitialDelayMillis: 10_000,
		...(target.statementTimeoutMs > 0 ? {statement_timeout: target.statementTimeoutMs} : {}),
	};
}

export function makePool(target: Target, max = 10): pg.Pool {
	const pool = new pg.Pool({...clientConfig(target), connectionTimeoutMillis: POOL_WAIT_MS, Client: SiftClient, max, idleTimeoutMillis: 10_000, allowExitOnIdle: true} as unknown as pg.PoolConfig);
	// An idle client losing its server is not a crash: the next query reconnects or reports it.
	pool.on('error', () => {});
	return pool;
}

/** A client outside the pool (for LISTEN), with the same rules; it never times out a statement. */
export function makeClient(target: Target): pg.Client {
	return new SiftClient({...clientConfig({...target, statementTimeoutMs: 0})});
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
