// The SQLite `Store` class: every read and write of the record contract.

import {ChannelCatalog} from './channels.js';
import {applySchemaChange} from './schema-change.js';
import type {SchemaPlan} from '../schema-change.js';
import type {LoadedChannel} from '../channels.js';
import {openDatabase, type OpenOptions} from './database.js';
import type {Db} from './db.js';
import {ITEM_COLUMNS} from './value-columns.js';
import {pollEvents, latestSequence} from './events.js';
import {countOpenFollowUps, dismissFollowUp, listFollowUps} from './followups.js';
import type {FollowUpQuery} from '../followups.js';
import {importChannel, type ImportSource} from './import.js';
import {itemFromRow, type ItemRow} from '../items.js';
import {itemsNamed} from './lookup.js';
import type {NameMatch} from '../lookup.js';
import {countMatches, countQuery, listPage, readItems, searchItems, similarItems} from './pages.js';
import type {SimilarQuery} from '../similar.js';
import {markNotDuplicate, notDuplicatesOf} from './not-duplicates.js';
import type {SearchQuery} from '../search.js';
import type {ItemsQuery, PageQuery} from '../pages.js';
import type {Actor, Channel, ChannelName, ChannelSummary, EditResult, EventPage, FollowUp, FollowUpKind, Item} from '../types.js';
import {ItemWriter} from './writes.js';
import {SqliteSync} from './sync.js';
import {upsertItems} from './upsert.js';
import type {UpsertRequest, UpsertResult, UpsertRow} from '../upsert-rules.js';
import type {EditRequest, Validator} from '../writes.js';
import {notFound, quote, StoreError} from '../errors.js';
import {createToken, listTokens, revokeToken, touchToken, verifyToken} from './tokens.js';
import {countOpenProposals, decisionRecords, listProposals, proposalsWithIds} from './proposals.js';
import {foldFieldCounts, type FieldCountsQuery, type ProposalFieldCounts, type ProposalQuery, type ProposalRow} from '../proposals.js';
import type {AcceptRequest, AcceptResult, DeclineResult, RevertResult, RunDiff} from '../review-plan.js';
import {getRun} from './runs.js';
import type {TokenIdentity, TokenInfo, TokenRequest} from '../token-rules.js';

export type StoreOptions = OpenOptions & {/** For benchmarks only: replaces validation. */ validator?: Validator};

/** The record store: one SQLite file, every read and write of the record contract (docs/reference.md#records). */
export class Store {
	readonly db: Db;
	/** The file is not writable by this process: reads are served, every write is refused. */
	readonly readOnly: boolean;
	/** What opening created (with `create: true`): a command that then fails removes it again. */
	readonly created: {file: boolean; dirs: string[]};
	private readonly channels: ChannelCatalog;
	private readonly writer: ItemWriter;
	/** The sync engine on this file (store/sqlite/sync.ts). */
	readonly syncEngine: SqliteSync;

	constructor(readonly path: string, options: StoreOptions = {}) {
		const opened = openDatabase(path, options);
		this.db = opened.db;
		this.readOnly = opened.readOnly;
		this.created = opened.created;
		this.channels = new ChannelCatalog(this.db);
		this.writer = new ItemWriter(this.db, this.channels, options.validator);
		this.syncEngine = new SqliteSync(this.db, this.channels, this.writer);
	}

	/** Refuses a write up front on a read-only store, with a message that says why. */
	checkWritable(): void {
		if (this.readOnly) {
			throw new StoreError({error: 'read_only', message: `${this.path} is read-only for this user: reading works, writing needs write access to the file and its directory`});
		}
	}

	close(): void {
		this.db.close();
	}

	/** Every channel with its item count and latest sequence. */
	listChannels(): ChannelSummary[] {
		return this.channels.summaries();
	}

	/** Channel ids and names, without counting items: for choosing and checking a channel. */
	listChannelNames(): ChannelName[] {
		return this.channels.names();
	}

	/** One channel's item count and latest sequence. */
	channelSummary(channelId: string): ChannelSummary {
		this.channels.get(channelId);
		return this.channels.summaries(channelId)[0]!;
	}

	getChannel(channelId: string): Channel {
		const {id, name, fields} = this.channels.get(channelId);
		return {id, name, fields};
	}

	importChannel(source: ImportSource): {channel: Channel; items_created: number} {
		this.checkWritable();
		return importChannel(this.db, this.channels, this.writer, source);
	}

	upsertItems(request: UpsertRequest & {rows: Iterable<UpsertRow>}): UpsertResult {
		this.checkWritable();
		return upsertItems(this.db, this.channels, this.writer, request);
	}

	createItem(channelId: string, values: unknown, actor: Actor): EditResult {
		this.checkWritable();
		return this.writer.create(channelId, values, actor);
	}

	readItem(channelId: string, itemId: string): Item {
		const channel = this.channels.get(channelId);
		const row = this.db.prepare(`SELECT ${ITEM_COLUMNS} FROM items WHERE id = ? AND channel_id = ?`).get(itemId, channelId) as ItemRow | undefined;
		if (!row) {
			throw notFound(`item ${quote(itemId)} does not exist in channel ${channelId}`);
		}

		return itemFromRow(channel, row);
	}

	/** The items `name` names: by id, or by the value of a unique field (for `sift show BUG-0042`). */
	findItemsNamed(channelId: string, name: string): NameMatch[] {
		return itemsNamed(this.db, this.channels.get(channelId), name);
	}

	editItem(request: EditRequest): EditResult {
		this.checkWritable();
		return this.writer.edit(request);
	}

	deleteItem(channelId: string, itemId: string, actor: Actor, expectedVersion?: number) {
		this.checkWritable();
		return this.writer.delete(channelId, itemId, actor, expectedVersion);
	}

	listPage(channelId: string, query: PageQuery = {}) {
		return listPage(this.db, this.channels.get(channelId), query);
	}

	/** How many items match `where` (query language; its sort is ignored). Reads every candidate row: not for hot paths at 1M items. */
	/** The transaction of a schema change (store/schema-change.ts changeChannel runs the steps around it). */
	applySchemaChange(before: Channel, plan: SchemaPlan, actor: Actor): number {
		return applySchemaChange(this.db, this.channels, before, plan, actor);
	}

	readItems(channelId: string, query: ItemsQuery = {}) {
		return readItems(this.db, this.channels.get(channelId), query);
	}

	/** A search for agents (store/search.ts): ranked by relevance when the query has words. */
	searchItems(channelId: string, request: SearchQuery) {
		return searchItems(this.db, this.channels.get(channelId), request);
	}

	/** The channel's other items ranked by resemblance to one (store/similar.ts). */
	similarItems(channelId: string, itemId: string, request: SimilarQuery = {}) {
		return similarItems(this.db, this.channels.get(channelId), itemId, request);
	}

	markNotDuplicate(channelId: string, itemId: string, otherId: string, actor: Actor = {kind: 'human'}) {
		this.checkWritable();
		return markNotDuplicate(this.db, this.channels.get(channelId).id, itemId, otherId, actor, new Date().toISOString());
	}

	notDuplicatesOf(channelId: string, itemId: string): string[] {
		return notDuplicatesOf(this.db, this.channels.get(channelId).id, itemId);
	}

	countMatches(channelId: string, where: string, now?: Date): number {
		return countMatches(this.db, this.channels.get(channelId), where, now);
	}

	/** The statement countMatches runs, for a read on another connection (store/sqlite/count-worker.ts). */
	countQuery(channelId: string, where: string, now?: Date): {sql: string; params: unknown[]} {
		return countQuery(this.channels.get(channelId), where, now);
	}

	pollEvents(channelId: string, options: {afterSequence?: number; limit?: number} = {}): EventPage {
		this.channels.get(channelId);
		return pollEvents(this.db, channelId, options);
	}

	latestSequence(channelId: string): number {
		this.channels.get(channelId);
		return latestSequence(this.db, channelId);
	}

	listFollowUps(query: FollowUpQuery = {}): FollowUp[] {
		return listFollowUps(this.db, query);
	}

	countOpenFollowUps(channelId: string, kind?: FollowUpKind): number {
		return countOpenFollowUps(this.db, channelId, kind);
	}

	dismissFollowUp(id: number): FollowUp {
		this.checkWritable();
		return dismissFollowUp(this.db, id, new Date().toISOString());
	}

	/** The channel with its derived lookups, for adapters that render schema-aware views. */
	loadedChannel(channelId: string): LoadedChannel {
		return this.channels.get(channelId);
	}

	// The review queue and runs' diffs (docs/review.md).

	listProposals(query: ProposalQuery = {}): ProposalRow[] {
		return listProposals(this.db, query, query.channelId === undefined || query.where === undefined ? undefined : this.channels.get(query.channelId));
	}

	getProposal(id: number): ProposalRow {
		const row = Number.isSafeInteger(id) ? proposalsWithIds(this.db, [id])[0] : undefined;
		if (!row) throw notFound(`no proposal ${JSON.stringify(id)}; \`sift proposals\` lists them`);
		return row;
	}

	countOpenProposals(channelId: string): number {
		return countOpenProposals(this.db, channelId);
	}

	proposalFieldCounts(query: FieldCountsQuery): ProposalFieldCounts[] {
		this.channels.get(query.channelId);
		return foldFieldCounts(decisionRecords(this.db, query));
	}

	acceptProposals(request: AcceptRequest): AcceptResult {
		this.checkWritable();
		return this.writer.accept(request);
	}

	declineProposals(ids: number[]): DeclineResult {
		this.checkWritable();
		return this.writer.decline(ids);
	}

	runDiff(runId: string): RunDiff {
		return this.writer.runDiff(this.runNamed(runId));
	}

	revertRun(runId: string): RevertResult {
		this.checkWritable();
		return this.writer.revert(this.runNamed(runId));
	}

	private runNamed(runId: string) {
		const run = typeof runId === 'string' ? getRun(this.db, runId) : undefined;
		if (!run) throw notFound(`no run ${JSON.stringify(runId)?.slice(0, 80)} in this database; \`sift runs\` lists them`);
		return run;
	}

	// Bearer tokens of `sift serve` (store/tokens.ts).

	/** Returns the secret once; only its hash is kept. */
	createToken(request: TokenRequest): {token: string; info: TokenInfo} {
		return createToken(this.db, request);
	}

	listTokens(): TokenInfo[] {
		return listTokens(this.db);
	}

	revokeToken(name: string): TokenInfo {
		return revokeToken(this.db, name);
	}

	/** Null for an unknown, revoked or expired secret; never writes. */
	verifyToken(secret: string, now?: Date): TokenIdentity | null {
		return verifyToken(this.db, secret, now);
	}

	/** Notes a token's use (at most one write a minute per token). */
	touchToken(name: string): void {
		touchToken(this.db, name);
	}
}

export function openStore(path: string, options: StoreOptions = {}): Store {
	return new Store(path, options);
}
