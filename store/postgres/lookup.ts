// Names on PostgreSQL (`sift show BUG-0042`): the item with that id, then the items holding the
// name in a unique field, by store/lookup.ts's rules, each probe one lookup in the field's index.

import type pg from 'pg';
import type {LoadedChannel} from '../sqlite/channels.js';
import {NAME_MATCHES_PER_FIELD, nameProbes, type NameMatch} from '../lookup.js';
import {channelScopeSql} from '../query/sql.js';
import {valueSql} from './channels.js';
import {findItem} from './writes.js';

export async function itemsNamed(pool: pg.Pool, channel: LoadedChannel, name: string): Promise<NameMatch[]> {
	const matches: NameMatch[] = [];
	const byId = await findItem(pool, channel.id, name);
	// An id is its seq in base 36, so a differently written id can find the same row: only the exact id names it.
	if (byId && byId.id === name) matches.push({item_id: byId.id, by: 'id'});
	for (const {key, value} of nameProbes(channel, name)) {
		const {rows} = await pool.query<{id: string}>(`SELECT id FROM items WHERE ${channelScopeSql(channel.id)} AND ${valueSql(key)} = $1::jsonb ORDER BY seq LIMIT ${NAME_MATCHES_PER_FIELD}`, [JSON.stringify(value)]);
		for (const row of rows) matches.push({item_id: row.id, by: {field: key}});
	}

	return matches;
}
