// Bearer tokens of `sift serve` on PostgreSQL: only the SQL. The rules (names, secrets, hashing,
// expiry, revocation, touch throttle) are store/token-rules.ts, shared with SQLite.

import type pg from 'pg';
import type {TokensApi} from '../contract.js';
import {duplicateToken, identityOf, newToken, presentedHash, tokenInfo, touchTimes, unknownToken, type StoredToken} from '../token-rules.js';

const UNIQUE_VIOLATION = '23505';

export function pgTokens(pool: pg.Pool): TokensApi {
	return {
		async create(request) {
			const {token, info, hash} = newToken(request);
			// The primary key settles two creations of one name at once; no read-then-insert race.
			try {
				await pool.query(`INSERT INTO tokens (name, hash, grants, actor, scope, run_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
					[info.name, hash, JSON.stringify(info.grants), info.actor, info.scope, info.run_id, info.created_at, info.expires_at]);
			} catch (error) {
				throw (error as {code?: string}).code === UNIQUE_VIOLATION ? duplicateToken(info.name) : error;
			}

			return {token, info};
		},
		async list() {
			return (await pool.query<StoredToken>('SELECT * FROM tokens ORDER BY created_at, name')).rows.map(tokenInfo);
		},
		async revoke(name) {
			// One statement: the first revocation time stays, and the row comes back either way.
			const {rows} = await pool.query<StoredToken>(`WITH revoked AS (
					UPDATE tokens SET revoked_at = $2 WHERE name = $1 AND revoked_at IS NULL RETURNING *
				) SELECT * FROM revoked UNION ALL SELECT * FROM tokens WHERE name = $1 AND NOT EXISTS (SELECT 1 FROM revoked)`,
			[name, new Date().toISOString()]);
			if (rows.length === 0) throw unknownToken(name);
			return tokenInfo(rows[0]!);
		},
		async verify(secret, now = new Date()) {
			const hash = presentedHash(secret);
			if (hash === null) return null;
			const {rows} = await pool.query<StoredToken>({name: 'sift-token-by-hash', text: 'SELECT * FROM tokens WHERE hash = $1', values: [hash]});
			return identityOf(rows[0], hash, now);
		},
		async touch(name, now) {
			const times = touchTimes(now);
			await pool.query('UPDATE tokens SET last_used_at = $2 WHERE name = $1 AND (last_used_at IS NULL OR last_used_at < $3)', [name, times.now, times.stale]);
		},
	};
}
