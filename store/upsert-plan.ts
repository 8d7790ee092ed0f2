// The upsert transaction (`sift import --into CHANNEL --key FIELD`) as one plan both backends run,
// the way store/edit-plan.ts is the edit transaction: the channel (locked) → options grown, with
// their channel.updated event → rows a chunk at a time: each chunk's items found by key, then per
// row a create, a versioned edit with actor import, or nothing. The plan is pure but for the file's keys so far (store/spill-map.ts); each backend
// answers its steps inside its own transaction (store/sqlite/upsert.ts synchronously,
// store/postgres/upsert.ts asynchronously) and rolls it back unless the result says `written`.
//
// A step a backend fails (a create's or an edit's refusal) is thrown back into the plan, which
// counts a row's refusal and goes on, so every refusal of a file is reported at once.

import type {LoadedChannel} from './channels.js';
import {loadChannel} from './channels.js';
import type {EditOutcome, FollowUpOpening, PlanItem} from './edit-plan.js';
import {canonicalJson, mergeRecord, type FieldMeeting} from './sync/merge.js';
import type {NewEvent} from './events.js';
import type {Actor, Changes, Channel, Field, Values} from './types.js';
import {changedOnly, checkedRow, grownChannel, keyField, rowKey, UpsertTally, type UpsertRequest, type UpsertResult, type UpsertRow} from './upsert-rules.js';
import type {EditRequest} from './writes.js';
import {SpillMap} from './spill-map.js';

const IMPORT: Actor = {kind: 'import'};

/** Rows a plan asks for at a time: one lookup finds the items of a chunk's key values. */
export const UPSERT_CHUNK = 1000;

/** The steps an upsert yields, each with the answer the backend resumes it with (`R`, the item type, ties a plan to its io). */
export type UpsertStep<R extends PlanItem> =
	/** The channel as stored (a backend that locks rows locks the channel's row here, so upserts and unique writes queue). */
	| {step: 'channel'; channelId: string}
	/** The grown fields written and their channel.updated event appended; answers the event's sequence. */
	| {step: 'grow'; channel: Channel; event: NewEvent}
	/** The next rows of the request, at most UPSERT_CHUNK; none when they are all read. */
	| {step: 'rows'}
	/** The items holding any of `values` in the unique field, by the value's JSON text. */
	| {step: 'find'; channel: LoadedChannel; field: Field; values: unknown[]}
	/** A new item, with actor import and the source's times when the row gives them (a refusal is thrown). */
	| {step: 'insert'; channel: LoadedChannel; values: Values; createdAt?: string; updatedAt?: string}
	/** The edit plan of store/edit-plan.ts inside this transaction, stamped `stampedAt` when given (else now); answers its outcome. */
	| {step: 'edit'; channel: LoadedChannel; request: EditRequest; stampedAt?: string}
	/**
	 * What an import last wrote to the item's fields (its base: store/sync/merge.ts), or undefined
	 * when no import ever wrote the item: a kept base (a person's resolution, an agreement), else
	 * the latest import event's value, null for a field no import event set.
	 */
	| {step: 'importBase'; item: R}
	/** Keeps an import base of a field (canonical JSON). */
	| {step: 'setImportBase'; channelId: string; itemId: string; field: string; value: string}
	/** Opens the conflicts' follow-ups. */
	| {step: 'openFollowUps'; openings: FollowUpOpening[]; at: string};

type Answers<R extends PlanItem> = {
	channel: LoadedChannel;
	grow: number;
	rows: UpsertRow[];
	find: Map<string, R>;
	insert: unknown;
	edit: EditOutcome;
	importBase: Values | undefined;
	setImportBase: void;
	openFollowUps: void;
};

/** A backend's answers to every step, synchronous (SQLite) or asynchronous (PostgreSQL). */
export type UpsertIo<R extends PlanItem, Async extends boolean = false> = {
	[K in UpsertStep<R>['step']]: (step: Extract<UpsertStep<R>, {step: K}>) => Async extends true ? Promise<Answers<R>[K]> : Answers<R>[K];
};

export type UpsertPlan<R extends PlanItem> = Generator<UpsertStep<R>, UpsertResult, unknown>;

/** The event a grown schema appends, like every schema change's: each grown field from and to its definition. */
export function grownEvent(before: Channel, after: Channel, at: string): NewEvent {
	const changes = Object.fromEntries(after.fields.flatMap(field => {
		const old = before.fields.find(candidate => candidate.key === field.key)!;
		return old === field ? [] : [[field.key, {from: old, to: field}]];
	}));
	return {type: 'channel.updated', item_id: '', version: 0, actor: IMPORT, changes, at};
}

/** One row against the items found for its chunk: create, edit or nothing, counted in the tally. */
function* upsertRow<R extends PlanItem>(channel: LoadedChannel, tally: UpsertTally, row: UpsertRow, checked: ReturnType<typeof checkedRow>, item: R | undefined): Generator<UpsertStep<R>, void, unknown> {
	try {
		if (item === undefined) {
			// The source's times, as a first import keeps them; a row with only updated_at was created then at the latest.
			yield {step: 'insert', channel, values: checked.values, createdAt: checked.createdAt ?? checked.updatedAt, updatedAt: checked.updatedAt};
			tally.result.created++;
			return;
		}

		const changes = changedOnly(item.values, checked.values);
		if (Object.keys(changes).length === 0) {
			tally.result.unchanged++;
			return;
		}

		const {writes, bases, conflicts} = yield* mergedWithBase<R>(channel, item, checked.values, changes);
		if (Object.keys(writes).length > 0) {
			const outcome = (yield {step: 'edit', channel, request: {channelId: channel.id, itemId: item.id, values: writes, actor: IMPORT, expectedVersion: item.version}, stampedAt: editStamp(item, checked.updatedAt)}) as EditOutcome;
			if ('refused' in outcome) throw outcome.refused;
			tally.result.updated++;
		} else if (conflicts.length === 0) {
			tally.result.unchanged++;
		}

		for (const [field, value] of Object.entries(bases)) yield {step: 'setImportBase', channelId: channel.id, itemId: item.id, field, value};
		if (conflicts.length > 0) {
			yield {step: 'openFollowUps', openings: conflicts, at: new Date().toISOString()};
			tally.result.conflicts += conflicts.length;
		}
	} catch (error) {
		tally.refuse(row, checked.keyValue, error);
	}
}

/**
 * When an upsert's edit of `item` happened: the source's updated_at when the row gives one later
 * than the item's own (the change is the source's, as a first import keeps it), else now (undefined):
 * an item's updated_at never goes back, so an older file over a newer local change reads as changed now.
 */
export const editStamp = (item: PlanItem, sourceUpdatedAt: string | undefined): string | undefined => (sourceUpdatedAt !== undefined && sourceUpdatedAt > item.updated_at ? sourceUpdatedAt : undefined);

/** An item's import base from the changes of its import events, oldest first, and the bases kept since (which win). */
export function importBaseOf(importChanges: Changes[], kept: Map<string, string>): Values | undefined {
	if (importChanges.length === 0 && kept.size === 0) return undefined;
	const base: Values = {};
	for (const changes of importChanges) {
		for (const [key, change] of Object.entries(changes)) base[key] = change.to;
	}

	for (const [key, value] of kept) base[key] = JSON.parse(value) as unknown;
	return base;
}

/**
 * A row's changes against what the import last wrote (the same three-way rule as a pull:
 * store/sync/merge.ts): a field the file changed and a person did not is written; one both
 * changed differently keeps the person's value and becomes a sync_conflict follow-up (ours: the
 * person's, theirs: the file's), since a person's decision is never silently undone and the file
 * can be read again; one only the person changed stays theirs. An item no import ever wrote takes
 * the file's values, as before.
 */
function* mergedWithBase<R extends PlanItem>(channel: LoadedChannel, item: R, values: Values, changes: Values): Generator<UpsertStep<R>, {writes: Values; bases: Record<string, string>; conflicts: FollowUpOpening[]}, unknown> {
	const base = (yield {step: 'importBase', item}) as Values | undefined;
	if (base === undefined) return {writes: changes, bases: {}, conflicts: []};
	// Every field of the row, not only its changes: a field the person set to what the file now says moves its base (they agree).
	const meetings: FieldMeeting[] = [];
	for (const [key, theirs] of Object.entries(values)) {
		const field = channel.fieldsByKey.get(key);
		if (!field || field.type === 'formula') continue;
		meetings.push({key, kind: field.type === 'multi_select' ? 'set' : 'scalar', base: base[key] ?? null, ours: item.values[key] ?? null, theirs});
	}

	const merged = mergeRecord(meetings);
	const conflicts = merged.conflicts.map(({key, base: was, ours, theirs}): FollowUpOpening => ({
		channel_id: channel.id, item_id: item.id, key, attempted: theirs ?? null, run_id: null, kind: 'sync_conflict', base: was, ours, theirs: theirs ?? null,
		message: `${key} was changed here since the last import, and the file changes it too: the value here is kept; choose ours, theirs or a value (sift followups resolve)`,
	}));
	return {writes: merged.writes as Values, bases: Object.fromEntries(merged.bases.map(({key, kind, value}) => [key, canonicalJson(value, kind)])), conflicts};
}

/** The upsert transaction; its result's `written` says whether the backend keeps what it wrote. */
export function* planUpsert<R extends PlanItem>(request: Omit<UpsertRequest, 'rows'>): UpsertPlan<R> {
	const tally = new UpsertTally();
	let channel = (yield {step: 'channel', channelId: request.channelId}) as LoadedChannel;
	const grown = grownChannel(channel, request.addOptions);
	if (Object.keys(grown.added).length > 0) {
		yield {step: 'grow', channel: grown.channel, event: grownEvent(channel, grown.channel, new Date().toISOString())};
		channel = loadChannel(grown.channel);
		tally.result.options_added = grown.added;
	}

	const field = keyField(channel, request.key);
	// The file's keys so far, each with its row (a repeat is refused naming the first), in a SpillMap.
	const seen = new SpillMap();
	try {
		for (let chunk = (yield {step: 'rows'}) as UpsertRow[]; chunk.length > 0; chunk = (yield {step: 'rows'}) as UpsertRow[]) {
			// Checked first, so the lookup asks only for well-formed key values; refusals still come in file order.
			const entries = chunk.map(row => {
				try {
					return {row, checked: checkedRow(row, request.key, seen)};
				} catch (error) {
					return {row, error};
				}
			});
			const found = (yield {step: 'find', channel, field, values: entries.flatMap(entry => (entry.checked ? [entry.checked.keyValue] : []))}) as Map<string, R>;
			for (const entry of entries) {
				if (entry.checked) {
					yield* upsertRow(channel, tally, entry.row, entry.checked, found.get(JSON.stringify(entry.checked.keyValue)));
				} else {
					tally.refuse(entry.row, rowKey(entry.row, request.key), entry.error);
				}
			}
		}
	} finally {
		seen.clear();
	}

	tally.result.written = tally.keeps && request.dryRun !== true;
	return tally.result;
}

/** The next chunk of a synchronous row source (SQLite's transaction cannot wait). */
export function syncChunks(rows: Iterable<UpsertRow>): () => UpsertRow[] {
	const iterator = rows[Symbol.iterator]();
	return () => {
		const chunk: UpsertRow[] = [];
		while (chunk.length < UPSERT_CHUNK) {
			const next = iterator.next();
			if (next.done) break;
			chunk.push(next.value);
		}

		return chunk;
	};
}

/** The next chunk of a row source that may be asynchronous (a file being read). */
export function asyncChunks(rows: Iterable<UpsertRow> | AsyncIterable<UpsertRow>): () => Promise<UpsertRow[]> {
	const iterator = Symbol.asyncIterator in rows ? rows[Symbol.asyncIterator]() : rows[Symbol.iterator]();
	return async () => {
		const chunk: UpsertRow[] = [];
		while (chunk.length < UPSERT_CHUNK) {
			const next = await iterator.next();
			if (next.done) break;
			chunk.push(next.value);
		}

		return chunk;
	};
}

/** Runs an upsert against a synchronous backend, inside its transaction; a failed step is thrown into the plan. */
export function runUpsert<R extends PlanItem>(plan: UpsertPlan<R>, io: UpsertIo<R>): UpsertResult {
	for (let next = plan.next(); ;) {
		if (next.done) return next.value;
		let answer: unknown;
		try {
			answer = (io[next.value.step] as (step: UpsertStep<R>) => unknown)(next.value);
		} catch (error) {
			next = plan.throw(error);
			continue;
		}

		next = plan.next(answer);
	}
}

/** Runs an upsert against an asynchronous backend, inside its transaction; a failed step is thrown into the plan. */
export async function runUpsertAsync<R extends PlanItem>(plan: UpsertPlan<R>, io: UpsertIo<R, true>): Promise<UpsertResult> {
	for (let next = plan.next(); ;) {
		if (next.done) return next.value;
		let answer: unknown;
		try {
			answer = await (io[next.value.step] as (step: UpsertStep<R>) => Promise<unknown>)(next.value);
		} catch (error) {
			next = plan.throw(error);
			continue;
		}

		next = plan.next(answer);
	}
}
