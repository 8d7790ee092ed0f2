// Channels on PostgreSQL: read once per store (a channel never changes after import), plus the
// per-channel partial indexes that filters and uniqueness checks use.

import {createHash} from 'node:crypto';
import type pg from 'pg';
import {FILTERABLE_TYPES, loadChannel, type LoadedChannel} from '../channels.js';
import {notFound} from '../errors.js';
import type {Channel, ChannelSummary, Field} from '../types.js';

/** A stored value as jsonb; keys are checked identifiers (a-z, 0-9, _), so inlining them is safe. */
export const valueSql = (key: string) => `(data->'${key}')`;

/** A channel id as an SQL literal; ids are checked slugs (a-z, 0-9, _, -). */
export const channelLiteral = (id: string) => `'${id}'`;

/** Index names stay under PostgreSQL's 63 characters and distinct however long the ids are. */
function indexName(channelId: string, key: string): string {
	const readable = `items_${channelId}_${key}`.replaceAll(/\W/g, '_').slice(0, 40);
	return `${readable}_${createHash('sha1').update(`${channelId}\u0000${key}`).digest('hex').slice(0, 12)}`;
}

/** The indexes a channel's unique and filterable fields need: one partial index per (channel, key). */
export function channelIndexSql(channel: Channel): string[] {
	return channel.fields
		.filter(field => field.is_unique || FILTERABLE_TYPES.has(field.type))
		.map(field => `CREATE INDEX IF NOT EXISTS "${indexName(channel.id, field.key)}" ON items (${valueSql(field.key)}, seq) WHERE channel_id = ${channelLiteral(channel.id)}`);
}

export class PgChannelCatalog {
	private readonly cache = new Map<string, LoadedChannel>();

	constructor(private readonly pool: pg.Pool) {}

	async get(id: string, client: pg.ClientBase | pg.Pool = this.pool): Promise<LoadedChannel> {
		const cached = this.cache.get(id);
		if (cached) {
			return cached;
		}

		const {rows} = await client.query<{id: string; name: string; fields: Field[]}>('SELECT id, name, fields FROM channels WHERE id = $1', [id]);
		if (rows.length === 0) {
			throw notFound(`channel ${JSON.stringify(id)?.slice(0, 80)} does not exist`);
		}

		const channel = loadChannel(rows[0]!);
		this.cache.set(id, channel);
		return channel;
	}

	async names(): Promise<Array<{id: string; name: string}>> {
		return (await this.pool.query<{id: string; name: string}>('SELECT id, name FROM channels ORDER BY id')).rows;
	}

	async summaries(onlyId?: string): Promise<ChannelSummary[]> {
		const {rows} = await this.pool.query<ChannelSummary>(`SELECT c.id, c.name, c.last_sequence AS latest_sequence,
			(SELECT count(*) FROM items i WHERE i.channel_id = c.id) AS item_count
			FROM channels c WHERE $1::text IS NULL OR c.id = $1 ORDER BY c.id`, [onlyId ?? null]);
		return rows.map(({id, name, item_count, latest_sequence}) => ({id, name, item_count, latest_sequence}));
	}
}
