import type {Db} from './database.js';
import {notFound, quote} from './errors.js';
import {parseFormula, type FormulaNode} from './formula.js';
import type {Channel, ChannelSummary, Field} from './types.js';

/** A channel as the store uses it: the schema plus what is derived from it once. */
export type LoadedChannel = Channel & {
	fieldsByKey: Map<string, Field>;
	formulas: Array<{key: string; node: FormulaNode}>;
};

/** Field types whose values can be filtered by equality and are indexed for it. */
export const FILTERABLE_TYPES = new Set(['select', 'boolean']);

/** SQL for a stored value; keys are checked identifiers, so inlining them is safe. */
export const valueSql = (key: string) => `json_extract(data, '$.${key}')`;

export function loadChannel(raw: Channel): LoadedChannel {
	return {
		...raw,
		fieldsByKey: new Map(raw.fields.map(field => [field.key, field])),
		formulas: raw.fields.filter(field => field.type === 'formula').map(field => ({key: field.key, node: parseFormula(field.config.expression!)})),
	};
}

/** Channels never change after import, so each connection keeps them once read. */
export class ChannelCatalog {
	private readonly cache = new Map<string, LoadedChannel>();

	constructor(private readonly db: Db) {}

	get(id: string): LoadedChannel {
		const cached = this.cache.get(id);
		if (cached) {
			return cached;
		}

		const row = this.db.prepare('SELECT id, name, fields FROM channels WHERE id = ?').get(id) as {id: string; name: string; fields: string} | undefined;
		if (!row) {
			throw notFound(`channel ${quote(id)} does not exist`);
		}

		const channel = loadChannel({id: row.id, name: row.name, fields: JSON.parse(row.fields) as Field[]});
		this.cache.set(id, channel);
		return channel;
	}

	/** Drops a cached channel whose creating transaction rolled back. */
	forget(id: string): void {
		this.cache.delete(id);
	}

	/** Ids and names only: no item counting, which scans a channel's index (tens of ms at 1M items). */
	names(): Array<{id: string; name: string}> {
		return this.db.prepare('SELECT id, name FROM channels ORDER BY id').all() as Array<{id: string; name: string}>;
	}

	/** Every channel with its item count and latest sequence; `onlyId` counts one channel alone. */
	summaries(onlyId?: string): ChannelSummary[] {
		return this.db.prepare(`SELECT c.id, c.name, c.last_sequence AS latest_sequence,
			(SELECT count(*) FROM items i WHERE i.channel_id = c.id) AS item_count
			FROM channels c WHERE ? IS NULL OR c.id = ? ORDER BY c.id`).all(onlyId ?? null, onlyId ?? null) as ChannelSummary[];
	}

	/** Writes a new channel and the indexes its unique and filterable fields need. */
	insert(channel: Channel, at: string): void {
		this.db.prepare('INSERT INTO channels (id, name, fields, created_at) VALUES (?, ?, ?, ?)').run(channel.id, channel.name, JSON.stringify(channel.fields), at);
		for (const field of channel.fields) {
			if (field.is_unique || FILTERABLE_TYPES.has(field.type)) {
				const name = `items_${channel.id}_${field.key}`.replaceAll(/\W/g, '_');
				this.db.exec(`CREATE INDEX IF NOT EXISTS "${name}" ON items(channel_id, ${valueSql(field.key)}, seq)`);
			}
		}
	}
}
