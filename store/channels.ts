// A channel as both backends use it: the schema plus what is derived from it once. The SQLite
// catalog is store/sqlite/channels.ts, the PostgreSQL one store/postgres/channels.ts.

import {parseFormula, type FormulaNode} from './formula.js';
import type {Channel, Field} from './types.js';

/** A channel as the store uses it: the schema plus what is derived from it once. */
export type LoadedChannel = Channel & {
	fieldsByKey: Map<string, Field>;
	formulas: Array<{key: string; node: FormulaNode}>;
};

/** Field types whose values can be filtered by equality and are indexed for it. */
export const FILTERABLE_TYPES = new Set(['select', 'boolean']);

export function loadChannel(raw: Channel): LoadedChannel {
	return {
		...raw,
		fieldsByKey: new Map(raw.fields.map(field => [field.key, field])),
		formulas: raw.fields.filter(field => field.type === 'formula').map(field => ({key: field.key, node: parseFormula(field.config.expression!)})),
	};
}

/**
 * The channels one connection has loaded, each with its stored fields' text: a schema change by
 * any process rewrites that text, so a read that finds it changed loads the channel again and the
 * next page shows the new schema. Both backends keep one.
 */
export class LoadedChannels {
	private readonly byId = new Map<string, {fields: string; channel: LoadedChannel}>();

	/** The loaded channel for a stored row, reused while its fields' text is unchanged. */
	fromRow(row: {id: string; name: string; fields: string}): LoadedChannel {
		const cached = this.byId.get(row.id);
		if (cached?.fields === row.fields) return cached.channel;
		const channel = loadChannel({id: row.id, name: row.name, fields: JSON.parse(row.fields) as Channel['fields']});
		this.byId.set(row.id, {fields: row.fields, channel});
		return channel;
	}

	forget(id: string): void {
		this.byId.delete(id);
	}
}
