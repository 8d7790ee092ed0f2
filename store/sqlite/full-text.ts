/**
 * Full-text search on SQLite: one FTS5 table, `items_text`, holds each item's long text (the text
 * fields a query's bare words search by token: store/query/parse.ts isLongText) by the item's seq.
 * Triggers on `items` keep it in step with every write, whichever path made it (an edit, a create,
 * a delete, an import, an upsert), and read which fields are long from the channel's own row, so
 * no write path can forget it. A schema change that makes a field long or short reindexes its
 * channel. The first FULL_TEXT_CHARACTERS of the text are indexed, as on PostgreSQL
 * (store/postgres/query.ts), so both answer alike.
 */

import {FULL_TEXT_CHARACTERS} from '../query/sql.js';
import type {Db} from './db.js';

/** The long text of the item whose data and channel are `item` (NEW or OLD in a trigger, items in a query): NULL when it has none. */
const bodyOf = (item: string) => `(SELECT substr(group_concat(json_extract(${item}.data, '$.' || json_extract(f.value, '$.key')), ' '), 1, ${FULL_TEXT_CHARACTERS})
	FROM channels c, json_each(c.fields) f
	WHERE c.id = ${item}.channel_id
		AND json_extract(f.value, '$.type') IN ('text', 'email', 'url')
		AND json_extract(f.value, '$.config.long') = 1
		AND coalesce(json_extract(f.value, '$.is_unique'), 0) = 0
		AND json_type(${item}.data, '$.' || json_extract(f.value, '$.key')) = 'text')`;

/** Unicode letters fold case, diacritics stay (PostgreSQL's 'simple' configuration keeps them too). */
export const FULL_TEXT_SQL = `
CREATE VIRTUAL TABLE IF NOT EXISTS items_text USING fts5(body, tokenize = 'unicode61 remove_diacritics 0');
CREATE TRIGGER IF NOT EXISTS items_text_insert AFTER INSERT ON items BEGIN
	INSERT INTO items_text (rowid, body) SELECT NEW.seq, body FROM (SELECT ${bodyOf('NEW')} AS body) WHERE body IS NOT NULL;
END;
CREATE TRIGGER IF NOT EXISTS items_text_update AFTER UPDATE OF data ON items WHEN ${bodyOf('OLD')} IS NOT ${bodyOf('NEW')} BEGIN
	DELETE FROM items_text WHERE rowid = OLD.seq;
	INSERT INTO items_text (rowid, body) SELECT NEW.seq, body FROM (SELECT ${bodyOf('NEW')} AS body) WHERE body IS NOT NULL;
END;
CREATE TRIGGER IF NOT EXISTS items_text_delete AFTER DELETE ON items BEGIN
	DELETE FROM items_text WHERE rowid = OLD.seq;
END;
`;

/** Indexes the long text of every item of `channelId` again (after a schema change), or of every channel. */
export function reindexFullText(db: Db, channelId?: string): void {
	const scope = channelId === undefined ? '' : ' WHERE channel_id = ?';
	const params = channelId === undefined ? [] : [channelId];
	db.prepare(`DELETE FROM items_text WHERE rowid IN (SELECT seq FROM items${scope})`).run(...params);
	db.prepare(`INSERT INTO items_text (rowid, body) SELECT seq, body FROM (SELECT items.seq AS seq, ${bodyOf('items')} AS body FROM items${scope}) WHERE body IS NOT NULL`).run(...params);
}

/** v8: a store made before full-text search gets the table and its triggers, and every item's text indexed once. */
export function addFullText(db: Db): void {
	const had = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'items_text'").get() !== undefined;
	db.exec(FULL_TEXT_SQL);
	if (!had) reindexFullText(db);
}
