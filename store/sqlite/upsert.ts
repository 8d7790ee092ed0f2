// Append and update on SQLite (`sift import --into CHANNEL --key FIELD`): the shared upsert plan
// (store/upsert-plan.ts) run synchronously in one BEGIN IMMEDIATE transaction, rolled back whole
// unless the plan says it is written. This file answers its steps: the catalog's channel, the
// fields written, lookups by key, and the creates and edits every other write makes (ItemWriter).

import {insertedInBulk, type ChannelCatalog} from './channels.js';
import {immediate} from './write-lock.js';
import type {Db} from './db.js';
import {appendEvent} from './events.js';
import {importBaseOf, planUpsert, runUpsert, syncChunks, type UpsertIo} from '../upsert-plan.js';
import {openFollowUps} from './followups.js';
import type {Changes} from '../types.js';
import {keptIfWritten, rolledBackResult, type UpsertRequest, type UpsertResult, type UpsertRow} from '../upsert-rules.js';
import type {ItemWriter} from './writes.js';

type Found = NonNullable<ReturnType<ItemWriter['itemWithUnique']>>;

function upsertIo(db: Db, channels: ChannelCatalog, writer: ItemWriter, rows: Iterable<UpsertRow>): UpsertIo<Found> {
	return {
		channel: ({channelId}) => channels.get(channelId),
		grow({channel, event}) {
			// Not cached: the catalog reads the stored channel again once this commits.
			db.prepare('UPDATE channels SET fields = ? WHERE id = ?').run(JSON.stringify(channel.fields), channel.id);
			return appendEvent(db, channel.id, event);
		},
		rows: syncChunks(rows),
		find({channel, field, values}) {
			const found = new Map<string, Found>();
			for (const value of values) {
				const item = writer.itemWithUnique(channel, field, value);
				if (item) found.set(JSON.stringify(value), item);
			}

			return found;
		},
		insert: ({channel, values, createdAt, updatedAt}) => writer.insertQueued(channel, values, {kind: 'import'}, createdAt, updatedAt),
		edit: ({channel, request, stampedAt}) => writer.editWithin(channel, request, stampedAt),
		importBase: ({item}) => importBaseOf(
			(db.prepare("SELECT changes FROM events WHERE item_id = ? AND actor_kind = 'import' AND type IN ('item.created', 'item.updated') ORDER BY version").all(item.id) as Array<{changes: string}>).map(row => JSON.parse(row.changes) as Changes),
			new Map((db.prepare("SELECT field, value FROM sync_bases WHERE item_id = ? AND source = 'import'").all(item.id) as Array<{field: string; value: string}>).map(row => [row.field, row.value])),
		),
		setImportBase({channelId, itemId, field, value}) {
			db.prepare("INSERT INTO sync_bases (channel_id, item_id, source, field, value) VALUES (?, ?, 'import', ?, ?) ON CONFLICT (item_id, source, field) DO UPDATE SET value = excluded.value").run(channelId, itemId, field, value);
		},
		openFollowUps({openings, at}) {
			openFollowUps(db, openings, at);
		},
	};
}

export function upsertItems(db: Db, channels: ChannelCatalog, writer: ItemWriter, request: UpsertRequest & {rows: Iterable<UpsertRow>}): UpsertResult {
	try {
		// Counted and indexed once at the end: an upsert may append many rows (store/sqlite/channels.ts insertedInBulk).
		return immediate(db, () => keptIfWritten(insertedInBulk(db, channels, request.channelId, () => runUpsert(planUpsert<Found>(request), upsertIo(db, channels, writer, request.rows)))));
	} catch (error) {
		return rolledBackResult(error);
	} finally {
		channels.forget(request.channelId);
	}
}
