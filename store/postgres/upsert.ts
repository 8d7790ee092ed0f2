// Append and update on PostgreSQL (`sift import --into CHANNEL --key FIELD`): the shared upsert
// plan (store/upsert-plan.ts) run asynchronously in one transaction that holds the channel's row
// lock (so two upserts, or an upsert and a unique write, queue), rolled back whole unless the plan
// says it is written. This file answers its steps: the lock and channel, the fields written, one
// lookup per chunk of keys, and the creates and edits every other write makes (PgItemWriter).

import type pg from 'pg';
import type {PlanItem} from '../edit-plan.js';
import {asyncChunks, importBaseOf, planUpsert, runUpsertAsync, type UpsertIo} from '../upsert-plan.js';
import {openFollowUps} from './followups.js';
import type {Changes} from '../types.js';
import {keptIfWritten, rolledBackResult, type UpsertRequest, type UpsertResult} from '../upsert-rules.js';
import {channelLiteral, valueSql, type PgChannelCatalog} from './channels.js';
import {inTransaction} from './connect.js';
import {appendEvent} from './events.js';
import {ITEM_COLUMNS, type PgItemRow, type PgItemWriter} from './writes.js';

type Found = PlanItem & {row: PgItemRow};

function upsertIo(client: pg.ClientBase, channels: PgChannelCatalog, writer: PgItemWriter, request: UpsertRequest): UpsertIo<Found, true> {
	return {
		async channel({channelId}) {
			await client.query('SELECT 1 FROM channels WHERE id = $1 FOR UPDATE', [channelId]);
			channels.forget(channelId);
			return channels.get(channelId, client);
		},
		async grow({channel, event}) {
			await client.query('UPDATE channels SET fields = $2 WHERE id = $1', [channel.id, JSON.stringify(channel.fields)]);
			return appendEvent(client, channel.id, event);
		},
		rows: asyncChunks(request.rows),
		async find({channel, field, values}) {
			const found = new Map<string, Found>();
			if (values.length === 0) return found;
			const {rows} = await client.query<PgItemRow>(`SELECT ${ITEM_COLUMNS} FROM items WHERE channel_id = ${channelLiteral(channel.id)} AND ${valueSql(field.key)} = ANY($1::jsonb[])`, [values.map(value => JSON.stringify(value))]);
			for (const row of rows) {
				found.set(JSON.stringify(row.data[field.key]), {id: row.id, channel_id: row.channel_id, version: row.version, created_at: row.created_at, updated_at: row.updated_at, values: row.data, row});
			}

			return found;
		},
		insert: async ({channel, values, createdAt, updatedAt}) => writer.insert(client, channel, values, {kind: 'import'}, createdAt, updatedAt),
		edit: async ({channel, request: edit, stampedAt}) => writer.editWithin(client, channel, edit, stampedAt),
		async importBase({item}) {
			const {rows: events} = await client.query<{changes: Changes}>("SELECT changes FROM events WHERE item_id = $1 AND actor_kind = 'import' AND type IN ('item.created', 'item.updated') ORDER BY version", [item.id]);
			const {rows: kept} = await client.query<{field: string; value: string}>("SELECT field, value FROM sync_bases WHERE item_id = $1 AND source = 'import'", [item.id]);
			return importBaseOf(events.map(row => row.changes), new Map(kept.map(row => [row.field, row.value])));
		},
		async setImportBase({channelId, itemId, field, value}) {
			await client.query("INSERT INTO sync_bases (channel_id, item_id, source, field, value) VALUES ($1, $2, 'import', $3, $4) ON CONFLICT (item_id, source, field) DO UPDATE SET value = excluded.value", [channelId, itemId, field, value]);
		},
		openFollowUps: async ({openings, at}) => openFollowUps(client, openings, at),
	};
}

export async function upsertItems(pool: pg.Pool, channels: PgChannelCatalog, writer: PgItemWriter, request: UpsertRequest): Promise<UpsertResult> {
	try {
		return await inTransaction(pool, async client => keptIfWritten(await runUpsertAsync(planUpsert<Found>(request), upsertIo(client, channels, writer, request))));
	} catch (error) {
		return rolledBackResult(error);
	} finally {
		channels.forget(request.channelId);
	}
}
