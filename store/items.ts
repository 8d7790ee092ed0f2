// Item rows and ids (creation order, base 36, never reused), and the item as callers see it.

import type {LoadedChannel} from './channels.js';
import {invalidArgument, quote} from './errors.js';
import {dayOf, evaluateFormula, formulaOutput, todayDay, type FormulaValue} from './formula.js';
import type {Item, Values} from './types.js';

export type ItemRow = {seq: number; id: string; channel_id: string; version: number; created_at: string; updated_at: string; data: string};

const ID_PREFIX = 'it_';
const ID_DIGITS = 10;

/** Ids are the creation counter in fixed-width base 36: they sort by creation and are never reused. */
export const itemIdOf = (seq: number) => ID_PREFIX + seq.toString(36).padStart(ID_DIGITS, '0');

/** The creation counter behind an id, for cursors; refuses anything that is not an id. */
export function seqOfItemId(id: unknown, argument: string): number {
	if (typeof id !== 'string' || id.length !== ID_PREFIX.length + ID_DIGITS || !id.startsWith(ID_PREFIX) || !/^[0-9a-z]+$/.test(id.slice(ID_PREFIX.length))) {
		throw invalidArgument(`${argument} must be an item id like ${itemIdOf(42)}, got ${quote(id)}`);
	}

	return Number.parseInt(id.slice(ID_PREFIX.length), 36);
}

/** Formula results for one item, computed now so that age-like formulas grow by the day. */
export function computeFormulas(channel: LoadedChannel, stored: Values, createdAt: string, today = todayDay()): Values {
	const computed: Values = {};
	if (channel.formulas.length === 0) {
		return computed;
	}

	const lookup = (name: string): FormulaValue => {
		if (name === 'created_at') {
			const day = dayOf(createdAt);
			return day === null ? null : {kind: 'day', value: day};
		}

		const value = stored[name];
		if (typeof value === 'number') {
			return {kind: 'number', value};
		}

		const day = channel.fieldsByKey.get(name)?.type === 'date' ? dayOf(value) : null;
		return day === null ? null : {kind: 'day', value: day};
	};

	for (const {key, node} of channel.formulas) {
		computed[key] = formulaOutput(evaluateFormula(node, {lookup, today}));
	}

	return computed;
}

export const parseStored = (row: ItemRow) => JSON.parse(row.data) as Values;

/** What an item is besides its values: the part of a row every backend has. */
export type ItemHeader = Omit<ItemRow, 'seq' | 'data'>;

/** The full item as callers see it, from a row. */
export const itemFromRow = (channel: LoadedChannel, row: ItemRow, stored = parseStored(row)): Item => itemOf(channel, row, stored);

/** The full item as callers see it: every field in schema order, unset ones as null, formulas computed. */
export function itemOf(channel: LoadedChannel, row: ItemHeader, stored: Values): Item {
	const formulas = computeFormulas(channel, stored, row.created_at);
	const values: Values = {};
	for (const field of channel.fields) {
		if (field.type === 'formula') {
			values[field.key] = formulas[field.key];
		} else {
			values[field.key] = Object.hasOwn(stored, field.key) ? stored[field.key] : null;
		}
	}

	return {id: row.id, channel_id: row.channel_id, version: row.version, created_at: row.created_at, updated_at: row.updated_at, values};
}
