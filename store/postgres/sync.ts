// The sync engine on PostgreSQL (docs/architecture.md#the-sync-engine): the answers to the sync
// plans' steps (store/sync/plan.ts) as SQL on the transaction's connection, each plan in one
// transaction. The tables are migration 10 (store/postgres/schema.ts); the outbox entries of
// ordinary edits are written by the edit plan's queueSync step (store/postgres/outbox.ts), in the edit's
// own transaction.

import type pg from 'pg';
import type {PgChannelCatalog} from './channels.js';
import {channelLiteral, valueSql} from './channels.js';
import {inTransaction} from './connect.js';
import {StoreError} from '../errors.js';
import type {FollowUp} from '../types.js';
import {FOLLOWUP_COLUMNS, followUpFromRow, type FollowUpRow} from './followups.js';
import {ITEM_COLUMNS, planIo, planItemOf, type PgItem, type PgItemRow, type PgItemWriter} from './writes.js';
import {checkLink, localOnly, notLinked, planAddComments, planApplyRemote, planMarkFailed, planMarkSent, planResolveConflict, runSyncPlanAsync, SYNC_ACTOR, type StoredEntry, type SyncIo, type SyncPlan} from '../sync/plan.js';
import {commentsSql, commentsLimit, commentsPage, type CommentRow} from '../sync/comments.js';
import type {ConflictChoice, NewSyncLink, OutboxEntry, PullOutcome, RemoteComments, RemoteRecord, SyncApi, SyncLink, SyncStatus} from '../sync/types.js';
import type {Validator} from '../writes.js';

type LinkRow = SyncLink;
type EntryRow = StoredEntry & {attempts: number; last_error: string | null; created_at: string};
const entryOf = (row: EntryRow | undefined) => row && {...row, id: Number(row.id)};

/** The sync engine on one PostgreSQL database. */
export function pgSync(pool: pg.Pool, channels: PgChannelCatalog, writer: PgItemWriter, validate: Validator): SyncApi {
	const getLink = async (client: pg.ClientBase | pg.Pool, channelId: string, lock = false): Promise<SyncLink | undefined> => {
		const {rows} = await client.query<LinkRow>(`SELECT * FROM sync_links WHERE channel_id = $1${lock ? ' FOR UPDATE' : ''}`, [channelId]);
		return rows[0];
	};

	function syncIo(client: pg.ClientBase): SyncIo<PgItem, true> {
		return {
			link: async ({channelId}) => getLink(client, channelId),
			async byKey({channel, field, value}) {
				const {rows} = await client.query<PgItemRow>(`SELECT ${ITEM_COLUMNS} FROM items WHERE channel_id = ${channelLiteral(channel.id)} AND ${valueSql(field.key)} = $1::jsonb LIMIT 1 FOR UPDATE`, [JSON.stringify(value)]);
				return rows[0] && planItemOf(rows[0]);
			},
			async bases({itemId, source}) {
				const {rows} = await client.query<{field: string; value: string}>('SELECT field, value FROM sync_bases WHERE item_id = $1 AND source = $2', [itemId, source]);
				return new Map(rows.map(row => [row.field, row.value]));
			},
			async setBase({channelId, itemId, field, source, value}) {
				await client.query('INSERT INTO sync_bases (channel_id, item_id, source, field, value) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (item_id, source, field) DO UPDATE SET value = excluded.value', [channelId, itemId, source, field, value]);
				if (source !== 'sync') return;
				// The field's entry is now made from this base; back at it, nothing is left to send.
				await client.query('UPDATE sync_outbox SET base = $3 WHERE item_id = $1 AND field = $2', [itemId, field, value]);
				await client.query("DELETE FROM sync_outbox WHERE item_id = $1 AND field = $2 AND state = 'pending' AND value = base", [itemId, field]);
			},
			entry: async ({itemId, field}) => entryOf((await client.query<EntryRow>('SELECT * FROM sync_outbox WHERE item_id = $1 AND field = $2 FOR UPDATE', [itemId, field])).rows[0]),
			entryById: async ({id}) => entryOf((await client.query<EntryRow>('SELECT * FROM sync_outbox WHERE id = $1 FOR UPDATE', [id])).rows[0]),
			async hold({channelId, itemId, field, kind, base, value, at}) {
				await client.query(`INSERT INTO sync_outbox (channel_id, item_id, field, kind, base, value, state, attempts, created_at) VALUES ($1, $2, $3, $4, $5, $6, 'held', 0, $7)
					ON CONFLICT (item_id, field) DO UPDATE SET state = 'held', value = excluded.value`, [channelId, itemId, field, kind, base, value, at]);
			},
			async entryState({id, state, error}) {
				await client.query('UPDATE sync_outbox SET state = $2, last_error = $3 WHERE id = $1', [id, state, error ?? null]);
			},
			async dropEntry({itemId, field, at}) {
				await client.query('DELETE FROM sync_outbox WHERE item_id = $1 AND field = $2', [itemId, field]);
				await client.query("UPDATE followups SET status = 'resolved', resolution = 'set', updated_at = $3 WHERE item_id = $1 AND key = $2 AND status = 'open' AND kind = 'sync_conflict'", [itemId, field, at]);
			},
			async forget({itemId}) {
				await client.query("DELETE FROM sync_bases WHERE item_id = $1 AND source = 'sync'", [itemId]);
				await client.query('DELETE FROM sync_outbox WHERE item_id = $1', [itemId]);
			},
			async create({channel, values, createdAt, updatedAt}) {
				const created = await writer.insert(client, channel, values, SYNC_ACTOR, createdAt, updatedAt);
				const item = await planIo(client).item({step: 'item', channelId: channel.id, itemId: created.item.id});
				return item!;
			},
			async comments({channelId, itemId, comments, add}) {
				if (!add) await client.query('DELETE FROM item_comments WHERE item_id = $1', [itemId]);
				for (const comment of comments) {
					await client.query(`INSERT INTO item_comments (channel_id, item_id, remote_id, author, body, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
						ON CONFLICT (item_id, remote_id) DO UPDATE SET author = excluded.author, body = excluded.body, created_at = excluded.created_at, updated_at = excluded.updated_at`,
					[channelId, itemId, String(comment.remote_id), comment.author ?? null, String(comment.body), comment.created_at, comment.updated_at]);
				}
			},
			async followUp({id}) {
				if (!Number.isSafeInteger(id)) return undefined;
				const {rows} = await client.query<FollowUpRow>(`SELECT ${FOLLOWUP_COLUMNS} FROM followups WHERE id = $1 FOR UPDATE`, [id]);
				return rows[0] && followUpFromRow(rows[0]);
			},
			async closeFollowUp({id, at}) {
				const {rows} = await client.query<FollowUpRow>(`UPDATE followups SET status = 'resolved', resolution = 'set', updated_at = $2 WHERE id = $1 RETURNING ${FOLLOWUP_COLUMNS}`, [id, at]);
				return followUpFromRow(rows[0]!);
			},
		};
	}

	/** A plan in one transaction; `channelId`: the channel whose row is locked first, as an upsert does (a pull may create items by a unique key). */
	const run = async <T>(plan: SyncPlan<PgItem, T>, channelId?: string) => inTransaction(pool, async client => {
		if (channelId !== undefined) await client.query('SELECT 1 FROM channels WHERE id = $1 FOR UPDATE', [channelId]);
		return runSyncPlanAsync(plan, {...planIo(client, channels), ...syncIo(client)});
	});

	return {
		async link(link: NewSyncLink) {
			const checked = checkLink(await channels.get(link.channel_id), link);
			return inTransaction(pool, async client => {
				const existing = await getLink(client, link.channel_id, true);
				if (existing && (existing.tracker !== checked.tracker || existing.remote !== checked.remote || existing.key_field !== checked.key_field)) {
					throw new StoreError({error: 'invalid_argument', message: `channel ${link.channel_id} is linked to ${existing.tracker} ${existing.remote} already: unlink it first`});
				}

				await client.query(`INSERT INTO sync_links (channel_id, tracker, remote, key_field, fields, state, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
					ON CONFLICT (channel_id) DO UPDATE SET fields = excluded.fields, state = CASE WHEN $8 THEN excluded.state ELSE sync_links.state END`,
				[checked.channel_id, checked.tracker, checked.remote, checked.key_field, JSON.stringify(checked.fields.map(({key, remote, kind}) => ({key, remote, kind}))), JSON.stringify(checked.state ?? {}), new Date().toISOString(), checked.state !== undefined]);
				return (await getLink(client, link.channel_id))!;
			});
		},
		async unlink(channelId) {
			await inTransaction(pool, async client => {
				if (!(await getLink(client, channelId, true))) throw notLinked(channelId);
				await client.query('DELETE FROM sync_links WHERE channel_id = $1', [channelId]);
				await client.query("DELETE FROM sync_bases WHERE channel_id = $1 AND source = 'sync'", [channelId]);
				await client.query('DELETE FROM sync_outbox WHERE channel_id = $1', [channelId]);
			});
		},
		links: async () => (await pool.query<LinkRow>('SELECT * FROM sync_links ORDER BY channel_id')).rows,
		getLink: async channelId => getLink(pool, channelId),
		async saveState(channelId, state, at) {
			const {rowCount} = await pool.query('UPDATE sync_links SET state = $2, last_pull_at = coalesce($3, last_pull_at), last_push_at = coalesce($4, last_push_at) WHERE channel_id = $1', [channelId, JSON.stringify(state), at.pulled ?? null, at.pushed ?? null]);
			if (!rowCount) throw notLinked(channelId);
		},
		applyRemote: async (channelId: string, records: RemoteRecord[]): Promise<PullOutcome> => run(planApplyRemote<PgItem>(channelId, records, validate), channelId),
		addComments: async (channelId: string, lists: RemoteComments[]): Promise<number> => run(planAddComments<PgItem>(channelId, lists), channelId),
		async outbox(channelId, limit = 100): Promise<OutboxEntry[]> {
			const link = await getLink(pool, channelId);
			if (!link) throw notLinked(channelId);
			const {rows} = await pool.query<EntryRow & {remote_id: string | null}>(`SELECT o.*, i.data ->> $2 AS remote_id FROM sync_outbox o LEFT JOIN items i ON i.channel_id = o.channel_id AND i.id = o.item_id
				WHERE o.channel_id = $1 AND o.state IN ('pending', 'sending') ORDER BY o.id LIMIT $3`, [channelId, link.key_field, limit]);
			return rows.map(row => ({...row, id: Number(row.id), base: JSON.parse(row.base) as unknown, value: JSON.parse(row.value) as unknown}));
		},
		async markSending(ids) {
			await pool.query("UPDATE sync_outbox SET state = 'sending', attempts = attempts + 1 WHERE id = ANY($1::bigint[]) AND state <> 'held'", [ids]);
		},
		markSent: async (id: number, remoteValue: unknown) => run(planMarkSent<PgItem>(id, remoteValue)),
		markFailed: async (id: number, error: string, options: {followUp?: boolean} = {}) => run(planMarkFailed<PgItem>(id, error, options.followUp === true)),
		async status(channelId): Promise<SyncStatus> {
			const link = await getLink(pool, channelId);
			if (!link) throw notLinked(channelId);
			const {rows} = await pool.query<{pending: number; held: number; conflicts: number}>(`SELECT
				(SELECT count(*) FROM sync_outbox WHERE channel_id = $1 AND state <> 'held')::int AS pending,
				(SELECT count(*) FROM sync_outbox WHERE channel_id = $1 AND state = 'held')::int AS held,
				(SELECT count(*) FROM followups WHERE channel_id = $1 AND status = 'open' AND kind = 'sync_conflict')::int AS conflicts`, [channelId]);
			return {link, ...rows[0]!, local_only: localOnly((await channels.get(channelId)).fields, link)};
		},
		resolveConflict: async (followUpId: number, choice: ConflictChoice): Promise<FollowUp> => run(planResolveConflict<PgItem>(followUpId, choice, validate)),
		itemComments: async (itemId, query) => commentsPage((await pool.query<CommentRow>(commentsSql('$1', '$2'), [itemId, commentsLimit(query)])).rows),
	};
}
