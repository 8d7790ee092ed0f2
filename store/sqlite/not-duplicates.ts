// "Not a duplicate" marks on SQLite (store/not-duplicates.ts): the pairs table, a mark with its
// event in one write transaction, and the marks of one item.

import {notFound, quote} from '../errors.js';
import {checkNotDuplicate, notDuplicateEvent, orderedPair, othersOf, type NotDuplicateResult} from '../not-duplicates.js';
import type {Actor} from '../types.js';
import type {Db} from './db.js';
import {appendEvent} from './events.js';
import {immediate} from './write-lock.js';

export const NOT_DUPLICATES_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS not_duplicates (
	channel_id TEXT NOT NULL,
	item_a TEXT NOT NULL,
	item_b TEXT NOT NULL,
	marked_at TEXT NOT NULL,
	PRIMARY KEY (channel_id, item_a, item_b)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS not_duplicates_by_b ON not_duplicates(channel_id, item_b);
`;

const versionOf = (db: Db, channelId: string, itemId: string) => (db.prepare('SELECT version FROM items WHERE channel_id = ? AND id = ?').get(channelId, itemId) as {version: number} | undefined)?.version;

/** Marks two items of a channel as not duplicates of each other; marking again changes nothing and appends no event. */
export function markNotDuplicate(db: Db, channelId: string, itemId: unknown, otherId: unknown, actor: Actor, at: string): NotDuplicateResult {
	const ids = checkNotDuplicate(itemId, otherId);
	return immediate(db, () => {
		const version = versionOf(db, channelId, ids.itemId);
		for (const [id, found] of [[ids.itemId, version], [ids.otherId, versionOf(db, channelId, ids.otherId)]] as const) {
			if (found === undefined) throw notFound(`item ${quote(id)} does not exist in channel ${channelId}`);
		}

		const [a, b] = orderedPair(ids.itemId, ids.otherId);
		const added = db.prepare('INSERT INTO not_duplicates (channel_id, item_a, item_b, marked_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING').run(channelId, a, b, at).changes > 0;
		const sequence = added
			? appendEvent(db, channelId, notDuplicateEvent(ids.itemId, version!, ids.otherId, actor, at))
			: (db.prepare('SELECT coalesce(max(sequence), 0) AS last FROM events WHERE channel_id = ?').get(channelId) as {last: number}).last;
		return {ok: true, item_id: ids.itemId, other_id: ids.otherId, sequence};
	});
}

/** The items marked not a duplicate of `itemId`. */
export function notDuplicatesOf(db: Db, channelId: string, itemId: string): string[] {
	const pairs = db.prepare('SELECT item_a, item_b FROM not_duplicates WHERE channel_id = ? AND (item_a = ? OR item_b = ?)').all(channelId, itemId, itemId) as Array<{item_a: string; item_b: string}>;
	return othersOf(itemId, pairs);
}
