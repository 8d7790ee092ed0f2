// Importing a channel and its items into SQLite in one transaction.

import type {ChannelCatalog} from './channels.js';
import {immediate, type Db} from './database.js';
import {checkChannel} from '../schema.js';
import type {Channel} from '../types.js';
import {checkStagedValues} from '../edit-plan.js';
import {atImportItem, channelExists, checkImportItem, creationOrderKey, missingRelationTarget, namesOtherItems, selfRelationKeys, type ImportItem} from '../write-rules.js';
import type {ItemWriter} from './writes.js';

export type ImportSource = {channel: unknown; items: Iterable<unknown>};


/**
 * Imports a channel and its items in one transaction: any bad schema or item rolls back
 * everything. Items may be a lazy iterable, so a generator can stream a million rows.
 */
export function importChannel(db: Db, channels: ChannelCatalog, writer: ItemWriter, source: ImportSource): {channel: Channel; items_created: number} {
	const channel = checkChannel(source.channel);
	try {
		return importInTransaction(db, channels, writer, channel, source.items);
	} catch (error) {
		channels.forget(channel.id);
		throw error;
	}
}

function importInTransaction(db: Db, channels: ChannelCatalog, writer: ItemWriter, channel: Channel, items: Iterable<unknown>): {channel: Channel; items_created: number} {
	return immediate(db, () => {
		if (db.prepare('SELECT 1 FROM channels WHERE id = ?').get(channel.id)) {
			throw channelExists(channel.id);
		}

		for (const field of channel.fields) {
			const target = field.config.channel_id;
			if (field.type === 'relation' && target !== channel.id && !db.prepare('SELECT 1 FROM channels WHERE id = ?').get(target)) {
				throw missingRelationTarget(field.key, target);
			}
		}

		const startedAt = new Date().toISOString();
		channels.insert(channel, startedAt);
		const loaded = channels.get(channel.id);
		let index = 0;
		const ordered = inCreationOrder(db, items, startedAt, selfRelationKeys(channel), item => checkStagedValues(loaded, item.values, writer.validator));
		for (const {item, at} of ordered) {
			try {
				writer.insert(loaded, item.values, {kind: 'import'}, item.created_at, item);
			} catch (error) {
				throw atImportItem(error, at);
			}

			index++;
		}

		return {channel, items_created: index};
	});
}

type Placed = {item: ImportItem; /** Its index in the file, for refusals. */ at: number};

/** Rows read back from the staging table at a time: the import holds no more than this in memory. */
const STAGED_PAGE = 1000;

/**
 * The items in created_at order (ties in file order), for ids that follow creation: each checked
 * item is first kept in a temporary table of this connection, then read back page by page by
 * (created_at, index), so memory stays flat however many there are; in file order instead when an
 * item names another of the import by id (selfRelationKeys). The table goes when done.
 */
function * inCreationOrder(db: Db, items: Iterable<unknown>, startedAt: string, linkKeys: string[], check: (item: ImportItem) => void): Generator<Placed> {
	db.exec('DROP TABLE IF EXISTS temp.import_order; CREATE TEMP TABLE import_order (at INTEGER PRIMARY KEY, created_at TEXT NOT NULL, item TEXT NOT NULL)');
	try {
		const stage = db.prepare('INSERT INTO temp.import_order (at, created_at, item) VALUES (?, ?, ?)');
		let index = 0;
		let linked = false;
		for (const raw of items) {
			const item = checkImportItem(raw, index);
			try {
				check(item);
			} catch (error) {
				throw atImportItem(error, index);
			}

			linked ||= namesOtherItems(item, linkKeys);
			stage.run(index, creationOrderKey(item, startedAt), JSON.stringify(item));
			index++;
		}

		// In file order, every row's created_at reads as '' so (created_at, at) is the index alone.
		const key = linked ? "''" : 'created_at';
		if (!linked) db.exec('CREATE INDEX temp.import_order_by_creation ON import_order (created_at, at)');
		const first = db.prepare(`SELECT at, ${key} AS created_at, item FROM temp.import_order ORDER BY ${key}, at LIMIT ?`);
		const next = db.prepare(`SELECT at, ${key} AS created_at, item FROM temp.import_order WHERE (${key}, at) > (?, ?) ORDER BY ${key}, at LIMIT ?`);
		let last: {at: number; created_at: string} | undefined;
		for (;;) {
			// Each page is read whole before its items are written: the connection runs one statement at a time.
			const rows = (last ? next.all(last.created_at, last.at, STAGED_PAGE) : first.all(STAGED_PAGE)) as Array<{at: number; created_at: string; item: string}>;
			for (const row of rows) {
				yield {item: JSON.parse(row.item) as ImportItem, at: row.at};
			}

			if (rows.length < STAGED_PAGE) return;
			last = rows.at(-1)!;
		}
	} finally {
		db.exec('DROP TABLE IF EXISTS temp.import_order');
	}
}
