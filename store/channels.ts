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
