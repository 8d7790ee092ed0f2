// Importing a channel and its items into SQLite in one transaction.

import {insertedInBulk, type ChannelCatalog} from './channels.js';
import {immediate} from './write-lock.js';
import type {Db} from './db.js';
import {checkChannel} from '../schema.js';
import type {Channel} from '../types.js';
import {checkStagedValues} from '../edit-plan.js';
import {atImportItem, channelExists, CreationOrder, missingRelationTarget, selfRelationKeys, type ImportItem} from '../write-rules.js';
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
		const insert = ({item, at}: Placed) => {
			try {
				writer.insert(loaded, item.values, {kind: 'import'}, item.created_at, item);
			} catch (error) {
				throw atImportItem(error, at);
			}
		};

		// Counted and indexed once at the end, not row by row (store/sqlite/channels.ts insertedInBulk).
		const index = insertedInBulk(db, channels, channel.id, () => importInOrder(db, channel.id, items, startedAt, selfRelationKeys(channel), insert, item => checkStagedValues(loaded, item.values, writer.validator)));
		return {channel, items_created: index};
	});
}

type Placed = {item: ImportItem; /** Its index in the file, for refusals. */ at: number};

/** Rows read back from the staging table at a time: the import holds no more than this in memory. */
const STAGED_PAGE = 1000;

/**
 * Imports the items so that ids follow created_at (oldest first, ties in file order). Items that
 * come in that order already (an export, most CSVs) are inserted as they come. At the first one
 * out of order, what was inserted is taken back into a temporary table of this connection (its
 * rows, events and id counter, all inside the import's transaction, so no reader ever saw them),
 * every further item is checked and kept there too, and all are then inserted read back page by
 * page by (created_at, index): memory stays flat however many there are. When an item names
 * another by a self-relation (selfRelationKeys), file order is kept. Returns how many were imported.
 */
function importInOrder(db: Db, channelId: string, items: Iterable<unknown>, startedAt: string, linkKeys: string[], insert: (placed: Placed) => void, check: (item: ImportItem) => void): number {
	const firstSeq = (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'items'").get() as {seq: number} | undefined)?.seq ?? 0;
	const order = new CreationOrder(startedAt, linkKeys, check);
	let staging: Staging | undefined;
	try {
		for (const raw of items) {
			const {item, at, key, step} = order.place(raw);
			if (step === 'startStaging') {
				staging = new Staging(db);
				staging.takeBack(channelId, firstSeq);
			}

			if (staging) staging.add(at, key, item);
			else insert({item, at});
		}

		if (staging) {
			for (const placed of staging.read(order.linked)) insert(placed);
		}

		return order.count;
	} finally {
		staging?.drop();
	}
}

/** The temporary table an import orders its items in. */
class Staging {
	private readonly stage;

	constructor(private readonly db: Db) {
		db.exec('DROP TABLE IF EXISTS temp.import_order; CREATE TEMP TABLE import_order (at INTEGER PRIMARY KEY, created_at TEXT NOT NULL, item TEXT NOT NULL)');
		this.stage = db.prepare('INSERT INTO temp.import_order (at, created_at, item) VALUES (?, ?, ?)');
	}

	add(at: number, createdAt: string, item: ImportItem): void {
		this.stage.run(at, createdAt, JSON.stringify(item));
	}

	/**
	 * The items inserted so far (in file order, ids from firstSeq + 1 on) back into the table, and
	 * out of the channel: rows, events and the id counter as before the import.
	 */
	takeBack(channelId: string, firstSeq: number): void {
		const rows = this.db.prepare('SELECT seq, version, created_at, updated_at, data FROM items WHERE channel_id = ? ORDER BY seq').all(channelId) as Array<{seq: number; version: number; created_at: string; updated_at: string; data: string}>;
		for (const row of rows) {
			this.add(row.seq - firstSeq - 1, row.created_at, {values: JSON.parse(row.data) as Record<string, unknown>, created_at: row.created_at, updated_at: row.updated_at, version: row.version});
		}

		this.db.prepare('DELETE FROM events WHERE channel_id = ?').run(channelId);
		this.db.prepare('DELETE FROM items WHERE channel_id = ?').run(channelId);
		this.db.prepare("UPDATE sqlite_sequence SET seq = ? WHERE name = 'items'").run(firstSeq);
	}

	/** Every kept item, page by page: by (created_at, index), or by index alone when `fileOrder`. */
	* read(fileOrder: boolean): Generator<Placed> {
		// In file order, every row's created_at reads as '' so (created_at, at) is the index alone.
		const key = fileOrder ? "''" : 'created_at';
		if (!fileOrder) this.db.exec('CREATE INDEX temp.import_order_by_creation ON import_order (created_at, at)');
		const first = this.db.prepare(`SELECT at, ${key} AS created_at, item FROM temp.import_order ORDER BY ${key}, at LIMIT ?`);
		const next = this.db.prepare(`SELECT at, ${key} AS created_at, item FROM temp.import_order WHERE (${key}, at) > (?, ?) ORDER BY ${key}, at LIMIT ?`);
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
	}

	drop(): void {
		this.db.exec('DROP TABLE IF EXISTS temp.import_order');
	}
}
