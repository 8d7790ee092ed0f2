/**
 * Bulk edits on marked rows, as plans and outcomes (docs/reference.md#the-edit-transaction):
 * each item is written with the version the person saw (a change made meanwhile is a conflict,
 * never overwritten) under its own idempotency key, so a retried batch cannot write twice. The
 * outcome names what was written, what conflicted and what was refused (in the wording of
 * source/text/refusal.ts), and its undo plan reverts only what was written, each from the
 * version the edit produced. An undo plan is a plan like any other: its outcome folds the same way.
 */

import {StoreError, type Actor, type EditRequest, type EditResult, type Field, type Values} from '../../../store/index.js';
import {counted, shortFields, thousands} from '../../text/format.js';
import {describeRefusal} from '../../text/refusal.js';
import {sanitize} from '../../text/sanitize.js';

/** A marked row as the person saw it. */
export type MarkedRow = {
	id: string;
	version: number;
	/** The row's values as shown (a page's preview). */
	values: Values;
	/** How the outcome names the row (`BUG-0042`); the id when not given. */
	name?: string;
};

export type PlannedEdit = {
	id: string;
	name: string;
	/** The value the field held when the person saw it: what an undo writes back. */
	before: unknown;
	request: EditRequest;
};

export type BulkPlan = {channelId: string; key: string; batch: string; edits: PlannedEdit[]};

export type BulkOutcome = {
	plan: BulkPlan;
	written: Array<{id: string; name: string; before: unknown; after: unknown; version: number}>;
	conflicts: Array<{id: string; name: string; message: string; currentVersion: number}>;
	refusals: Array<{id: string; name: string; message: string}>;
};

const HUMAN: Actor = {kind: 'human'};

export type BulkEditInput = {
	channelId: string;
	field: Field;
	value: unknown;
	rows: MarkedRow[];
	/** Unique to this bulk edit (a UUID): each item's idempotency key is made from it. */
	batch: string;
};

/** The edit requests for setting `field` to `value` on every marked row, or why there are none. */
export function planBulkEdit({channelId, field, value, rows, batch}: BulkEditInput): BulkPlan | {error: string} {
	if (field.type === 'formula') {
		return {error: `${field.key} is a formula field, computed when read, and cannot be edited`};
	}

	if (!shortFields([field]).includes(field)) {
		// Rows show previews, which leave long text and JSON out: undo would not know what to write back.
		return {error: `${field.key} is ${field.type === 'json' ? 'a json field' : 'long text'}, which rows do not show; edit it one item at a time`};
	}

	const unique = rows.filter((row, index) => rows.findIndex(other => other.id === row.id) === index);
	if (unique.length === 0) {
		return {error: 'no rows are marked: mark rows with Space, then edit them together'};
	}

	const edits = unique.map(row => ({
		id: row.id,
		name: row.name ?? row.id,
		before: row.values[field.key] ?? null,
		request: {channelId, itemId: row.id, values: {[field.key]: value}, actor: HUMAN, expectedVersion: row.version, idempotencyKey: `${batch}:${row.id}`},
	}));
	return {channelId, key: field.key, batch, edits};
}

/** Sorts each edit's settled result (in plan order) into written, conflicts and refusals. */
export function foldBulkResults(plan: BulkPlan, results: Array<PromiseSettledResult<EditResult>>): BulkOutcome {
	if (results.length !== plan.edits.length) {
		throw new RangeError(`a bulk plan of ${plan.edits.length} edits got ${results.length} results`);
	}

	const outcome: BulkOutcome = {plan, written: [], conflicts: [], refusals: []};
	for (const [index, result] of results.entries()) {
		const {id, name, before, request} = plan.edits[index]!;
		if (result.status === 'fulfilled') {
			outcome.written.push({id, name, before, after: (request.values as Values)[plan.key], version: result.value.item.version});
		} else if (result.reason instanceof StoreError && result.reason.body.error === 'version_conflict') {
			outcome.conflicts.push({id, name, message: describeRefusal(result.reason.body), currentVersion: result.reason.body.current_version});
		} else if (result.reason instanceof StoreError) {
			outcome.refusals.push({id, name, message: describeRefusal(result.reason.body)});
		} else {
			outcome.refusals.push({id, name, message: sanitize(result.reason instanceof Error ? result.reason.message : String(result.reason))});
		}
	}

	return outcome;
}

/**
 * What one `u` does after a bulk edit: write back each written item's earlier value, expecting
 * the version the edit gave it (a change made since is a conflict, not overwritten). Null when
 * nothing was written.
 */
export function planUndo(outcome: BulkOutcome): BulkPlan | null {
	if (outcome.written.length === 0) {
		return null;
	}

	const {channelId, key} = outcome.plan;
	const batch = `${outcome.plan.batch}:undo`;
	const edits = outcome.written.map(({id, name, before, after, version}) => ({
		id,
		name,
		before: after,
		request: {channelId, itemId: id, values: {[key]: before}, actor: HUMAN, expectedVersion: version, idempotencyKey: `${batch}:${id}`},
	}));
	return {channelId, key, batch, edits};
}

/** The outcome as lines for the screen: a count line, then each conflict and refusal with its item. */
export function describeBulkOutcome(outcome: BulkOutcome): string[] {
	const {written, conflicts, refusals} = outcome;
	const lines = [`${outcome.plan.key}: ${counted(written.length, 'item')} written, ${counted(conflicts.length, 'conflict')}, ${thousands(refusals.length)} refused`];
	for (const {name, message} of conflicts) lines.push(`conflict on ${sanitize(name)}: ${message}`);
	for (const {name, message} of refusals) lines.push(`refused on ${sanitize(name)}: ${message}`);
	return lines;
}
