/**
 * Multi-select membership on SQLite: item_members holds one row per (channel, field, value, item),
 * so `labels:bug` seeks the items holding a value instead of opening every item's JSON list
 * (json_each) until a page is full, which at 1M items read the whole channel for a rare label.
 * Kept like the full-text table (store/sqlite/full-text.ts): per-channel triggers on items'
 * inserts, edits of `data` and deletes, dropped during a bulk write and filled once at its end
 * (store/sqlite/channels.ts insertedInBulk); a schema change that adds a multi_select remakes them.
 */

import {sqlString} from '../query/sql.js';
import type {Channel} from '../types.js';
import type {Db} from './db.js';
import {addDerivedIndex, reindexChannel, type DerivedIndex} from './derived-index.js';
import {jsonValueSql} from './value-columns.js';

/** Keyed for the reads: one value's items in seq order, in either direction. */
export const MEMBERS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS item_members (
	channel_id TEXT NOT NULL,
	field TEXT NOT NULL,
	value TEXT NOT NULL,
	seq INTEGER NOT NULL,
	PRIMARY KEY (channel_id, field, value, seq)
) WITHOUT ROWID`;

const memberKeys = (channel: Channel) => channel.fields.filter(field => field.type === 'multi_select').map(field => field.key);

const triggerName = (channelId: string, event: string) => `"item_members:${channelId}:${event}"`;

/** A condition on sqlite_master's `name`: every channel's membership insert trigger. */
export const MEMBER_INSERT_TRIGGERS = "name LIKE 'item\\_members:%:insert' ESCAPE '\\'";

/** The rows of `row`'s values of `key` (NEW, or items when `from` joins them); text values only, as options are. */
const membersOf = (channelId: string, key: string, row: string, from = '') =>
	`SELECT ${sqlString(channelId)}, ${sqlString(key)}, member.value, ${row}.seq FROM ${from}json_each(${row}.data, '$.${key}') AS member WHERE member.type = 'text'`;

/** The triggers that keep a channel's memberships: none when it has no multi_select. */
export function memberTriggers(channel: Channel): string[] {
	const keys = memberKeys(channel);
	if (keys.length === 0) return [];
	const scope = sqlString(channel.id);
	const changed = keys.map(key => `${jsonValueSql(key, 'OLD.data')} IS NOT ${jsonValueSql(key, 'NEW.data')}`).join(' OR ');
	const insert = (row: string) => keys.map(key => `INSERT OR IGNORE INTO item_members (channel_id, field, value, seq) ${membersOf(channel.id, key, row)};`).join('\n\t\t\t');
	return [
		`CREATE TRIGGER IF NOT EXISTS ${triggerName(channel.id, 'insert')} AFTER INSERT ON items WHEN NEW.channel_id = ${scope} BEGIN
			${insert('NEW')}
		END`,
		`CREATE TRIGGER IF NOT EXISTS ${triggerName(channel.id, 'update')} AFTER UPDATE OF data ON items WHEN NEW.channel_id = ${scope} AND (${changed}) BEGIN
			DELETE FROM item_members WHERE channel_id = ${scope} AND field IN (${keys.map(sqlString).join(', ')}) AND seq = OLD.seq;
			${insert('NEW')}
		END`,
		`CREATE TRIGGER IF NOT EXISTS ${triggerName(channel.id, 'delete')} AFTER DELETE ON items WHEN OLD.channel_id = ${scope} BEGIN
			DELETE FROM item_members WHERE channel_id = ${scope} AND field IN (${keys.map(sqlString).join(', ')}) AND seq = OLD.seq;
		END`,
	];
}

/** Makes a new channel's triggers (before its items are written, so they record them). */
export function createMembers(db: Db, channel: Channel): void {
	for (const sql of memberTriggers(channel)) db.exec(sql);
}

/** The memberships of the channel's items past `afterSeq`, recorded afresh for its fields as they are now. */
export function indexMembersAfter(db: Db, channel: Channel, afterSeq: number): void {
	db.prepare('DELETE FROM item_members WHERE channel_id = ? AND seq > ?').run(channel.id, afterSeq);
	for (const key of memberKeys(channel)) {
		db.prepare(`INSERT OR IGNORE INTO item_members (channel_id, field, value, seq) ${membersOf(channel.id, key, 'items', 'items, ')} AND items.channel_id = ? AND items.seq > ?`).run(channel.id, afterSeq);
	}
}

const MEMBERS: DerivedIndex = {table: 'item_members', tableSql: MEMBERS_TABLE_SQL, triggerName, createTriggers: createMembers, indexAfter: indexMembersAfter};

/** The channel's triggers remade for its fields as they are now, and its memberships recorded again. */
export const reindexMembers = (db: Db, channel: Channel): void => reindexChannel(MEMBERS, db, channel);

/** v12: a store made before the membership table gets it, and each channel its triggers and memberships once. */
export const addMembers = (db: Db): void => addDerivedIndex(MEMBERS, db);

/** The multi_select fields of a channel, as a string to compare before and after a schema change. */
export const memberKeysOf = (channel: Channel) => memberKeys(channel).join(' ');
