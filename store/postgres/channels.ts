// Channels on PostgreSQL: read once per store (a channel never changes after import), plus the
// per-channel partial indexes that sorts, terms and uniqueness checks use.

import type pg from 'pg';
import {LoadedChannels, type LoadedChannel} from '../channels.js';
import {notFound} from '../errors.js';
import {pgChannelIndexes} from './query.js';
import type {Channel, ChannelName, ChannelSummary} from '../types.js';

/** A stored value as jsonb; keys are checked identifiers (a-z, 0-9, _), so inlining them is safe. */
export {pgValueSql as valueSql} from './query.js';

/** A channel id as an SQL literal; ids are checked slugs (a-z, 0-9, _, -). */
export const channelLiteral = (id: string) => `'${id}'`;

/**
 * The partial indexes a channel's rows need (store/query/sql.ts channelIndexes): one per sortable
 * field on (order key, seq) for sorts and terms, and the jsonb value of each unique field.
 */
export const channelIndexSql = (channel: Channel): string[] => pgChannelIndexes(channel).map(index => index.sql);

/** The CREATE INDEX statements of every channel's indexes that are not there (an import by a role that could not make them). */
export async function missingChannelIndexes(client: pg.ClientBase): Promise<string[]> {
	const {rows: channels} = await client.query<Channel>('SELECT id, name, fields FROM channels');
	const {rows: present} = await client.query<{name: string}>("SELECT relname AS name FROM pg_class WHERE relkind = 'i' AND relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())");
	const have = new Set(present.map(row => row.name));
	return channels.flatMap(channel => pgChannelIndexes(channel)).filter(index => !have.has(index.name)).map(index => index.sql);
}

/**
 * The channels this store read, with their stored fields' text: a schema change by any process
 * rewrites it, so each read compares it (one indexed row) and loads the channel again when it differs.
 */
export class PgChannelCatalog {
	private readonly cache = new LoadedChannels();

	constructor(private readonly pool: pg.Pool) {}

	async get(id: string, client: pg.ClientBase | pg.Pool = this.pool): Promise<LoadedChannel> {
		const {rows} = await client.query<{id: string; name: string; fields: string}>('SELECT id, name, fields::text AS fields FROM channels WHERE id = $1', [id]);
		if (rows.length === 0) {
			this.cache.forget(id);
			throw notFound(`channel ${JSON.stringify(id)?.slice(0, 80)} does not exist`);
		}

		const row = rows[0]!;
		return this.cache.fromRow(row);
	}

	/** Drops a cached channel, so the next read sees what is stored (after an upsert grew its options). */
	forget(id: string): void {
		this.cache.forget(id);
	}

	async names(): Promise<ChannelName[]> {
		return (await this.pool.query<ChannelName>('SELECT id, name, created_at FROM channels ORDER BY id')).rows;
	}

	async summaries(onlyId?: string): Promise<ChannelSummary[]> {
		// item_count is kept per write (store/postgres/schema.ts, step 9).
		const {rows} = await this.pool.query<ChannelSummary>(`SELECT c.id, c.name, c.last_sequence AS latest_sequence, c.item_count
			FROM channels c WHERE $1::text IS NULL OR c.id = $1 ORDER BY c.id`, [onlyId ?? null]);
		return rows.map(({id, name, item_count, latest_sequence}) => ({id, name, item_count, latest_sequence}));
	}
}
