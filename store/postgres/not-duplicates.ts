// "Not a duplicate" marks on PostgreSQL (store/not-duplicates.ts): a mark with its event in one
// transaction, and the marks of one item. The table is migration 13 (store/postgres/schema.ts).

import type pg from 'pg';
import {notFound, quote} from '../errors.js';
import {checkNotDuplicate, notDuplicateEvent, orderedPair, othersOf, type NotDuplicateResult} from '../not-duplicates.js';
import type {Actor} from '../types.js';
import {appendEvent} from './events.js';

async function versionOf(client: pg.ClientBase, channelId: string, itemId: string, lock: boolean): Promise<number | undefined> {
	const {rows} = await client.query<{version: number}>(`SELECT version FROM items WHERE channel_id = $1 AND id = $2${lock ? ' FOR SHARE' : ''}`, [channelId, itemId]);
	return rows[0]?.version;
}

/** Marks two items of a channel as not duplicates of each other; marking again changes nothing and appends no event. */
export async function markNotDuplicate(client: pg.ClientBase, channelId: string, itemId: unknown, otherId: unknown, actor: Actor, at: string): Promise<NotDuplicateResult> {
	const ids = checkNotDuplicate(itemId, otherId);
	const version = await versionOf(client, channelId, ids.itemId, true);
	const other = await versionOf(client, channelId, ids.otherId, true);
	for (const [id, found] of [[ids.itemId, version], [ids.otherId, other]] as const) {
		if (found === undefined) throw notFound(`item ${quote(id)} does not exist in channel ${channelId}`);
	}

	const [a, b] = orderedPair(ids.itemId, ids.otherId);
	const added = (await client.query('INSERT INTO not_duplicates (channel_id, item_a, item_b, marked_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [channelId, a, b, at])).rowCount! > 0;
	const sequence = added
		? await appendEvent(client, channelId, notDuplicateEvent(ids.itemId, version!, ids.otherId, actor, at))
		: (await client.query<{last_sequence: number}>('SELECT last_sequence FROM channels WHERE id = $1', [channelId])).rows[0]?.last_sequence ?? 0;
	return {ok: true, item_id: ids.itemId, other_id: ids.otherId, sequence};
}

/** The items marked not a duplicate of `itemId`. */
export async function notDuplicatesOf(client: pg.ClientBase | pg.Pool, channelId: string, itemId: string): Promise<string[]> {
	const {rows} = await client.query<{item_a: string; item_b: string}>('SELECT item_a, item_b FROM not_duplicates WHERE channel_id = $1 AND (item_a = $2 OR item_b = $2)', [channelId, itemId]);
	return othersOf(itemId, rows);
}
