// The rules of `sift serve`'s bearer tokens (docs/team-mode.md#tokens), written once for both
// backends: what a valid request is, how a secret is minted and hashed, when a presented secret
// is good, and how often a use is written down. The backends (store/tokens.ts for SQLite,
// store/postgres/tokens.ts) only run the SQL.

import {createHash, randomBytes, timingSafeEqual} from 'node:crypto';
import {invalidArgument, notFound, quote, type StoreError} from './errors.js';
import {GRANT_SCOPES, type GrantScope} from './grants.js';
import type {Actor} from './types.js';

export const TOKEN_PREFIX = 'sift_';
/** 256 random bits. */
const TOKEN_BYTES = 32;
/** Longer than any secret this code mints: anything longer is refused before hashing. */
const MAX_SECRET_LENGTH = 256;
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const TOKEN_ACTORS = ['agent', 'human'] as const;
export type TokenActor = (typeof TOKEN_ACTORS)[number];

/** A token's last use is written at most this often: a busy token does not write on every request. */
export const TOUCH_INTERVAL_MS = 60_000;

export type TokenRequest = {
	name?: string;
	/** Channel ids; the caller checks that they exist. */
	grants: string[];
	actor?: TokenActor;
	/** read: the granted channels may be read, not edited; default write. */
	scope?: GrantScope;
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
	scope: GrantScope;
	run_id: string | null;
	created_at: string;
	expires_at: string | null;
	last_used_at: string | null;
	revoked_at: string | null;
};

/** Who a valid token speaks for, and whether it may edit. */
export type TokenIdentity = {name: string; grants: string[]; actor: Actor; scope: GrantScope};

/** A stored tokens row: grants as JSON text (SQLite) or already parsed (PostgreSQL jsonb). */
export type StoredToken = Omit<TokenInfo, 'grants'> & {grants: unknown; hash: string};

/** A token about to be stored: the secret (shown once), what is listed, and the only thing kept of the secret. */
export type NewToken = {token: string; info: TokenInfo; hash: string};

export function hashToken(secret: string): string {
	return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Checks a request and mints its secret; the backend stores `info` and `hash`, never `token`. */
export function newToken(request: TokenRequest): NewToken {
	const now = (request.now ?? new Date()).toISOString();
	const name = request.name ?? `token-${randomBytes(4).toString('hex')}`;
	if (!NAME_PATTERN.test(name)) {
		throw invalidArgument(`token name ${quote(name)} must be 1 to 128 letters, digits, dots, dashes or underscores, starting with a letter or digit`);
	}

	if (request.grants.length === 0) throw invalidArgument('a token needs at least one granted channel');
	const actor = request.actor ?? 'agent';
	if (!(TOKEN_ACTORS as readonly string[]).includes(actor)) throw invalidArgument(`token actor must be agent or human, got ${quote(actor)}`);
	const scope = request.scope ?? 'write';
	if (!GRANT_SCOPES.includes(scope)) throw invalidArgument(`token scope must be read or write, got ${quote(scope)}`);
	if (request.expiresAt !== undefined && !(Date.parse(request.expiresAt) > Date.parse(now))) {
		throw invalidArgument(`token expiry ${quote(request.expiresAt)} is not a time in the future`);
	}

	const token = TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString('base64url');
	const info: TokenInfo = {
		name,
		grants: [...new Set(request.grants)],
		actor,
		scope,
		run_id: request.runId ?? null,
		created_at: now,
		expires_at: request.expiresAt === undefined ? null : new Date(request.expiresAt).toISOString(),
		last_used_at: null,
		revoked_at: null,
	};
	return {token, info, hash: hashToken(token)};
}

export function duplicateToken(name: string): StoreError {
	return invalidArgument(`a token named ${quote(name)} already exists (revoked tokens keep their name)`);
}

export function unknownToken(name: string): StoreError {
	return notFound(`no token named ${quote(name)}`);
}

/** The hash to look a presented secret up by, or null when it cannot be one of ours. */
export function presentedHash(secret: string): string | null {
	return secret.startsWith(TOKEN_PREFIX) && secret.length <= MAX_SECRET_LENGTH ? hashToken(secret) : null;
}

/**
 * Who the row found for `hash` speaks for, or null when there is none, or it is revoked or
 * expired. The hashes are compared in constant time, so the lookup leaks nothing of a near miss.
 */
export function identityOf(row: StoredToken | undefined, hash: string, now: Date): TokenIdentity | null {
	if (!row || !timingSafeEqual(Buffer.from(hash, 'hex'), Buffer.from(row.hash, 'hex'))) return null;
	if (row.revoked_at !== null) return null;
	if (row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime()) return null;
	const info = tokenInfo(row);
	const actor: Actor = info.run_id === null ? {kind: info.actor} : {kind: info.actor, run_id: info.run_id};
	return {name: info.name, grants: info.grants, actor, scope: info.scope};
}

/** A touch writes `now` only over a last use older than `stale` (ISO times compare as text). */
export function touchTimes(now = new Date(), staleMs = TOUCH_INTERVAL_MS): {now: string; stale: string} {
	return {now: now.toISOString(), stale: new Date(now.getTime() - staleMs).toISOString()};
}

export function tokenInfo(row: StoredToken): TokenInfo {
	const {hash: _hash, grants, scope, ...rest} = row;
	// Anything but a stored 'write' (a damaged column) reads as read-only: a doubt never grants edits.
	return {...rest, grants: parseGrants(grants), scope: scope === 'write' ? 'write' : 'read'};
}

/** A damaged grants column grants nothing rather than failing every request. */
function parseGrants(stored: unknown): string[] {
	let value = stored;
	if (typeof stored === 'string') {
		try {
			value = JSON.parse(stored) as unknown;
		} catch {
			return [];
		}
	}

	return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}
