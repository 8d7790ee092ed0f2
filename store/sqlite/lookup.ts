// Naming an item on SQLite, by store/lookup.ts's rules: one index lookup per unique field.

import type {LoadedChannel} from '../channels.js';
import {NAME_MATCHES_PER_FIELD, nameProbes, type NameMatch} from '../lookup.js';
import {channelScopeSql} from '../query/sql.js';
import type {Db} from './db.js';
import {valueSql} from './query.js';

/**
 * Every item of the channel that `name` names: the item with that id, and the items holding
 * `name` in a unique field (nameProbes), oldest first per field.
 */
export function itemsNamed(db: Db, channel: LoadedChannel, name: string): NameMatch[] {
	const matches: NameMatch[] = [];
	const byId = db.prepare('SELECT id FROM items WHERE id = ? AND channel_id = ?').get(name, channel.id) as {id: string} | undefined;
	if (byId) matches.push({item_id: byId.id, by: 'id'});
	for (const {key, value} of nameProbes(channel, name)) {
		const rows = db.prepare(`SELECT id FROM items WHERE ${channelScopeSql(channel.id)} AND ${valueSql(channel, key)} = ? ORDER BY seq LIMIT ${NAME_MATCHES_PER_FIELD}`).all(value) as Array<{id: string}>;
		for (const row of rows) matches.push({item_id: row.id, by: {field: key}});
	}

	return matches;
}
