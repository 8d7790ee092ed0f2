// Proposals on PostgreSQL: the same rows and queue as store/sqlite/proposals.ts, as SQL for this
// backend. The rules are store/proposals.ts.

import type pg from 'pg';
import type {LoadedChannel} from '../channels.js';
import {checkProposalQuery, proposalFilters, proposalOf, type DecisionRecords, type FieldCountsQuery, type ProposalStatus, type NewProposal, type ProposalQuery, type ProposalRow} from '../proposals.js';
import {parseWhere} from '../pages.js';
import {channelScopeSql, whereSql} from '../query/sql.js';
import {numbered, postgresDialect} from './query.js';
import type {EditMode} from '../writes.js';

const COLUMNS = 'id::int AS id, channel_id, item_id, run_id, base_version, changes, reason, confidence, status, created_at, decided_at, decided_by, written_version';

type StoredProposal = Omit<ProposalRow, 'values' | 'base_values'>;

export async function insertProposal(client: pg.ClientBase, proposal: NewProposal): Promise<number> {
	const {rows} = await client.query<{id: number}>(`INSERT INTO proposals (channel_id, item_id, run_id, base_version, changes, reason, confidence, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8) RETURNING id::int AS id`,
		[proposal.channel_id, proposal.item_id, proposal.run_id, proposal.base_version, JSON.stringify(proposal.changes), proposal.reason, proposal.confidence, proposal.created_at]);
	return rows[0]!.id;
}

/** The proposals with these ids that exist, locked until the transaction ends when `lock` (two accepts of one proposal queue). */
export async function proposalsWithIds(client: pg.ClientBase | pg.Pool, ids: readonly number[], lock = false): Promise<ProposalRow[]> {
	const {rows} = await client.query<StoredProposal>(`SELECT ${COLUMNS} FROM proposals WHERE id = ANY($1::bigint[]) ORDER BY id${lock ? ' FOR UPDATE' : ''}`, [ids]);
	return rows.map(proposalOf);
}

/** The queue, as on SQLite: filters, then (with the channel) the items the query matches; oldest first. */
export async function listProposals(pool: pg.Pool, query: ProposalQuery, channel: LoadedChannel | undefined): Promise<ProposalRow[]> {
	const checked = checkProposalQuery(query);
	const filters = proposalFilters(checked);
	const conditions = filters.map(([column]) => `proposals.${column} = ?`);
	if (checked.afterId !== undefined) conditions.push(`proposals.id > ${checked.afterId}`);
	const params: unknown[] = filters.map(([, value]) => value);
	if (checked.where !== undefined && channel) {
		const where = whereSql(postgresDialect, channel, parseWhere(channel, checked.where, checked.now).terms);
		conditions.push(`EXISTS (SELECT 1 FROM items WHERE items.id = proposals.item_id AND ${channelScopeSql(channel.id)}${where.sql})`);
		params.push(...where.params);
	}

	const statement = numbered({sql: `SELECT ${COLUMNS} FROM proposals WHERE ${conditions.length > 0 ? conditions.join(' AND ') : 'true'} ORDER BY id LIMIT ?`, params: [...params, checked.limit]});
	return (await pool.query<StoredProposal>(statement.sql, statement.params)).rows.map(proposalOf);
}

export async function countOpenProposals(pool: pg.Pool, channelId: string): Promise<number> {
	const {rows} = await pool.query<{n: number}>("SELECT count(*)::int AS n FROM proposals WHERE channel_id = $1 AND status = 'open'", [channelId]);
	return rows[0]!.n;
}

/** The keys the item's open proposals propose. */
export async function openProposalKeys(client: pg.ClientBase, itemId: string): Promise<string[]> {
	const {rows} = await client.query<{key: string}>("SELECT DISTINCT jsonb_object_keys(changes) AS key FROM proposals WHERE item_id = $1 AND status = 'open'", [itemId]);
	return rows.map(row => row.key);
}

export async function runModeOf(client: pg.ClientBase, runId: string): Promise<EditMode> {
	const {rows} = await client.query<{mode: string | null}>('SELECT mode FROM runs WHERE id = $1', [runId]);
	return rows[0]?.mode === 'propose' ? 'propose' : 'apply';
}

/** An item's delete closes its open proposals: there is nothing left to write them to (declined, by no one). */
/** The item's open proposals locked in id order, as an accept locks its own (store/postgres/writes.ts). */
export async function lockOpenProposalsOf(client: pg.ClientBase, itemId: string): Promise<void> {
	await client.query("SELECT 1 FROM proposals WHERE item_id = $1 AND status = 'open' ORDER BY id FOR UPDATE", [itemId]);
}

export async function declineForDeletedItem(client: pg.ClientBase, itemId: string, at: string): Promise<void> {
	await client.query("UPDATE proposals SET status = 'declined', decided_at = $2 WHERE item_id = $1 AND status = 'open'", [itemId, at]);
}

/** What the per-field counts fold (store/proposals.ts foldFieldCounts): the proposals, and the accepts' events. */
export async function decisionRecords(pool: pg.Pool, query: FieldCountsQuery): Promise<DecisionRecords> {
	const params = query.runId === undefined ? [query.channelId] : [query.channelId, query.runId];
	const [proposals, accepts] = await Promise.all([
		pool.query<{status: ProposalStatus; keys: string[]}>(`SELECT status, ARRAY(SELECT jsonb_object_keys(changes)) AS keys FROM proposals WHERE channel_id = $1${query.runId === undefined ? '' : ' AND run_id = $2'}`, params),
		pool.query<{keys: string[]; auto: boolean}>(`SELECT ARRAY(SELECT jsonb_object_keys(changes::jsonb)) AS keys, coalesce((cause->>'auto')::boolean, false) AS auto FROM events WHERE channel_id = $1 AND type = 'proposal.accepted'${query.runId === undefined ? '' : " AND cause->>'run_id' = $2"}`, params),
	]);
	return {proposals: proposals.rows, accepts: accepts.rows};
}
