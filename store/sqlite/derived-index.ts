// What the two per-channel indexes kept by triggers on `items` (full-text, store/sqlite/full-text.ts,
// and multi-select membership, store/sqlite/members.ts) do alike: remake a channel's triggers for
// its fields as they are now and fill its rows again, and the migration step that adds the table
// to an older store and fills it once per channel.

import type {Channel} from '../types.js';
import type {Db} from './db.js';

/** One such index: its table, its triggers' names, how its triggers are made and how its rows past a seq are filled. */
export type DerivedIndex = {
	table: string;
	tableSql: string;
	triggerName: (channelId: string, event: string) => string;
	createTriggers: (db: Db, channel: Channel) => void;
	indexAfter: (db: Db, channel: Channel, afterSeq: number) => void;
};

/** The channel's triggers remade for its fields as they are now, and its rows filled again. */
export function reindexChannel(index: DerivedIndex, db: Db, channel: Channel): void {
	for (const event of ['insert', 'update', 'delete']) db.exec(`DROP TRIGGER IF EXISTS ${index.triggerName(channel.id, event)}`);
	index.createTriggers(db, channel);
	index.indexAfter(db, channel, 0);
}

/** The migration step: a store made before the index gets its table, and each channel its triggers and rows once. */
export function addDerivedIndex(index: DerivedIndex, db: Db): void {
	const had = db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(index.table) !== undefined;
	db.exec(index.tableSql);
	if (had) return;
	for (const row of db.prepare('SELECT id, name, fields FROM channels').all() as Array<{id: string; name: string; fields: string}>) {
		reindexChannel(index, db, {id: row.id, name: row.name, fields: JSON.parse(row.fields) as Channel['fields']});
	}
}
