// Review as plans both backends run (docs/review.md): accepting and declining proposals, and the
// diff and revert of a run. Each is a pure generator built from the one edit plan
// (store/edit-plan.ts planEdit), so an accept or a revert is validated, versioned, evented and
// rolled back exactly as any edit; the backends only answer the steps, inside one transaction
// for the whole accept or revert (one bulk edit of the person's).
//
// Conflicts are per field: a write goes on when none of the fields it sets changed since the
// version it was based on (the proposal's base, the run's write), or changed to the very value it
// writes; otherwise it is reported with the values on both sides and nothing is overwritten
// (unless an accept is forced).

import {randomUUID} from 'node:crypto';
import type {LoadedChannel} from './channels.js';
import {StoreError, type StoreErrorBody} from './errors.js';
import {planEdit, type EditOutcome, type Plan, type PlanItem} from './edit-plan.js';
import {checkAllFound, checkProposalIds, proposalCause, type ProposalRow, type ProposalStatus} from './proposals.js';
import type {RunRow} from './runs.js';
import type {Actor, Changes, EventCause, StoreEvent, Values} from './types.js';
import {invalidArgument, quote} from './errors.js';
import {sameValue} from './write-rules.js';
import type {Validator} from './writes.js';

const PERSON: Actor = {kind: 'human'};

export type AcceptRequest = {
	ids: number[];
	/** Accept only these fields of the one proposal named (the rest stays open). */
	fields?: string[];
	/** Write even where a proposed field changed since the proposal's base (the current value is overwritten). */
	force?: boolean;
	/** Ties the accept's events together (default: a new UUID): what one undo takes back. */
	group?: string;
	/**
	 * Who accepts: a person (default), or `auto`, the config's auto_accept_above as a proposal
	 * arrives. Either way it is the person's accept (their threshold); `auto` is kept as the
	 * proposal's decided_by and in its events' cause.
	 */
	by?: 'human' | 'auto';
};

export type AcceptedProposal = {
	proposal_id: number;
	channel_id: string;
	item_id: string;
	run_id: string | null;
	/** The item's version after the write (what an undo expects), and the write's event sequence. */
	version: number;
	sequence: number;
	/** What the accept wrote, per field: from the value the item held, to the proposed one (empty when it already held them). */
	changes: Changes;
	/** Fields a forced accept overwrote although they changed since the base. */
	overwrote: string[];
	/** Some fields of the proposal are still to decide (an accept of some of its fields). */
	still_open: boolean;
};

export type ConflictField = {key: string; base: unknown; proposed: unknown; current: unknown};

export type ProposalConflict = {proposal_id: number; channel_id: string; item_id: string; base_version: number; current_version: number; fields: ConflictField[]};

export type ProposalRefusal = {proposal_id: number; item_id: string; error: StoreErrorBody};

export type ProposalSkip = {proposal_id: number; status: ProposalStatus};

export type AcceptResult = {group: string; accepted: AcceptedProposal[]; conflicts: ProposalConflict[]; refused: ProposalRefusal[]; skipped: ProposalSkip[]};

export type DeclineResult = {declined: Array<{proposal_id: number; item_id: string; sequence: number}>; skipped: ProposalSkip[]};

const pick = (changes: Changes, keys: readonly string[]): Changes => Object.fromEntries(keys.map(key => [key, changes[key]!]));

/** The fields an accept takes of a proposal: all, or the ones named (each a field of it). */
function acceptedKeys(row: ProposalRow, fields: readonly string[] | undefined): string[] {
	const keys = Object.keys(row.changes);
	if (fields === undefined) return keys;
	const unknown = fields.filter(key => !keys.includes(key));
	if (unknown.length > 0) {
		throw invalidArgument(`proposal ${row.id} does not propose ${unknown.map(key => quote(key)).join(', ')}; it proposes ${keys.join(', ')}`);
	}

	return [...new Set(fields)];
}

type Written = {outcome: EditOutcome; overwrote: string[]; changes: Changes} | {conflict: {current_version: number; changed_since: Changes; keys: string[]}};

/** What a write of `values` changed: from what each field held before it (`before`), to the value written. */
function writtenChanges(values: Values, before: Values): Changes {
	const changes: Changes = {};
	for (const [key, to] of Object.entries(values)) {
		if (!sameValue(before[key] ?? null, to ?? null)) changes[key] = {from: before[key] ?? null, to};
	}

	return changes;
}

/**
 * One edit based on `baseVersion`: written there, else on the current version when none of its
 * fields changed since (or `force`), else the conflict. A conflict thrown by the plan comes before
 * it wrote anything, so catching it here leaves the transaction clean.
 */
export function* writeOnBase<R extends PlanItem>(channel: LoadedChannel, itemId: string, values: Values, base: {version: number; values: Values}, cause: EventCause, force: boolean, validate: Validator): Plan<R, Written> {
	const request = {channelId: channel.id, itemId, values, actor: PERSON, expectedVersion: base.version, cause};
	try {
		return {outcome: yield* planEdit<R>(channel, request, validate), overwrote: [], changes: writtenChanges(values, base.values)};
	} catch (error) {
		if (!(error instanceof StoreError) || error.body.error !== 'version_conflict') throw error;
		const {current_version, changed_since} = error.body;
		const changed = Object.keys(values).filter(key => Object.hasOwn(changed_since, key));
		// A field changed since to the very value written (a person set it by hand) is no conflict: it is satisfied.
		const keys = changed.filter(key => !sameValue(changed_since[key]!.to ?? null, values[key] ?? null));
		if (keys.length > 0 && !force) return {conflict: {current_version, changed_since, keys}};
		const before = {...base.values, ...Object.fromEntries(changed.map(key => [key, changed_since[key]!.to]))};
		return {outcome: yield* planEdit<R>(channel, {...request, expectedVersion: current_version}, validate), overwrote: keys, changes: writtenChanges(values, before)};
	}
}

/** Loads each channel once per plan. */
function* channelOf<R extends PlanItem>(cache: Map<string, LoadedChannel>, channelId: string): Plan<R, LoadedChannel> {
	let channel = cache.get(channelId);
	if (!channel) {
		channel = (yield {step: 'channel', channelId}) as LoadedChannel;
		cache.set(channelId, channel);
	}

	return channel;
}

/**
 * Accepts proposals as one bulk edit of the person's: each is written at its base version (see
 * writeOnBase), its event naming the proposal, its run and the accept's group; each refused or
 * conflicting one stays open and is reported. An unknown id refuses the whole accept.
 */
export function* planAccept<R extends PlanItem>(request: AcceptRequest, validate: Validator): Plan<R, AcceptResult> {
	const ids = checkProposalIds(request.ids);
	if (request.fields !== undefined && ids.length !== 1) {
		throw invalidArgument('accepting some fields names exactly one proposal');
	}

	const rows = checkAllFound(ids, (yield {step: 'proposals', ids}) as ProposalRow[]);
	const group = request.group ?? randomUUID();
	const auto = request.by === 'auto';
	const result: AcceptResult = {group, accepted: [], conflicts: [], refused: [], skipped: []};
	const channels = new Map<string, LoadedChannel>();
	for (const id of ids) {
		const row = rows.get(id)!;
		if (row.status !== 'open') {
			result.skipped.push({proposal_id: id, status: row.status});
			continue;
		}

		const keys = acceptedKeys(row, request.fields);
		const channel = yield* channelOf<R>(channels, row.channel_id);
		const values = Object.fromEntries(keys.map(key => [key, row.changes[key]!.to]));
		let written: Written;
		try {
			const base = {version: row.base_version, values: Object.fromEntries(keys.map(key => [key, row.changes[key]!.from]))};
			written = yield* writeOnBase<R>(channel, row.item_id, values, base, proposalCause(row, group, auto), request.force === true, validate);
		} catch (error) {
			// The item is gone: nothing to write, the proposal stays for a person to decline.
			if (error instanceof StoreError && error.body.error === 'not_found') {
				result.refused.push({proposal_id: id, item_id: row.item_id, error: error.body});
				continue;
			}

			throw error;
		}

		if ('conflict' in written) {
			const {current_version, changed_since} = written.conflict;
			result.conflicts.push({
				proposal_id: id,
				channel_id: row.channel_id,
				item_id: row.item_id,
				base_version: row.base_version,
				current_version,
				fields: keys.map(key => ({key, base: row.changes[key]!.from, proposed: row.changes[key]!.to, current: Object.hasOwn(changed_since, key) ? changed_since[key]!.to : row.changes[key]!.from})),
			});
			continue;
		}

		if ('refused' in written.outcome) {
			result.refused.push({proposal_id: id, item_id: row.item_id, error: written.outcome.refused.body});
			continue;
		}

		const {item, sequence} = written.outcome;
		const rest = Object.keys(row.changes).filter(key => !keys.includes(key));
		const at = new Date().toISOString();
		const event = {type: 'proposal.accepted' as const, item_id: row.item_id, version: item.version, actor: PERSON, changes: pick(row.changes, keys), at, cause: proposalCause(row, group, auto)};
		yield {
			step: 'decide',
			proposal: row,
			decision: {status: rest.length === 0 ? 'accepted' : 'open', changes: rest.length === 0 ? row.changes : pick(row.changes, rest), base_version: rest.length === 0 ? row.base_version : item.version, written_version: item.version, decided_at: at, decided_by: auto ? 'auto' : 'human'},
			event,
		};
		result.accepted.push({proposal_id: id, channel_id: row.channel_id, item_id: row.item_id, run_id: row.run_id, version: item.version, sequence, changes: written.changes, overwrote: written.overwrote, still_open: rest.length > 0});
	}

	return result;
}

/** Declines proposals (the open ones; others are reported as skipped), each with its proposal.declined event. */
export function* planDecline<R extends PlanItem>(ids: number[]): Plan<R, DeclineResult> {
	const wanted = checkProposalIds(ids);
	const rows = checkAllFound(wanted, (yield {step: 'proposals', ids: wanted}) as ProposalRow[]);
	const result: DeclineResult = {declined: [], skipped: []};
	for (const id of wanted) {
		const row = rows.get(id)!;
		if (row.status !== 'open') {
			result.skipped.push({proposal_id: id, status: row.status});
			continue;
		}

		const at = new Date().toISOString();
		const event = {type: 'proposal.declined' as const, item_id: row.item_id, version: row.base_version, actor: PERSON, changes: {}, at, cause: proposalCause(row, randomUUID())};
		const sequence = (yield {step: 'decide', proposal: row, decision: {status: 'declined', changes: row.changes, base_version: row.base_version, written_version: null, decided_at: at, decided_by: 'human'}, event}) as number;
		result.declined.push({proposal_id: id, item_id: row.item_id, sequence});
	}

	return result;
}

// ---------------------------------------------------------------------------------------------
// Diff and revert of a run

/** One field a run changed: from what it held before the run's first write, to the run's last value, and what it holds now. */
export type RunDiffField = {key: string; from: unknown; to: unknown; now: unknown; /** Another write changed it after the run's last write of it. */ changed_since: boolean};

export type RunDiffItem = {
	item_id: string;
	/** The item's version after the run's last write of it. */
	version: number;
	/** Its version now; null when it was deleted since. */
	current_version: number | null;
	fields: RunDiffField[];
};

export type RunDiff = {run_id: string; channel_id: string; items: RunDiffItem[]};

type KeyWrite = {from: unknown; to: unknown; version: number};

/**
 * A run's writes folded per item and field, in the order the run first wrote each item: the value
 * before its first write, after its last, and the version of that last write. Writes that came
 * back to where they started are left out.
 */
export function foldRunWrites(events: readonly StoreEvent[]): Map<string, Map<string, KeyWrite>> {
	const items = new Map<string, Map<string, KeyWrite>>();
	for (const event of events) {
		if (event.type !== 'item.updated') continue;
		let fields = items.get(event.item_id);
		if (!fields) {
			fields = new Map();
			items.set(event.item_id, fields);
		}

		for (const [key, change] of Object.entries(event.changes)) {
			const earlier = fields.get(key);
			fields.set(key, {from: earlier ? earlier.from : change.from, to: change.to, version: event.version});
		}
	}

	for (const [id, fields] of items) {
		for (const [key, write] of fields) if (sameValue(write.from ?? null, write.to ?? null)) fields.delete(key);
		if (fields.size === 0) items.delete(id);
	}

	return items;
}

/**
 * Every field the run changed (docs/review.md#diff-and-revert): the run's own writes, and in
 * propose mode the person's accepts of its proposals; with the value now and whether anything
 * else changed it since.
 */
export function* planRunDiff<R extends PlanItem>(run: Pick<RunRow, 'id' | 'channel_id' | 'start_sequence'>): Plan<R, RunDiff> {
	const events = (yield {step: 'runWrites', channelId: run.channel_id, runId: run.id, afterSequence: run.start_sequence ?? 0}) as StoreEvent[];
	const diff: RunDiff = {run_id: run.id, channel_id: run.channel_id, items: []};
	for (const [itemId, fields] of foldRunWrites(events)) {
		const item = (yield {step: 'item', channelId: run.channel_id, itemId}) as R | undefined;
		const last = Math.max(...[...fields.values()].map(write => write.version));
		const changedAfter = new Map<number, Changes>();
		const fieldsOut: RunDiffField[] = [];
		for (const [key, write] of fields) {
			let changed = item === undefined;
			if (item && item.version > write.version) {
				if (!changedAfter.has(write.version)) changedAfter.set(write.version, (yield {step: 'changedSince', item, version: write.version}) as Changes);
				changed = Object.hasOwn(changedAfter.get(write.version)!, key);
			}

			fieldsOut.push({key, from: write.from ?? null, to: write.to ?? null, now: item ? item.values[key] ?? null : null, changed_since: changed});
		}

		diff.items.push({item_id: itemId, version: last, current_version: item?.version ?? null, fields: fieldsOut});
	}

	return diff;
}

/** What a revert does with each field of a diff: set it back, leave it (a conflict), or nothing (it is back already). */
export type RevertSorting = {
	/** Per item: the values to write back, what the fields hold now, and the version they were read at. */
	back: Array<{item_id: string; values: Values; now: Values; current_version: number}>;
	conflicts: Array<{item_id: string; key: string; from: unknown; to: unknown; now: unknown}>;
	unchanged: Array<{item_id: string; key: string}>;
};

/** Sorts a diff for a revert: a field goes back to its value before the run unless another write changed it since. */
export function sortRevert(diff: RunDiff): RevertSorting {
	const sorting: RevertSorting = {back: [], conflicts: [], unchanged: []};
	for (const item of diff.items) {
		const values: Values = {};
		const now: Values = {};
		for (const field of item.fields) {
			if (item.current_version !== null && sameValue(field.now, field.from)) {
				sorting.unchanged.push({item_id: item.item_id, key: field.key});
			} else if (field.changed_since) {
				sorting.conflicts.push({item_id: item.item_id, key: field.key, from: field.from, to: field.to, now: field.now});
			} else {
				values[field.key] = field.from;
				now[field.key] = field.now;
			}
		}

		if (Object.keys(values).length > 0) sorting.back.push({item_id: item.item_id, values, now, current_version: item.current_version!});
	}

	return sorting;
}

export type RevertResult = {
	run_id: string;
	group: string;
	reverted: Array<{item_id: string; version: number; sequence: number; changes: Changes}>;
	conflicts: RevertSorting['conflicts'];
	unchanged: RevertSorting['unchanged'];
	refused: Array<{item_id: string; error: StoreErrorBody}>;
};

/**
 * Sets back every field the run changed where nothing changed it since, as one bulk edit of the
 * person's whose events name the run reverted; the rest are conflicts, left as they are.
 */
export function* planRevert<R extends PlanItem>(run: Pick<RunRow, 'id' | 'channel_id' | 'start_sequence'>, validate: Validator, group: string = randomUUID()): Plan<R, RevertResult> {
	const sorting = sortRevert(yield* planRunDiff<R>(run));
	const channel = (yield {step: 'channel', channelId: run.channel_id}) as LoadedChannel;
	const result: RevertResult = {run_id: run.id, group, reverted: [], conflicts: sorting.conflicts, unchanged: sorting.unchanged, refused: []};
	const cause: EventCause = {kind: 'revert', run_id: run.id, group};
	for (const back of sorting.back) {
		// The fields were read unchanged in this transaction: the current version holds.
		const written = yield* writeOnBase<R>(channel, back.item_id, back.values, {version: back.current_version, values: back.now}, cause, false, validate);
		if ('conflict' in written) throw new Error('unreachable: the item was read in this transaction');
		if ('refused' in written.outcome) {
			result.refused.push({item_id: back.item_id, error: written.outcome.refused.body});
			continue;
		}

		result.reverted.push({item_id: back.item_id, version: written.outcome.item.version, sequence: written.outcome.sequence, changes: written.changes});
	}

	return result;
}
