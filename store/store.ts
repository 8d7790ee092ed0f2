import {ChannelCatalog, type LoadedChannel} from './channels.js';
import {openDatabase, type Db} from './database.js';
import {pollEvents, latestSequence} from './events.js';
import {countOpenFollowUps, dismissFollowUp, listFollowUps, type FollowUpQuery} from './followups.js';
import {importChannel, type ImportSource} from './import.js';
import {itemFromRow, type ItemRow} from './items.js';
import {listPage, type PageQuery} from './pages.js';
import type {Actor, Channel, ChannelSummary, EditResult, EventPage, FollowUp, Item} from './types.js';
import {ItemWriter, type EditRequest, type Validator} from './writes.js';
import {notFound} from './errors.js';
import {createToken, listTokens, revokeToken, touchToken, verifyToken, type TokenIdentity, type TokenInfo, type TokenRequest} from './tokens.js';

export type StoreOptions = {busyTimeoutMs?: number; /** For benchmarks only: replaces validation. */ validator?: Validator};

/** The record store: one SQLite file, every read and write of SPEC §2. */
export class Store {
	readonly db: Db;
	private readonly channels: ChannelCatalog;
	private readonly writer: ItemWriter;

	constructor(readonly path: string, options: StoreOptions = {}) {
		this.db = openDatabase(path, options);
		this.channels = new ChannelCatalog(this.db);
		this.writer = new ItemWriter(this.db, this.channels, options.validator);
	}

	close(): void {
		this.db.close();
	}

	/** Every channel with its item count and latest sequence. */
	listChannels(): ChannelSummary[] {
		return this.channels.summaries();
	}

	/** Channel ids and names, without counting items: for choosing and checking a channel. */
	listChannelNames(): Array<{id: string; name: string}> {
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
		return importChannel(this.db, this.channels, this.writer, source);
	}

	createItem(channelId: string, values: unknown, actor: Actor): EditResult {
		return this.writer.create(channelId, values, actor);
	}

	readItem(channelId: string, itemId: string): Item {
		const channel = this.channels.get(channelId);
		const row = this.db.prepare('SELECT * FROM items WHERE id = ? AND channel_id = ?').get(itemId, channelId) as ItemRow | undefined;
		if (!row) {
			throw notFound(`item ${JSON.stringify(itemId)?.slice(0, 80)} does not exist in channel ${channelId}`);
		}

		return itemFromRow(channel, row);
	}

	editItem(request: EditRequest): EditResult {
		return this.writer.edit(request);
	}

	deleteItem(channelId: string, itemId: string, actor: Actor, expectedVersion?: number) {
		return this.writer.delete(channelId, itemId, actor, expectedVersion);
	}

	listPage(channelId: string, query: PageQuery = {}) {
		return listPage(this.db, this.channels.get(channelId), query);
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

	countOpenFollowUps(channelId: string): number {
		return countOpenFollowUps(this.db, channelId);
	}

	dismissFollowUp(id: number): FollowUp {
		return dismissFollowUp(this.db, id, new Date().toISOString());
	}

	/** The channel with its derived lookups, for adapters that render schema-aware views. */
	loadedChannel(channelId: string): LoadedChannel {
		return this.channels.get(channelId);
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
