// Item writes on PostgreSQL. Each is one READ COMMITTED transaction that orders its locks the same
// way (idempotency key → the item's open proposals, for a delete → item row → channel row), so
// concurrent writers queue instead of failing: no serialization error, no deadlock, no lost
// update. What an edit or delete does, and in what
// order, is the shared plan (store/edit-plan.ts); this file answers its steps with SQL. The review
// plans (accept, decline, revert) write set-based (batched-plan.ts); an accept locks its proposals,
// then all their items at once, oldest first, then the channel row.

import type pg from 'pg';
import type {DeleteResult} from '../contract.js';
import type {LoadedChannel} from '../channels.js';
import {checkEditRequest, createdEvent, createdValues, planDelete, planEdit, queueForSync, runPlanAsync, type EditOutcome, type Plan, type PlanIo, type PlanItem} from '../edit-plan.js';
import {batchedPlanIo, writesUniqueField} from './batched-plan.js';
import {itemIdOf, itemOf, seqOfItemId} from '../items.js';
import type {Actor, EditResult, Item, Values} from '../types.js';
import {validateValues, type WriteContext} from '../validate.js';
import type {EditRequest, Validator} from '../writes.js';
import {checkExpectedVersion, checkPayload} from '../write-rules.js';
import {channelLiteral, valueSql} from './channels.js';
import {inTransaction} from './connect.js';
import {appendEvent, changedSince, latestSequence, runWrites} from './events.js';
import {declineForDeletedItem, insertProposal, lockOpenProposalsOf, openProposalKeys, proposalsWithIds, runModeOf} from './proposals.js';
import {proposalCreatedEvent} from '../proposals.js';
import {planAccept, planDecline, planRevert, planRunDiff, type AcceptRequest, type AcceptResult, type DeclineResult, type RevertResult, type RunDiff} from '../review-plan.js';
import type {RunRow} from '../runs.js';
import type {PgChannelCatalog} from './channels.js';
import {closeForDeletedItem, openFollowUps, resolveProposedKeys, resolveSetKeys, resolveSetKeysSql} from './followups.js';
import {orderedDataText} from './ordered-json.js';
import {queueSync} from './outbox.js';

export type PgItemRow = {seq: number; id: string; channel_id: string; version: number; created_at: string; updated_at: string; data: Values};

export const ITEM_COLUMNS = 'seq, id, channel_id, version, created_at, updated_at, data';

export const pgItem = (channel: LoadedChannel, row: PgItemRow): Item => itemOf(channel, row, row.data);

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

/** These items (the ones that exist), locked in seq order in one statement: two bulk writes over the same items queue, never deadlock. */
async function lockedItems(client: pg.ClientBase, wanted: Array<{channelId: string; itemId: string}>): Promise<PgItem[]> {
	const pairs = wanted.flatMap(({channelId, itemId}) => {
		const seq = seqOf(itemId);
		return seq === undefined ? [] : [{channelId, seq}];
	});
	if (pairs.length === 0) return [];
	const {rows} = await client.query<PgItemRow>(`SELECT ${ITEM_COLUMNS.split(', ').map(column => `i.${column}`).join(', ')} FROM unnest($1::text[], $2::bigint[]) AS t(channel_id, seq)
		JOIN items i ON i.channel_id = t.channel_id AND i.seq = t.seq ORDER BY i.channel_id, i.seq FOR UPDATE OF i`, [pairs.map(pair => pair.channelId), pairs.map(pair => pair.seq)]);
	return rows.map(planItemOf);
}

/** A review plan (an accept, decline or revert: one bulk edit) with its writes set-based (store/postgres/batched-plan.ts). */
async function runBatched<T>(plan: Plan<PgItem, T>, client: pg.ClientBase, channels: PgChannelCatalog | undefined): Promise<T> {
	const batched = batchedPlanIo(client, planIo(client, channels), async wanted => lockedItems(client, wanted));
	const result = await runPlanAsync(plan, batched.io);
	await batched.flush();
	return result;
}

async function lockChannel(client: pg.ClientBase, channelId: string): Promise<void> {
	await client.query('SELECT 1 FROM channels WHERE id = $1 FOR UPDATE', [channelId]);
}

export class PgItemWriter {
	/** `channels`: for the review plans, whose proposals and runs name their channels. */
	constructor(private readonly pool: pg.Pool, private readonly validate: Validator = validateValues, private readonly channels?: PgChannelCatalog) {}

	/** Accepts proposals in one transaction: one bulk edit of the person's (store/review-plan.ts). */
	async accept(request: AcceptRequest): Promise<AcceptResult> {
		return inTransaction(this.pool, async client => runBatched(planAccept<PgItem>(request, this.validate), client, this.channels));
	}

	async decline(ids: number[]): Promise<DeclineResult> {
		return inTransaction(this.pool, async client => runBatched(planDecline<PgItem>(ids), client, this.channels));
	}

	/** A run's diff from one snapshot: read only, nothing locked. */
	async runDiff(run: RunRow): Promise<RunDiff> {
		return inTransaction(this.pool, async client => {
			await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
			return runPlanAsync(planRunDiff<PgItem>(run), planIo(client, this.channels, false));
		});
	}

	async revert(run: RunRow): Promise<RevertResult> {
		return inTransaction(this.pool, async client => runBatched(planRevert<PgItem>(run, this.validate), client, this.channels));
	}

	async create(channel: LoadedChannel, values: unknown, actor: Actor): Promise<EditResult> {
		checkPayload(values);
		return inTransaction(this.pool, async client => {
			await lockChannel(client, channel.id);
			return this.insert(client, channel, values as Values, actor);
		});
	}

	/**
	 * Inserts one item inside the caller's transaction (an upsert makes many in one), queued for a
	 * linked tracker unless the sync engine makes it; `updatedAt`: the tracker's time of a pulled item.
	 */
	async insert(client: pg.ClientBase, channel: LoadedChannel, values: Values, actor: Actor, createdAt?: string, updatedAt?: string): Promise<EditResult> {
		const stored = createdValues(channel, values, await writeContext(client, channel, values), this.validate);
		const at = updatedAt ?? new Date().toISOString();
		const created = createdAt ?? at;
		const {rows} = await client.query<{seq: number}>("SELECT nextval('item_seq') AS seq");
		const seq = rows[0]!.seq;
		const row: PgItemRow = {seq, id: itemIdOf(seq), channel_id: channel.id, version: 1, created_at: created, updated_at: at, data: stored};
		await client.query('INSERT INTO items (channel_id, seq, id, version, created_at, updated_at, data) VALUES ($3, $1, $2, 1, $6, $4, $5)', [seq, row.id, channel.id, at, orderedDataText(stored), created]);
		const sequence = await appendEvent(client, channel.id, createdEvent(row.id, stored, actor, at));
		await runPlanAsync(queueForSync<PgItem>(channel, row.id, actor, stored, at), planIo(client));
		return {ok: true, item: pgItem(channel, row), sequence};
	}

	/** The edit transaction (docs/reference.md#the-edit-transaction), as the shared plan runs it on this database. */
	async edit(channel: LoadedChannel, request: EditRequest): Promise<EditResult> {
		checkEditRequest(request);
		const outcome = await inTransaction(this.pool, async client => runPlanAsync(planEdit<PgItem>(channel, request, this.validate), planIo(client)));
		if ('refused' in outcome) {
			throw outcome.refused;
		}

		return outcome;
	}

	/** The edit transaction's plan on the caller's transaction (an upsert runs many in one). */
	async editWithin(client: pg.ClientBase, channel: LoadedChannel, request: EditRequest, stampedAt?: string): Promise<EditOutcome> {
		checkEditRequest(request);
		return runPlanAsync(planEdit<PgItem>(channel, request, this.validate, stampedAt), planIo(client));
	}

	async delete(channel: LoadedChannel, itemId: string, actor: Actor, expectedVersion?: number): Promise<DeleteResult> {
		checkExpectedVersion(expectedVersion);
		return inTransaction(this.pool, async client => {
			// An accept locks its proposals before their items; a delete takes the item's open proposals
			// first too (it declines them), so the two queue instead of crossing.
			await lockOpenProposalsOf(client, itemId);
			return runPlanAsync(planDelete<PgItem>(channel.id, itemId, actor, expectedVersion), planIo(client));
		});
	}
}

/** An item as the plan sees it, with the row it was read from. */
export type PgItem = PlanItem & {row: PgItemRow};

export const planItemOf = (row: PgItemRow): PgItem => ({id: row.id, channel_id: row.channel_id, version: row.version, created_at: row.created_at, updated_at: row.updated_at, values: row.data, row});

/**
 * This database's answers to the plan's steps, on the transaction's connection: its locks, row
 * reads, writes and event appends. `lock` false: a read-only plan (a run's diff) locks no row.
 */
export function planIo(client: pg.ClientBase, channels?: PgChannelCatalog, lock = true): PlanIo<PgItem, true> {
	return {
		async replay({entry}) {
			// Two requests with one key queue here, so the second sees the first's stored result.
			await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${entry.channelId}\u001f${entry.actor}\u001f${entry.key}`]);
			const {rows} = await client.query<{fingerprint: string; result: EditResult}>('SELECT fingerprint, result FROM idempotency WHERE channel_id = $1 AND actor = $2 AND key = $3', [entry.channelId, entry.actor, entry.key]);
			return rows[0];
		},
		async item({channelId, itemId}) {
			const row = await findItem(client, channelId, itemId, lock);
			return row && planItemOf(row);
		},
		changedSince: async ({item, version}) => changedSince(client, item.id, version),
		async context({channel, item, values}) {
			if (writesUniqueField(channel, values)) {
				await lockChannel(client, channel.id);
			}

			return writeContext(client, channel, values, item.id);
		},
		proposedKeys: async ({itemId}) => openProposalKeys(client, itemId),
		openFollowUps: async ({openings, at}) => openFollowUps(client, openings, at),
		async unchanged({item, resolveKeys, at}) {
			await resolveSetKeys(client, item.id, resolveKeys, at);
			return latestSequence(client, item.channel_id);
		},
		// The item update, its event and closing the set keys' follow-ups travel as one statement.
		update: async ({item, after, event, resolveKeys}) => appendEvent(client, item.channel_id, event, {
			ctes: `updated AS (
				UPDATE items SET version = $4, updated_at = $8, data = $9 WHERE channel_id = $1 AND seq = $10
			), resolved AS (${resolveSetKeysSql('$8', '$3', '$11')})`,
			params: [orderedDataText(after), item.row.seq, resolveKeys],
		}),
		queueSync: async ({channelId, itemId, values, at}) => queueSync(client, channelId, itemId, values, at),
		async remember({entry, result, at}) {
			await client.query('INSERT INTO idempotency (channel_id, actor, key, fingerprint, result, at) VALUES ($1, $2, $3, $4, $5, $6)', [entry.channelId, entry.actor, entry.key, entry.fingerprint, JSON.stringify(result), at]);
		},
		// The row goes in the event's statement, after the item's follow-ups and proposals: the item
		// count's trigger updates the channel row, which must stay the last lock (a decline holds its
		// proposals and then waits for the channel row; taking the channel row first would cross it).
		async delete({item, event}) {
			await closeForDeletedItem(client, item.id, event.at);
			await declineForDeletedItem(client, item.id, event.at);
			return appendEvent(client, item.channel_id, event, {ctes: 'removed AS (DELETE FROM items WHERE channel_id = $1 AND seq = $9)', params: [item.row.seq]});
		},
		runMode: async ({runId}) => runModeOf(client, runId),
		async propose({proposal}) {
			const id = await insertProposal(client, proposal);
			await resolveProposedKeys(client, proposal.item_id, Object.keys(proposal.changes), proposal.created_at);
			return {id, sequence: await appendEvent(client, proposal.channel_id, proposalCreatedEvent(proposal, id))};
		},
		proposals: async ({ids}) => proposalsWithIds(client, ids, lock),
		async channel({channelId}) {
			if (!channels) throw new Error('this writer was made without the channel catalog the review plans need');
			return channels.get(channelId, client);
		},
		// Only the review plans decide, and they run batched, which writes decisions itself (runBatched).
		async decide() {
			throw new Error('a decision is written by the batched review plans (store/postgres/batched-plan.ts)');
		},
		runWrites: async ({channelId, runId, afterSequence}) => runWrites(client, channelId, runId, afterSequence),
	};
}
