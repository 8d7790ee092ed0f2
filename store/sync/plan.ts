// The sync engine's transactions as plans both backends run (docs/architecture.md#the-sync-engine):
// a pull's three-way merge of remote records, a push's journal (sent, failed), and a person's
// resolution of a conflict. Like the edit plan (store/edit-plan.ts) a plan is pure: it yields the
// reads and writes it needs, which store/sqlite/sync.ts and store/postgres/sync.ts answer inside
// their own transaction; its local writes run the edit plan itself, so they are validated,
// versioned and evented like any other.

import type {LoadedChannel} from '../channels.js';
import {invalidArgument, notFound, quote, StoreError} from '../errors.js';
import {planEdit, queueForSync, type PlanItem, type PlanStep, type FollowUpOpening} from '../edit-plan.js';
import type {Actor, Field, FollowUp, Values} from '../types.js';
import type {Validator} from '../writes.js';
import {canonicalJson, mergeRecord, sameCanonical, type FieldMeeting, type MergeKind} from './merge.js';
import type {ConflictChoice, NewSyncLink, PullOutcome, RemoteComment, RemoteComments, RemoteRecord, SyncLink, TrackerKind} from './types.js';

/** Whose base a base row is: the tracker's (the last value both sides agreed on) or an import's (the last value it wrote). */
export type BaseSource = 'sync' | 'import';

/** An outbox row as kept: base and value as canonical JSON. */
export type StoredEntry = {id: number; channel_id: string; item_id: string; field: string; kind: MergeKind; base: string; value: string; state: 'pending' | 'sending' | 'held'};

export const SYNC_ACTOR: Actor = {kind: 'sync'};

/** The steps of the sync plans, beyond the edit plan's, each with the answer the backend resumes it with. */
export type SyncOnlyStep<_R extends PlanItem> =
	| {step: 'link'; channelId: string}
	/** The item holding `value` in the unique field (locked where the backend locks rows). */
	| {step: 'byKey'; channel: LoadedChannel; field: Field; value: unknown}
	/** The item's bases of one source: field → canonical JSON. */
	| {step: 'bases'; itemId: string; source: BaseSource}
	| {step: 'setBase'; channelId: string; itemId: string; field: string; source: BaseSource; value: string}
	| {step: 'entry'; itemId: string; field: string}
	| {step: 'entryById'; id: number}
	/** An entry goes 'held' with this value and base (made when there is none): a conflict waits for a person. */
	| {step: 'hold'; channelId: string; itemId: string; field: string; kind: MergeKind; base: string; value: string; at: string}
	/** Changes an entry's state (and its error; attempts only count in markSending). */
	| {step: 'entryState'; id: number; state: StoredEntry['state']; error?: string | null}
	/** Drops the field's entry, and closes its open sync conflict (both sides agree now). */
	| {step: 'dropEntry'; itemId: string; field: string; at: string}
	/** Drops an item's bases and entries of this source: it no longer syncs (gone from the tracker). */
	| {step: 'forget'; itemId: string}
	/** Creates an item as the tracker has it, at the tracker's times, actor sync; answers the item. */
	| {step: 'create'; channel: LoadedChannel; values: Values; createdAt: string; updatedAt: string}
	/** Replaces an item's comments (`add`: keeps the others, replacing only those of the same remote id). */
	| {step: 'comments'; channelId: string; itemId: string; comments: RemoteComment[]; add?: boolean}
	/** A follow-up (locked where the backend locks rows). */
	| {step: 'followUp'; id: number}
	| {step: 'closeFollowUp'; id: number; at: string};

export type SyncStep<R extends PlanItem> = PlanStep<R> | SyncOnlyStep<R>;

type SyncAnswers<R extends PlanItem> = {
	link: SyncLink | undefined;
	byKey: R | undefined;
	bases: Map<string, string>;
	setBase: void;
	entry: StoredEntry | undefined;
	entryById: StoredEntry | undefined;
	hold: void;
	entryState: void;
	dropEntry: void;
	forget: void;
	create: R;
	comments: void;
	followUp: FollowUp | undefined;
	closeFollowUp: FollowUp;
};

/** A backend's answers to the sync-only steps. */
export type SyncIo<R extends PlanItem, Async extends boolean = false> = {
	[K in SyncOnlyStep<R>['step']]: (step: Extract<SyncOnlyStep<R>, {step: K}>) => Async extends true ? Promise<SyncAnswers<R>[K]> : SyncAnswers<R>[K];
};

export type SyncPlan<R extends PlanItem, T> = Generator<SyncStep<R>, T, unknown>;

type AnyIo = Record<string, (step: never) => unknown>;

/** Runs a sync plan against a synchronous backend, in its transaction; a step's failure is thrown back into the plan (which may name it better). */
export function runSyncPlan<R extends PlanItem, T>(plan: SyncPlan<R, T>, io: AnyIo): T {
	let next = plan.next();
	while (!next.done) {
		let answer: unknown;
		try {
			answer = (io[next.value.step] as (step: SyncStep<R>) => unknown)(next.value);
		} catch (error) {
			next = plan.throw(error);
			continue;
		}

		next = plan.next(answer);
	}

	return next.value;
}

/** Runs a sync plan against an asynchronous backend, in its transaction, as runSyncPlan. */
export async function runSyncPlanAsync<R extends PlanItem, T>(plan: SyncPlan<R, T>, io: AnyIo): Promise<T> {
	let next = plan.next();
	while (!next.done) {
		let answer: unknown;
		try {
			answer = await (io[next.value.step] as (step: SyncStep<R>) => Promise<unknown>)(next.value);
		} catch (error) {
			next = plan.throw(error);
			continue;
		}

		next = plan.next(answer);
	}

	return next.value;
}

const TRACKERS: readonly TrackerKind[] = ['github', 'redmine'];

/** A link checked against its channel: its key field unique, its synced fields existing, set fields multi_select. */
export function checkLink(channel: LoadedChannel, link: NewSyncLink): NewSyncLink {
	if (!TRACKERS.includes(link.tracker)) throw invalidArgument(`tracker must be one of ${TRACKERS.join(', ')}, got ${quote(link.tracker)}`);
	if (typeof link.remote !== 'string' || link.remote.length === 0) throw invalidArgument('remote must name the tracker\'s project (OWNER/REPO for GitHub)');
	const key = channel.fieldsByKey.get(link.key_field);
	if (!key?.is_unique) throw invalidArgument(`key_field ${quote(link.key_field)} must be a unique field of channel ${channel.id}`);
	if (!Array.isArray(link.fields)) throw invalidArgument('fields must be a list of {key, remote, kind}');
	const seen = new Set<string>();
	for (const field of link.fields) {
		const local = channel.fieldsByKey.get(field?.key);
		if (!local || local.type === 'formula') throw invalidArgument(`synced field ${quote(field?.key)} is not a writable field of channel ${channel.id}`);
		if (field.key === link.key_field) throw invalidArgument(`the key field ${quote(field.key)} identifies the record and cannot be synced as a value`);
		if (field.kind !== 'scalar' && field.kind !== 'set') throw invalidArgument(`synced field ${field.key}: kind must be scalar or set, got ${quote(field.kind)}`);
		if (field.kind === 'set' && local.type !== 'multi_select') throw invalidArgument(`synced field ${field.key}: only a multi_select field merges as a set`);
		if (seen.has(field.key)) throw invalidArgument(`synced field ${field.key} is named twice`);
		seen.add(field.key);
	}

	return link;
}

/** The channel's fields a link leaves alone (formulas aside): what stays local. */
export const localOnly = (fields: Field[], link: SyncLink) => fields.filter(field => field.type !== 'formula' && field.key !== link.key_field && !link.fields.some(synced => synced.key === field.key)).map(field => field.key);

export const notLinked = (channelId: string) => notFound(`channel ${channelId} is not linked to a tracker`);

/** The key field's value for a remote id: a number field holds the number. */
function keyValue(field: Field, record: RemoteRecord): unknown {
	const given = record.values[field.key];
	if (given !== undefined && given !== null) return given;
	return field.type === 'number' ? Number(record.remote_id) : record.remote_id;
}

function* linkOf<R extends PlanItem>(channelId: string): SyncPlan<R, SyncLink> {
	const link = (yield {step: 'link', channelId}) as SyncLink | undefined;
	if (!link) throw notLinked(channelId);
	return link;
}

/** The remote values that are fields of the channel (formulas aside): what a pull may write. */
function knownValues(channel: LoadedChannel, values: Record<string, unknown>): Values {
	const known: Values = {};
	for (const [key, value] of Object.entries(values)) {
		const field = channel.fieldsByKey.get(key);
		if (field && field.type !== 'formula') known[key] = value ?? null;
	}

	return known;
}

/** Records an adapter made: refused whole, before anything is read, when one is malformed. */
function checkRecords(records: RemoteRecord[]): void {
	if (!Array.isArray(records)) throw invalidArgument('records must be a list of remote records');
	records.forEach((record, index) => {
		const problem = record === null || typeof record !== 'object' ? 'is not an object'
			: typeof record.remote_id !== 'string' || record.remote_id === '' ? 'has no remote_id (text)'
				: record.values === null || typeof record.values !== 'object' || Array.isArray(record.values) ? 'has no values object'
					: typeof record.created_at !== 'string' || typeof record.updated_at !== 'string' ? 'lacks created_at or updated_at'
						: record.comments !== undefined && !Array.isArray(record.comments) ? 'has comments that are not a list' : undefined;
		if (problem) throw invalidArgument(`remote record ${index} ${problem}; nothing of this pull was written`);
	});
}

function refusedRecord(record: RemoteRecord, error: StoreError): StoreError {
	const body = error.body;
	const detail = body.error === 'validation_failed' ? body.fields.map(field => `${field.key}: ${field.message}`).join('; ') : error.message;
	return invalidArgument(`the tracker's record ${quote(record.remote_id)} does not fit the channel (${detail}); nothing of this pull was written`);
}

/**
 * A pull (SyncApi.applyRemote), one transaction: each record is created, or merged field by field
 * against the base (store/sync/merge.ts mergeField); a conflict opens a sync_conflict follow-up
 * and holds the field's outbox entry, writing nothing on either side.
 */
export function* planApplyRemote<R extends PlanItem>(channelId: string, records: RemoteRecord[], validate: Validator): SyncPlan<R, PullOutcome> {
	checkRecords(records);
	const link = yield* linkOf<R>(channelId);
	const channel = (yield {step: 'channel', channelId}) as LoadedChannel;
	const keyField = channel.fieldsByKey.get(link.key_field);
	if (!keyField) throw invalidArgument(`the link's key field ${quote(link.key_field)} is no longer a field of channel ${channelId}`);
	const outcome: PullOutcome = {created: 0, updated: 0, unchanged: 0, conflicts: 0, gone: 0, comments: 0};
	const now = new Date().toISOString();
	for (const record of records) {
		const key = keyValue(keyField, record);
		const item = (yield {step: 'byKey', channel, field: keyField, value: key}) as R | undefined;
		if (record.gone) {
			// The item stays: what a person wrote is theirs. It just no longer syncs.
			if (item) yield {step: 'forget', itemId: item.id};
			outcome.gone++;
			continue;
		}

		const remote = knownValues(channel, {...record.values, [keyField.key]: key});
		let itemId: string;
		if (!item) {
			try {
				itemId = ((yield {step: 'create', channel, values: remote, createdAt: record.created_at, updatedAt: record.updated_at}) as R).id;
			} catch (error) {
				throw error instanceof StoreError && error.body.error === 'validation_failed' ? refusedRecord(record, error) : error;
			}

			for (const field of link.fields) {
				if (Object.hasOwn(remote, field.key)) yield {step: 'setBase', channelId, itemId, field: field.key, source: 'sync', value: canonicalJson(remote[field.key], field.kind)};
			}

			outcome.created++;
		} else {
			itemId = item.id;
			const bases = (yield {step: 'bases', itemId, source: 'sync'}) as Map<string, string>;
			const meetings: FieldMeeting[] = [];
			for (const field of link.fields) {
				if (!Object.hasOwn(remote, field.key)) continue;
				const ours = item.values[field.key] ?? null;
				// No base yet (the item was here before the link): ours counts as the base unless a change of ours is queued.
				const base = bases.has(field.key) ? JSON.parse(bases.get(field.key)!) as unknown : yield* baseWithoutRow<R>(itemId, field.key, ours);
				meetings.push({key: field.key, kind: field.kind, base, ours, theirs: remote[field.key]});
			}

			const merged = mergeRecord(meetings);
			const writes = merged.writes as Values;
			const conflicts = merged.conflicts.length;
			for (const {key, kind, base, ours, theirs} of merged.conflicts) {
				yield {step: 'hold', channelId, itemId, field: key, kind, base: canonicalJson(base, kind), value: canonicalJson(ours, kind), at: now};
				const opening: FollowUpOpening = {
					channel_id: channelId, item_id: itemId, key, attempted: theirs, run_id: null, kind: 'sync_conflict', base, ours, theirs,
					message: `${key} changed here and on ${link.tracker} since the last sync: choose ours, theirs or a value (sift followups resolve)`,
				};
				yield {step: 'openFollowUps', openings: [opening], at: now};
			}

			// After the local write: the bases that moved, the agreed entries dropped, the merged sets queued.
			const after: Array<() => SyncPlan<R, void>> = [
				...merged.bases.map(({key, kind, value}) => function* (): SyncPlan<R, void> {
					yield {step: 'setBase', channelId, itemId, field: key, source: 'sync', value: canonicalJson(value, kind)};
				}),
				...merged.drops.map(key => function* (): SyncPlan<R, void> {
					yield {step: 'dropEntry', itemId, field: key, at: now};
				}),
				...merged.queues.map(({key, kind, value}) => function* (): SyncPlan<R, void> {
					yield {step: 'queueSync', channelId, itemId, values: {[key]: canonicalJson(value, kind)}, at: now};
				}),
			];

			// Mapped fields the tracker alone writes (read-only here): theirs whenever it differs.
			const synced = new Set(link.fields.map(field => field.key));
			for (const [key, value] of Object.entries(remote)) {
				if (!synced.has(key) && key !== keyField.key && !sameCanonical(item.values[key] ?? null, value)) writes[key] = value;
			}

			if (Object.keys(writes).length > 0) {
				const written = yield* planEdit<R>(channel, {channelId, itemId, values: writes, actor: SYNC_ACTOR}, validate, record.updated_at);
				if ('refused' in written) throw refusedRecord(record, written.refused);
				outcome.updated++;
			} else if (conflicts === 0) {
				outcome.unchanged++;
			}

			for (const step of after) yield* step();
			outcome.conflicts += conflicts;
		}

		if (record.comments) {
			yield {step: 'comments', channelId, itemId, comments: record.comments};
			outcome.comments += record.comments.length;
		}
	}

	return outcome;
}

/** SyncApi.addComments, one transaction: each list added to its record's comments; a remote id with no item skipped. */
export function* planAddComments<R extends PlanItem>(channelId: string, lists: RemoteComments[]): SyncPlan<R, number> {
	if (!Array.isArray(lists) || lists.some(list => typeof list?.remote_id !== 'string' || !Array.isArray(list.comments))) throw invalidArgument('comments must be a list of {remote_id, comments: [...]}');
	const link = yield* linkOf<R>(channelId);
	const channel = (yield {step: 'channel', channelId}) as LoadedChannel;
	const keyField = channel.fieldsByKey.get(link.key_field);
	if (!keyField) throw invalidArgument(`the link's key field ${quote(link.key_field)} is no longer a field of channel ${channelId}`);
	let written = 0;
	for (const list of lists) {
		const item = (yield {step: 'byKey', channel, field: keyField, value: keyValue(keyField, {remote_id: list.remote_id, values: {}, created_at: '', updated_at: ''})}) as R | undefined;
		if (!item || list.comments.length === 0) continue;
		yield {step: 'comments', channelId, itemId: item.id, comments: list.comments, add: true};
		written += list.comments.length;
	}

	return written;
}

/** A field's base when none is kept: the queued entry's, else ours (nothing of ours is waiting to be sent). */
function* baseWithoutRow<R extends PlanItem>(itemId: string, field: string, ours: unknown): SyncPlan<R, unknown> {
	const entry = (yield {step: 'entry', itemId, field}) as StoredEntry | undefined;
	return entry ? JSON.parse(entry.base) as unknown : ours;
}

/** After the tracker confirmed an entry: its base becomes the remote value; the entry goes, unless a newer local value waits. Idempotent. */
export function* planMarkSent<R extends PlanItem>(id: number, remoteValue: unknown): SyncPlan<R, void> {
	const entry = (yield {step: 'entryById', id}) as StoredEntry | undefined;
	if (!entry) return;
	const base = canonicalJson(remoteValue, entry.kind);
	yield {step: 'setBase', channelId: entry.channel_id, itemId: entry.item_id, field: entry.field, source: 'sync', value: base};
	if (entry.value === base) yield {step: 'dropEntry', itemId: entry.item_id, field: entry.field, at: new Date().toISOString()};
	else yield {step: 'entryState', id, state: 'pending', error: null};
}

/** The tracker refused an entry: pending again with the error, or held with a follow-up a person sees. */
export function* planMarkFailed<R extends PlanItem>(id: number, error: string, followUp: boolean): SyncPlan<R, void> {
	const entry = (yield {step: 'entryById', id}) as StoredEntry | undefined;
	if (!entry) throw notFound(`no outbox entry ${JSON.stringify(id)}`);
	const message = String(error).slice(0, 2000);
	yield {step: 'entryState', id, state: followUp ? 'held' : 'pending', error: message};
	if (followUp) {
		const link = (yield {step: 'link', channelId: entry.channel_id}) as SyncLink | undefined;
		const opening: FollowUpOpening = {channel_id: entry.channel_id, item_id: entry.item_id, key: entry.field, attempted: JSON.parse(entry.value) as unknown, run_id: null, kind: 'refused', message: `${link?.tracker ?? 'the tracker'} refused ${entry.field}: ${message}`};
		yield {step: 'openFollowUps', openings: [opening], at: new Date().toISOString()};
	}
}

/**
 * A person's choice on a sync conflict (or an import's upsert conflict): the chosen value is
 * written locally (actor human), the base becomes theirs (the value now known on the other side),
 * and, for a synced field, the choice is queued for the tracker unless it is theirs already.
 */
export function* planResolveConflict<R extends PlanItem>(followUpId: number, choice: ConflictChoice, validate: Validator): SyncPlan<R, FollowUp> {
	const followUp = (yield {step: 'followUp', id: followUpId}) as FollowUp | undefined;
	if (!followUp) throw notFound(`follow-up ${JSON.stringify(followUpId)} does not exist`);
	if (followUp.kind !== 'sync_conflict') throw invalidArgument(`follow-up ${followUpId} is not a sync conflict (it is a refused value: set the field, or dismiss it)`);
	if (followUp.status !== 'open') throw invalidArgument(`follow-up ${followUpId} is already ${followUp.status}`);
	const channel = (yield {step: 'channel', channelId: followUp.channel_id}) as LoadedChannel;
	const item = (yield {step: 'item', channelId: channel.id, itemId: followUp.item_id}) as R | undefined;
	if (!item) throw notFound(`item ${followUp.item_id} no longer exists`);
	const link = (yield {step: 'link', channelId: channel.id}) as SyncLink | undefined;
	const synced = link?.fields.find(field => field.key === followUp.key);
	const kind: MergeKind = synced?.kind ?? (channel.fieldsByKey.get(followUp.key)?.type === 'multi_select' ? 'set' : 'scalar');
	const at = new Date().toISOString();
	if (!('side' in choice) && !Object.hasOwn(choice, 'value')) throw invalidArgument('choose ours, theirs or a value');
	const value = 'side' in choice ? (choice.side === 'ours' ? item.values[followUp.key] ?? null : followUp.theirs ?? null) : choice.value;
	// Closed first: the field's entry is no longer held by an open conflict.
	const closed = (yield {step: 'closeFollowUp', id: followUpId, at}) as FollowUp;
	if (synced) {
		const entry = (yield {step: 'entry', itemId: item.id, field: followUp.key}) as StoredEntry | undefined;
		if (entry?.state === 'held') yield {step: 'entryState', id: entry.id, state: 'pending', error: null};
	}

	yield {step: 'setBase', channelId: channel.id, itemId: item.id, field: followUp.key, source: synced ? 'sync' : 'import', value: canonicalJson(followUp.theirs, kind)};
	const human: Actor = {kind: 'human'};
	if (!sameCanonical(item.values[followUp.key] ?? null, value, kind)) {
		const written = yield* planEdit<R>(channel, {channelId: channel.id, itemId: item.id, values: {[followUp.key]: value}, actor: human}, validate);
		if ('refused' in written) throw written.refused;
	}

	// Queued even when ours was kept (no local write): the tracker still holds theirs.
	if (synced) yield* queueForSync<R>(channel, item.id, human, {[followUp.key]: value}, at);
	return closed;
}
