// Append and update on SQLite (`sift import --into CHANNEL --key FIELD`): the shared upsert plan
// (store/upsert-plan.ts) run synchronously in one BEGIN IMMEDIATE transaction, rolled back whole
// unless the plan says it is written. This file answers its steps: the catalog's channel, the
// fields written, lookups by key, and the creates and edits every other write makes (ItemWriter).

import {insertedInBulk, type ChannelCatalog} from './channels.js';
import {immediate} from './write-lock.js';
import type {Db} from './db.js';
import {appendEvent} from './events.js';
import {planUpsert, runUpsert, syncChunks, type UpsertIo} from '../upsert-plan.js';
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
		insert: ({channel, values, createdAt}) => writer.insertQueued(channel, values, {kind: 'import'}, createdAt),
		edit: ({channel, request}) => writer.editWithin(channel, request),
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
