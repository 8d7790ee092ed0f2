// The store's asynchronous interface, as types only: the one contract both backends implement
// (store/sqlite/async-store.ts, store/postgres/store.ts) and every caller holds. Types only, so a
// backend can name the contract without importing the module that opens backends (store/api.ts).

import type {LoadedChannel} from './channels.js';
import type {FollowUpQuery} from './followups.js';
import type {ItemsPage, ItemsQuery, PageQuery} from './pages.js';
import type {SearchPage, SearchQuery} from './search.js';
import type {SimilarPage, SimilarQuery} from './similar.js';
import type {NotDuplicateResult} from './not-duplicates.js';
import type {NameMatch} from './lookup.js';
import type {RunEnd, RunRow, RunStart, UnfinishedRun} from './runs.js';
import type {TokenIdentity, TokenInfo, TokenRequest} from './token-rules.js';
import type {Actor, Channel, ChannelName, ChannelSummary, DeleteResult, EditResult, EventPage, FollowUp, FollowUpKind, Item, Page, SchemaChange, SchemaChangeResult} from './types.js';
import type {EditRequest, Validator} from './writes.js';
import type {UpsertRequest, UpsertResult} from './upsert-rules.js';
import type {SyncApi} from './sync/types.js';

export type {CommentsQuery, ConflictChoice, ItemComments, OutboxEntry, PullOutcome, RemoteComment, RemoteComments, RemoteRecord, SyncApi, SyncedField, SyncLink, SyncStatus, TrackerKind} from './sync/types.js';

export type {UpsertRefusal, UpsertRequest, UpsertResult, UpsertRow} from './upsert-rules.js';
import type {FieldCountsQuery, ProposalFieldCounts, ProposalQuery, ProposalRow} from './proposals.js';
import type {AcceptRequest, AcceptResult, DeclineResult, RevertResult, RunDiff} from './review-plan.js';

/** An import: the channel definition and its items, which may arrive lazily (a file being read, a generator). */
export type AsyncImportSource = {channel: unknown; items: Iterable<unknown> | AsyncIterable<unknown>};

/** `indexes_missing`: PostgreSQL, a role that may not create indexes imported the channel without them (`sift migrate` as the owner builds them). */
export type ImportResult = {channel: Channel; items_created: number; indexes_missing?: number};

export type {DeleteResult} from './types.js';
export type {SearchHit, SearchPage, SearchQuery} from './search.js';
export type {SimilarHit, SimilarPage, SimilarQuery} from './similar.js';

/**
 * The runs of the Codex runner: started, ended, listed newest first. A start and an end each
 * record the channel's latest event sequence at that moment (start_sequence, end_sequence).
 */
export type RunsApi = {
	start(run: RunStart): Promise<void>;
	/** Fills in how a run ended; false when no run has this id. */
	end(id: string, end: RunEnd): Promise<boolean>;
	list(options?: {limit?: number}): Promise<RunRow[]>;
	get(id: string): Promise<RunRow | undefined>;
	/**
	 * The agent cursor: the channel's last run that finished its turn (outcome ok or partial) with a
	 * known end sequence, or undefined when none has. A run without explicit items catches up from there.
	 */
	lastFinished(channelId: string): Promise<RunRow | undefined>;
	/** Codex's process group, once it started: what must be killed if the run is abandoned. */
	setProcessGroup(id: string, group: number): Promise<void>;
	/**
	 * Runs without an end whose owner ran on this machine (a pid means nothing on another host):
	 * what the reaper of this machine may close.
	 */
	unfinished(): Promise<UnfinishedRun[]>;
	/** Every field the run changed (its writes, or the accepts of its proposals): from → to, and the value now (docs/review.md). */
	diff(id: string): Promise<RunDiff>;
	/** Sets back each field the run changed that nothing changed since, as one bulk edit of the person's; the rest are conflicts, left alone. */
	revert(id: string): Promise<RevertResult>;
};

/** The review queue (docs/review.md): proposals of runs in propose mode, and a person's decisions on them. */
export type ProposalsApi = {
	/** Open proposals by default, oldest first; by channel, run, item, status, and (with the channel) a query their items match. */
	list(query?: ProposalQuery): Promise<ProposalRow[]>;
	get(id: number): Promise<ProposalRow>;
	countOpen(channelId: string): Promise<number>;
	/**
	 * One bulk edit of the person's, in one transaction: each proposal written at its base version,
	 * or reported as a conflict when a field it sets changed since (overwritten only with `force`).
	 */
	accept(request: AcceptRequest): Promise<AcceptResult>;
	decline(ids: number[]): Promise<DeclineResult>;
	/** Per field, how many of the channel's (or one run's) proposals were accepted (auto among them), declined, or are open. */
	fieldCounts(query: FieldCountsQuery): Promise<ProposalFieldCounts[]>;
};

/** Bearer tokens of `sift serve` (docs/team-mode.md#security-model): only a hash of each secret is kept. */
export type TokensApi = {
	/** Returns the secret once. */
	create(request: TokenRequest): Promise<{token: string; info: TokenInfo}>;
	list(): Promise<TokenInfo[]>;
	/** Idempotent: the first revocation time stays. */
	revoke(name: string): Promise<TokenInfo>;
	/** Null for an unknown, revoked or expired secret; never writes. */
	verify(secret: string, now?: Date): Promise<TokenIdentity | null>;
	/** Notes a token's use (at most one write a minute per token); `now` for tests of that throttle. */
	touch(name: string, now?: Date): Promise<void>;
};

/** Stops a listener; resolves once nothing more will be delivered. */
export type Unlisten = () => Promise<void>;

export interface AsyncStore {
	readonly backend: 'sqlite' | 'postgres';
	/** Where the store lives: a file path, or the URL without its password. */
	readonly location: string;
	/** The store cannot be written by this process: reads are served, every write is refused. */
	readonly readOnly: boolean;
	/** What opening created (SQLite with `create: true`): a command that then fails removes it again. */
	readonly created: {file: boolean; dirs: string[]};

	close(): Promise<void>;
	/** Reaches the database once: throws `unavailable` while it cannot be reached (`GET /healthz`). */
	ping(): Promise<void>;
	/** Folds the write-ahead log into the database file (SQLite); nothing to do on PostgreSQL. */
	checkpoint(): Promise<void>;

	/** Every channel with its item count and latest sequence. */
	listChannels(): Promise<ChannelSummary[]>;
	/** Channel ids and names (and when each was made), without counting items: for choosing and checking a channel. */
	listChannelNames(): Promise<ChannelName[]>;
	/** One channel's item count and latest sequence. */
	channelSummary(channelId: string): Promise<ChannelSummary>;
	getChannel(channelId: string): Promise<Channel>;
	/** The channel with its derived lookups, for adapters that render schema-aware views. */
	loadedChannel(channelId: string): Promise<LoadedChannel>;

	/** A new channel and its items in one all-or-nothing transaction. */
	importChannel(source: AsyncImportSource): Promise<ImportResult>;

	/**
	 * Append and update an existing channel on a unique key field, all or nothing
	 * (store/upsert-rules.ts): new key values are created, known ones edited with actor import
	 * when they change. Any refused row, or a dry run, keeps nothing; the result counts each kind.
	 */
	upsertItems(request: UpsertRequest): Promise<UpsertResult>;

	/**
	 * Changes a channel's schema (a person's power: the MCP tools never call it): add a field or an
	 * option, rename an option's label, retire an option (moving its items with migrateTo), or set a
	 * field required, optional or a new config. A change that would leave items invalid is refused
	 * with their count and first names (schema_change_refused); each change appends channel.updated.
	 */
	changeChannel(channelId: string, change: SchemaChange, actor?: Actor): Promise<SchemaChangeResult>;

	createItem(channelId: string, values: unknown, actor: Actor): Promise<EditResult>;
	readItem(channelId: string, itemId: string): Promise<Item>;
	/** The items `name` names: by id, or by the value of a unique field (for `sift show BUG-0042`). */
	findItemsNamed(channelId: string, name: string): Promise<NameMatch[]>;
	/** idempotency → version → validation → merge → bump → event → follow-ups, all or nothing. */
	editItem(request: EditRequest): Promise<EditResult>;
	deleteItem(channelId: string, itemId: string, actor: Actor, expectedVersion?: number): Promise<DeleteResult>;

	/** One page newest first; `beforeId` is the last id seen, a cursor inserts and deletes cannot shift. */
	listPage(channelId: string, query?: PageQuery): Promise<Page>;
	/**
	 * Whole items (every value in full, formulas computed), oldest first unless `where` sorts, up to
	 * 500 a read: follow next_cursor for the rest (store/page-stream.ts items). What `sift export` streams.
	 */
	readItems(channelId: string, query?: ItemsQuery): Promise<ItemsPage>;
	/**
	 * A search for agents (store/search.ts): the query language, ranked by relevance (bm25,
	 * ts_rank_cd) over the newest matches when the query has words, else in the query's own order;
	 * up to 50 previews a page, each with its score, paged by before_id.
	 */
	searchItems(channelId: string, request: SearchQuery): Promise<SearchPage>;
	/**
	 * The channel's other items ranked by how much their long text resembles the item's title and
	 * long text (store/similar.ts): its most distinctive terms searched with bm25 / ts_rank_cd; up
	 * to 20 previews, each with its score and the shared terms. Never the item itself.
	 */
	similarItems(channelId: string, itemId: string, request?: SimilarQuery): Promise<SimilarPage>;
	/**
	 * A person's word that two items of the channel are not duplicates (store/not-duplicates.ts):
	 * kept both ways, left out of similarItems, evented as not_duplicate.marked on `itemId`.
	 */
	markNotDuplicate(channelId: string, itemId: string, otherId: string, actor?: Actor): Promise<NotDuplicateResult>;
	/** The items marked not a duplicate of this one. */
	notDuplicatesOf(channelId: string, itemId: string): Promise<string[]>;
	/** How many items match `where` (query language; its sort is ignored). */
	countMatches(channelId: string, where: string, now?: Date): Promise<number>;
	pollEvents(channelId: string, options?: {afterSequence?: number; limit?: number}): Promise<EventPage>;
	latestSequence(channelId: string): Promise<number>;

	listFollowUps(query?: FollowUpQuery): Promise<FollowUp[]>;
	/** `kind`: refusals or sync conflicts alone; absent: both. */
	countOpenFollowUps(channelId: string, kind?: FollowUpKind): Promise<number>;
	dismissFollowUp(id: number): Promise<FollowUp>;

	readonly runs: RunsApi;
	readonly tokens: TokensApi;
	readonly proposals: ProposalsApi;
	/** The two-way sync engine: links to trackers, the pull's three-way merge, the outbox to push (store/sync). */
	readonly sync: SyncApi;

	/**
	 * SQLite: writes waiting for another process's write lock give up now (`busy`), and later ones do
	 * not wait: for a process that is shutting down. Absent on PostgreSQL, whose waits end with the
	 * statement timeout.
	 */
	stopLockWaits?(): void;

	/**
	 * Push on PostgreSQL: `onSequence` gets a channel's new sequence after each commit. Notifications
	 * are a hint (one may be lost): readers still read by their cursor. Undefined on SQLite, where
	 * readers poll.
	 */
	readonly listen?: (channelId: string, onSequence: (sequence: number) => void) => Promise<Unlisten>;
}

export type AsyncStoreOptions = {
	busyTimeoutMs?: number;
	/** SQLite: the connection's page cache in KiB (default 16 MiB); `sift export` asks for 2 MiB, SQLite's own default. */
	pageCacheKiB?: number;
	/**
	 * SQLite: told each time a write has waited a moment for another process's write lock (a long
	 * import); the write goes on waiting, off the event loop, up to lockWaitMs.
	 */
	onLockWait?: () => void;
	/** SQLite: how long a write waits for another process's write lock before it fails with `busy` (default 30 s). */
	lockWaitMs?: number;
	/** Told before an existing store is upgraded to this sift's schema, which may take seconds (not for a new one). */
	onUpgrade?: (from: number, to: number) => void;
	/**
	 * Create the store when there is none: SQLite makes the file (0600, in folders made 0700),
	 * PostgreSQL sift's tables. Without it a missing file is refused (`not_found`), and a database
	 * without sift's tables too (`not_a_store`). Only import, demo and migrate pass it.
	 */
	create?: boolean;
	/** PostgreSQL: every statement is cancelled after this long, as `timeout` (default 30 s; 0: never). */
	statementTimeoutMs?: number;
	/** For benchmarks only: replaces validation. */
	validator?: Validator;
};
