// Streaming import on PostgreSQL: the channel and all its items in one transaction, sent in batches
// (items and their created events in one statement per batch) while the next batch is validated.
// Any bad item rolls back everything.

import type pg from 'pg';
import {loadChannel, type LoadedChannel} from '../channels.js';
import {itemIdOf} from '../items.js';
import {checkChannel} from '../schema.js';
import type {Channel, Field, Values} from '../types.js';
import type {WriteContext} from '../validate.js';
import type {Validator} from '../writes.js';
import type {AsyncImportSource, ImportResult} from '../contract.js';
import {checkStagedValues, createdValues} from '../edit-plan.js';
import {orderedValue, unwrapValues} from './ordered-json.js';
import {atImportItem, channelExists, CreationOrder, creationOrderKey, missingRelationTarget, selfRelationKeys, type ImportItem} from '../write-rules.js';
import {channelIndexSql} from './channels.js';
import {inTransaction} from './connect.js';
import {existingItems} from './writes.js';
import {EVENTS_CHANNEL} from './events.js';
import {SpillMap} from '../spill-map.js';

const BATCH_SIZE = 5000;
/** Batches sent and not yet done: enough to keep the server busy, few enough to bound memory (~11 MB each). */
const PIPELINE_DEPTH = 2;

type Prepared = {seq: number; id: string; version: number; created_at: string; updated_at: string; data: string; changes: string; sequence: number};

/** A checked item and its index in the file, for refusals. */
type Placed = {item: ImportItem; at: number};

/**
 * The stored values and their created event's changes as JSON, each value serialized once: the
 * same text JSON.stringify gives for the values and for {key: {from: null, to: value}}. Parts are
 * joined, not appended: appending builds rope strings that cost more to flatten when sent.
 */
function jsonTexts(stored: Values): {data: string; changes: string} {
	const data: string[] = [];
	const changes: string[] = [];
	for (const key of Object.keys(stored)) {
		const name = JSON.stringify(key);
		const value = JSON.stringify(stored[key]);
		// In items.data, a value holding an object is kept in order (store/postgres/ordered-json.ts).
		data.push(`${name}:${value.includes('{') ? JSON.stringify(orderedValue(stored[key])) : value}`);
		changes.push(`${name}:{"from":null,"to":${value}}`);
	}

	return {data: `{${data.join(',')}}`, changes: `{${changes.join(',')}}`};
}

/** Values already taken in one unique field: strings by themselves (no JSON text per item), anything else by its JSON. */
class Holders {
	// SpillMaps: a million-item import keeps its unique values on disk, not in the heap (store/spill-map.ts).
	private readonly text = new SpillMap();
	private readonly other = new SpillMap();

	get(value: unknown): string | undefined {
		return typeof value === 'string' ? this.text.get(value) : this.other.get(JSON.stringify(value));
	}

	set(value: unknown, id: string): void {
		if (typeof value === 'string') {
			this.text.set(value, id);
		} else {
			this.other.set(JSON.stringify(value), id);
		}
	}

	clear(): void {
		this.text.clear();
		this.other.clear();
	}
}

/**
 * What validation asks while importing: the new channel's items are all in this import, so it
 * answers from memory. It keeps only what can be asked: the ids when a field relates the channel
 * to itself, and the values of unique fields (a million-item import holds nothing else).
 */
class ImportLookups {
	private readonly channelId: string;
	private readonly ids: Set<string> | undefined;
	private readonly holders = new Map<string, Holders>();
	private readonly externalRelations: Field[];
	private external = new Set<string>();

	constructor(channel: LoadedChannel) {
		this.channelId = channel.id;
		const relations = channel.fields.filter(field => field.type === 'relation');
		this.externalRelations = relations.filter(field => field.config.channel_id !== channel.id);
		this.ids = relations.length > this.externalRelations.length ? new Set() : undefined;
		for (const field of channel.fields) {
			if (field.is_unique) this.holders.set(field.key, new Holders());
		}
	}

	/** Relations to other channels, looked up once per batch. */
	async prefetch(pool: pg.Pool, batch: Array<{values: Values}>): Promise<void> {
		if (this.externalRelations.length === 0) return;
		const wanted: Array<{channelId: string; id: unknown}> = [];
		for (const {values} of batch) {
			for (const field of this.externalRelations) {
				const value = values[field.key];
				if (typeof value === 'string') {
					wanted.push({channelId: field.config.channel_id!, id: value});
				}
			}
		}

		this.external = await existingItems(pool, wanted);
	}

	context(): WriteContext {
		return {
			relationExists: (channelId, id) => (channelId === this.channelId ? this.ids?.has(id) ?? false : this.external.has(`${channelId}\u0000${id}`)),
			holderOf: (field, value) => this.holders.get(field.key)?.get(value),
		};
	}

	/** Lets go of the unique values held (their temporary databases). */
	release(): void {
		for (const holders of this.holders.values()) holders.clear();
	}

	remember(id: string, stored: Values): void {
		this.ids?.add(id);
		for (const [key, holders] of this.holders) {
			if (Object.hasOwn(stored, key)) {
				holders.set(stored[key], id);
			}
		}
	}
}

/**
 * Item ids for a batch, ascending. nextval is not transactional: ids of a rolled-back import, and
 * the ones reserved for a batch that never came, are simply never used.
 */
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
		SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], string_to_array($4, E'\\x1e'), string_to_array($5, E'\\x1e'), $9::int[], $10::text[]) WITH ORDINALITY
			AS b(seq, id, created_at, data, changes, version, updated_at, n)
	), added AS (
		INSERT INTO items (channel_id, seq, id, version, created_at, updated_at, data)
		SELECT $6, seq, id, version, created_at, updated_at, data::jsonb FROM batch
	)
	INSERT INTO events (channel_id, sequence, type, item_id, version, actor_kind, run_id, changes, at)
	SELECT $6, $8::bigint + n - 1, 'item.created', id, version, 'import', NULL, changes::json, $7 FROM batch`;

const SEPARATOR = '\u001e';

/**
 * Reading and validating a batch is synchronous work (a generator's items arrive as microtasks),
 * and the next queued insert is sent only when this process handles the server's answer to the
 * previous one: a turn of the event loop every so many items lets it go out at once.
 */
const YIELD_EVERY = 500;
const yieldToIo = () => new Promise<void>(resolve => {
	setImmediate(resolve);
});

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
		rows.map(row => row.version),
		rows.map(row => row.updated_at),
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

		let lookups = new ImportLookups(loaded);
		let index = 0;
		// Inserts queue on the connection while the next batch is validated: the server never waits
		// for this process between batches. A failure is kept (not unhandled) and ends the import.
		const inFlight: Array<Promise<void>> = [];
		let failure: unknown;
		const settle = async (count: number) => {
			while (inFlight.length > count) {
				await inFlight.shift();
			}

			if (failure !== undefined) {
				throw failure;
			}
		};

		// After a full batch, the next one's ids are reserved while it is read and validated (one after
		// the other, so ids follow the import). A shorter last batch leaves the rest of them unused.
		let reserved: Promise<number[]> | undefined;
		const send = async (batch: Placed[]) => {
			await lookups.prefetch(pool, batch.map(placed => placed.item));
			const seqs = await (reserved ?? reserveSeqs(pool, batch.length));
			reserved = batch.length === BATCH_SIZE ? reserveSeqs(pool, BATCH_SIZE) : undefined;
			// Handled here too: a failure surfaces when the next batch awaits it, never as an unhandled rejection.
			reserved?.catch(() => {});
			const at = new Date().toISOString();
			const context = lookups.context();
			const first = index - batch.length;
			const rows: Prepared[] = [];
			for (const [offset, {item, at: place}] of batch.entries()) {
				if (offset % YIELD_EVERY === YIELD_EVERY - 1) await yieldToIo();
				let stored: Values;
				try {
					stored = createdValues(loaded, item.values, context, validate);
				} catch (error) {
					throw atImportItem(error, place);
				}

				const seq = seqs[offset]!;
				const id = itemIdOf(seq);
				lookups.remember(id, stored);
				rows.push({seq, id, version: item.version ?? 1, created_at: item.created_at ?? at, updated_at: item.updated_at ?? at, ...jsonTexts(stored), sequence: first + offset + 1});
			}

			await settle(PIPELINE_DEPTH - 1);
			inFlight.push(client.query(INSERT_BATCH, batchParameters(rows, channel.id, at)).then(() => {}, (error: unknown) => {
				failure ??= error;
			}));
		};

		let batch: Placed[] = [];
		// The first item out of created_at order: what was sent goes back into the staging table
		// (copied there by the server), with the batch not sent yet, and out of the channel.
		const takeBack = async (stage: (placed: Placed[]) => Promise<void>) => {
			await settle(0);
			await reserved?.catch(() => {});
			reserved = undefined;
			await client.query(`INSERT INTO import_order (at, created_at, item)
				SELECT row_number() OVER (ORDER BY seq) - 1, created_at, json_build_object('values', data, 'created_at', created_at, 'updated_at', updated_at, 'version', version)::text
				FROM items WHERE channel_id = $1`, [channel.id]);
			await stage(batch);
			await client.query('DELETE FROM events WHERE channel_id = $1', [channel.id]);
			await client.query('DELETE FROM items WHERE channel_id = $1', [channel.id]);
			batch = [];
			index = 0;
			lookups.release();
			lookups = new ImportLookups(loaded);
		};

		try {
			const ordered = inCreationOrder(client, source.items, startedAt, selfRelationKeys(channel), item => checkStagedValues(loaded, item.values, validate), takeBack);
			for await (const placed of ordered) {
				batch.push(placed);
				index++;
				if (index % YIELD_EVERY === 0) await yieldToIo();
				if (batch.length === BATCH_SIZE) {
					await send(batch);
					batch = [];
				}
			}

			if (batch.length > 0) {
				await send(batch);
			}

			await settle(0);
		} finally {
			// Nothing is left running against the connection when the transaction rolls back.
			await Promise.allSettled([...inFlight, reserved]);
			lookups.release();
		}

		await client.query('UPDATE channels SET last_sequence = $2 WHERE id = $1', [channel.id, index]);
		await client.query("SET LOCAL maintenance_work_mem = '256MB'");
		// Building a big channel's indexes is one long statement each: not a query to time out.
		await client.query('SET LOCAL statement_timeout = 0');
		const indexesMissing = await createIndexes(client, channelIndexSql(channel));

		if (index > 0) {
			await client.query(`SELECT pg_notify('${EVENTS_CHANNEL}', $1)`, [`${channel.id}:${index}`]);
		}

		return {channel, items_created: index, ...(indexesMissing > 0 ? {indexes_missing: indexesMissing} : {})};
	});
}

/**
 * Creates a channel's indexes inside the import's transaction. Only the owner of sift's tables may
 * create indexes on them: a role with row rights alone imports the channel without them (pages
 * stay right, big sorted pages get slower) and `sift migrate`, run by the owner, builds them later.
 * Returns how many could not be made.
 */
export async function createIndexes(client: pg.ClientBase, statements: string[]): Promise<number> {
	let missing = 0;
	for (const sql of statements) {
		await client.query('SAVEPOINT sift_index');
		try {
			await client.query(sql);
			await client.query('RELEASE SAVEPOINT sift_index');
		} catch (error) {
			if ((error as {code?: string}).code !== '42501') throw error;
			await client.query('ROLLBACK TO SAVEPOINT sift_index');
			missing++;
		}
	}

	return missing;
}

/**
 * The items so that ids follow created_at (oldest first, ties in file order). Items that come in
 * that order already are passed on as they come. At the first one out of order, `takeBack` moves
 * what was imported so far into a temporary table of the transaction (dropped at its end); every
 * further item is checked and sent there too, in batches, and all are then read back a batch at a
 * time by (created_at, index): memory stays flat at any size. In file order when an item names
 * another by a self-relation (selfRelationKeys).
 */
async function * inCreationOrder(client: pg.ClientBase, items: AsyncImportSource['items'], startedAt: string, linkKeys: string[], check: (item: ImportItem) => void, takeBack: (stage: (placed: Placed[]) => Promise<void>) => Promise<void>): AsyncGenerator<Placed> {
	const stage = async (placed: Placed[]) => {
		if (placed.length === 0) return;
		await client.query(
			`INSERT INTO import_order (at, created_at, item) SELECT * FROM unnest($1::int[], $2::text[], string_to_array($3, E'\\x1e'))`,
			[placed.map(row => row.at), placed.map(row => creationOrderKey(row.item, startedAt)), placed.map(row => JSON.stringify(row.item)).join(SEPARATOR)],
		);
	};

	const order = new CreationOrder(startedAt, linkKeys, check);
	let staging = false;
	let rows: Placed[] = [];
	for await (const raw of items) {
		const {item, at, step} = order.place(raw);
		if (step === 'startStaging') {
			await client.query('CREATE TEMP TABLE import_order (at integer PRIMARY KEY, created_at text COLLATE "C" NOT NULL, item text NOT NULL) ON COMMIT DROP');
			await takeBack(stage);
			staging = true;
		}

		if (staging) {
			rows.push({item, at});
			if (rows.length === BATCH_SIZE) {
				await stage(rows);
				rows = [];
			}
		} else {
			yield {item, at};
		}
	}

	if (!staging) return;
	await stage(rows);
	// In file order, every row's created_at reads as '' so (created_at, at) is the primary key alone.
	const key = order.linked ? "''::text" : 'created_at';
	if (!order.linked) await client.query('CREATE INDEX ON import_order (created_at, at)');
	let after: {at: number; created_at: string} | undefined;
	for (;;) {
		const {rows: page} = await client.query<{at: number; created_at: string; item: string}>(after
			? `SELECT at, ${key} AS created_at, item FROM import_order WHERE (${key}, at) > ($1, $2) ORDER BY ${key}, at LIMIT $3`
			: `SELECT at, ${key} AS created_at, item FROM import_order ORDER BY ${key}, at LIMIT $1`, after ? [after.created_at, after.at, BATCH_SIZE] : [BATCH_SIZE]);
		for (const row of page) {
			// The values were read back from items.data (takeBack): unwrapped as any read of it.
			const item = JSON.parse(row.item) as ImportItem;
			yield {item: {...item, values: unwrapValues(item.values)}, at: row.at};
		}

		if (page.length < BATCH_SIZE) return;
		after = page.at(-1)!;
	}
}
