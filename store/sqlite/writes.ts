// Item writes on SQLite: each create, edit and delete is one BEGIN IMMEDIATE transaction with its
// event. What an edit or delete does, and in what order, is the shared plan (store/edit-plan.ts);
// this file answers its steps with prepared statements on the file.

import type {Statement} from 'better-sqlite3';
import type {ChannelCatalog} from './channels.js';
import type {DeleteResult} from '../contract.js';
import type {LoadedChannel} from '../channels.js';
import {channelScopeSql, valueSql} from './query.js';
import {immediate, withWriteLock} from './write-lock.js';
import type {Db} from './db.js';
import {appendEvent, changedSince, latestSequence, runWrites} from './events.js';
import {declineForDeletedItem, insertProposal, openProposalKeys, proposalsWithIds, recordDecision, runModeOf} from './proposals.js';
import {proposalCreatedEvent} from '../proposals.js';
import {planAccept, planDecline, planRevert, planRunDiff, type AcceptRequest, type AcceptResult, type DeclineResult, type RevertResult, type RunDiff} from '../review-plan.js';
import type {RunRow} from '../runs.js';
import {closeForDeletedItem, openFollowUps, resolveProposedKeys, resolveSetKeys} from './followups.js';
import {queueSync} from './outbox.js';
import {checkEditRequest, createdEvent, createdValues, planDelete, planEdit, queueForSync, runPlan, type EditOutcome, type PlanIo, type PlanItem} from '../edit-plan.js';
import {itemIdOf, itemOf, parseStored, type ItemRow} from '../items.js';
import type {Actor, EditResult, Field, Values} from '../types.js';
import {validateValues, type WriteContext} from '../validate.js';
import type {EditRequest, Validator} from '../writes.js';
import {columnParameters, ITEM_COLUMNS, valueColumnsFor, type ValueColumn} from './value-columns.js';
import {checkExpectedVersion, checkPayload} from '../write-rules.js';

/** An item as the plan sees it, with the row's seq the writes address it by. */
type SqliteItem = PlanItem & {seq: number};

type ColumnsStatement = {statement: Statement<unknown[]>; columns: ValueColumn[]};

type ChannelStatements = {
	insert?: ColumnsStatement;
	/** Per set of changed value columns: an UPDATE sets only those, so SQLite rewrites only their indexes. */
	updates: Map<string, ColumnsStatement>;
	/** Per unique field. */
	uniqueLookups: Map<string, Statement<unknown[]>>;
};

/** Each set of changed fields has its UPDATE; edits use a handful, so a bound only guards against churn. */
const MAX_CACHED_UPDATES = 256;

/** Writes items: every create, edit and delete is one transaction that also appends its event. */
export class ItemWriter {
	private readonly selectItem;
	private readonly selectSeq;
	private readonly selectRelated;
	/** Idempotency keys are the caller's own: one channel and one actor's namespace, so no key is ever taken by someone else. */
	private readonly selectKept;
	private readonly insertKept;
	/**
	 * Statements written from a channel's fields, per channel as loaded: a channel imported again
	 * after a rolled-back import is another object, with statements of its own.
	 */
	private readonly prepared = new WeakMap<readonly Field[], ChannelStatements>();
	/** Transaction wrappers made once: better-sqlite3 builds a wrapper per db.transaction() call. */
	private readonly createTransaction;
	private readonly editTransaction;
	/** This file's answers to the plan's steps (the sync plans add theirs: store/sqlite/sync.ts). */
	readonly planIo: PlanIo<SqliteItem>;
	/** The validation writes use (the importer checks staged items with it too). */
	readonly validator: Validator;

	constructor(private readonly db: Db, private readonly channels: ChannelCatalog, private readonly validate: Validator = validateValues) {
		this.validator = validate;
		this.selectItem = db.prepare(`SELECT ${ITEM_COLUMNS} FROM items WHERE id = ? AND channel_id = ?`);
		this.selectSeq = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'items'");
		this.selectRelated = db.prepare('SELECT 1 FROM items WHERE id = ? AND channel_id = ?');
		this.selectKept = db.prepare('SELECT fingerprint, result FROM idempotency WHERE channel_id = ? AND actor = ? AND key = ?');
		this.insertKept = db.prepare('INSERT INTO idempotency (channel_id, actor, key, fingerprint, result, at) VALUES (?, ?, ?, ?, ?, ?)');
		this.planIo = this.makePlanIo();
		this.createTransaction = db.transaction((channel: LoadedChannel, values: Values, actor: Actor, createdAt?: string) => this.insertQueued(channel, values, actor, createdAt));
		this.editTransaction = db.transaction((channel: LoadedChannel, request: EditRequest): EditOutcome => runPlan(planEdit<SqliteItem>(channel, request, this.validate), this.planIo));
	}

	/** The database's answers for validation: related items, and another item holding a unique value. */
	context(channel: LoadedChannel, itemId?: string): WriteContext {
		return {
			relationExists: (channelId, id) => this.selectRelated.get(id, channelId) !== undefined,
			holderOf: (field, value) => this.holderOf(channel, field, value, itemId),
		};
	}

	create(channelId: string, values: unknown, actor: Actor, createdAt?: string): EditResult {
		const channel = this.channels.get(channelId);
		checkPayload(values);
		return withWriteLock(this.db, () => this.createTransaction.immediate(channel, values as Values, actor, createdAt));
	}

	/** Inserts one item inside the caller's transaction, queued for a linked tracker unless the sync engine makes it (an import's new channel has no link). */
	insertQueued(channel: LoadedChannel, values: Values, actor: Actor, createdAt?: string, updatedAt?: string): EditResult {
		const result = this.insert(channel, values, actor, createdAt, updatedAt === undefined ? {} : {updated_at: updatedAt});
		// Formulas are computed, never queued (queueForSync leaves them out).
		runPlan(queueForSync<SqliteItem>(channel, result.item.id, actor, result.item.values, result.item.updated_at), this.planIo);
		return result;
	}

	/** Inserts one item inside the caller's transaction (the importer batches many, with what each item's file kept). */
	insert(channel: LoadedChannel, values: Values, actor: Actor, createdAt?: string, kept: {updated_at?: string; version?: number} = {}): EditResult {
		const stored = createdValues(channel, values, this.context(channel), this.validate);
		const at = new Date().toISOString();
		const created = createdAt ?? at;
		const updated = kept.updated_at ?? at;
		const version = kept.version ?? 1;
		const seq = this.nextSeq();
		const id = itemIdOf(seq);
		const insert = this.insertStatement(channel);
		const data = JSON.stringify(stored);
		insert.statement.run(seq, id, channel.id, version, created, updated, data, ...columnParameters(insert.columns, stored, data));
		const sequence = appendEvent(this.db, channel.id, createdEvent(id, stored, actor, at, version));
		return {ok: true, item: itemOf(channel, {id, channel_id: channel.id, version, created_at: created, updated_at: updated}, stored), sequence};
	}

	/** The edit transaction (docs/reference.md#the-edit-transaction), as the shared plan runs it on this file. */
	edit(request: EditRequest): EditResult {
		const channel = this.channels.get(request.channelId);
		checkEditRequest(request);
		const outcome = withWriteLock(this.db, () => this.editTransaction.immediate(channel, request));
		if ('refused' in outcome) {
			throw outcome.refused;
		}

		return outcome;
	}

	/** The item that holds `value` in the unique field, with its values: what an upsert's row is matched to. */
	itemWithUnique(channel: LoadedChannel, field: Field, value: unknown): SqliteItem | undefined {
		const id = this.holderOf(channel, field, value);
		return id === undefined ? undefined : this.loadItem(channel.id, id);
	}

	/** The edit transaction's plan inside the caller's transaction (an upsert runs many in one). */
	editWithin(channel: LoadedChannel, request: EditRequest, stampedAt?: string): EditOutcome {
		checkEditRequest(request);
		return runPlan(planEdit<SqliteItem>(channel, request, this.validate, stampedAt), this.planIo);
	}

	delete(channelId: string, itemId: string, actor: Actor, expectedVersion?: number): DeleteResult {
		this.channels.get(channelId);
		checkExpectedVersion(expectedVersion);
		return immediate(this.db, () => runPlan(planDelete<SqliteItem>(channelId, itemId, actor, expectedVersion), this.planIo));
	}

	/** This file's answers to the plan's steps: its row reads, writes and event appends, inside the caller's transaction. */
	private makePlanIo(): PlanIo<SqliteItem> {
		return {
			replay: ({entry}) => {
				const kept = this.selectKept.get(entry.channelId, entry.actor, entry.key) as {fingerprint: string; result: string} | undefined;
				return kept && {fingerprint: kept.fingerprint, result: JSON.parse(kept.result) as EditResult};
			},
			item: ({channelId, itemId}) => this.loadItem(channelId, itemId),
			changedSince: ({item, version}) => changedSince(this.db, item.id, version),
			context: ({channel, item}) => this.context(channel, item.id),
			proposedKeys: ({itemId}) => openProposalKeys(this.db, itemId),
			openFollowUps: ({openings, at}) => {
				openFollowUps(this.db, openings, at);
			},
			unchanged: ({item, resolveKeys, at}) => {
				resolveSetKeys(this.db, item.id, resolveKeys, at);
				return latestSequence(this.db, item.channel_id);
			},
			update: ({channel, item, after, event, resolveKeys}) => {
				const data = JSON.stringify(after);
				const update = this.updateStatement(channel, Object.keys(event.changes));
				update.statement.run(event.version, event.at, data, ...columnParameters(update.columns, after, data), item.seq);
				const sequence = appendEvent(this.db, item.channel_id, event);
				resolveSetKeys(this.db, item.id, resolveKeys, event.at);
				return sequence;
			},
			queueSync: ({channelId, itemId, values, at}) => {
				queueSync(this.db, channelId, itemId, values, at);
			},
			remember: ({entry, result, at}) => {
				this.insertKept.run(entry.channelId, entry.actor, entry.key, entry.fingerprint, JSON.stringify(result), at);
			},
			delete: ({item, event}) => {
				this.db.prepare('DELETE FROM items WHERE seq = ?').run(item.seq);
				closeForDeletedItem(this.db, item.id, event.at);
				declineForDeletedItem(this.db, item.id, event.at);
				return appendEvent(this.db, item.channel_id, event);
			},
			runMode: ({runId}) => runModeOf(this.db, runId),
			propose: ({proposal}) => {
				const id = insertProposal(this.db, proposal);
				resolveProposedKeys(this.db, proposal.item_id, Object.keys(proposal.changes), proposal.created_at);
				return {id, sequence: appendEvent(this.db, proposal.channel_id, proposalCreatedEvent(proposal, id))};
			},
			proposals: ({ids}) => proposalsWithIds(this.db, ids),
			channel: ({channelId}) => this.channels.get(channelId),
			decide: ({proposal, decision, event}) => {
				recordDecision(this.db, proposal.id, decision);
				return appendEvent(this.db, proposal.channel_id, event);
			},
			runWrites: ({channelId, runId, afterSequence}) => runWrites(this.db, channelId, runId, afterSequence),
		};
	}

	/** Accepts proposals in one transaction: one bulk edit of the person's (store/review-plan.ts). */
	accept(request: AcceptRequest): AcceptResult {
		return immediate(this.db, () => runPlan(planAccept<SqliteItem>(request, this.validate), this.planIo));
	}

	decline(ids: number[]): DeclineResult {
		return immediate(this.db, () => runPlan(planDecline<SqliteItem>(ids), this.planIo));
	}

	/** A run's diff, from one snapshot (a read transaction: nothing is written). */
	runDiff(run: RunRow): RunDiff {
		return this.db.transaction(() => runPlan(planRunDiff<SqliteItem>(run), this.planIo))();
	}

	revert(run: RunRow): RevertResult {
		return immediate(this.db, () => runPlan(planRevert<SqliteItem>(run, this.validate), this.planIo));
	}

	/** An item as the plans see it, or undefined. */
	item(channelId: string, itemId: string): SqliteItem | undefined {
		return this.loadItem(channelId, itemId);
	}

	private loadItem(channelId: string, itemId: string): SqliteItem | undefined {
		const row = typeof itemId === 'string' ? (this.selectItem.get(itemId, channelId) as ItemRow | undefined) : undefined;
		return row && {seq: row.seq, id: row.id, channel_id: row.channel_id, version: row.version, created_at: row.created_at, updated_at: row.updated_at, values: parseStored(row)};
	}

	private holderOf(channel: LoadedChannel, field: Field, value: unknown, exceptId?: string): string | undefined {
		const {uniqueLookups} = this.statementsOf(channel);
		let lookup = uniqueLookups.get(field.key);
		if (!lookup) {
			// The channel as a literal, so the lookup uses the channel's partial index on the field.
			lookup = this.db.prepare(`SELECT id FROM items WHERE ${channelScopeSql(channel.id)} AND ${valueSql(channel, field.key)} = ? AND id != ? LIMIT 1`);
			uniqueLookups.set(field.key, lookup);
		}

		const bound = typeof value === 'boolean' ? Number(value) : (typeof value === 'object' ? JSON.stringify(value) : value);
		const row = lookup.get(bound, exceptId ?? '') as {id: string} | undefined;
		return row?.id;
	}

	/** The item's row with every indexed field's value column (store/sqlite/value-columns.ts). */
	private insertStatement(channel: LoadedChannel): ColumnsStatement {
		const statements = this.statementsOf(channel);
		let insert = statements.insert;
		if (!insert) {
			const columns = valueColumnsFor(channel, channel.fields.map(field => field.key));
			const statement = this.db.prepare(`INSERT INTO items (seq, id, channel_id, version, created_at, updated_at, data${columns.map(value => `, ${value.column}`).join('')})
				VALUES (?, ?, ?, ?, ?, ?, ?${columns.map(value => `, ${value.sql}`).join('')})`);
			insert = {statement, columns};
			statements.insert = insert;
		}

		return insert;
	}

	/** The item's new data and version, and the value columns of `changedKeys` alone (store/sqlite/value-columns.ts). */
	private updateStatement(channel: LoadedChannel, changedKeys: string[]): ColumnsStatement {
		const columns = valueColumnsFor(channel, changedKeys);
		const {updates} = this.statementsOf(channel);
		const cacheKey = columns.map(value => value.column).join(',');
		let update = updates.get(cacheKey);
		if (!update) {
			if (updates.size >= MAX_CACHED_UPDATES) updates.clear();
			const statement = this.db.prepare(`UPDATE items SET version = ?, updated_at = ?, data = ?${columns.map(value => `, ${value.column} = ${value.sql}`).join('')} WHERE seq = ?`);
			update = {statement, columns};
			updates.set(cacheKey, update);
		}

		return update;
	}

	private statementsOf(channel: LoadedChannel): ChannelStatements {
		let statements = this.prepared.get(channel.fields);
		if (!statements) {
			statements = {updates: new Map(), uniqueLookups: new Map()};
			this.prepared.set(channel.fields, statements);
		}

		return statements;
	}

	private nextSeq(): number {
		const row = this.selectSeq.get() as {seq: number} | undefined;
		return (row?.seq ?? 0) + 1;
	}
}

