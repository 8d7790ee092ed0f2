// The record store on PostgreSQL: the whole record contract (validation, versions, idempotency,
// gap-free events, follow-ups, runs) over a connection pool that stays private to this module.

import type pg from 'pg';
import type {AsyncImportSource, AsyncStore, AsyncStoreOptions, DeleteResult, ImportResult, ProposalsApi, RunsApi, SyncApi, TokensApi, Unlisten, UpsertRequest, UpsertResult} from '../contract.js';
import {pgSync} from './sync.js';
import {foldFieldCounts, type FieldCountsQuery, type ProposalQuery} from '../proposals.js';
import type {AcceptRequest} from '../review-plan.js';
import type {RunRow} from '../runs.js';
import {countOpenProposals, decisionRecords, listProposals, proposalsWithIds} from './proposals.js';
import {upsertItems} from './upsert.js';
import type {NameMatch} from '../lookup.js';
import type {LoadedChannel} from '../channels.js';
import {StoreError} from '../errors.js';
import {checkWriteScope} from '../grants.js';
import type {FollowUpQuery} from '../followups.js';
import type {ItemsPage, ItemsQuery, PageQuery} from '../pages.js';
import type {Actor, Channel, ChannelName, ChannelSummary, EditResult, EventPage, FollowUp, FollowUpKind, Item, Page} from '../types.js';
import type {EditRequest, Validator} from '../writes.js';
import {validateValues} from '../validate.js';
import {itemNotFound} from '../write-rules.js';
import {missingChannelIndexes, PgChannelCatalog} from './channels.js';
import {connectionError, inTransaction, isConnectionLoss, makePool, parseTarget, type Target} from './connect.js';
import {guard, readOnlyRole, storeFailure} from './failures.js';
import {applySchemaChange} from './schema-change.js';
import {changeChannel, type SchemaChange, type SchemaChangeResult} from '../schema-change.js';
import {latestSequence, pollEvents} from './events.js';
import {countOpenFollowUps, dismissFollowUp, listFollowUps} from './followups.js';
import {createIndexes, importChannel} from './import.js';
import {EventListener} from './listen.js';
import {itemsNamed} from './lookup.js';
import {countMatches, listPage, readItems, searchItems, similarItems} from './pages.js';
import type {SimilarPage, SimilarQuery} from '../similar.js';
import type {NotDuplicateResult} from '../not-duplicates.js';
import {markNotDuplicate, notDuplicatesOf} from './not-duplicates.js';
import type {SearchPage, SearchQuery} from '../search.js';
import {pgRuns} from './runs.js';
import {pgTokens} from './tokens.js';
import {migrate} from './schema.js';
import {findItem, pgItem, PgItemWriter} from './writes.js';

/** An API object whose every call has its failure translated; `writes` names the calls that write. */
function guarded<T extends object>(target: Target, api: T, writes: ReadonlySet<string>, readOnly: boolean): T {
	const wrapped: Record<string, unknown> = {};
	for (const [name, call] of Object.entries(api)) {
		const write = writes.has(name);
		wrapped[name] = async (...args: unknown[]) => {
			if (write && readOnly) throw readOnlyRole(target);
			return guard(target, write, async () => (call as (...a: unknown[]) => Promise<unknown>)(...args));
		};
	}

	return wrapped as T;
}

const RUN_WRITES = new Set(['start', 'end', 'setProcessGroup', 'revert']);
const PROPOSAL_WRITES = new Set(['accept', 'decline']);
const TOKEN_WRITES = new Set(['create', 'revoke', 'touch']);
const SYNC_WRITES = new Set(['link', 'unlink', 'saveState', 'applyRemote', 'addComments', 'markSending', 'markSent', 'markFailed', 'resolveConflict']);

class PgStore implements AsyncStore {
	readonly backend = 'postgres' as const;
	readonly location: string;
	readonly runs: RunsApi;
	readonly created = {file: false, dirs: []};
	readonly tokens: TokensApi;
	readonly proposals: ProposalsApi;
	readonly sync: SyncApi;
	readonly listen: (channelId: string, onSequence: (sequence: number) => void) => Promise<Unlisten>;
	private readonly channels: PgChannelCatalog;
	private readonly writer: PgItemWriter;
	private readonly events: EventListener;
	private readonly validate: Validator;

	/** `readOnly`: the role may not write sift's tables (it has SELECT only); every write is refused up front. */
	constructor(private readonly target: Target, private readonly pool: pg.Pool, options: AsyncStoreOptions, readonly readOnly: boolean) {
		this.location = target.display;
		this.validate = options.validator ?? validateValues;
		this.channels = new PgChannelCatalog(pool);
		this.writer = new PgItemWriter(pool, this.validate, this.channels);
		this.runs = guarded(target, {...pgRuns(pool), diff: async (id: string) => this.writer.runDiff(await this.runNamed(id)), revert: async (id: string) => this.writer.revert(await this.runNamed(id))}, RUN_WRITES, readOnly);
		this.proposals = guarded(target, {
			list: async (query: ProposalQuery = {}) => listProposals(pool, query, query.channelId === undefined || query.where === undefined ? undefined : await this.channels.get(query.channelId)),
			get: async (id: number) => {
				const row = Number.isSafeInteger(id) ? (await proposalsWithIds(pool, [id]))[0] : undefined;
				if (!row) throw new StoreError({error: 'not_found', message: `no proposal ${JSON.stringify(id)}; \`sift proposals\` lists them`});
				return row;
			},
			countOpen: async (channelId: string) => countOpenProposals(pool, channelId),
			accept: async (request: AcceptRequest) => this.writer.accept(request),
			decline: async (ids: number[]) => this.writer.decline(ids),
			fieldCounts: async (query: FieldCountsQuery) => {
				await this.channels.get(query.channelId);
				return foldFieldCounts(await decisionRecords(pool, query));
			},
		}, PROPOSAL_WRITES, readOnly);
		this.tokens = guarded(target, pgTokens(pool), TOKEN_WRITES, readOnly);
		this.sync = guarded(target, pgSync(pool, this.channels, this.writer, this.validate), SYNC_WRITES, readOnly);
		this.events = new EventListener(target);
		this.listen = async (channelId, onSequence) => this.read(async () => {
			await this.channels.get(channelId);
			return this.events.listen(channelId, onSequence);
		});
	}

	private async runNamed(id: string): Promise<RunRow> {
		const run = typeof id === 'string' ? await pgRuns(this.pool).get(id) : undefined;
		if (!run) throw new StoreError({error: 'not_found', message: `no run ${JSON.stringify(id)?.slice(0, 80)} in this database; \`sift runs\` lists them`});
		return run;
	}

	private read<T>(work: () => Promise<T>): Promise<T> {
		return guard(this.target, false, work);
	}

	private write<T>(work: () => Promise<T>): Promise<T> {
		if (this.readOnly) return Promise.reject(readOnlyRole(this.target));
		return guard(this.target, true, work);
	}

	async close(): Promise<void> {
		await this.events.close();
		await this.pool.end();
	}

	async checkpoint(): Promise<void> {}

	/** One round trip: throws `unavailable` while the server cannot be reached. */
	async ping(): Promise<void> {
		await this.read(async () => {
			await this.pool.query('SELECT 1');
		});
	}

	findItemsNamed(channelId: string, name: string): Promise<NameMatch[]> {
		return this.read(async () => itemsNamed(this.pool, await this.channels.get(channelId), name));
	}

	searchItems(channelId: string, request: SearchQuery): Promise<SearchPage> {
		return this.read(async () => searchItems(this.pool, await this.channels.get(channelId), request));
	}

	similarItems(channelId: string, itemId: string, request: SimilarQuery = {}): Promise<SimilarPage> {
		return this.read(async () => similarItems(this.pool, await this.channels.get(channelId), itemId, request));
	}

	markNotDuplicate(channelId: string, itemId: string, otherId: string, actor: Actor = {kind: 'human'}): Promise<NotDuplicateResult> {
		return this.write(async () => {
			const channel = await this.channels.get(channelId);
			return inTransaction(this.pool, client => markNotDuplicate(client, channel.id, itemId, otherId, actor, new Date().toISOString()));
		});
	}

	notDuplicatesOf(channelId: string, itemId: string): Promise<string[]> {
		return this.read(async () => notDuplicatesOf(this.pool, (await this.channels.get(channelId)).id, itemId));
	}

	countMatches(channelId: string, where: string, now?: Date): Promise<number> {
		return this.read(async () => countMatches(this.pool, await this.channels.get(channelId), where, now));
	}

	async changeChannel(channelId: string, change: SchemaChange, actor?: Actor): Promise<SchemaChangeResult> {
		return changeChannel(this, {apply: (before, plan, by) => this.write(async () => {
			try {
				return await applySchemaChange(this.pool, before, plan, by);
			} finally {
				this.channels.forget(channelId);
			}
		})}, channelId, change, actor);
	}

	readItems(channelId: string, query: ItemsQuery = {}): Promise<ItemsPage> {
		return this.read(async () => readItems(this.pool, await this.channels.get(channelId), query));
	}

	listChannels(): Promise<ChannelSummary[]> {
		return this.read(async () => this.channels.summaries());
	}

	listChannelNames(): Promise<ChannelName[]> {
		return this.read(async () => this.channels.names());
	}

	channelSummary(channelId: string): Promise<ChannelSummary> {
		return this.read(async () => {
			await this.channels.get(channelId);
			return (await this.channels.summaries(channelId))[0]!;
		});
	}

	getChannel(channelId: string): Promise<Channel> {
		return this.read(async () => {
			const {id, name, fields} = await this.channels.get(channelId);
			return {id, name, fields};
		});
	}

	loadedChannel(channelId: string): Promise<LoadedChannel> {
		return this.read(async () => this.channels.get(channelId));
	}

	importChannel(source: AsyncImportSource): Promise<ImportResult> {
		return this.write(async () => {
			const result = await importChannel(this.pool, this.validate, source);
			// Fresh statistics let the planner use the new channel's indexes at once.
			await this.pool.query('ANALYZE items').catch(() => {});
			return result;
		});
	}

	upsertItems(request: UpsertRequest): Promise<UpsertResult> {
		return this.write(async () => upsertItems(this.pool, this.channels, this.writer, request));
	}

	createItem(channelId: string, values: unknown, actor: Actor): Promise<EditResult> {
		return this.write(async () => this.writer.create(await this.channels.get(channelId), values, actor));
	}

	readItem(channelId: string, itemId: string): Promise<Item> {
		return this.read(async () => {
			const channel = await this.channels.get(channelId);
			const row = await findItem(this.pool, channelId, itemId);
			if (!row) {
				throw itemNotFound(channelId, itemId);
			}

			return pgItem(channel, row);
		});
	}

	async editItem(request: EditRequest): Promise<EditResult> {
		checkWriteScope(request.grants);
		return this.write(async () => this.writer.edit(await this.channels.get(request.channelId), request));
	}

	deleteItem(channelId: string, itemId: string, actor: Actor, expectedVersion?: number): Promise<DeleteResult> {
		return this.write(async () => this.writer.delete(await this.channels.get(channelId), itemId, actor, expectedVersion));
	}

	listPage(channelId: string, query: PageQuery = {}): Promise<Page> {
		return this.read(async () => listPage(this.pool, await this.channels.get(channelId), query));
	}

	pollEvents(channelId: string, options: {afterSequence?: number; limit?: number} = {}): Promise<EventPage> {
		return this.read(async () => {
			await this.channels.get(channelId);
			return pollEvents(this.pool, channelId, options);
		});
	}

	latestSequence(channelId: string): Promise<number> {
		return this.read(async () => {
			await this.channels.get(channelId);
			return latestSequence(this.pool, channelId);
		});
	}

	listFollowUps(query: FollowUpQuery = {}): Promise<FollowUp[]> {
		return this.read(async () => listFollowUps(this.pool, query));
	}

	countOpenFollowUps(channelId: string, kind?: FollowUpKind): Promise<number> {
		return this.read(async () => countOpenFollowUps(this.pool, channelId, kind));
	}

	dismissFollowUp(id: number): Promise<FollowUp> {
		if (!Number.isSafeInteger(id)) {
			return Promise.reject(new StoreError({error: 'not_found', message: `follow-up ${JSON.stringify(id)} does not exist`}));
		}

		return this.write(async () => inTransaction(this.pool, client => dismissFollowUp(client, id, new Date().toISOString())));
	}
}

/** True when the role may write sift's rows (INSERT on items and events); a SELECT-only role opens the store read-only. */
async function mayWrite(client: pg.ClientBase): Promise<boolean> {
	const {rows} = await client.query<{writable: boolean}>("SELECT has_table_privilege('items', 'INSERT') AND has_table_privilege('events', 'INSERT') AND has_table_privilege('channels', 'UPDATE') AS writable");
	return rows[0]?.writable === true;
}

async function buildMissingIndexes(client: pg.ClientBase): Promise<void> {
	const missing = await missingChannelIndexes(client);
	if (missing.length === 0) return;
	await client.query('BEGIN');
	try {
		await client.query('SET LOCAL statement_timeout = 0');
		await createIndexes(client, missing);
		await client.query('COMMIT');
	} catch (error) {
		await client.query('ROLLBACK').catch(() => {});
		throw error;
	}
}

/**
 * Opens the store at a postgres:// URL: checks the URL, connects, and migrates when a migration is
 * due; runs no DDL otherwise. A database without sift's tables is refused (`not_a_store`) unless
 * `create`. One line on any failure, nothing written.
 */
export async function openPostgresStore(url: string, options: AsyncStoreOptions = {}): Promise<AsyncStore> {
	const target = parseTarget(url, options.statementTimeoutMs);
	const pool = makePool(target);
	let client: pg.PoolClient;
	try {
		client = await pool.connect();
	} catch (error) {
		await pool.end().catch(() => {});
		throw connectionError(target, error);
	}

	let readOnly: boolean;
	try {
		await migrate(client, {create: options.create === true, where: target.where, display: target.display, onUpgrade: options.onUpgrade});
		readOnly = !(await mayWrite(client));
		// import, demo and migrate also build the channel indexes a role without the right left out.
		if (options.create && !readOnly) await buildMissingIndexes(client);
	} catch (error) {
		client.release(true);
		await pool.end().catch(() => {});
		if (error instanceof StoreError) throw error;
		throw isConnectionLoss(error) ? connectionError(target, error) : storeFailure(target, error, false);
	}

	client.release();

	return new PgStore(target, pool, options, readOnly);
}
