// Follow-ups on SQLite: opened or refreshed by refused agent edits, resolved, dismissed.

import type {Statement} from 'better-sqlite3';
import {immediate} from './write-lock.js';
import type {Db} from './db.js';
import {checkDismissable, followUpFilters, type FollowUpQuery} from '../followups.js';
import type {FollowUpOpening} from '../edit-plan.js';
import type {FollowUp, FollowUpKind} from '../types.js';

export type FollowUpRow = Omit<FollowUp, 'attempted' | 'allowed' | 'min' | 'max' | 'base' | 'ours' | 'theirs'> & {attempted: string; allowed: string | null; min: number | null; max: number | null; base: string | null; ours: string | null; theirs: string | null};

export function followUpFromRow(row: FollowUpRow): FollowUp {
	const {attempted, allowed, min, max, base, ours, theirs, ...rest} = row;
	return {
		...rest,
		attempted: JSON.parse(attempted) as unknown,
		...(allowed === null ? {} : {allowed: JSON.parse(allowed) as FollowUp['allowed']}),
		...(min === null ? {} : {min}),
		...(max === null ? {} : {max}),
		...(rest.kind === 'sync_conflict' ? {base: JSON.parse(base ?? 'null') as unknown, ours: JSON.parse(ours ?? 'null') as unknown, theirs: JSON.parse(theirs ?? 'null') as unknown} : {}),
	};
}

const conflictJson = (opening: FollowUpOpening, key: 'base' | 'ours' | 'theirs') => (opening.kind === 'sync_conflict' ? JSON.stringify(opening[key] ?? null) : null);

/** Opens or refreshes the follow-ups a refused agent edit's plan names (store/edit-plan.ts). */
export function openFollowUps(db: Db, openings: FollowUpOpening[], at: string): void {
	const upsert = db.prepare(`INSERT INTO followups (channel_id, item_id, key, status, attempted, message, allowed, min, max, run_id, created_at, updated_at, kind, base, ours, theirs)
		VALUES (@channel_id, @item_id, @key, 'open', @attempted, @message, @allowed, @min, @max, @run_id, @at, @at, @kind, @base, @ours, @theirs)
		ON CONFLICT (item_id, key) WHERE status = 'open' DO UPDATE SET
			attempted = excluded.attempted, message = excluded.message, allowed = excluded.allowed,
			min = excluded.min, max = excluded.max, run_id = excluded.run_id, updated_at = excluded.updated_at,
			kind = excluded.kind, base = excluded.base, ours = excluded.ours, theirs = excluded.theirs`);
	for (const opening of openings) {
		upsert.run({
			channel_id: opening.channel_id, item_id: opening.item_id, key: opening.key, message: opening.message, run_id: opening.run_id,
			attempted: JSON.stringify(opening.attempted ?? null), allowed: opening.allowed ? JSON.stringify(opening.allowed) : null, min: opening.min ?? null, max: opening.max ?? null, at,
			kind: opening.kind ?? 'refused', base: conflictJson(opening, 'base'), ours: conflictJson(opening, 'ours'), theirs: conflictJson(opening, 'theirs'),
		});
	}
}

/** A successful edit that sets a key closes that key's open follow-up (a refusal's: a sync conflict waits for `sift followups resolve`). */
export function resolveSetKeys(db: Db, itemId: string, keys: string[], at: string): void {
	const statements = resolveStatements(db);
	// Most items have no open follow-up: one indexed probe instead of an UPDATE per key.
	if (statements.anyOpen.get(itemId) === undefined) {
		return;
	}

	for (const key of keys) {
		statements.resolve.run(at, itemId, key);
	}
}

/** Prepared once per connection: preparing costs more than running on the edit path. */
const resolveCache = new WeakMap<Db, {anyOpen: Statement; resolve: Statement; proposed: Statement}>();

function resolveStatements(db: Db): {anyOpen: Statement; resolve: Statement; proposed: Statement} {
	let statements = resolveCache.get(db);
	if (!statements) {
		statements = {
			anyOpen: db.prepare("SELECT 1 FROM followups WHERE item_id = ? AND status = 'open' LIMIT 1"),
			resolve: db.prepare("UPDATE followups SET status = 'resolved', resolution = 'set', updated_at = ? WHERE item_id = ? AND key = ? AND status = 'open' AND kind = 'refused'"),
			proposed: db.prepare("UPDATE followups SET status = 'resolved', resolution = 'proposed', updated_at = ? WHERE item_id = ? AND key = ? AND status = 'open' AND kind = 'refused'"),
		};
		resolveCache.set(db, statements);
	}

	return statements;
}

/** A valid proposal for these keys closes the item's open refusals of them (docs/review.md): it takes their place in the queue. */
export function resolveProposedKeys(db: Db, itemId: string, keys: string[], at: string): void {
	const statements = resolveStatements(db);
	if (statements.anyOpen.get(itemId) === undefined) return;
	for (const key of keys) statements.proposed.run(at, itemId, key);
}

export function closeForDeletedItem(db: Db, itemId: string, at: string): void {
	db.prepare("UPDATE followups SET status = 'dismissed', resolution = 'item_deleted', updated_at = ? WHERE item_id = ? AND status = 'open'").run(at, itemId);
}

/** Dismisses an open follow-up; a check-and-set in one write transaction, so a concurrent resolution is never overwritten. */
export function dismissFollowUp(db: Db, id: number, at: string): FollowUp {
	return immediate(db, () => {
		const row = checkDismissable(db.prepare('SELECT * FROM followups WHERE id = ?').get(id) as FollowUpRow | undefined, id);

		db.prepare("UPDATE followups SET status = 'dismissed', resolution = 'dismissed', updated_at = ? WHERE id = ?").run(at, id);
		return followUpFromRow({...row, status: 'dismissed', resolution: 'dismissed', updated_at: at});
	});
}

export function listFollowUps(db: Db, query: FollowUpQuery = {}): FollowUp[] {
	const clauses: string[] = [];
	const params: unknown[] = [];
	for (const [column, value] of followUpFilters(query)) {
		clauses.push(`${column} = ?`);
		params.push(value);
	}

	const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
	const rows = db.prepare(`SELECT * FROM followups ${where} ORDER BY id LIMIT ?`).all(...params, query.limit ?? 10_000) as FollowUpRow[];
	return rows.map(row => followUpFromRow(row));
}

export function countOpenFollowUps(db: Db, channelId: string, kind?: FollowUpKind): number {
	if (kind !== undefined) return (db.prepare("SELECT count(*) AS n FROM followups WHERE channel_id = ? AND status = 'open' AND kind = ?").get(channelId, kind) as {n: number}).n;
	return (db.prepare("SELECT count(*) AS n FROM followups WHERE channel_id = ? AND status = 'open'").get(channelId) as {n: number}).n;
}
