import {createHash, randomBytes, timingSafeEqual} from 'node:crypto';
import type {Db} from './database.js';
import {invalidArgument, notFound, quote} from './errors.js';
import type {Actor} from './types.js';

/**
 * Bearer tokens of `sift serve` (docs/team-mode.md#security-model). The secret is shown once at creation;
 * only its sha256 is kept, so a copy of the database grants nothing.
 */
export const TOKENS_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS tokens (
	name TEXT PRIMARY KEY,
	hash TEXT NOT NULL UNIQUE,
	grants TEXT NOT NULL,
	actor TEXT NOT NULL,
	run_id TEXT,
	created_at TEXT NOT NULL,
	expires_at TEXT,
	last_used_at TEXT,
	revoked_at TEXT
);
`;

export const TOKEN_PREFIX = 'sift_';
/** 256 random bits. */
const TOKEN_BYTES = 32;
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const TOKEN_ACTORS = ['agent', 'human'] as const;
export type TokenActor = (typeof TOKEN_ACTORS)[number];

export type TokenRequest = {
	name?: string;
	/** Channel ids; the caller checks that they exist. */
	grants: string[];
	actor?: TokenActor;
	runId?: string;
	/** ISO time; absent means the token does not expire. */
	expiresAt?: string;
	now?: Date;
};

/** What `sift token list` shows: never the secret, never the hash. */
export type TokenInfo = {
	name: string;
	grants: string[];
	actor: TokenActor;
	run_id: string | null;
	created_at: string;
	expires_at: string | null;
	last_used_at: string | null;
	revoked_at: string | null;
};

/** Who a valid token speaks for. */
export type TokenIdentity = {name: string; grants: string[]; actor: Actor};

type TokenRow = Omit<TokenInfo, 'grants'> & {grants: string; hash: string};

export function hashToken(secret: string): string {
	return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function createToken(db: Db, request: TokenRequest): {token: string; info: TokenInfo} {
	const now = (request.now ?? new Date()).toISOString();
	const name = request.name ?? `token-${randomBytes(4).toString('hex')}`;
	if (!NAME_PATTERN.test(name)) {
		throw invalidArgument(`token name ${quote(name)} must be 1 to 128 letters, digits, dots, dashes or underscores, starting with a letter or digit`);
	}

	if (request.grants.length === 0) throw invalidArgument('a token needs at least one granted channel');
	const actor = request.actor ?? 'agent';
	if (!(TOKEN_ACTORS as readonly string[]).includes(actor)) throw invalidArgument(`token actor must be agent or human, got ${quote(actor)}`);
	if (request.expiresAt !== undefined && !(Date.parse(request.expiresAt) > Date.parse(now))) {
		throw invalidArgument(`token expiry ${quote(request.expiresAt)} is not a time in the future`);
	}

	if (db.prepare('SELECT 1 FROM tokens WHERE name = ?').get(name)) {
		throw invalidArgument(`a token named ${quote(name)} already exists (revoked tokens keep their name)`);
	}

	const token = TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString('base64url');
	const info: TokenInfo = {
		name,
		grants: [...new Set(request.grants)],
		actor,
		run_id: request.runId ?? null,
		created_at: now,
		expires_at: request.expiresAt === undefined ? null : new Date(request.expiresAt).toISOString(),
		last_used_at: null,
		revoked_at: null,
	};
	db.prepare(
		`INSERT INTO tokens (name, hash, grants, actor, run_id, created_at, expires_at)
		 VALUES (@name, @hash, @grants, @actor, @run_id, @created_at, @expires_at)`,
	).run({...info, hash: hashToken(token), grants: JSON.stringify(info.grants)});
	return {token, info};
}

export function listTokens(db: Db): TokenInfo[] {
	const rows = db.prepare('SELECT * FROM tokens ORDER BY created_at, name').all() as TokenRow[];
	return rows.map(infoOf);
}

/** Marks a token revoked (idempotent: the first revocation time stays). */
export function revokeToken(db: Db, name: string, now = new Date()): TokenInfo {
	db.prepare('UPDATE tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL').run(now.toISOString(), name);
	const row = db.prepare('SELECT * FROM tokens WHERE name = ?').get(name) as TokenRow | undefined;
	if (!row) throw notFound(`no token named ${quote(name)}`);
	return infoOf(row);
}

/**
 * The identity of a presented secret, or null when it is unknown, revoked or expired. Read-only:
 * a refused request leaves the database as it was.
 */
export function verifyToken(db: Db, secret: string, now = new Date()): TokenIdentity | null {
	if (!secret.startsWith(TOKEN_PREFIX) || secret.length > 256) return null;
	const presented = Buffer.from(hashToken(secret), 'hex');
	const row = byHash(db).get(presented.toString('hex')) as TokenRow | undefined;
	if (!row || !timingSafeEqual(presented, Buffer.from(row.hash, 'hex'))) return null;
	if (row.revoked_at !== null) return null;
	if (row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime()) return null;
	const info = infoOf(row);
	const actor: Actor = info.run_id === null ? {kind: info.actor} : {kind: info.actor, run_id: info.run_id};
	return {name: info.name, grants: info.grants, actor};
}

/** Every request looks its token up: the statement is prepared once per connection. */
const lookups = new WeakMap<Db, ReturnType<Db['prepare']>>();
function byHash(db: Db): ReturnType<Db['prepare']> {
	let statement = lookups.get(db);
	if (!statement) {
		statement = db.prepare('SELECT * FROM tokens WHERE hash = ?');
		lookups.set(db, statement);
	}

	return statement;
}

/** Records that a token was used; writes only when the stored time is older than `staleMs`. */
export function touchToken(db: Db, name: string, now = new Date(), staleMs = 60_000): void {
	db.prepare('UPDATE tokens SET last_used_at = @now WHERE name = @name AND (last_used_at IS NULL OR last_used_at < @stale)').run({
		name,
		now: now.toISOString(),
		stale: new Date(now.getTime() - staleMs).toISOString(),
	});
}

function infoOf(row: TokenRow): TokenInfo {
	const {hash: _hash, grants, ...rest} = row;
	return {...rest, grants: parseGrants(grants)};
}

function parseGrants(text: string): string[] {
	try {
		const value = JSON.parse(text) as unknown;
		return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
	} catch {
		return [];
	}
}
