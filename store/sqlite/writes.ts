// Item writes on SQLite: the edit transaction, creates and deletes, each one transaction with its event.

import type {Statement} from 'better-sqlite3';
import type {ChannelCatalog} from './channels.js';
import type {LoadedChannel} from '../channels.js';
import {channelScopeSql, valueSql} from './query.js';
import {immediate, withWriteLock, type Db} from './database.js';
import {notFound, quote, StoreError} from '../errors.js';
import {appendEvent, changedSince, latestSequence} from './events.js';
import {closeForDeletedItem, recordRefusals, resolveSetKeys} from './followups.js';
import type {Grants} from '../grants.js';
import {itemFromRow, itemIdOf, parseStored, type ItemRow} from '../items.js';
import type {Actor, Changes, EditResult, Field, FieldProblem, Values} from '../types.js';
import {validateValues, type WriteContext} from '../validate.js';
import type {EditRequest, Validator} from '../writes.js';
import {columnParameters, ITEM_COLUMNS, valueColumnsFor, type ValueColumn} from './value-columns.js';
import {actorScope, checkExpectedVersion, checkPayload, fingerprintOf, storedValues} from '../write-rules.js';

const sameValue = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

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
	/**
	 * Statements written from a channel's fields, per channel as loaded: a channel imported again
	 * after a rolled-back import is another object, with statements of its own.
	 */
	private readonly prepared = new WeakMap<readonly Field[], ChannelStatements>();
	/** Transaction wrappers made once: better-sqlite3 builds a wrapper per db.transaction() call. */
	private readonly createTransaction;
	private readonly editTransaction;

	constructor(private readonly db: Db, private readonly channels: ChannelCatalog, private readonly validate: Validator = validateValues) {
		this.selectItem = db.prepare(`SELECT ${ITEM_COLUMNS} FROM items WHERE id = ? AND channel_id = ?`);
		this.selectSeq = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'items'");
		this.createTransaction = db.transaction((channel: LoadedChannel, values: Values, actor: Actor, createdAt?: string) => this.insert(channel, values, actor, createdAt));
		this.editTransaction = db.transaction((channel: LoadedChannel, request: EditRequest) => this.editInTransaction(channel, request));
	}

	/** The store's checks for one write, with the lookups only the database can answer. */
	context(channel: LoadedChannel, itemId?: string, grants?: Grants): WriteContext {
		return {
			mayRelateTo: channelId => grants === undefined || grants.has(channelId),
			relationExists: (channelId, id) => this.db.prepare('SELECT 1 FROM items WHERE id = ? AND channel_id = ?').get(id, channelId) !== undefined,
			holderOf: (field, value) => this.holderOf(channel, field, value, itemId),
		};
	}

	create(channelId: string, values: unknown, actor: Actor, createdAt?: string): EditResult {
		const channel = this.channels.get(channelId);
		checkPayload(values);
		return withWriteLock(this.db, () => this.createTransaction.immediate(channel, values as Values, actor, createdAt));
	}

	/** Inserts one item inside the caller's transaction (the importer batches many). */
	insert(channel: LoadedChannel, values: Values, actor: Actor, createdAt?: string): EditResult {
		const problems = this.validate(channel, values, this.context(channel), true);
		if (problems.length > 0) {
			throw new StoreError({error: 'validation_failed', fields: problems});
		}

		const at = new Date().toISOString();
		const created = createdAt ?? at;
		const stored = storedValues({}, values);
		const seq = this.nextSeq();
		const id = itemIdOf(seq);
		const insert = this.insertStatement(channel);
		const data = JSON.stringify(stored);
		insert.statement.run(seq, id, channel.id, created, at, data, ...columnParameters(insert.columns, stored, data));
		const changes: Changes = {};
		for (const [key, to] of Object.entries(stored)) {
			changes[key] = {from: null, to};
		}

		const sequence = appendEvent(this.db, channel.id, {type: 'item.created', item_id: id, version: 1, actor, changes, at});
		const row: ItemRow = {seq, id, channel_id: channel.id, version: 1, created_at: created, updated_at: at, data};
		return {ok: true, item: itemFromRow(channel, row, stored), sequence};
	}

	/** The edit transaction (docs/reference.md#the-edit-transaction): idempotency → version → validation → merge → bump → event → follow-ups, all or nothing. */
	edit(request: EditRequest): EditResult {
		const channel = this.channels.get(request.channelId);
		checkPayload(request.values);
		checkExpectedVersion(request.expectedVersion);
		const outcome = withWriteLock(this.db, () => this.editTransaction.immediate(channel, request));
		if ('refused' in outcome) {
			throw outcome.refused;
		}

		return outcome;
	}

	delete(channelId: string, itemId: string, actor: Actor, expectedVersion?: number): {ok: true; item_id: string; sequence: number} {
		this.channels.get(channelId);
		checkExpectedVersion(expectedVersion);
		return immediate(this.db, () => {
			const row = this.loadRow(channelId, itemId);
			this.checkVersion(row, expectedVersion);
			const at = new Date().toISOString();
			const changes: Changes = {};
			for (const [key, from] of Object.entries(parseStored(row))) {
				changes[key] = {from, to: null};
			}

			this.db.prepare('DELETE FROM items WHERE seq = ?').run(row.seq);
			closeForDeletedItem(this.db, itemId, at);
			const sequence = appendEvent(this.db, channelId, {type: 'item.deleted', item_id: itemId, version: row.version + 1, actor, changes, at});
			return {ok: true as const, item_id: itemId, sequence};
		});
	}

	private editInTransaction(channel: LoadedChannel, request: EditRequest): EditResult | {refused: StoreError} {
		const fingerprint = request.idempotencyKey === undefined ? undefined : fingerprintOf(request);
		const replay = fingerprint === undefined ? undefined : this.replay(request, fingerprint);
		if (replay) {
			return replay;
		}

		const row = this.loadRow(channel.id, request.itemId);
		this.checkVersion(row, request.expectedVersion);
		const values = request.values as Values;
		const at = new Date().toISOString();
		const problems = this.validate(channel, values, this.context(channel, row.id, request.grants), false);
		if (problems.length > 0) {
			// The refusal is the answer, but an agent's refusals are kept as follow-ups: commit those alone.
			this.openFollowUps(channel, request, problems, at);
			return {refused: new StoreError({error: 'validation_failed', fields: problems})};
		}

		const result = this.apply(channel, row, values, request.actor, at);
		resolveSetKeys(this.db, row.id, Object.keys(values), at);
		if (fingerprint !== undefined) {
			this.db.prepare('INSERT INTO idempotency (channel_id, actor, key, fingerprint, result, at) VALUES (?, ?, ?, ?, ?, ?)')
				.run(channel.id, actorScope(request.actor), request.idempotencyKey, fingerprint, JSON.stringify(result), at);
		}

		return result;
	}

	/** Merges, bumps the version and appends the event; a write that changes nothing leaves both alone. */
	private apply(channel: LoadedChannel, row: ItemRow, values: Values, actor: Actor, at: string): EditResult {
		const before = parseStored(row);
		const after = storedValues(before, values);
		const changes: Changes = {};
		for (const key of Object.keys(values)) {
			const from = before[key] ?? null;
			const to = after[key] ?? null;
			if (!sameValue(from, to)) {
				changes[key] = {from, to};
			}
		}

		if (Object.keys(changes).length === 0) {
			const sequence = latestSequence(this.db, channel.id);
			return {ok: true, item: itemFromRow(channel, row, before), sequence};
		}

		const version = row.version + 1;
		const data = JSON.stringify(after);
		const update = this.updateStatement(channel, Object.keys(changes));
		update.statement.run(version, at, data, ...columnParameters(update.columns, after, data), row.seq);
		const sequence = appendEvent(this.db, channel.id, {type: 'item.updated', item_id: row.id, version, actor, changes, at});
		return {ok: true, item: itemFromRow(channel, {...row, version, updated_at: at, data}, after), sequence};
	}

	private openFollowUps(channel: LoadedChannel, request: EditRequest, problems: FieldProblem[], at: string): void {
		if (request.actor.kind !== 'agent') {
			return;
		}

		const settable = (key: string) => {
			const field = channel.fieldsByKey.get(key);
			return field !== undefined && field.type !== 'formula';
		};

		recordRefusals(this.db, {channelId: channel.id, itemId: request.itemId, runId: request.actor.run_id}, problems, request.values as Values, settable, at);
	}

	/** Keys are the caller's own: one channel and one actor's namespace, so no key is ever taken by someone else. */
	private replay(request: EditRequest, fingerprint: string): EditResult | undefined {
		const key = request.idempotencyKey!;
		const stored = this.db.prepare('SELECT fingerprint, result FROM idempotency WHERE channel_id = ? AND actor = ? AND key = ?')
			.get(request.channelId, actorScope(request.actor), key) as {fingerprint: string; result: string} | undefined;
		if (!stored) {
			return undefined;
		}

		if (stored.fingerprint !== fingerprint) {
			throw new StoreError({error: 'idempotency_key_reused', message: `idempotency_key ${quote(key)} was already used with different arguments; use a new key for a new edit`});
		}

		return JSON.parse(stored.result) as EditResult;
	}

	private loadRow(channelId: string, itemId: string): ItemRow {
		const row = typeof itemId === 'string' ? (this.selectItem.get(itemId, channelId) as ItemRow | undefined) : undefined;
		if (!row) {
			throw notFound(`item ${quote(itemId)} does not exist in channel ${channelId}`);
		}

		return row;
	}

	private checkVersion(row: ItemRow, expected: number | undefined): void {
		if (expected !== undefined && expected !== row.version) {
			throw new StoreError({
				error: 'version_conflict',
				message: `item ${row.id} is at version ${row.version}, not ${expected}: read it again and merge`,
				current_version: row.version,
				changed_since: changedSince(this.db, row.id, expected),
			});
		}
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
				VALUES (?, ?, ?, 1, ?, ?, ?${columns.map(value => `, ${value.sql}`).join('')})`);
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

