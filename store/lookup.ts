import {valueSql, type LoadedChannel} from './channels.js';
import type {Db} from './database.js';

/** An item a name answers to, and how: by its id, or by the value of a unique field. */
export type NameMatch = {item_id: string; by: 'id' | {field: string}};

/**
 * Every item of the channel that `name` names: the item with that id, and the items holding
 * `name` in a unique field (a number field also matches the number it spells). Unique fields are
 * indexed, so each probe is one index lookup.
 */
export function itemsNamed(db: Db, channel: LoadedChannel, name: string): NameMatch[] {
	const matches: NameMatch[] = [];
	const byId = db.prepare('SELECT id FROM items WHERE id = ? AND channel_id = ?').get(name, channel.id) as {id: string} | undefined;
	if (byId) matches.push({item_id: byId.id, by: 'id'});
	for (const field of channel.fields) {
		if (!field.is_unique) continue;
		const number = Number(name);
		const probe = field.type === 'number' ? (name.trim() !== '' && Number.isFinite(number) ? number : undefined) : name;
		if (probe === undefined) continue;
		const rows = db.prepare(`SELECT id FROM items WHERE channel_id = ? AND ${valueSql(field.key)} = ? ORDER BY seq LIMIT 2`).all(channel.id, probe) as Array<{id: string}>;
		for (const row of rows) matches.push({item_id: row.id, by: {field: field.key}});
	}

	return matches;
}
