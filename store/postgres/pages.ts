// Pages on PostgreSQL: keyset paging newest first on (channel_id, seq), with the same before_id
// cursor as the SQLite store; filters use the channel's partial indexes on (data->'key', seq).

import type pg from 'pg';
import type {LoadedChannel} from '../channels.js';
import {seqOfItemId} from '../items.js';
import {checkLimit, PAGE_LIMIT, previewOf, schemaOf, type PageQuery} from '../pages.js';
import type {ItemPreview, Page, Values} from '../types.js';
import {checkFilter, searchKeys} from '../write-rules.js';
import {channelLiteral, valueSql} from './channels.js';

type PageRow = {latest: number; seq: number | null; id: string; version: number; created_at: string; updated_at: string; data: Values};

export async function listPage(pool: pg.Pool, channel: LoadedChannel, query: PageQuery = {}): Promise<Page> {
	const limit = checkLimit(query.limit ?? PAGE_LIMIT, PAGE_LIMIT);
	const before = query.beforeId === undefined || query.beforeId === null ? Number.MAX_SAFE_INTEGER : seqOfItemId(query.beforeId, 'before_id');
	const params: unknown[] = [before, limit + 1];
	const conditions: string[] = [];
	for (const {key, value} of checkFilter(channel, query.filter)) {
		params.push(JSON.stringify(value));
		conditions.push(`${valueSql(key)} = $${params.length}::jsonb`);
	}

	const keys = searchKeys(channel, query.search);
	if (keys !== undefined) {
		params.push((query.search as string).toLowerCase());
		conditions.push(keys.length === 0 ? 'false' : `(${keys.map(key => `strpos(lower(data->>'${key}'), $${params.length}) > 0`).join(' OR ')})`);
	}

	// One statement, one snapshot: the items and latest_sequence agree, so a reader polling from
	// latest_sequence never misses a write committed in between. The channel id is a checked slug,
	// inlined so the planner can match the channel's partial indexes.
	const {rows} = await pool.query<PageRow>(`SELECT c.last_sequence AS latest, p.* FROM channels c
		LEFT JOIN LATERAL (
			SELECT seq, id, version, created_at, updated_at, data FROM items
			WHERE channel_id = ${channelLiteral(channel.id)} AND seq < $1${conditions.map(condition => ` AND ${condition}`).join('')}
			ORDER BY seq DESC LIMIT $2
		) p ON true
		WHERE c.id = ${channelLiteral(channel.id)}`, params);
	const found = rows.filter(row => row.seq !== null);
	const items: ItemPreview[] = found.slice(0, limit).map(row => ({
		id: row.id,
		version: row.version,
		updated_at: row.updated_at,
		preview: previewOf(channel, row.data, row.created_at),
	}));
	return {
		schema: schemaOf(channel),
		items,
		next_before_id: found.length > limit ? items.at(-1)!.id : null,
		latest_sequence: rows[0]?.latest ?? 0,
	};
}
