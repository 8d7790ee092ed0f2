// Importing a channel and its items into SQLite in one transaction.

import type {ChannelCatalog} from './channels.js';
import {immediate, type Db} from './database.js';
import {checkChannel} from '../schema.js';
import type {Channel} from '../types.js';
import {atImportItem, channelExists, checkImportItem, missingRelationTarget} from '../write-rules.js';
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

		channels.insert(channel, new Date().toISOString());
		const loaded = channels.get(channel.id);
		let index = 0;
		for (const raw of items) {
			const item = checkImportItem(raw, index);
			try {
				writer.insert(loaded, item.values, {kind: 'import'}, item.created_at);
			} catch (error) {
				throw atImportItem(error, index);
			}

			index++;
		}

		return {channel, items_created: index};
	});
}
