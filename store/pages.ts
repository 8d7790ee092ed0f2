import {FILTERABLE_TYPES, valueSql, type LoadedChannel} from './channels.js';
import type {Db} from './database.js';
import {invalidArgument, quote} from './errors.js';
import {allowedOf} from './fields/index.js';
import {isPlainObject} from './fields/spec.js';
import {computeFormulas, parseStored, seqOfItemId, type ItemRow} from './items.js';
import {latestSequence} from './events.js';
import {cutCodePoints} from './text.js';
import type {Channel, Field, ItemPreview, Page, Values} from './types.js';

export const PAGE_LIMIT = 50;
export const PREVIEW_TEXT_LENGTH = 120;

export type PageQuery = {
	beforeId?: string | null;
	limit?: number;
	filter?: Record<string, unknown>;
	/** Case-insensitive substring match over the short text fields (not long text). */
	search?: string;
};

/** A text value for a preview: cut to 120 characters, with an ellipsis so the cut shows. */
const cut = (text: string) => cutCodePoints(text, PREVIEW_TEXT_LENGTH);

function previewValue(field: Field, value: unknown): unknown {
	if (typeof value === 'string' && (field.type === 'text' || field.type === 'url')) {
		return cut(value);
	}

	return value;
}

/** Previews leave out long text and JSON blobs; everything else is shown, text cut short. */
export function previewOf(channel: LoadedChannel, stored: Values, createdAt: string): Values {
	const formulas = computeFormulas(channel, stored, createdAt);
	const preview: Values = {};
	for (const field of channel.fields) {
		if (field.config.long || field.type === 'json') {
			continue;
		}

		const value = field.type === 'formula' ? formulas[field.key] : stored[field.key];
		if (value !== undefined) {
			preview[field.key] = previewValue(field, value);
		}
	}

	return preview;
}

/** Equality filters on select and boolean fields, as SQL against the indexed values. */
function filterClauses(channel: LoadedChannel, filter: unknown): {sql: string; params: unknown[]} {
	if (filter === undefined || filter === null) {
		return {sql: '', params: []};
	}

	if (!isPlainObject(filter)) {
		throw invalidArgument('filter must be an object of {field key: value}');
	}

	const parts: string[] = [];
	const params: unknown[] = [];
	for (const [key, value] of Object.entries(filter)) {
		const field = channel.fieldsByKey.get(key);
		if (!field || !FILTERABLE_TYPES.has(field.type)) {
			const usable = channel.fields.filter(candidate => FILTERABLE_TYPES.has(candidate.type)).map(candidate => candidate.key);
			throw invalidArgument(`filter.${key} is not a select or boolean field of channel ${channel.id}; filterable: ${usable.join(', ')}`);
		}

		if (field.type === 'boolean' ? typeof value !== 'boolean' : typeof value !== 'string') {
			throw invalidArgument(`filter.${key} must be ${field.type === 'boolean' ? 'true or false' : 'an option value'}, got ${quote(value)}`);
		}

		if (field.type === 'select' && !field.config.options!.some(option => option.value === value)) {
			// A label ("New") would silently match nothing: say which values exist instead.
			throw invalidArgument(`filter.${key} must be one of the option values, got ${quote(value)}; allowed: ${allowedOf(field).map(option => `${option.value} (${option.label})`).join(', ')}`);
		}

		parts.push(` AND ${valueSql(key)} = ?`);
		params.push(typeof value === 'boolean' ? Number(value) : value);
	}

	return {sql: parts.join(''), params};
}

function searchClause(channel: LoadedChannel, search: unknown): {sql: string; params: unknown[]} {
	if (search === undefined || search === '') {
		return {sql: '', params: []};
	}

	if (typeof search !== 'string' || search.length > 200) {
		throw invalidArgument('search must be a string of at most 200 characters');
	}

	const keys = channel.fields.filter(field => ['text', 'email', 'url'].includes(field.type) && !field.config.long).map(field => field.key);
	if (keys.length === 0) {
		return {sql: ' AND 0', params: []};
	}

	const needle = search.toLowerCase();
	return {sql: ` AND (${keys.map(key => `instr(lower(${valueSql(key)}), ?) > 0`).join(' OR ')})`, params: keys.map(() => needle)};
}

export function checkLimit(limit: unknown, most: number, name = 'limit'): number {
	if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > most) {
		throw invalidArgument(`${name} must be a whole number from 1 to ${most}, got ${quote(limit)}`);
	}

	return limit as number;
}

/**
 * One page, newest first. The cursor is the last id seen: the next page holds items created
 * before it, so inserts and deletes elsewhere can never shift, repeat or skip an item.
 */
export function listPage(db: Db, channel: LoadedChannel, query: PageQuery = {}): Page {
	const limit = checkLimit(query.limit ?? PAGE_LIMIT, PAGE_LIMIT);
	const before = query.beforeId === undefined || query.beforeId === null ? Number.MAX_SAFE_INTEGER : seqOfItemId(query.beforeId, 'before_id');
	const filter = filterClauses(channel, query.filter);
	const search = searchClause(channel, query.search);
	// One read transaction: the items and latest_sequence come from the same snapshot, so a reader
	// polling from latest_sequence never misses a write another process committed in between.
	const {rows, latest} = db.transaction(() => ({
		rows: db.prepare(`SELECT * FROM items WHERE channel_id = ? AND seq < ?${filter.sql}${search.sql} ORDER BY seq DESC LIMIT ?`)
			.all(channel.id, before, ...filter.params, ...search.params, limit + 1) as ItemRow[],
		latest: latestSequence(db, channel.id),
	}))();
	const items: ItemPreview[] = rows.slice(0, limit).map(row => ({
		id: row.id,
		version: row.version,
		updated_at: row.updated_at,
		preview: previewOf(channel, parseStored(row), row.created_at),
	}));
	return {
		schema: schemaOf(channel),
		items,
		next_before_id: rows.length > limit ? items.at(-1)!.id : null,
		latest_sequence: latest,
	};
}

/** The schema as callers see it: plain fields, without the store's derived lookups. */
export const schemaOf = (channel: Channel): Field[] => channel.fields;
