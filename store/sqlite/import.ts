// Importing a channel and its items into SQLite in one transaction.

import type {ChannelCatalog} from './channels.js';
import {immediate, type Db} from './database.js';
import {quote, StoreError} from '../errors.js';
import {isPlainObject} from '../fields/spec.js';
import {checkChannel} from '../schema.js';
import {normalizeTimestamp} from '../timestamps.js';
import type {Channel} from '../types.js';
import type {ImportItem} from '../write-rules.js';
import type {ItemWriter} from './writes.js';

export type ImportSource = {channel: unknown; items: Iterable<unknown>};

const invalidImport = (message: string) => new StoreError({error: 'invalid_import', message});

function checkItem(raw: unknown, index: number): ImportItem {
	if (!isPlainObject(raw) || !isPlainObject(raw.values)) {
		throw invalidImport(`items[${index}] must be an object with a "values" object`);
	}

	const extra = Object.keys(raw).find(key => key !== 'values' && key !== 'created_at');
	if (extra !== undefined) {
		throw invalidImport(`items[${index}] has an unknown key ${quote(extra)}; items take "values" and "created_at"`);
	}

	if (raw.created_at === undefined) {
		return raw as ImportItem;
	}

	const createdAt = normalizeTimestamp(raw.created_at);
	if (createdAt === undefined) {
		throw invalidImport(`items[${index}].created_at must be an ISO 8601 date (YYYY-MM-DD) or date-time with Z or an offset (2026-01-31T09:30:00Z), got ${quote(raw.created_at)}`);
	}

	return {values: raw.values, created_at: createdAt};
}

/** Names the failing item in a refusal, so a bad row in a large file can be found. */
function atItem(error: unknown, index: number): unknown {
	if (error instanceof StoreError && error.body.error === 'validation_failed') {
		return invalidImport(`items[${index}]: ${error.message}`);
	}

	return error;
}

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
			throw invalidImport(`channel ${quote(channel.id)} already exists in this database`);
		}

		for (const field of channel.fields) {
			const target = field.config.channel_id;
			if (field.type === 'relation' && target !== channel.id && !db.prepare('SELECT 1 FROM channels WHERE id = ?').get(target)) {
				throw new StoreError({error: 'invalid_schema', message: `field ${field.key} relates to channel ${quote(target)}, which does not exist`});
			}
		}

		channels.insert(channel, new Date().toISOString());
		const loaded = channels.get(channel.id);
		let index = 0;
		for (const raw of items) {
			const item = checkItem(raw, index);
			try {
				writer.insert(loaded, item.values, {kind: 'import'}, item.created_at);
			} catch (error) {
				throw atItem(error, index);
			}

			index++;
		}

		return {channel, items_created: index};
	});
}
