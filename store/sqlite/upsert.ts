// Append and update on SQLite (`sift import --into CHANNEL --key FIELD`): every row in one
// BEGIN IMMEDIATE transaction, rolled back whole on any refusal or a dry run. The rules are
// store/upsert-rules.ts; creates and edits are the ones every other write makes (ItemWriter).

import {loadChannel, type LoadedChannel} from '../channels.js';
import type {ChannelCatalog} from './channels.js';
import {immediate} from './write-lock.js';
import type {Db} from './db.js';
import type {Actor} from '../types.js';
import {changedOnly, checkedRow, grownChannel, keyField, RollBack, rowKey, UpsertTally, type UpsertRequest, type UpsertResult, type UpsertRow} from '../upsert-rules.js';
import type {ItemWriter} from './writes.js';

const IMPORT: Actor = {kind: 'import'};

export function upsertItems(db: Db, channels: ChannelCatalog, writer: ItemWriter, request: UpsertRequest & {rows: Iterable<UpsertRow>}): UpsertResult {
	const tally = new UpsertTally();
	try {
		immediate(db, () => {
			let channel: LoadedChannel = channels.get(request.channelId);
			const grown = grownChannel(channel, request.addOptions);
			if (Object.keys(grown.added).length > 0) {
				db.prepare('UPDATE channels SET fields = ? WHERE id = ?').run(JSON.stringify(grown.channel.fields), channel.id);
				// Not cached: the catalog reads the stored channel again once this commits.
				channel = loadChannel(grown.channel);
				tally.result.options_added = grown.added;
			}

			const field = keyField(channel, request.key);
			const seen = new Map<string, string>();
			for (const row of request.rows) {
				let keyValue: unknown;
				try {
					const checked = checkedRow(row, request.key, seen);
					keyValue = checked.keyValue;
					const item = writer.itemWithUnique(channel, field, keyValue);
					if (item === undefined) {
						writer.insert(channel, checked.values, IMPORT, checked.createdAt);
						tally.result.created++;
						continue;
					}

					const changes = changedOnly(item.values, checked.values);
					if (Object.keys(changes).length === 0) {
						tally.result.unchanged++;
						continue;
					}

					const outcome = writer.editWithin(channel, {channelId: channel.id, itemId: item.id, values: changes, actor: IMPORT, expectedVersion: item.version});
					if ('refused' in outcome) throw outcome.refused;
					tally.result.updated++;
				} catch (error) {
					tally.refuse(row, keyValue ?? rowKey(row, request.key), error);
				}
			}

			if (!tally.keeps || request.dryRun) throw new RollBack();
			tally.result.written = true;
		});
	} catch (error) {
		if (!(error instanceof RollBack)) throw error;
	} finally {
		channels.forget(request.channelId);
	}

	return tally.result;
}
