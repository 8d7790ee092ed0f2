// Follow-ups on PostgreSQL: the same bookkeeping as the SQLite store, as SQL for this backend.

import type pg from 'pg';
import {checkDismissable, followUpFilters, type FollowUpQuery} from '../followups.js';
import type {FollowUpOpening} from '../edit-plan.js';
import type {FollowUp, FollowUpKind} from '../types.js';

export type FollowUpRow = Omit<FollowUp, 'allowed' | 'min' | 'max'> & {allowed: FollowUp['allowed'] | null; min: number | null; max: number | null};

export const FOLLOWUP_COLUMNS = 'id, channel_id, item_id, key, status, attempted, message, allowed, min, max, run_id, created_at, updated_at, resolution, kind, base, ours, theirs';
const COLUMNS = FOLLOWUP_COLUMNS;

export function followUpFromRow(row: FollowUpRow): FollowUp {
	const {allowed, min, max, base, ours, theirs, ...rest} = row;
	return {...rest, ...(allowed === null ? {} : {allowed}), ...(min === null ? {} : {min}), ...(max === null ? {} : {max}), ...(rest.kind === 'sync_conflict' ? {base, ours, theirs} : {})};
}

const conflictJson = (opening: FollowUpOpening, key: 'base' | 'ours' | 'theirs') => (opening.kind === 'sync_conflict' ? JSON.stringify(opening[key] ?? null) : null);

/** Opens or refreshes the follow-ups a refused agent edit's plan names (store/edit-plan.ts). */
export async function openFollowUps(client: pg.ClientBase, openings: FollowUpOpening[], at: string): Promise<void> {
	for (const opening of openings) {
		await client.query(`INSERT INTO followups (channel_id, item_id, key, status, attempted, message, allowed, min, max, run_id, created_at, updated_at, kind, base, ours, theirs)
			VALUES ($1, $2, $3, 'open', $4, $5, $6, $7, $8, $9, $10, $10, $11, $12, $13, $14)
			ON CONFLICT (item_id, key) WHERE status = 'open' DO UPDATE SET
				attempted = excluded.attempted, message = excluded.message, allowed = excluded.allowed,
				min = excluded.min, max = excluded.max, run_id = excluded.run_id, updated_at = excluded.updated_at,
				kind = excluded.kind, base = excluded.base, ours = excluded.ours, theirs = excluded.theirs`,
		[opening.channel_id, opening.item_id, opening.key, JSON.stringify(opening.attempted ?? null), opening.message, opening.allowed ? JSON.stringify(opening.allowed) : null, opening.min ?? null, opening.max ?? null, opening.run_id, at,
			opening.kind ?? 'refused', conflictJson(opening, 'base'), conflictJson(opening, 'ours'), conflictJson(opening, 'theirs')]);
	}
}

/** The statement that closes the open follow-ups of the keys an edit set; the arguments are its parameter references. */
export const resolveSetKeysSql = (at: string, itemId: string, keys: string) =>
	`UPDATE followups SET status = 'resolved', resolution = 'set', updated_at = ${at} WHERE item_id = ${itemId} AND key = ANY(${keys}::text[]) AND status = 'open' AND kind = 'refused'`;

/** A successful edit that sets a key closes that key's open follow-up (a refusal's: a sync conflict waits for `sift followups resolve`). */
export async function resolveSetKeys(client: pg.ClientBase, itemId: string, keys: string[], at: string): Promise<void> {
	await client.query(resolveSetKeysSql('$1', '$2', '$3'), [at, itemId, keys]);
}

/** A valid proposal for these keys closes the item's open refusals of them (docs/review.md): it takes their place in the queue. */
export async function resolveProposedKeys(client: pg.ClientBase, itemId: string, keys: string[], at: string): Promise<void> {
	await client.query("UPDATE followups SET status = 'resolved', resolution = 'proposed', updated_at = $1 WHERE item_id = $2 AND key = ANY($3::text[]) AND status = 'open' AND kind = 'refused'", [at, itemId, keys]);
}

export async function closeForDeletedItem(client: pg.ClientBase, itemId: string, at: string): Promise<void> {
	await client.query("UPDATE followups SET status = 'dismissed', resolution = 'item_deleted', updated_at = $1 WHERE item_id = $2 AND status = 'open'", [at, itemId]);
}

/** Dismisses an open follow-up; the row lock means a concurrent resolution is never overwritten. */
export async function dismissFollowUp(client: pg.ClientBase, id: number, at: string): Promise<FollowUp> {
	const {rows} = await client.query<FollowUpRow>(`SELECT ${COLUMNS} FROM followups WHERE id = $1 FOR UPDATE`, [id]);
	const row = checkDismissable(rows[0], id);

	await client.query("UPDATE followups SET status = 'dismissed', resolution = 'dismissed', updated_at = $1 WHERE id = $2", [at, id]);
	return followUpFromRow({...row, status: 'dismissed', resolution: 'dismissed', updated_at: at});
}

export async function listFollowUps(pool: pg.Pool, query: FollowUpQuery = {}): Promise<FollowUp[]> {
	const clauses: string[] = [];
	const params: unknown[] = [];
	for (const [column, value] of followUpFilters(query)) {
		params.push(value);
		clauses.push(`${column} = $${params.length}`);
	}

	params.push(query.limit ?? 10_000);
	const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
	const {rows} = await pool.query<FollowUpRow>(`SELECT ${COLUMNS} FROM followups ${where} ORDER BY id LIMIT $${params.length}`, params);
	return rows.map(row => followUpFromRow(row));
}

export async function countOpenFollowUps(pool: pg.Pool, channelId: string, kind?: FollowUpKind): Promise<number> {
	const {rows} = await pool.query<{n: number}>(`SELECT count(*) AS n FROM followups WHERE channel_id = $1 AND status = 'open'${kind === undefined ? '' : ' AND kind = $2'}`, kind === undefined ? [channelId] : [channelId, kind]);
	return rows[0]!.n;
}
