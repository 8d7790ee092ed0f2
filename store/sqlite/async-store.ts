// The embedded SQLite store behind the asynchronous interface: today's synchronous Store, each
// call answered as a promise (a throw becomes a rejection). SQLite has no push: readers poll.
// A write never waits inside better-sqlite3 for another process's lock: it waits on a timer
// (write-lock.ts), so reads, other requests and keys go on meanwhile.

import type {AsyncImportSource, AsyncStore, AsyncStoreOptions, DeleteResult, ImportResult, ProposalsApi, RunsApi, SyncApi, TokensApi, UpsertRequest, UpsertResult, UpsertRow} from '../contract.js';
import type {LoadedChannel} from '../channels.js';
import type {FollowUpQuery} from '../followups.js';
import type {NameMatch} from '../lookup.js';
import type {ItemsPage, ItemsQuery, PageQuery} from '../pages.js';
import type {SearchPage, SearchQuery} from '../search.js';
import type {SimilarPage, SimilarQuery} from '../similar.js';
import {changeChannel, type SchemaChange, type SchemaChangeResult} from '../schema-change.js';
import {getRun, lastFinishedRun, listRuns, listUnfinishedRuns, recordRunEnd, recordRunProcessGroup, recordRunStart} from './runs.js';
import {CountWorkers} from './count-worker.js';
import {openStore, type Store} from './store.js';
import {touchToken} from './tokens.js';
import {LockWaiter} from './write-lock.js';
import type {Actor, Channel, ChannelName, ChannelSummary, EditResult, EventPage, FollowUp, FollowUpKind, Item, Page} from '../types.js';
import type {NotDuplicateResult} from '../not-duplicates.js';
import type {EditRequest} from '../writes.js';
import {checkWriteScope} from '../grants.js';

const isAsyncIterable = (items: unknown): items is AsyncIterable<unknown> => typeof (items as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';

/**
 * The SQLite importer runs in one synchronous transaction, so items that arrive asynchronously
 * are gathered first; a synchronous iterable (a generator) still streams straight through.
 */
async function syncItems(items: Iterable<unknown> | AsyncIterable<unknown>): Promise<Iterable<unknown>> {
	if (!isAsyncIterable(items)) {
		return items;
	}

	const gathered: unknown[] = [];
	for await (const item of items) {
		gathered.push(item);
	}

	return gathered;
}

export class SqliteAsyncStore implements AsyncStore {
	readonly backend = 'sqlite' as const;
	readonly location: string;
	readonly runs: RunsApi;
	readonly tokens: TokensApi;
	readonly proposals: ProposalsApi;
	readonly sync: SyncApi;
	readonly listen = undefined;
	private readonly counts = new CountWorkers();
	readonly readOnly: boolean;
	readonly created: {file: boolean; dirs: string[]};
	private readonly lock: LockWaiter;

	/** `file`: the synchronous store underneath, for callers not yet moved to the asynchronous interface. */
	constructor(readonly file: Store, options: Pick<AsyncStoreOptions, 'lockWaitMs' | 'onLockWait'> = {}) {
		this.location = file.path;
		this.readOnly = file.readOnly;
		this.created = file.created;
		const {db} = file;
		const lock = new LockWaiter(db, {waitMs: options.lockWaitMs, onWait: options.onLockWait});
		this.lock = lock;
		this.runs = {
			start: async run => lock.write(() => recordRunStart(db, run)),
			end: async (id, end) => lock.write(() => recordRunEnd(db, id, end)),
			list: async options => listRuns(db, options),
			get: async id => getRun(db, id),
			lastFinished: async channelId => lastFinishedRun(db, channelId),
			setProcessGroup: async (id, group) => lock.write(() => recordRunProcessGroup(db, id, group)),
			// A SQLite file is opened by processes of one machine: every unfinished run is local.
			unfinished: async () => listUnfinishedRuns(db),
			diff: async id => file.runDiff(id),
			revert: async id => lock.write(() => file.revertRun(id)),
		};
		this.proposals = {
			list: async query => file.listProposals(query),
			get: async id => file.getProposal(id),
			countOpen: async channelId => file.countOpenProposals(channelId),
			accept: async request => lock.write(() => file.acceptProposals(request)),
			decline: async ids => lock.write(() => file.declineProposals(ids)),
			fieldCounts: async query => file.proposalFieldCounts(query),
		};
		const engine = file.syncEngine;
		// A read-only file refuses the engine's writes up front, as every other write.
		const write = <T>(work: () => T) => lock.write(() => {
			file.checkWritable();
			return work();
		});
		this.sync = {
			link: async link => write(() => engine.link(link)),
			unlink: async channelId => write(() => engine.unlink(channelId)),
			links: async () => engine.links(),
			getLink: async channelId => engine.getLink(channelId),
			saveState: async (channelId, state, at) => write(() => engine.saveState(channelId, state, at)),
			applyRemote: async (channelId, records) => write(() => engine.applyRemote(channelId, records)),
			addComments: async (channelId, lists) => write(() => engine.addComments(channelId, lists)),
			outbox: async (channelId, limit) => engine.outbox(channelId, limit),
			markSending: async ids => write(() => engine.markSending(ids)),
			markSent: async (id, remoteValue) => write(() => engine.markSent(id, remoteValue)),
			markFailed: async (id, error, options) => write(() => engine.markFailed(id, error, options)),
			status: async channelId => engine.status(channelId),
			resolveConflict: async (followUpId, choice) => write(() => engine.resolveConflict(followUpId, choice)),
			itemComments: async (itemId, query) => engine.itemComments(itemId, query),
		};
		this.tokens = {
			create: async request => lock.write(() => file.createToken(request)),
			list: async () => file.listTokens(),
			revoke: async name => lock.write(() => file.revokeToken(name)),
			verify: async (secret, now) => file.verifyToken(secret, now),
			// A last use is a hint: while another process writes it is skipped, never waited for.
			touch: async (name, now) => lock.unlessBusy(() => touchToken(db, name, now)),
		};
	}

	async close(): Promise<void> {
		this.lock.stop();
		await this.counts.stopAll();
		this.file.close();
	}

	stopLockWaits(): void {
		this.lock.stop();
	}

	/** A local file is always reachable once open. */
	async ping(): Promise<void> {
		this.file.db.prepare('SELECT 1').get();
	}

	async checkpoint(): Promise<void> {
		this.file.db.pragma('wal_checkpoint(TRUNCATE)');
	}

	async findItemsNamed(channelId: string, name: string): Promise<NameMatch[]> {
		return this.file.findItemsNamed(channelId, name);
	}

	async countMatches(channelId: string, where: string, now?: Date): Promise<number> {
		// Refusals come from here at once; the read itself runs off this thread (count-worker.ts).
		return this.counts.count(this.location, this.file.countQuery(channelId, where, now));
	}

	async listChannels(): Promise<ChannelSummary[]> {
		return this.file.listChannels();
	}

	async listChannelNames(): Promise<ChannelName[]> {
		return this.file.listChannelNames();
	}

	async channelSummary(channelId: string): Promise<ChannelSummary> {
		return this.file.channelSummary(channelId);
	}

	async getChannel(channelId: string): Promise<Channel> {
		return this.file.getChannel(channelId);
	}

	async loadedChannel(channelId: string): Promise<LoadedChannel> {
		return this.file.loadedChannel(channelId);
	}

	async upsertItems(request: UpsertRequest): Promise<UpsertResult> {
		return this.file.upsertItems({...request, rows: (await syncItems(request.rows)) as Iterable<UpsertRow>});
	}

	async importChannel(source: AsyncImportSource): Promise<ImportResult> {
		const items = await syncItems(source.items);
		return this.lock.write(() => this.file.importChannel({channel: source.channel, items}));
	}

	async createItem(channelId: string, values: unknown, actor: Actor): Promise<EditResult> {
		return this.lock.write(() => this.file.createItem(channelId, values, actor));
	}

	async readItem(channelId: string, itemId: string): Promise<Item> {
		return this.file.readItem(channelId, itemId);
	}

	async editItem(request: EditRequest): Promise<EditResult> {
		checkWriteScope(request.grants);
		return this.lock.write(() => this.file.editItem(request));
	}

	async deleteItem(channelId: string, itemId: string, actor: Actor, expectedVersion?: number): Promise<DeleteResult> {
		return this.lock.write(() => this.file.deleteItem(channelId, itemId, actor, expectedVersion));
	}

	async listPage(channelId: string, query: PageQuery = {}): Promise<Page> {
		return this.file.listPage(channelId, query);
	}

	async changeChannel(channelId: string, change: SchemaChange, actor?: Actor): Promise<SchemaChangeResult> {
		return changeChannel(this, {apply: async (before, plan, by) => this.file.applySchemaChange(before, plan, by)}, channelId, change, actor);
	}

	async searchItems(channelId: string, request: SearchQuery): Promise<SearchPage> {
		return this.file.searchItems(channelId, request);
	}

	async similarItems(channelId: string, itemId: string, request: SimilarQuery = {}): Promise<SimilarPage> {
		return this.file.similarItems(channelId, itemId, request);
	}

	async markNotDuplicate(channelId: string, itemId: string, otherId: string, actor?: Actor): Promise<NotDuplicateResult> {
		return this.lock.write(() => this.file.markNotDuplicate(channelId, itemId, otherId, actor));
	}

	async notDuplicatesOf(channelId: string, itemId: string): Promise<string[]> {
		return this.file.notDuplicatesOf(channelId, itemId);
	}

	async readItems(channelId: string, query: ItemsQuery = {}): Promise<ItemsPage> {
		return this.file.readItems(channelId, query);
	}

	async pollEvents(channelId: string, options: {afterSequence?: number; limit?: number} = {}): Promise<EventPage> {
		return this.file.pollEvents(channelId, options);
	}

	async latestSequence(channelId: string): Promise<number> {
		return this.file.latestSequence(channelId);
	}

	async listFollowUps(query: FollowUpQuery = {}): Promise<FollowUp[]> {
		return this.file.listFollowUps(query);
	}

	async countOpenFollowUps(channelId: string, kind?: FollowUpKind): Promise<number> {
		return this.file.countOpenFollowUps(channelId, kind);
	}

	async dismissFollowUp(id: number): Promise<FollowUp> {
		return this.lock.write(() => this.file.dismissFollowUp(id));
	}
}

export async function openSqliteAsyncStore(path: string, options: AsyncStoreOptions = {}): Promise<SqliteAsyncStore> {
	const {onLockWait, lockWaitMs, ...open} = options;
	return new SqliteAsyncStore(openStore(path, open), {onLockWait, lockWaitMs});
}
