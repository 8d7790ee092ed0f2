// Item writes on PostgreSQL. Each is one READ COMMITTED transaction that orders its locks the same
// way (idempotency key → item row → channel row), so concurrent writers queue instead of failing:
// no serialization error, no deadlock, no lost update.

import type pg from 'pg';
import type {LoadedChannel} from '../sqlite/channels.js';
import {StoreError} from '../errors.js';
import {itemFromRow, itemIdOf, seqOfItemId} from '../items.js';
import type {Actor, EditResult, FieldProblem, Item, Values} from '../types.js';
import {validateValues, type WriteContext} from '../validate.js';
import type {EditRequest, Validator} from '../sqlite/writes.js';
import {actorScope, changesOf, checkExpectedVersion, checkPayload, creationChanges, deletionChanges, fingerprintOf, itemNotFound, keyReused, storedValues, versionConflict} from '../write-rules.js';
import {channelLiteral, valueSql} from './channels.js';
import {inTransaction} from './connect.js';
import {appendEvent, changedSince, latestSequence} from './events.js';
import {closeForDeletedItem, recordRefusals, resolveSetKeys, resolveSetKeysSql} from './followups.js';

export type PgItemRow = {seq: number; id: string; channel_id: string; version: number; created_at: string; updated_at: string; data: Values};

export const ITEM_COLUMNS = 'seq, id, channel_id, version, created_at, updated_at, data';

export const pgItem = (channel: LoadedChannel, row: PgItemRow): Item => itemFromRow(channel, {...row, data: ''}, row.data);

/** The creation counter behind an id, or undefined for anything that is not an id (which then exists nowhere). */
export function seqOf(id: unknown): number | undefined {
	try {
		return seqOfItemId(id, 'id');
	} catch {
		return undefined;
	}
}

/** One item by channel and id, optionally locked until the transaction ends. */
export async function findItem(client: pg.ClientBase | pg.Pool, channelId: string, itemId: unknown, lock = false): Promise<PgItemRow | undefined> {
	const seq = seqOf(itemId);
	if (seq === undefined) {
		return undefined;
	}

	const {rows} = await client.query<PgItemRow>(`SELECT ${ITEM_COLUMNS} FROM items WHERE channel_id = $1 AND seq = $2${lock ? ' FOR UPDATE' : ''}`, [channelId, seq]);
	return rows[0];
}

/** Which of (channel, id) pairs exist, as "channel\0id" keys. */
export async function existingItems(client: pg.ClientBase | pg.Pool, wanted: Array<{channelId: string; id: unknown}>): Promise<Set<string>> {
	const pairs = wanted.flatMap(({channelId, id}) => {
		const seq = seqOf(id);
		return seq === undefined ? [] : [{channelId, seq}];
	});
	const existing = new Set<string>();
	if (pairs.length > 0) {
		const {rows} = await client.query<{channel_id: string; id: string}>(`SELECT i.channel_id, i.id FROM unnest($1::text[], $2::bigint[]) AS t(channel_id, seq)
			JOIN items i ON i.channel_id = t.channel_id AND i.seq = t.seq`, [pairs.map(pair => pair.channelId), pairs.map(pair => pair.seq)]);
		for (const row of rows) {
			existing.add(`${row.channel_id}\u0000${row.id}`);
		}
	}

	return existing;
}

/**
 * The answers validation needs from the database, fetched before it runs (validation itself is
 * synchronous): which related items exist, and which other item holds a unique value.
 */
export async function writeContext(client: pg.ClientBase, channel: LoadedChannel, values: Values, exceptId = ''): Promise<WriteContext> {
	const related: Array<{channelId: string; id: unknown}> = [];
	const unique: Array<{key: string; value: unknown}> = [];
	for (const [key, value] of Object.entries(values)) {
		const field = channel.fieldsByKey.get(key);
		if (!field || value === null || value === undefined) {
			continue;
		}

		if (field.type === 'relation' && typeof value === 'string') {
			related.push({channelId: field.config.channel_id!, id: value});
		}

		if (field.is_unique) {
			unique.push({key, value});
		}
	}

	const existing = await existingItems(client, related);

	const holders = new Map<string, string>();
	for (const {key, value} of unique) {
		const {rows} = await client.query<{id: string}>(`SELECT id FROM items WHERE channel_id = ${channelLiteral(channel.id)} AND ${valueSql(key)} = $1::jsonb AND id <> $2 LIMIT 1`, [JSON.stringify(value), exceptId]);
		if (rows[0]) {
			holders.set(key, rows[0].id);
		}
	}

	return {
		relationExists: (channelId, id) => existing.has(`${channelId}\u0000${id}`),
		holderOf: field => holders.get(field.key),
	};
}

/** Unique checks read other items: writing a unique field takes the channel lock first, so two writers cannot both pass. */
const writesUniqueField = (channel: LoadedChannel, values: Values) => Object.keys(values).some(key => channel.fieldsByKey.get(key)?.is_unique === true);

async function lockChannel(client: pg.ClientBase, channelId: string): Promise<void> {
	await client.query('SELECT 1 FROM channels WHERE id = $1 FOR UPDATE', [channelId]);
}

async function lockItem(client: pg.ClientBase, channelId: string, itemId: string): Promise<PgItemRow> {
	const row = await findItem(client, channelId, itemId, true);
	if (!row) {
		throw itemNotFound(channelId, itemId);
	}

	return row;
}

async function checkVersion(client: pg.ClientBase, row: PgItemRow, expected: number | undefined): Promise<void> {
	if (expected !== undefined && expected !== row.version) {
		throw versionConflict(row.id, row.version, expected, await changedSince(client, row.id, expected));
	}
}

export class PgItemWriter {
	constructor(private readonly pool: pg.Pool, private readonly validate: Validator = validateValues) {}

	async create(channel: LoadedChannel, values: unknown, actor: Actor): Promise<EditResult> {
		checkPayload(values);
		return inTransaction(this.pool, async client => {
			await lockChannel(client, channel.id);
			return this.insert(client, channel, values as Values, actor);
		});
	}

	private async insert(client: pg.ClientBase, channel: LoadedChannel, values: Values, actor: Actor): Promise<EditResult> {
		const problems = this.validate(channel, values, await writeContext(client, channel, values), true);
		if (problems.length > 0) {
			throw new StoreError({error: 'validation_failed', fields: problems});
		}

		const at = new Date().toISOString();
		const stored = storedValues({}, values);
		const {rows} = await client.query<{seq: number}>("SELECT nextval('item_seq') AS seq");
		const seq = rows[0]!.seq;
		const row: PgItemRow = {seq, id: itemIdOf(seq), channel_id: channel.id, version: 1, created_at: at, updated_at: at, data: stored};
		await client.query('INSERT INTO items (channel_id, seq, id, version, created_at, updated_at, data) VALUES ($3, $1, $2, 1, $4, $4, $5)', [seq, row.id, channel.id, at, JSON.stringify(stored)]);
		const sequence = await appendEvent(client, channel.id, {type: 'item.created', item_id: row.id, version: 1, actor, changes: creationChanges(stored), at});
		return {ok: true, item: pgItem(channel, row), sequence};
	}

	/** idempotency → version → validation → merge → bump → event → follow-ups, all or nothing. */
	async edit(channel: LoadedChannel, request: EditRequest): Promise<EditResult> {
		checkPayload(request.values);
		checkExpectedVersion(request.expectedVersion);
		const outcome = await inTransaction(this.pool, async client => this.editInTransaction(client, channel, request));
		if ('refused' in outcome) {
			throw outcome.refused;
		}

		return outcome;
	}

	private async editInTransaction(client: pg.ClientBase, channel: LoadedChannel, request: EditRequest): Promise<EditResult | {refused: StoreError}> {
		const idempotency = request.idempotencyKey === undefined ? undefined : {key: request.idempotencyKey, actor: actorScope(request.actor), fingerprint: fingerprintOf(request)};
		if (idempotency) {
			// Two requests with one key queue here, so the second sees the first's stored result.
			await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${channel.id}\u001f${idempotency.actor}\u001f${idempotency.key}`]);
			const {rows} = await client.query<{fingerprint: string; result: EditResult}>('SELECT fingerprint, result FROM idempotency WHERE channel_id = $1 AND actor = $2 AND key = $3', [channel.id, idempotency.actor, idempotency.key]);
			if (rows[0]) {
				if (rows[0].fingerprint !== idempotency.fingerprint) {
					throw keyReused(idempotency.key);
				}

				return rows[0].result;
			}
		}

		const row = await lockItem(client, channel.id, request.itemId);
		await checkVersion(client, row, request.expectedVersion);
		const values = request.values as Values;
		const at = new Date().toISOString();
		if (writesUniqueField(channel, values)) {
			await lockChannel(client, channel.id);
		}

		const problems = this.validate(channel, values, await writeContext(client, channel, values, row.id), false);
		if (problems.length > 0) {
			// The refusal is the answer, but an agent's refusals are kept as follow-ups: commit those alone.
			await this.openFollowUps(client, channel, request, problems, at);
			return {refused: new StoreError({error: 'validation_failed', fields: problems})};
		}

		const result = await this.apply(client, channel, row, values, request.actor, at);
		if (idempotency) {
			await client.query('INSERT INTO idempotency (channel_id, actor, key, fingerprint, result, at) VALUES ($1, $2, $3, $4, $5, $6)', [channel.id, idempotency.actor, idempotency.key, idempotency.fingerprint, JSON.stringify(result), at]);
		}

		return result;
	}

	/** Merges, bumps the version and appends the event; a write that changes nothing leaves both alone. */
	private async apply(client: pg.ClientBase, channel: LoadedChannel, row: PgItemRow, values: Values, actor: Actor, at: string): Promise<EditResult> {
		const after = storedValues(row.data, values);
		const changes = changesOf(row.data, after, Object.keys(values));
		const keys = Object.keys(values);
		if (Object.keys(changes).length === 0) {
			// Nothing to record, but setting a key still closes its open follow-up.
			await resolveSetKeys(client, row.id, keys, at);
			return {ok: true, item: pgItem(channel, row), sequence: await latestSequence(client, channel.id)};
		}

		const version = row.version + 1;
		// The item update, its event and closing the set keys' follow-ups travel as one statement.
		const sequence = await appendEvent(client, channel.id, {type: 'item.updated', item_id: row.id, version, actor, changes, at}, {
			ctes: `updated AS (
				UPDATE items SET version = $4, updated_at = $8, data = $9 WHERE channel_id = $1 AND seq = $10
			), resolved AS (${resolveSetKeysSql('$8', '$3', '$11')})`,
			params: [JSON.stringify(after), row.seq, keys],
		});
		return {ok: true, item: pgItem(channel, {...row, version, updated_at: at, data: after}), sequence};
	}

	private async openFollowUps(client: pg.ClientBase, channel: LoadedChannel, request: EditRequest, problems: FieldProblem[], at: string): Promise<void> {
		if (request.actor.kind !== 'agent') {
			return;
		}

		const settable = (key: string) => {
			const field = channel.fieldsByKey.get(key);
			return field !== undefined && field.type !== 'formula';
		};

		await recordRefusals(client, {channelId: channel.id, itemId: request.itemId, runId: request.actor.run_id}, problems, request.values as Values, settable, at);
	}

	async delete(channel: LoadedChannel, itemId: string, actor: Actor, expectedVersion?: number): Promise<{ok: true; item_id: string; sequence: number}> {
		checkExpectedVersion(expectedVersion);
		return inTransaction(this.pool, async client => {
			const row = await lockItem(client, channel.id, itemId);
			await checkVersion(client, row, expectedVersion);
			const at = new Date().toISOString();
			await client.query('DELETE FROM items WHERE channel_id = $1 AND seq = $2', [channel.id, row.seq]);
			await closeForDeletedItem(client, itemId, at);
			const sequence = await appendEvent(client, channel.id, {type: 'item.deleted', item_id: itemId, version: row.version + 1, actor, changes: deletionChanges(row.data), at});
			return {ok: true as const, item_id: itemId, sequence};
		});
	}
}
