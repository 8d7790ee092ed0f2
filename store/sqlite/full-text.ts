/**
 * Full-text search on SQLite: one FTS5 table, `items_text`, holds each item's long text (the text
 * fields a query's bare words search by word: store/query/parse.ts isLongText) by the item's seq.
 * Triggers on `items`, made per channel with its long fields written in (a channel without long
 * text has none, and its writes pay nothing), keep it in step with every write, whichever path made
 * it (an edit, a create, a delete, an import, an upsert); an edit that leaves the long text as it
 * was does not touch it. A schema change that makes a field long or short remakes the channel's
 * triggers and reindexes it. The first FULL_TEXT_CHARACTERS are indexed, as on PostgreSQL
 * (store/postgres/query.ts), so both answer alike.
 */

import {isLongText} from '../query/parse.js';
import {FULL_TEXT_CHARACTERS, sqlString} from '../query/sql.js';
import type {Channel} from '../types.js';
import type {Db} from './db.js';
import {addDerivedIndex, reindexChannel, type DerivedIndex} from './derived-index.js';
import {jsonValueSql} from './value-columns.js';

/** Unicode letters fold case, diacritics stay (PostgreSQL's 'simple' configuration keeps them too). */
export const FULL_TEXT_TABLE_SQL = "CREATE VIRTUAL TABLE IF NOT EXISTS items_text USING fts5(body, tokenize = 'unicode61 remove_diacritics 0')";

/** The FTS5 query of a bare word's words (store/query/sql.ts wordsOf): them in a row, the last a prefix. */
export const matchText = (words: string[]) => `"${words.join(' ')}"*`;

const longKeys = (channel: Channel) => channel.fields.filter(isLongText).map(field => field.key);

/** The long text of a row (NEW, OLD, or items in a query), as one text. */
const bodySql = (row: string, keys: string[]) => `substr(${keys.map(key => `coalesce(${jsonValueSql(key, `${row}.data`)}, '')`).join(` || ' ' || `)}, 1, ${FULL_TEXT_CHARACTERS})`;

const triggerName = (channelId: string, event: string) => `"items_text:${channelId}:${event}"`;

/** A condition on sqlite_master's `name`: every channel's full-text insert trigger. */
export const FULL_TEXT_INSERT_TRIGGERS = "name LIKE 'items\\_text:%:insert' ESCAPE '\\'";

/** The triggers that keep a channel's long text in items_text: none when it has no long text. */
export function fullTextTriggers(channel: Channel): string[] {
	const keys = longKeys(channel);
	if (keys.length === 0) return [];
	const scope = sqlString(channel.id);
	const changed = keys.map(key => `${jsonValueSql(key, 'OLD.data')} IS NOT ${jsonValueSql(key, 'NEW.data')}`).join(' OR ');
	return [
		`CREATE TRIGGER IF NOT EXISTS ${triggerName(channel.id, 'insert')} AFTER INSERT ON items WHEN NEW.channel_id = ${scope} BEGIN
			INSERT INTO items_text (rowid, body) VALUES (NEW.seq, ${bodySql('NEW', keys)});
		END`,
		`CREATE TRIGGER IF NOT EXISTS ${triggerName(channel.id, 'update')} AFTER UPDATE OF data ON items WHEN NEW.channel_id = ${scope} AND (${changed}) BEGIN
			DELETE FROM items_text WHERE rowid = OLD.seq;
			INSERT INTO items_text (rowid, body) VALUES (NEW.seq, ${bodySql('NEW', keys)});
		END`,
		`CREATE TRIGGER IF NOT EXISTS ${triggerName(channel.id, 'delete')} AFTER DELETE ON items WHEN OLD.channel_id = ${scope} BEGIN
			DELETE FROM items_text WHERE rowid = OLD.seq;
		END`,
	];
}

/** Makes a new channel's triggers (before its items are written, so they index them). */
export function createFullText(db: Db, channel: Channel): void {
	for (const sql of fullTextTriggers(channel)) db.exec(sql);
}

/** The channel's items past `afterSeq` indexed afresh for its fields as they are now (none kept when it has no long text). */
export function indexItemsAfter(db: Db, channel: Channel, afterSeq: number): void {
	db.prepare('DELETE FROM items_text WHERE rowid IN (SELECT seq FROM items WHERE channel_id = ? AND seq > ?)').run(channel.id, afterSeq);
	const keys = longKeys(channel);
	if (keys.length > 0) db.prepare(`INSERT INTO items_text (rowid, body) SELECT seq, ${bodySql('items', keys)} FROM items WHERE channel_id = ? AND seq > ?`).run(channel.id, afterSeq);
}

const FULL_TEXT: DerivedIndex = {table: 'items_text', tableSql: FULL_TEXT_TABLE_SQL, triggerName, createTriggers: createFullText, indexAfter: indexItemsAfter};

/** The channel's triggers remade for its fields as they are now, and its items indexed again. */
export const reindexFullText = (db: Db, channel: Channel): void => reindexChannel(FULL_TEXT, db, channel);

/** v8: a store made before full-text search gets the table, and each channel its triggers and its items indexed once. */
export const addFullText = (db: Db): void => addDerivedIndex(FULL_TEXT, db);

/**
 * The bm25 relevance (higher: more relevant) of the items `seqs` for any of the word lists
 * `words` (each a bare word or phrase of a query, as store/query/sql.ts fullTextQuery writes it);
 * an item without any of them is left out. bm25 weighs by the whole table's statistics, so each
 * item's score is its own whatever else is asked.
 */
export function fullTextScores(db: Db, words: string[][], seqs: number[]): Map<number, number> {
	const scores = new Map<number, number>();
	if (seqs.length === 0) return scores;
	const match = words.map(matchText).join(' OR ');
	const read = db.prepare('SELECT -bm25(items_text) AS score FROM items_text WHERE items_text MATCH ? AND rowid = ?');
	for (const seq of seqs) {
		// As an INTEGER: FTS5 does not take a REAL (a JS number binds as one) for its rowid.
		const row = read.get(match, BigInt(seq)) as {score: number} | undefined;
		if (row) scores.set(seq, row.score);
	}

	return scores;
}

/** FTS5's per-term document counts over items_text, as a temporary table of this connection (nothing stored). */
const VOCABULARY_SQL = 'CREATE VIRTUAL TABLE IF NOT EXISTS temp.items_text_terms USING fts5vocab(main, items_text, row)';

/** How many indexed items hold each of `terms` (every channel's: bm25 weighs by the same), and how many are indexed. */
export function termFrequencies(db: Db, terms: string[]): {frequencies: Map<string, number>; documents: number} {
	db.exec(VOCABULARY_SQL);
	const read = db.prepare('SELECT doc FROM temp.items_text_terms WHERE term = ?');
	const frequencies = new Map<string, number>();
	for (const term of terms) {
		const row = read.get(term) as {doc: number} | undefined;
		if (row) frequencies.set(term, row.doc);
	}

	return {frequencies, documents: indexedDocuments(db)};
}

/**
 * How many items the full-text index holds, read from FTS5's own totals record (the row of
 * items_text_data with id 1 opens with that count as a varint): count(*) over items_text reads
 * every row, some 2 s at 100k items.
 */
export function indexedDocuments(db: Db): number {
	const row = db.prepare('SELECT block FROM items_text_data WHERE id = 1').get() as {block: Uint8Array | null} | undefined;
	const block = row?.block;
	if (block && block.length > 0) {
		let value = 0;
		for (let index = 0; index < Math.min(9, block.length); index++) {
			const byte = block[index]!;
			if (index === 8) return value * 256 + byte;
			value = value * 128 + (byte & 0x7f);
			if ((byte & 0x80) === 0) return value;
		}
	}

	return (db.prepare('SELECT count(*) AS documents FROM items_text').get() as {documents: number}).documents;
}

/** The channel's items (but `exceptSeq`; with `olderOnly` only those before it) whose long text holds any of `terms`, the `limit` best by bm25. */
export function rankedByTerms(db: Db, channelId: string, terms: string[], exceptSeq: number, limit: number, olderOnly = false): Array<{seq: number; score: number}> {
	const match = terms.map(term => `"${term}"`).join(' OR ');
	// CROSS JOIN keeps the full-text matches first: left to choose, SQLite walks the channel's items and runs the MATCH once per item (seconds at a few thousand).
	return db.prepare(`SELECT items_text.rowid AS seq, -bm25(items_text) AS score FROM items_text CROSS JOIN items ON items.seq = items_text.rowid
		WHERE items_text MATCH ? AND items.channel_id = ? AND items.seq ${olderOnly ? '<' : '<>'} ? ORDER BY score DESC, seq DESC LIMIT ?`).all(match, channelId, exceptSeq, limit) as Array<{seq: number; score: number}>;
}
