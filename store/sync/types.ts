// The sync engine's shapes (docs/architecture.md#the-sync-engine): a channel's link to a tracker,
// the records an adapter pulls, the outbox of changes to push, and the SyncApi both backends
// implement (store/sqlite/sync.ts, store/postgres/sync.ts). Types only; the rules are merge.ts.

import type {FollowUp} from '../types.js';

export type TrackerKind = 'github' | 'redmine';

/** How one sift field maps to the tracker: 'scalar' fields conflict as a whole, 'set' fields (multi_select) merge per element. */
export type SyncedField = {key: string; remote: string; kind: 'scalar' | 'set'};

export type SyncLink = {
	channel_id: string;
	tracker: TrackerKind;
	/** 'OWNER/REPO' for GitHub; 'https://host/redmine#project' for Redmine. */
	remote: string;
	/** The unique sift field holding the remote id (GitHub: 'number'). */
	key_field: string;
	/** The synced fields; every other field stays local. */
	fields: SyncedField[];
	/** The adapter's own cursor (since, etags, …), opaque to the engine. */
	state: Record<string, unknown>;
	created_at: string;
	last_pull_at: string | null;
	last_push_at: string | null;
};

/** One record as the tracker has it now, already translated to sift values of the synced fields. */
export type RemoteRecord = {
	/** E.g. '1234' (a GitHub issue number), as text. */
	remote_id: string;
	/** Sift field key → sift value, for synced fields (and read-only mapped fields). */
	values: Record<string, unknown>;
	/** The tracker's times, kept as the item's times. */
	created_at: string;
	updated_at: string;
	/** Read-only; replaces the item's stored comments when given. */
	comments?: RemoteComment[];
	/** The record no longer exists there. */
	gone?: 'deleted' | 'transferred';
};

export type RemoteComment = {remote_id: string; author: string | null; body: string; created_at: string; updated_at: string};

/** Comments of one record, by its remote id (SyncApi.addComments). */
export type RemoteComments = {remote_id: string; comments: RemoteComment[]};

export type CommentsQuery = {limit?: number};

/** A record's comments as read back (SyncApi.itemComments): the newest `limit`, oldest first; `total`: how many it has. */
export type ItemComments = {comments: RemoteComment[]; total: number};

/** One pending change to send: a field of an item, the value sift wants there, and the base it was made from. */
export type OutboxEntry = {
	id: number;
	channel_id: string;
	item_id: string;
	remote_id: string | null;
	field: string;
	kind: 'scalar' | 'set';
	/** The last value both sides agreed on. */
	base: unknown;
	/** The value sift wants on the tracker (the latest local value of the field). */
	value: unknown;
	/** 'sending' = journaled before the request (the crash window); 'held' = in conflict. */
	state: 'pending' | 'sending' | 'held';
	attempts: number;
	last_error: string | null;
	created_at: string;
};

export type PullOutcome = {created: number; updated: number; unchanged: number; conflicts: number; gone: number; comments: number};

export type SyncStatus = {link: SyncLink; pending: number; held: number; conflicts: number; local_only: string[]};

export type ConflictChoice = {side: 'ours'} | {side: 'theirs'} | {value: unknown};

/** What `link` takes: the link without its times, its state optional. */
export type NewSyncLink = Omit<SyncLink, 'created_at' | 'last_pull_at' | 'last_push_at' | 'state'> & {state?: Record<string, unknown>};

export interface SyncApi {
	link(link: NewSyncLink): Promise<SyncLink>;
	/** Drops the link, its bases and its outbox; the items stay. */
	unlink(channelId: string): Promise<void>;
	links(): Promise<SyncLink[]>;
	getLink(channelId: string): Promise<SyncLink | undefined>;
	saveState(channelId: string, state: Record<string, unknown>, at: {pulled?: string; pushed?: string}): Promise<void>;
	/** Three-way per synced field against the base (store/sync/merge.ts), one transaction per call, actor 'sync'. */
	applyRemote(channelId: string, records: RemoteRecord[]): Promise<PullOutcome>;
	/**
	 * Adds the tracker's comments to the records of these remote ids (a comment already kept is
	 * replaced by its remote id), one transaction per call; a remote id with no item is skipped.
	 * A first pull streams the repository's comment listing through it a page at a time, after the
	 * records came with empty lists. Returns how many comments were written.
	 */
	addComments(channelId: string, lists: RemoteComments[]): Promise<number>;
	/** Entries to send, oldest first ('pending' and 'sending'; never 'held'). */
	outbox(channelId: string, limit?: number): Promise<OutboxEntry[]>;
	/** Journal: mark entries 'sending' BEFORE the request is made. */
	markSending(ids: number[]): Promise<void>;
	/** After the tracker confirmed: the entry is gone, the field's base becomes `remoteValue`. Idempotent. */
	markSent(id: number, remoteValue: unknown): Promise<void>;
	/** The tracker refused: back to pending with the error, or (with followUp) held plus a follow-up naming field and message. */
	markFailed(id: number, error: string, options?: {followUp?: boolean}): Promise<void>;
	status(channelId: string): Promise<SyncStatus>;
	/** Resolves a sync_conflict follow-up: writes the chosen value locally (actor human) and queues it for the tracker. */
	resolveConflict(followUpId: number, choice: ConflictChoice): Promise<FollowUp>;
	/** A record's pulled comments, read-only (store/sync/comments.ts): the newest `limit` (50 unless asked), oldest first, and their total. */
	itemComments(itemId: string, query?: CommentsQuery): Promise<ItemComments>;
}
