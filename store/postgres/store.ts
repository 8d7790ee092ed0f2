// The record store on PostgreSQL: the whole record contract (validation, versions, idempotency,
// gap-free events, follow-ups, runs) over a connection pool that stays private to this module.

import type pg from 'pg';
import type {AsyncImportSource, AsyncStore, AsyncStoreOptions, DeleteResult, ImportResult, RunsApi, TokensApi, Unlisten} from '../api.js';
import type {NameMatch} from '../lookup.js';
import type {LoadedChannel} from '../channels.js';
import {invalidArgument, StoreError} from '../errors.js';
import type {FollowUpQuery} from '../followups.js';
import type {ItemsPage, ItemsQuery, PageQuery} from '../pages.js';
import type {Actor, Channel, ChannelSummary, EditResult, EventPage, FollowUp, Item, Page} from '../types.js';
import type {EditRequest, Validator} from '../writes.js';
import {validateValues} from '../validate.js';
import {itemNotFound} from '../write-rules.js';
import {PgChannelCatalog} from './channels.js';
import {applySchemaChange} from './schema-change.js';
import {changeChannel, type SchemaChange, type SchemaChangeResult} from '../schema-change.js';
import {connectionError, inTransaction, makePool, parseTarget, type Target} from './connect.js';
import {latestSequence, pollEvents} from './events.js';
import {countOpenFollowUps, dismissFollowUp, listFollowUps} from './followups.js';
import {importChannel} from './import.js';
import {EventListener} from './listen.js';
import {itemsNamed} from './lookup.js';
import {countMatches, listPage, readItems} from './pages.js';
import {pgRuns} from './runs.js';
import {pgTokens} from './tokens.js';
import {migrate} from './schema.js';
import {findItem, pgItem, PgItemWriter} from './writes.js';

/** PostgreSQL refusals that are the caller's input, not the store's fault, as one clear line. */
function translate(error: unknown): unknown {
	const code = (error as {code?: string} | undefined)?.code;
	if (code === '22P05' || code === '22021') {
		return invalidArgument('values contain a character PostgreSQL cannot store (\\u0000)');
	}

	return error;
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
	try {
		return await work();
	} catch (error) {
		throw translate(error);
	}
}

class PgStore implements AsyncStore {
	readonly backend = 'postgres' as const;
	readonly location: string;
	readonly runs: RunsApi;
	readonly readOnly = false;
	readonly created = {file: false, dirs: []};
	readonly tokens: TokensApi;
	readonly listen: (channelId: string, onSequence: (sequence: number) => void) => Promise<Unlisten>;
	private readonly channels: PgChannelCatalog;
	private readonly writer: PgItemWriter;
	private readonly events: EventListener;
	private readonly validate: Validator;

	constructor(target: Target, private readonly pool: pg.Pool, options: AsyncStoreOptions) {
		this.location = target.display;
		this.validate = options.validator ?? validateValues;
		this.channels = new PgChannelCatalog(pool);
		this.writer = new PgItemWriter(pool, this.validate);
		this.runs = pgRuns(pool);
		this.tokens = pgTokens(pool);
		this.events = new EventListener(target);
		this.listen = async (channelId, onSequence) => {
			await this.channels.get(channelId);
			return this.events.listen(channelId, onSequence);
		};
	}

	async close(): Promise<void> {
		await this.events.close();
		await this.pool.end();
	}

	async checkpoint(): Promise<void> {}

	async findItemsNamed(channelId: string, name: string): Promise<NameMatch[]> {
		return itemsNamed(this.pool, await this.channels.get(channelId), name);
	}

	async changeChannel(channelId: string, change: SchemaChange, actor?: Actor): Promise<SchemaChangeResult> {
		return changeChannel(this, {apply: async (before, plan, by) => {
			try {
				return await applySchemaChange(this.pool, before, plan, by);
			} finally {
				this.channels.forget(channelId);
			}
		}}, channelId, change, actor);
	}

	async readItems(channelId: string, query: ItemsQuery = {}): Promise<ItemsPage> {
		return readItems(this.pool, await this.channels.get(channelId), query);
	}

	async countMatches(channelId: string, where: string, now?: Date): Promise<number> {
		return countMatches(this.pool, await this.channels.get(channelId), where, now);
	}

	listChannels(): Promise<ChannelSummary[]> {
		return this.channels.summaries();
	}

	listChannelNames(): Promise<Array<{id: string; name: string}>> {
		return this.channels.names();
	}

	async channelSummary(channelId: string): Promise<ChannelSummary> {
		await this.channels.get(channelId);
		return (await this.channels.summaries(channelId))[0]!;
	}

	async getChannel(channelId: string): Promise<Channel> {
		const {id, name, fields} = await this.channels.get(channelId);
		return {id, name, fields};
	}

	loadedChannel(channelId: string): Promise<LoadedChannel> {
		return this.channels.get(channelId);
	}

	importChannel(source: AsyncImportSource): Promise<ImportResult> {
		return guarded(async () => {
			const result = await importChannel(this.pool, this.validate, source);
			// Fresh statistics let the planner use the new channel's indexes at once.
			await this.pool.query('ANALYZE items').catch(() => {});
			return result;
		});
	}

	async createItem(channelId: string, values: unknown, actor: Actor): Promise<EditResult> {
		const channel = await this.channels.get(channelId);
		return guarded(() => this.writer.create(channel, values, actor));
	}

	async readItem(channelId: string, itemId: string): Promise<Item> {
		const channel = await this.channels.get(channelId);
		const row = await findItem(this.pool, channelId, itemId);
		if (!row) {
			throw itemNotFound(channelId, itemId);
		}

		return pgItem(channel, row);
	}

	async editItem(request: EditRequest): Promise<EditResult> {
		const channel = await this.channels.get(request.channelId);
		return guarded(() => this.writer.edit(channel, request));
	}

	async deleteItem(channelId: string, itemId: string, actor: Actor, expectedVersion?: number): Promise<DeleteResult> {
		const channel = await this.channels.get(channelId);
		return this.writer.delete(channel, itemId, actor, expectedVersion);
	}

	async listPage(channelId: string, query: PageQuery = {}): Promise<Page> {
		return listPage(this.pool, await this.channels.get(channelId), query);
	}

	async pollEvents(channelId: string, options: {afterSequence?: number; limit?: number} = {}): Promise<EventPage> {
		await this.channels.get(channelId);
		return pollEvents(this.pool, channelId, options);
	}

	async latestSequence(channelId: string): Promise<number> {
		await this.channels.get(channelId);
		return latestSequence(this.pool, channelId);
	}

	listFollowUps(query: FollowUpQuery = {}): Promise<FollowUp[]> {
		return listFollowUps(this.pool, query);
	}

	countOpenFollowUps(channelId: string): Promise<number> {
		return countOpenFollowUps(this.pool, channelId);
	}

	dismissFollowUp(id: number): Promise<FollowUp> {
		if (!Number.isSafeInteger(id)) {
			return Promise.reject(new StoreError({error: 'not_found', message: `follow-up ${JSON.stringify(id)} does not exist`}));
		}

		return inTransaction(this.pool, client => dismissFollowUp(client, id, new Date().toISOString()));
	}
}

/** Opens the store at a postgres:// URL: checks the URL, connects, migrates. One line on any failure, nothing written. */
export async function openPostgresStore(url: string, options: AsyncStoreOptions = {}): Promise<AsyncStore> {
	const target = parseTarget(url);
	const pool = makePool(target);
	let client: pg.PoolClient;
	try {
		client = await pool.connect();
	} catch (error) {
		await pool.end().catch(() => {});
		throw connectionError(target, error);
	}

	try {
		await migrate(client, target.where);
	} catch (error) {
		client.release(true);
		await pool.end().catch(() => {});
		throw error instanceof StoreError ? error : connectionError(target, error);
	}

	client.release();

	return new PgStore(target, pool, options);
}
