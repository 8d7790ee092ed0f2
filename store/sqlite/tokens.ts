// Bearer tokens of `sift serve` on SQLite: only the SQL. The rules (names, secrets, hashing,
// expiry, revocation, touch throttle) are store/token-rules.ts, shared with PostgreSQL.

import type {Db} from './db.js';
import {duplicateToken, identityOf, newToken, presentedHash, tokenInfo, touchTimes, unknownToken, type StoredToken, type TokenIdentity, type TokenInfo, type TokenRequest} from '../token-rules.js';

/** The secret is shown once at creation; only its sha256 is kept, so a copy of the database grants nothing. */
export const TOKENS_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS tokens (
	name TEXT PRIMARY KEY,
	hash TEXT NOT NULL UNIQUE,
	grants TEXT NOT NULL,
	actor TEXT NOT NULL,
	-- read or write (schema 6; tokens made before it could write).
	scope TEXT NOT NULL DEFAULT 'write',
	run_id TEXT,
	created_at TEXT NOT NULL,
	expires_at TEXT,
	last_used_at TEXT,
	revoked_at TEXT
);
`;

/** v6: a tokens table made before scopes gets its scope column; its tokens keep writing, as they could. */
export function addTokenScope(db: Db): void {
	const columns = (db.prepare("SELECT name FROM pragma_table_info('tokens')").all() as Array<{name: string}>).map(row => row.name);
	if (columns.length > 0 && !columns.includes('scope')) db.exec("ALTER TABLE tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'write'");
}

export function createToken(db: Db, request: TokenRequest): {token: string; info: TokenInfo} {
	const {token, info, hash} = newToken(request);
	if (db.prepare('SELECT 1 FROM tokens WHERE name = ?').get(info.name)) {
		throw duplicateToken(info.name);
	}

	db.prepare(
		`INSERT INTO tokens (name, hash, grants, actor, scope, run_id, created_at, expires_at)
		 VALUES (@name, @hash, @grants, @actor, @scope, @run_id, @created_at, @expires_at)`,
	).run({...info, hash, grants: JSON.stringify(info.grants)});
	return {token, info};
}

export function listTokens(db: Db): TokenInfo[] {
	return (db.prepare('SELECT * FROM tokens ORDER BY created_at, name').all() as StoredToken[]).map(tokenInfo);
}

/** Marks a token revoked (idempotent: the first revocation time stays). */
export function revokeToken(db: Db, name: string, now = new Date()): TokenInfo {
	db.prepare('UPDATE tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL').run(now.toISOString(), name);
	const row = db.prepare('SELECT * FROM tokens WHERE name = ?').get(name) as StoredToken | undefined;
	if (!row) throw unknownToken(name);
	return tokenInfo(row);
}

/** Revokes every token minted for the run `runId` that is not revoked yet. */
export function revokeRunTokens(db: Db, runId: string, now = new Date()): void {
	db.prepare('UPDATE tokens SET revoked_at = ? WHERE run_id = ? AND revoked_at IS NULL').run(now.toISOString(), runId);
}

/**
 * The identity of a presented secret, or null when it is unknown, revoked or expired. Read-only:
 * a refused request leaves the database as it was.
 */
export function verifyToken(db: Db, secret: string, now = new Date()): TokenIdentity | null {
	const hash = presentedHash(secret);
	return hash === null ? null : identityOf(byHash(db).get(hash) as StoredToken | undefined, hash, now);
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
export function touchToken(db: Db, name: string, now = new Date(), staleMs?: number): void {
	db.prepare('UPDATE tokens SET last_used_at = @now WHERE name = @name AND (last_used_at IS NULL OR last_used_at < @stale)').run({name, ...touchTimes(now, staleMs)});
}
