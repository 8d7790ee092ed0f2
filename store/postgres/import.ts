// Streaming import on PostgreSQL: the channel and all its items in one transaction, sent in batches
// (items and their created events in one statement per batch) while the next batch is validated.
// Any bad item rolls back everything.

import type pg from 'pg';
import {loadChannel, type LoadedChannel} from '../channels.js';
import {StoreError} from '../errors.js';
import {itemIdOf} from '../items.js';
import {checkChannel} from '../schema.js';
import type {Channel, Values} from '../types.js';
import type {WriteContext} from '../validate.js';
import type {Validator} from '../writes.js';
import type {AsyncImportSource, ImportResult} from '../api.js';
import {atImportItem, channelExists, checkImportItem, missingRelationTarget, storedValues} from '../write-rules.js';
import {channelIndexSql} from './channels.js';
import {inTransaction} from './connect.js';
import {existingItems} from './writes.js';
import {EVENTS_CHANNEL} from './events.js';

const BATCH_SIZE = 5000;

type Prepared = {seq: number; id: string; created_at: string; data: string; changes: string; sequence: number};

/**
 * The stored values and their created event's changes as JSON, each value serialized once: the
 * same text JSON.stringify gives for the values and for {key: {from: null, to: value}}.
 */
function jsonTexts(stored: Values): {data: string; changes: string} {
	const data: string[] = [];
	const changes: string[] = [];
	for (const key of Object.keys(stored)) {
		const name = JSON.stringify(key);
		const value = JSON.stringify(stored[key]);
		data.push(`${name}:${value}`);
		changes.push(`${name}:{"from":null,"to":${value}}`);
	}

	return {data: `{${data.join(',')}}`, changes: `{${changes.join(',')}}`};
}

/** What validation asks while importing: the new channel's items are all in this import, so it answers from memory. */
class ImportLookups {
	private readonly ids = new Set<string>();
	private readonly holders = new Map<string, Map<string, string>>();
	private external = new Set<string>();

	constructor(private readonly channel: LoadedChannel) {}

	/** Relations to other channels, looked up once per batch. */
	async prefetch(pool: pg.Pool, batch: Array<{values: Values}>): Promise<void> {
		const wanted: Array<{channelId: string; id: unknown}> = [];
		for (const {values} of batch) {
			for (const [key, value] of Object.entries(values)) {
				const field = this.channel.fieldsByKey.get(key);
				if (field?.type === 'relation' && field.config.channel_id !== this.channel.id && typeof value === 'string') {
					wanted.push({channelId: field.config.channel_id!, id: value});
				}
			}
		}

		this.external = await existingItems(pool, wanted);
	}

	context(): WriteContext {
		return {
			relationExists: (channelId, id) => (channelId === this.channel.id ? this.ids.has(id) : this.external.has(`${channelId}\u0000${id}`)),
			holderOf: (field, value) => this.holders.get(field.key)?.get(JSON.stringify(value)),
		};
	}

	remember(id: string, stored: Values): void {
		this.ids.add(id);
		for (const field of this.channel.fields) {
			if (field.is_unique && Object.hasOwn(stored, field.key)) {
				let holders = this.holders.get(field.key);
				if (!holders) {
					holders = new Map();
					this.holders.set(field.key, holders);
				}

				holders.set(JSON.stringify(stored[field.key]), id);
			}
		}
	}
}

/** Item ids for a batch. nextval is not transactional: ids of a rolled-back import are simply never used. */
async function reserveSeqs(pool: pg.Pool, count: number): Promise<number[]> {
	const {rows} = await pool.query<{seq: number}>("SELECT nextval('item_seq') AS seq FROM generate_series(1, $1)", [count]);
	return rows.map(row => row.seq).sort((a, b) => a - b);
}

/**
 * One statement per batch inserts the items and their created events. The JSON texts travel as one
 * string each, split on U+001E: JSON.stringify escapes every control character, so the separator
 * never occurs inside a value, and the server splits a string far faster than it parses a JSON envelope.
 */
const INSERT_BATCH = `WITH batch AS (
		SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], string_to_array($4, E'\\x1e'), string_to_array($5, E'\\x1e')) WITH ORDINALITY
			AS b(seq, id, created_at, data, changes, n)
	), added AS (
		INSERT INTO items (channel_id, seq, id, version, created_at, updated_at, data)
		SELECT $6, seq, id, 1, created_at, $7, data::jsonb FROM batch
	)
	INSERT INTO events (channel_id, sequence, type, item_id, version, actor_kind, run_id, changes, at)
	SELECT $6, $8::bigint + n - 1, 'item.created', id, 1, 'import', NULL, changes::json, $7 FROM batch`;

const SEPARATOR = '\u001e';

function batchParameters(rows: Prepared[], channelId: string, at: string): unknown[] {
	return [
		rows.map(row => row.seq),
		rows.map(row => row.id),
		rows.map(row => row.created_at),
		rows.map(row => row.data).join(SEPARATOR),
		rows.map(row => row.changes).join(SEPARATOR),
		channelId,
		at,
		rows[0]!.sequence,
	];
}

async function checkTargets(client: pg.ClientBase, channel: Channel): Promise<void> {
	if ((await client.query('SELECT 1 FROM channels WHERE id = $1', [channel.id])).rowCount) {
		throw channelExists(channel.id);
	}

	for (const field of channel.fields) {
		const target = field.config.channel_id;
		if (field.type === 'relation' && target !== channel.id && !(await client.query('SELECT 1 FROM channels WHERE id = $1', [target])).rowCount) {
			throw missingRelationTarget(field.key, target);
		}
	}
}

export async function importChannel(pool: pg.Pool, validate: Validator, source: AsyncImportSource): Promise<ImportResult> {
	const channel = checkChannel(source.channel);
	const loaded = loadChannel(channel);
	return inTransaction(pool, async client => {
		await checkTargets(client, channel);
		const startedAt = new Date().toISOString();
		try {
			await client.query('INSERT INTO channels (id, name, fields, last_sequence, created_at) VALUES ($1, $2, $3, 0, $4)', [channel.id, channel.name, JSON.stringify(channel.fields), startedAt]);
		} catch (error) {
			// Another import of the same channel committed first.
			throw (error as {code?: string}).code === '23505' ? channelExists(channel.id) : error;
		}

		const lookups = new ImportLookups(loaded);
		let index = 0;
		// The previous batch's insert runs while the next one is validated; its failure is kept, not unhandled.
		let inFlight: Promise<unknown> = Promise.resolve();
		let failure: unknown;
		const send = async (batch: Array<{values: Values; created_at?: string}>) => {
			await lookups.prefetch(pool, batch);
			const seqs = await reserveSeqs(pool, batch.length);
			const at = new Date().toISOString();
			const context = lookups.context();
			const rows: Prepared[] = batch.map((item, offset) => {
				const problems = validate(loaded, item.values, context, true);
				if (problems.length > 0) {
					throw atImportItem(new StoreError({error: 'validation_failed', fields: problems}), index - batch.length + offset);
				}

				const seq = seqs[offset]!;
				const id = itemIdOf(seq);
				const stored = storedValues({}, item.values);
				lookups.remember(id, stored);
				return {seq, id, created_at: item.created_at ?? at, ...jsonTexts(stored), sequence: index - batch.length + offset + 1};
			});
			await inFlight;
			if (failure !== undefined) {
				throw failure;
			}

			inFlight = client.query(INSERT_BATCH, batchParameters(rows, channel.id, at)).catch((error: unknown) => {
				failure = error;
			});
		};

		let batch: Array<{values: Values; created_at?: string}> = [];
		for await (const raw of source.items) {
			batch.push(checkImportItem(raw, index));
			index++;
			if (batch.length === BATCH_SIZE) {
				await send(batch);
				batch = [];
			}
		}

		if (batch.length > 0) {
			await send(batch);
		}

		await inFlight;
		if (failure !== undefined) {
			throw failure;
		}

		await client.query('UPDATE channels SET last_sequence = $2 WHERE id = $1', [channel.id, index]);
		await client.query("SET LOCAL maintenance_work_mem = '256MB'");
		for (const sql of channelIndexSql(channel)) {
			await client.query(sql);
		}

		if (index > 0) {
			await client.query(`SELECT pg_notify('${EVENTS_CHANNEL}', $1)`, [`${channel.id}:${index}`]);
		}

		return {channel, items_created: index};
	});
}
