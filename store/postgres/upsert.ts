// Append and update on PostgreSQL (`sift import --into CHANNEL --key FIELD`): every row in one
// transaction that holds the channel's row lock (so two upserts, or an upsert and a unique write,
// queue), rolled back whole on any refusal or a dry run. The rules are store/upsert-rules.ts;
// creates and edits are the ones every other write makes (PgItemWriter).

import type pg from 'pg';
import {loadChannel, type LoadedChannel} from '../channels.js';
import type {Actor, Field} from '../types.js';
import {changedOnly, checkedRow, grownChannel, keyField, RollBack, rowKey, UpsertTally, type UpsertRequest, type UpsertResult, type UpsertRow} from '../upsert-rules.js';
import {channelLiteral, valueSql, type PgChannelCatalog} from './channels.js';
import {inTransaction} from './connect.js';
import {ITEM_COLUMNS, type PgItemRow, type PgItemWriter} from './writes.js';

const IMPORT: Actor = {kind: 'import'};

/** Rows are matched a chunk at a time: one query finds the items of a thousand key values. */
const CHUNK = 1000;

/** The items holding any of `values` in the unique field, by the value's JSON text. */
async function itemsWithUnique(client: pg.ClientBase, channel: LoadedChannel, field: Field, values: unknown[]): Promise<Map<string, PgItemRow>> {
	const found = new Map<string, PgItemRow>();
	if (values.length === 0) return found;
	const {rows} = await client.query<PgItemRow>(`SELECT ${ITEM_COLUMNS} FROM items WHERE channel_id = ${channelLiteral(channel.id)} AND ${valueSql(field.key)} = ANY($1::jsonb[])`, [values.map(value => JSON.stringify(value))]);
	for (const row of rows) found.set(JSON.stringify(row.data[field.key]), row);
	return found;
}

async function* chunksOf<T>(rows: Iterable<T> | AsyncIterable<T>): AsyncGenerator<T[]> {
	let chunk: T[] = [];
	for await (const row of rows) {
		chunk.push(row);
		if (chunk.length >= CHUNK) {
			yield chunk;
			chunk = [];
		}
	}

	if (chunk.length > 0) yield chunk;
}

export async function upsertItems(pool: pg.Pool, channels: PgChannelCatalog, writer: PgItemWriter, request: UpsertRequest): Promise<UpsertResult> {
	const tally = new UpsertTally();
	try {
		await inTransaction(pool, async client => {
			await client.query('SELECT 1 FROM channels WHERE id = $1 FOR UPDATE', [request.channelId]);
			channels.forget(request.channelId);
			let channel = await channels.get(request.channelId, client);
			const grown = grownChannel(channel, request.addOptions);
			if (Object.keys(grown.added).length > 0) {
				await client.query('UPDATE channels SET fields = $2 WHERE id = $1', [channel.id, JSON.stringify(grown.channel.fields)]);
				channel = loadChannel(grown.channel);
				tally.result.options_added = grown.added;
			}

			const field = keyField(channel, request.key);
			const seen = new Map<string, string>();
			for await (const chunk of chunksOf(request.rows)) {
				// Checked first, so the chunk's lookup asks only for well-formed key values; refusals still come in file order.
				const checked = chunk.map(row => {
					try {
						return {row, checked: checkedRow(row, request.key, seen)};
					} catch (error) {
						return {row, error};
					}
				});
				const existing = await itemsWithUnique(client, channel, field, checked.flatMap(entry => (entry.checked ? [entry.checked.keyValue] : [])));
				for (const entry of checked) {
					if (!entry.checked) {
						tally.refuse(entry.row, rowKey(entry.row, request.key), entry.error);
						continue;
					}

					const {row, checked: {values, keyValue, createdAt}} = entry;
					try {
						const item = existing.get(JSON.stringify(keyValue));
						if (item === undefined) {
							await writer.insert(client, channel, values, IMPORT, createdAt);
							tally.result.created++;
							continue;
						}

						const changes = changedOnly(item.data, values);
						if (Object.keys(changes).length === 0) {
							tally.result.unchanged++;
							continue;
						}

						const outcome = await writer.editWithin(client, channel, {channelId: channel.id, itemId: item.id, values: changes, actor: IMPORT, expectedVersion: item.version});
						if ('refused' in outcome) throw outcome.refused;
						tally.result.updated++;
					} catch (error) {
						tally.refuse(row, keyValue, error);
					}
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
