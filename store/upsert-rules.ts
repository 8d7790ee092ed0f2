// Backend-neutral rules of an upsert (append and update on a key field, for `sift import --into`):
// which field is the key, how a row is checked and named, how options grow, and the tally. The
// transaction that puts them in order is one plan both backends run (store/upsert-plan.ts): a new
// key value is a create, a known one an edit through the shared edit plan (store/edit-plan.ts)
// with actor import, so an unchanged row writes nothing and a changed one is a versioned edit.

import {loadChannel, type LoadedChannel} from './channels.js';
import {createdValues} from './edit-plan.js';
import {invalidArgument, quote, StoreError, type StoreErrorBody} from './errors.js';
import {isPlainObject} from './fields/spec.js';
import {checkChannel} from './schema.js';
import {normalizeTimestamp} from './timestamps.js';
import type {Channel, Field, Values} from './types.js';
import type {Validator} from './writes.js';
import {validateValues, type WriteContext} from './validate.js';
import {checkPayload, sameValue} from './write-rules.js';
import {SpillMap} from './spill-map.js';

/**
 * One row to create or update; `at` names it in a refusal ("line 12", "issue #40"). `created_at`
 * and `updated_at`, when the file gives them, are the source's own times: a new item takes both,
 * an edited one takes `updated_at` when it is later than the item's (store/upsert-plan.ts).
 */
export type UpsertRow = {values: unknown; created_at?: string; updated_at?: string; at: string};

export type UpsertRequest = {
	channelId: string;
	/** The unique field rows are matched on. */
	key: string;
	rows: Iterable<UpsertRow> | AsyncIterable<UpsertRow>;
	/** Options to add to select and multi-select fields first, in the same transaction (--grow-options). */
	addOptions?: Record<string, string[]>;
	/** Check and count everything, then roll back: nothing is written. */
	dryRun?: boolean;
};

/** A refused row: where it is, its key value, and the store's refusal (validation names each field). */
export type UpsertRefusal = {at: string; key?: unknown; error: StoreErrorBody};

export type UpsertResult = {
	created: number;
	updated: number;
	unchanged: number;
	/**
	 * Fields a person changed since the last import that the file changes too: the person's value
	 * is kept and each becomes a sync_conflict follow-up (docs/records.md#re-importing-over-a-persons-changes).
	 */
	conflicts: number;
	refused: number;
	/** The first refusals, in file order (all of them are counted in `refused`). */
	refusals: UpsertRefusal[];
	/** False when anything was refused or it was a dry run: then nothing was kept. */
	written: boolean;
	/** The options added, per field. */
	options_added: Record<string, string[]>;
};

/** Refusals kept for the report; the rest are only counted. */
export const MAX_REPORTED_REFUSALS = 50;

/** The key field: an existing unique field of the channel, of a type a row can name. */
export function keyField(channel: LoadedChannel, key: string): Field {
	const field = channel.fieldsByKey.get(key);
	if (!field) {
		throw invalidArgument(`--key ${quote(key)} is not a field of channel ${channel.id} (its fields: ${channel.fields.map(entry => entry.key).join(', ')})`);
	}

	if (!field.is_unique) {
		throw invalidArgument(`--key ${key} must be a unique field of channel ${channel.id}, so each row names one item`);
	}

	return field;
}

/** The channel with `addOptions` added to its choice fields (values already there are skipped), and what was added. */
export function grownChannel(channel: Channel, addOptions: Record<string, string[]> = {}): {channel: Channel; added: Record<string, string[]>} {
	const added: Record<string, string[]> = {};
	const fields = channel.fields.map(field => {
		const wanted = addOptions[field.key];
		if (wanted === undefined) return field;
		if (field.type !== 'select' && field.type !== 'multi_select') {
			throw invalidArgument(`field ${field.key} is a ${field.type} field; only select and multi_select fields have options to grow`);
		}

		const known = new Set((field.config.options ?? []).map(option => option.value));
		const fresh = [...new Set(wanted)].filter(value => typeof value === 'string' && value !== '' && !known.has(value));
		if (fresh.length === 0) return field;
		added[field.key] = fresh;
		return {...field, config: {...field.config, options: [...(field.config.options ?? []), ...fresh.map(value => ({value, label: value}))]}};
	});
	const unknown = Object.keys(addOptions).find(key => !channel.fields.some(field => field.key === key));
	if (unknown !== undefined) {
		throw invalidArgument(`cannot add options to ${quote(unknown)}: it is not a field of channel ${channel.id}`);
	}

	return {channel: {...channel, fields}, added};
}

/** A row's values and key value, checked before anything is looked up; a problem is a refusal of that row. */
export function checkedRow(row: UpsertRow, key: string, seen: Pick<SpillMap, 'get' | 'set'>): {values: Values; keyValue: unknown; createdAt?: string; updatedAt?: string} {
	if (!isPlainObject(row.values)) {
		throw invalidArgument('the row has no values');
	}

	checkPayload(row.values);
	const keyValue = row.values[key];
	if (keyValue === undefined || keyValue === null || keyValue === '') {
		throw new StoreError({error: 'validation_failed', fields: [{key, message: `values.${key} is the key rows are matched on, and this row has none`}]});
	}

	const seenKey = JSON.stringify(keyValue);
	const first = seen.get(seenKey);
	if (first !== undefined) {
		throw new StoreError({error: 'validation_failed', fields: [{key, message: `values.${key} ${quote(keyValue)} is also the key of ${first}; each key may appear once in a file`}]});
	}

	seen.set(seenKey, row.at);
	return {values: row.values, keyValue, createdAt: rowTime(row, 'created_at'), updatedAt: rowTime(row, 'updated_at')};
}

/** A row's source time in the store's form, undefined when the row has none; a malformed one refuses the row. */
function rowTime(row: UpsertRow, which: 'created_at' | 'updated_at'): string | undefined {
	const text = row[which];
	if (text === undefined || text === null) return undefined;
	const time = normalizeTimestamp(text);
	if (time === undefined) {
		throw invalidArgument(`${which} must be an ISO 8601 date or date-time, got ${quote(text)}`);
	}

	return time;
}

/** The tally as rows are done; a refusal is kept (the first MAX_REPORTED_REFUSALS) and counted. */
export class UpsertTally {
	readonly result: UpsertResult = {created: 0, updated: 0, unchanged: 0, conflicts: 0, refused: 0, refusals: [], written: false, options_added: {}};

	refuse(row: UpsertRow, keyValue: unknown, error: unknown): void {
		if (!(error instanceof StoreError) || !['validation_failed', 'invalid_argument'].includes(error.body.error)) {
			throw error;
		}

		this.result.refused++;
		if (this.result.refusals.length < MAX_REPORTED_REFUSALS) {
			this.result.refusals.push({at: row.at, ...(keyValue === undefined || keyValue === null || keyValue === '' ? {} : {key: keyValue}), error: error.body});
		}
	}

	/** Whether the transaction keeps its writes. */
	get keeps(): boolean {
		return this.result.refused === 0;
	}
}

/** Thrown inside the transaction to roll it back after a dry run or a refusal, carrying the result the caller still gets. */
class RollBack extends Error {
	override name = 'RollBack';
	constructor(readonly result: UpsertResult) {
		super('rolled back: nothing of this upsert is kept');
	}
}

/** Inside the transaction: the result, or a throw that rolls the transaction back when nothing is to be written. */
export function keptIfWritten(result: UpsertResult): UpsertResult {
	if (!result.written) throw new RollBack(result);
	return result;
}

/** Outside the transaction: the result of an upsert that was rolled back (a dry run, a refusal); any other error goes on. */
export function rolledBackResult(error: unknown): UpsertResult {
	if (error instanceof RollBack) return error.result;
	throw error;
}

/** An edit's values that leave out keys whose value is already the item's (so an unchanged row opens or closes nothing). */
export const changedOnly = (before: Values, values: Values): Values => Object.fromEntries(Object.entries(values).filter(([key, value]) => !sameValue(before[key] ?? null, value ?? null)));

/** A row's key value as given, for naming a row that was refused before its key was checked. */
export const rowKey = (row: UpsertRow, key: string): unknown => (isPlainObject(row.values) ? row.values[key] : undefined);

/**
 * The rows of a new channel checked without a database (for `sift import` of CSV, JSON Lines and
 * GitHub files, and their --dry-run), one at a time as a file streams by: every refusal, each
 * naming its row, before anything is written. Unique values are checked among the rows (so their
 * values are held); a relation is checked by the import itself.
 */
export class NewRowsCheck {
	readonly result = {count: 0, refused: 0, refusals: [] as UpsertRefusal[]};
	private readonly channel: LoadedChannel;
	/** Per unique field, each value's row: in a SpillMap, so on disk past SPILL_AT rows (store/spill-map.ts). */
	private readonly holders: Map<string, SpillMap>;
	private readonly context: WriteContext;

	constructor(raw: Channel, private readonly validate: Validator = validateValues) {
		this.channel = loadChannel(checkChannel(raw));
		this.holders = new Map(this.channel.fields.filter(field => field.is_unique).map(field => [field.key, new SpillMap()]));
		this.context = {relationExists: () => true, holderOf: (field, value) => this.holders.get(field.key)?.get(JSON.stringify(value))};
	}

	/** Lets go of the unique values held (a file's every key): for when the check is done and the import begins. */
	release(): void {
		for (const held of this.holders.values()) held.clear();
	}

	see(row: UpsertRow): void {
		this.result.count++;
		try {
			if (!isPlainObject(row.values)) throw invalidArgument('the row has no values');
			checkPayload(row.values);
			if (row.created_at !== undefined && normalizeTimestamp(row.created_at) === undefined) {
				throw invalidArgument(`created_at must be an ISO 8601 date or date-time, got ${quote(row.created_at)}`);
			}

			createdValues(this.channel, row.values, this.context, this.validate);
			for (const [key, held] of this.holders) {
				const value = row.values[key];
				if (value !== undefined && value !== null) held.set(JSON.stringify(value), row.at);
			}
		} catch (error) {
			if (!(error instanceof StoreError)) throw error;
			this.result.refused++;
			if (this.result.refusals.length < MAX_REPORTED_REFUSALS) this.result.refusals.push({at: row.at, error: error.body});
		}
	}
}

/** Every row of `rows` checked as NewRowsCheck does. */
export function checkNewRows(raw: Channel, rows: Iterable<UpsertRow>, validate: Validator = validateValues): {count: number; refused: number; refusals: UpsertRefusal[]} {
	const check = new NewRowsCheck(raw, validate);
	try {
		for (const row of rows) check.see(row);
		return check.result;
	} finally {
		check.release();
	}
}
