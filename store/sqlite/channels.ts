// Channels on SQLite: the catalog read once per connection, and each channel's partial indexes.

import {LoadedChannels, type LoadedChannel} from '../channels.js';
import type {Db} from './db.js';
import {notFound, quote} from '../errors.js';
import {channelIndexes} from './query.js';
import {fillValueColumns} from './value-columns.js';
import type {Channel, ChannelName, ChannelSummary, Field} from '../types.js';
import {createFullText, FULL_TEXT_INSERT_TRIGGERS, indexItemsAfter} from './full-text.js';
import {createMembers, indexMembersAfter, MEMBER_INSERT_TRIGGERS} from './members.js';

/**
 * Each connection keeps the channels it read, with their stored fields' text: a schema change
 * (store/schema-change.ts) by any process rewrites that text, so every read compares it (one
 * indexed row) and loads the channel again when it differs: the next page shows the new schema.
 */
export class ChannelCatalog {
	private readonly cache = new LoadedChannels();
	private readonly select;

	constructor(private readonly db: Db) {
		this.select = db.prepare('SELECT id, name, fields FROM channels WHERE id = ?');
	}

	get(id: string): LoadedChannel {
		const row = this.select.get(id) as {id: string; name: string; fields: string} | undefined;
		if (!row) {
			this.cache.forget(id);
			throw notFound(`channel ${quote(id)} does not exist`);
		}

		return this.cache.fromRow(row);
	}

	/** Drops a cached channel whose creating transaction rolled back. */
	forget(id: string): void {
		this.cache.forget(id);
	}

	/** Ids and names only. */
	names(): ChannelName[] {
		return this.db.prepare('SELECT id, name, created_at FROM channels ORDER BY id').all() as ChannelName[];
	}

	/** Every channel with its item count (kept per write, store/sqlite/database.ts) and latest sequence; `onlyId`: one channel alone. */
	summaries(onlyId?: string): ChannelSummary[] {
		return this.db.prepare(`SELECT c.id, c.name, (SELECT coalesce(max(e.sequence), 0) FROM events e WHERE e.channel_id = c.id) AS latest_sequence, c.item_count
			FROM channels c WHERE ? IS NULL OR c.id = ? ORDER BY c.id`).all(onlyId ?? null, onlyId ?? null) as ChannelSummary[];
	}

	/** Writes a new channel and the indexes its sorted, filtered and unique fields need. */
	insert(channel: Channel, at: string): void {
		this.db.prepare('INSERT INTO channels (id, name, fields, created_at) VALUES (?, ?, ?, ?)').run(channel.id, channel.name, JSON.stringify(channel.fields), at);
		createChannelIndexes(this.db, channel);
	}
}

/**
 * Each channel's item count (`channels.item_count`, v10), kept by these triggers whichever write
 * inserts or deletes an item: a summary reads one row instead of counting the channel's items.
 * Part of the schema (store/sqlite/database.ts).
 */
export const ITEM_COUNT_TRIGGERS_SQL = `
CREATE TRIGGER IF NOT EXISTS items_counted_in AFTER INSERT ON items BEGIN
	UPDATE channels SET item_count = item_count + 1 WHERE id = NEW.channel_id;
END;
CREATE TRIGGER IF NOT EXISTS items_counted_out AFTER DELETE ON items BEGIN
	UPDATE channels SET item_count = item_count - 1 WHERE id = OLD.channel_id;
END;
`;

/**
 * A bulk write of one channel's items (an import, an upsert), counted and indexed for full text once
 * at its end instead of by triggers row by row. A trigger on items' inserts makes SQLite keep a
 * statement journal for every INSERT inside a longer transaction, spilled to a temporary file, even
 * a trigger whose WHEN never holds (another channel's full text): the count's trigger alone made a
 * 100k-item import about 4.7 times as slow. Inside the caller's write transaction (no other write
 * can run) the count's triggers and every channel's full-text insert trigger are dropped, `work`
 * runs, the channel's count goes up by the items past the id counter as it was (`work` adds items
 * and deletes none it did not add), those items' long text is indexed, and the triggers are made
 * again from their stored SQL. A rollback brings them back.
 */
export function insertedInBulk<T>(db: Db, channels: ChannelCatalog, channelId: string, work: () => T): T {
	const before = (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'items'").get() as {seq: number} | undefined)?.seq ?? 0;
	const triggers = db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'items' AND (name IN ('items_counted_in', 'items_counted_out') OR ${FULL_TEXT_INSERT_TRIGGERS} OR ${MEMBER_INSERT_TRIGGERS})`).all() as Array<{name: string; sql: string}>;
	for (const {name} of triggers) db.exec(`DROP TRIGGER ${quoteName(name)}`);
	const result = work();
	db.prepare('UPDATE channels SET item_count = item_count + (SELECT count(*) FROM items WHERE channel_id = ? AND seq > ?) WHERE id = ?').run(channelId, before, channelId);
	// The channel as stored now: an upsert may have grown its fields.
	indexItemsAfter(db, channels.get(channelId), before);
	indexMembersAfter(db, channels.get(channelId), before);
	for (const {sql} of triggers) db.exec(sql);
	return result;
}

function createChannelIndexes(db: Db, channel: Channel): void {
	for (const index of channelIndexes(channel)) {
		db.exec(index.sql);
	}

	createFullText(db, channel);
	createMembers(db, channel);
}

/**
 * Migration to per-channel indexes on value columns: drops the indexes that covered every
 * channel's rows (`items_<channel>_<key>` on (channel_id, value, seq), which evaluated one
 * channel's JSON paths on every other channel's rows); then, for each channel whose indexes are
 * not the ones channelIndexes gives (the v3 and v4 ones read `data`), drops those, copies the
 * values into their columns (store/sqlite/value-columns.ts) and creates the new ones. Idempotent.
 */
export function migrateToChannelIndexes(db: Db): void {
	const old = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'items' AND name LIKE 'items\\_%' ESCAPE '\\' AND name != 'items_by_channel' AND sql LIKE '%json_extract%'").all() as Array<{name: string}>;
	for (const {name} of old) {
		db.exec(`DROP INDEX ${quoteName(name)}`);
	}

	const existing = new Map((db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'items' AND sql IS NOT NULL").all() as Array<{name: string; sql: string}>).map(row => [row.name, row.sql]));
	const channels = db.prepare('SELECT id, name, fields FROM channels').all() as Array<{id: string; name: string; fields: string}>;
	for (const row of channels) {
		const channel: Channel = {id: row.id, name: row.name, fields: JSON.parse(row.fields) as Field[]};
		const wanted = channelIndexes(channel);
		const stale = [...existing.keys()].filter(name => name.startsWith(`items:${channel.id}:`) && !wanted.some(index => index.name === name && sameIndex(index.sql, existing.get(name)!)));
		if (stale.length === 0 && wanted.every(index => existing.has(index.name))) continue;
		for (const name of stale) {
			db.exec(`DROP INDEX ${quoteName(name)}`);
		}

		// After the drops, so the copy does not rewrite the old indexes row by row. Missing indexes on
		// created_at / updated_at alone (v6), or on the axis and a sort key (v7: `items:c:status.due`,
		// over columns the single-field indexes already fill), need no copy.
		const missing = wanted.filter(index => !existing.has(index.name) || stale.includes(index.name));
		if (missing.some(index => !/:((created|updated)_at|[a-z0-9_]+\.[a-z0-9_]+)$/.test(index.name))) fillValueColumns(db, channel);
		createChannelIndexes(db, channel);
	}
}

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** sqlite_master keeps an index's CREATE statement without its IF NOT EXISTS. */
const sameIndex = (created: string, stored: string) => created.replace('CREATE INDEX IF NOT EXISTS', 'CREATE INDEX') === stored;
