// Backend-neutral rules of a write, an import and an event read: pure functions with no database.
// The edit plan (store/edit-plan.ts) puts the write rules in their one order for both backends;
// both backends' imports and event reads use the rest. Page rules live in pages.ts.

import {createHash} from 'node:crypto';
import {invalidArgument, quote, StoreError} from './errors.js';
import {valueShapeProblem} from './fields/shape.js';
import {isPlainObject} from './fields/spec.js';
import {normalizeTimestamp} from './timestamps.js';
import {EVENT_PAGE_LIMIT} from './events.js';
import type {Actor, Channel, Changes, Values} from './types.js';
import {MAX_WRITE_BYTES, type EditRequest} from './writes.js';

export const sameValue = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The merged stored values: nulls clear a key, so stored data never holds a null. */
export function storedValues(before: Values, values: Values): Values {
	const after: Values = {...before};
	for (const key of Object.keys(values)) {
		if (values[key] === null) {
			delete after[key];
		} else {
			after[key] = values[key];
		}
	}

	return after;
}

/** The changes an edit makes: only keys whose value really differs. */
export function changesOf(before: Values, after: Values, keys: string[]): Changes {
	const changes: Changes = {};
	for (const key of keys) {
		const from = before[key] ?? null;
		const to = after[key] ?? null;
		if (!sameValue(from, to)) {
			changes[key] = {from, to};
		}
	}

	return changes;
}

/** A create's changes: every stored key from null. */
export function creationChanges(stored: Values): Changes {
	const changes: Changes = {};
	for (const [key, to] of Object.entries(stored)) {
		changes[key] = {from: null, to};
	}

	return changes;
}

/** A delete's changes: every stored key to null. */
export function deletionChanges(stored: Values): Changes {
	const changes: Changes = {};
	for (const [key, from] of Object.entries(stored)) {
		changes[key] = {from, to: null};
	}

	return changes;
}

export function checkPayload(values: unknown): void {
	if (!isPlainObject(values)) {
		throw invalidArgument('values must be an object of field keys to values');
	}

	// Before anything serialises the values (a deep enough value overflows JSON.stringify's stack)
	// or keeps them, even as an agent's follow-up: text no store can keep is refused here too.
	const first = Object.keys(values).filter(key => valueShapeProblem(values[key])?.refusedFirst);
	if (first.length > 0) {
		throw new StoreError({error: 'validation_failed', fields: first.map(key => ({key, message: `values.${key} ${valueShapeProblem(values[key])!.message}`}))});
	}

	const text = JSON.stringify(values);
	// A UTF-16 unit is at most 3 UTF-8 bytes: short payloads need no byte count.
	if (text.length * 3 > MAX_WRITE_BYTES && Buffer.byteLength(text) > MAX_WRITE_BYTES) {
		throw invalidArgument(`values is larger than ${MAX_WRITE_BYTES} bytes as JSON`);
	}
}

export function checkExpectedVersion(version: unknown): void {
	if (version !== undefined && (!Number.isInteger(version) || (version as number) < 1)) {
		throw invalidArgument(`expected_version must be a whole number 1 or greater, got ${quote(version)}`);
	}
}

/** Who an idempotency key belongs to: the actor kind and, for an agent, its run. */
export const actorScope = (actor: Actor) => `${actor.kind}:${actor.run_id ?? ''}`;

/** Same key + same arguments = the same edit; the fingerprint is what "same" means. */
export function fingerprintOf(request: EditRequest): string {
	const parts: unknown[] = [request.channelId, request.itemId, request.expectedVersion ?? null, sortedEntries(request.values as Values)];
	// Only when given, so the keys of edits made before reasons existed keep their fingerprints.
	if (request.reason !== undefined) parts.push(request.reason);
	if (request.confidence !== undefined) parts.push({confidence: request.confidence});
	const canonical = JSON.stringify(parts);
	return createHash('sha256').update(canonical).digest('base64url');
}

const sortedEntries = (values: Values) => Object.keys(values).sort().map(key => [key, values[key]]);

export const keyReused = (key: string) => new StoreError({error: 'idempotency_key_reused', message: `idempotency_key ${JSON.stringify(key)} was already used with different arguments; use a new key for a new edit`});

export const versionConflict = (itemId: string, current: number, expected: number, changedSince: Changes) => new StoreError({
	error: 'version_conflict',
	message: `item ${itemId} is at version ${current}, not ${expected}: read it again and merge`,
	current_version: current,
	changed_since: changedSince,
});

export const itemNotFound = (channelId: string, itemId: unknown) => new StoreError({error: 'not_found', message: `item ${JSON.stringify(itemId)?.slice(0, 80)} does not exist in channel ${channelId}`});

/** Folds update events (oldest first) into per key: the value before the first change and after the last. */
export function mergeChanges(updates: Changes[]): Changes {
	const merged: Changes = {};
	for (const changes of updates) {
		for (const [key, change] of Object.entries(changes)) {
			merged[key] = {from: Object.hasOwn(merged, key) ? merged[key]!.from : change.from, to: change.to};
		}
	}

	return merged;
}

/** The checked cursor and limit of an event read. */
export function checkEventQuery(options: {afterSequence?: number; limit?: number}): {after: number; limit: number} {
	const after = options.afterSequence ?? 0;
	const limit = options.limit ?? EVENT_PAGE_LIMIT;
	if (!Number.isInteger(after) || after < 0) {
		throw invalidArgument(`after_sequence must be a whole number 0 or greater, got ${quote(after)}`);
	}

	if (!Number.isInteger(limit) || limit < 1 || limit > EVENT_PAGE_LIMIT) {
		throw invalidArgument(`limit must be a whole number from 1 to ${EVENT_PAGE_LIMIT}, got ${quote(limit)}`);
	}

	return {after, limit};
}

const invalidImport = (message: string) => new StoreError({error: 'invalid_import', message});

/**
 * One item of an import: its values and, optionally, when it was created, when it last changed and
 * its version (an export in the sift format carries all three, so a re-import keeps them). An `id`
 * is accepted and not kept: the store gives every item a new one.
 */
export type ImportItem = {values: Record<string, unknown>; created_at?: string; updated_at?: string; version?: number};

const IMPORT_ITEM_KEYS = new Set(['values', 'created_at', 'updated_at', 'version', 'id']);

/** One imported item's shape: a values object, optional ISO timestamps and a version, nothing else. */
export function checkImportItem(raw: unknown, index: number): ImportItem {
	if (!isPlainObject(raw) || !isPlainObject(raw.values)) {
		throw invalidImport(`items[${index}] must be an object with a "values" object`);
	}

	const extra = Object.keys(raw).find(key => !IMPORT_ITEM_KEYS.has(key));
	if (extra !== undefined) {
		throw invalidImport(`items[${index}] has an unknown key ${quote(extra)}; items take "values", "created_at", "updated_at", "version" and "id"`);
	}

	const item: ImportItem = {values: raw.values};
	// Both backends keep the one form store/timestamps.ts gives, so an import means the same on each.
	for (const key of ['created_at', 'updated_at'] as const) {
		if (raw[key] === undefined) continue;
		const at = normalizeTimestamp(raw[key]);
		if (at === undefined) {
			throw invalidImport(`items[${index}].${key} must be an ISO 8601 date (YYYY-MM-DD) or date-time with Z or an offset (2026-01-31T09:30:00Z), got ${quote(raw[key])}`);
		}

		item[key] = at;
	}

	if (raw.version !== undefined) {
		if (!Number.isSafeInteger(raw.version) || (raw.version as number) < 1) {
			throw invalidImport(`items[${index}].version must be a whole number 1 or greater, got ${quote(raw.version)}`);
		}

		item.version = raw.version as number;
	}

	return item;
}

/**
 * The fields by which an import's items may name each other: relations of the channel to itself.
 * An item names another by the id the file order gives it, so an import where any item sets one
 * keeps file order; every other import gives ids in created_at order (oldest first, ties in file order).
 */
export const selfRelationKeys = (channel: Channel) => channel.fields.filter(field => field.type === 'relation' && field.config.channel_id === channel.id).map(field => field.key);

/** True when an item sets one of `keys` (selfRelationKeys). */
export const namesOtherItems = (item: ImportItem, keys: readonly string[]) => keys.some(key => item.values[key] !== undefined && item.values[key] !== null);

/** The created_at an item is ordered by on import: its own, or (none given) the import's start, so it comes last. */
export const creationOrderKey = (item: ImportItem, importedAt: string) => item.created_at ?? importedAt;

/**
 * The order both backends import in, item by item, so that ids follow created_at (oldest first,
 * ties in file order). Items that come in that order already are inserted as they come. The first
 * one out of order starts the staging: the backend takes back what it inserted into its staging
 * table, and every further item is checked (as its insert would) and staged, to be read back by
 * (created_at, index), or by index alone once an item named another (`linked`: then file order is
 * kept and nothing starts staging). Pure: the backend does the reading and the writing.
 */
export class CreationOrder {
	/** An item named another by a self-relation: the staged items are read back in file order. */
	linked = false;
	private staging = false;
	private last = '';
	private index = 0;

	constructor(private readonly startedAt: string, private readonly linkKeys: readonly string[], private readonly check: (item: ImportItem) => void) {}

	/** How many items were placed. */
	get count(): number {
		return this.index;
	}

	/** The next item of the file, checked: inserted now, the first staged (take back what was inserted first), or staged. */
	place(raw: unknown): {item: ImportItem; at: number; key: string; step: 'insert' | 'startStaging' | 'stage'} {
		const at = this.index++;
		const item = checkImportItem(raw, at);
		const key = creationOrderKey(item, this.startedAt);
		this.linked ||= namesOtherItems(item, this.linkKeys);
		if (!this.staging && (this.linked || key >= this.last)) {
			this.last = key;
			return {item, at, key, step: 'insert'};
		}

		try {
			this.check(item);
		} catch (error) {
			throw atImportItem(error, at);
		}

		const step = this.staging ? 'stage' : 'startStaging';
		this.staging = true;
		return {item, at, key, step};
	}
}

/** Names the failing item in a refusal, so a bad row in a large file can be found. */
export function atImportItem(error: unknown, index: number): unknown {
	if (error instanceof StoreError && error.body.error === 'validation_failed') {
		return invalidImport(`items[${index}]: ${error.message}`);
	}

	return error;
}

export const channelExists = (id: string) => invalidImport(`channel ${quote(id)} already exists in this database`);

export const missingRelationTarget = (key: string, target: unknown) => new StoreError({error: 'invalid_schema', message: `field ${key} relates to channel ${quote(target)}, which does not exist`});
