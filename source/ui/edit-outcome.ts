// Edit outcomes, shared by every path that writes a field from the screen (the edit picker, the
// follow-up queue, undo, bulk edits on marks, $EDITOR): the store call against the version the
// person saw, its outcome in one shape, the undo stack and its cap.

import {StoreError, type Changes, type EditResult, type FieldProblem, type Item, type Values} from '../../store/index.js';
import type {AcceptResult} from '../../store/review-plan.js';
import {describeRefusal} from '../text/refusal.js';
import type {AsyncStore} from '../../store/api.js';
import {foldBulkResults, planUndo, type BulkOutcome, type BulkPlan} from './model/bulk.js';

export type EditOutcome =
	| {kind: 'ok'; result: EditResult}
	| {kind: 'refused'; problem: FieldProblem}
	/** The record changed since the version the edit expected; `item` is it now (null if unreadable). */
	| {kind: 'conflict'; changes: Changes; item: Item | null}
	| {kind: 'error'; message: string};

/**
 * One edit of one field of this session that `u` can take back: `version` is the one the edit
 * left, `seen` the one it was made on (an undo that lands brings the record back to it).
 */
export type FieldUndoEntry = {kind?: 'field'; itemId: string; name: string; key: string; before: unknown; after: unknown; version: number; seen?: number};

/** A bulk edit on marks: one `u` takes back every item it wrote. */
export type BulkUndoEntry = {kind: 'bulk'; outcome: BulkOutcome};

/**
 * An accept of proposals (the review queue's `a`, `A`, a digit): one `u` sets each item it wrote
 * back, all fields at once, expecting the version the accept left (docs/review.md#accepting).
 */
export type AcceptUndoEntry = {kind: 'accept'; group: string; items: Array<{itemId: string; values: Values; version: number}>};

/** What `u` takes back: one field of one item, a whole bulk edit, or an accept. */
export type UndoEntry = FieldUndoEntry | BulkUndoEntry | AcceptUndoEntry;

/** How many edits `u` can take back, whichever path made them. */
export const UNDO_LIMIT = 100;

/** The undo stack with one more entry, the oldest dropped past the cap. */
export function pushUndo(stack: readonly UndoEntry[], entry: UndoEntry): UndoEntry[] {
	const next = [...stack, entry];
	return next.length > UNDO_LIMIT ? next.slice(next.length - UNDO_LIMIT) : next;
}

/** One human edit of one field, validated by the store against the version the person saw. */
export async function editField(store: AsyncStore, channelId: string, itemId: string, key: string, value: unknown, expectedVersion: number): Promise<EditOutcome> {
	try {
		const result = await store.editItem({channelId, itemId, values: {[key]: value}, actor: {kind: 'human'}, expectedVersion});
		return {kind: 'ok', result};
	} catch (error) {
		if (!(error instanceof StoreError)) return {kind: 'error', message: (error as Error).message};
		const {body} = error;
		if (body.error === 'validation_failed') {
			return {kind: 'refused', problem: body.fields.find(problem => problem.key === key) ?? body.fields[0]!};
		}

		if (body.error === 'version_conflict') {
			const item = await store.readItem(channelId, itemId).catch(() => null);
			return {kind: 'conflict', changes: body.changed_since, item};
		}

		return {kind: 'error', message: body.message};
	}
}

/**
 * Undo: `ok` (`from`: the version it was written on), or why not; `lost` names the change of
 * someone else that came in between.
 */
export type UndoOutcome = Exclude<EditOutcome, {kind: 'ok'}> | {kind: 'ok'; result: EditResult; from?: number} | {kind: 'lost'; change: Changes};

/**
 * Takes one edit back: the old value, expecting the version the edit left. If only other fields
 * changed since, ours did not, so the undo goes on top of the current version (once).
 */
export async function undoEdit(store: AsyncStore, channelId: string, entry: FieldUndoEntry): Promise<UndoOutcome> {
	const outcome = await editField(store, channelId, entry.itemId, entry.key, entry.before, entry.version);
	if (outcome.kind === 'ok') return {...outcome, from: entry.version};
	if (outcome.kind !== 'conflict') return outcome;
	if (Object.hasOwn(outcome.changes, entry.key)) return {kind: 'lost', change: {[entry.key]: outcome.changes[entry.key]!}};
	if (!outcome.item) return outcome;
	const again = await editField(store, channelId, entry.itemId, entry.key, entry.before, outcome.item.version);
	return again.kind === 'ok' ? {...again, from: outcome.item.version} : again;
}

/**
 * The undo stack after one of our undos brought `itemId` back from the version an edit left to the
 * one it was made on (`seen`), in a version of its own (`version`): the entries below on that
 * record expected `seen`, so they now expect `version` (else each would conflict with our own
 * undo, and an edit of the same field would read as lost). Any entry: one field's, a bulk edit's
 * items, an accept's.
 */
function rebaseOn(stack: readonly UndoEntry[], itemId: string, seen: number, version: number): UndoEntry[] {
	const moved = <T extends {version: number}>(entry: T, id: string): T => (id === itemId && entry.version === seen ? {...entry, version} : entry);
	return stack.map(below => {
		switch (below.kind) {
			case 'bulk': return {...below, outcome: {...below.outcome, written: below.outcome.written.map(written => moved(written, written.id))}};
			case 'accept': return {...below, items: below.items.map(item => moved(item, item.itemId))};
			default: return moved(below, below.itemId);
		}
	});
}

/**
 * The undo stack after `entry` was undone: an undo written on the very version its edit left
 * brings the record back to the version that edit was made on; the entries below move on (rebaseOn).
 * One written on top of someone else's change leaves them alone (theirs is in between).
 */
export function rebaseUndo(stack: readonly UndoEntry[], entry: FieldUndoEntry, outcome: UndoOutcome): UndoEntry[] {
	if (outcome.kind !== 'ok' || outcome.from !== entry.version || entry.seen === undefined) return [...stack];
	return rebaseOn(stack, entry.itemId, entry.seen, outcome.result.item.version);
}

/**
 * The undo stack after the bulk edit `edit` was undone (`undone`): each item it wrote back was
 * written on the version the edit left (model/bulk.ts, planUndo), so the entries below on that
 * item, which expected the version the edit was made on, move on to the undo's (rebaseOn).
 */
export function rebaseBulkUndo(stack: readonly UndoEntry[], edit: BulkOutcome, undone: BulkOutcome): UndoEntry[] {
	let next = [...stack];
	for (const written of undone.written) {
		const seen = edit.plan.edits.find(planned => planned.id === written.id)?.request.expectedVersion;
		if (seen !== undefined) next = rebaseOn(next, written.id, seen, written.version);
	}

	return next;
}

/**
 * A bulk plan written item by item, each with its own expected version and idempotency key
 * (model/bulk.ts), at most `parallel` at a time; the outcome sorts written, conflicts, refusals.
 */
export async function runBulk(store: AsyncStore, plan: BulkPlan, parallel = 8): Promise<BulkOutcome> {
	const results: Array<PromiseSettledResult<EditResult>> = [];
	for (let at = 0; at < plan.edits.length; at += parallel) {
		const slice = plan.edits.slice(at, at + parallel);
		results.push(...await Promise.allSettled(slice.map(async edit => store.editItem(edit.request))));
	}

	return foldBulkResults(plan, results);
}

/**
 * One `u` after a bulk edit: each written item back to its earlier value, from the version the
 * edit left (an edit that wrote nothing undoes to nothing written: every `u` gets its answer).
 */
export async function undoBulk(store: AsyncStore, outcome: BulkOutcome): Promise<BulkOutcome> {
	const plan = planUndo(outcome);
	return plan ? runBulk(store, plan) : {plan: {...outcome.plan, batch: `${outcome.plan.batch}:undo`, edits: []}, written: [], conflicts: [], refusals: []};
}

/**
 * The undo of an accept, from what it wrote: per item, each field's value before the accept (the
 * first `from` when several proposals of one item were accepted together) and the last version.
 * Null when the accept wrote nothing.
 */
export function acceptUndoEntry(result: AcceptResult): AcceptUndoEntry | null {
	const items = new Map<string, {itemId: string; values: Values; version: number}>();
	for (const accepted of result.accepted) {
		if (Object.keys(accepted.changes).length === 0) continue;
		const entry = items.get(accepted.item_id) ?? {itemId: accepted.item_id, values: {}, version: accepted.version};
		for (const [key, change] of Object.entries(accepted.changes)) if (!Object.hasOwn(entry.values, key)) entry.values[key] = change.from;
		entry.version = Math.max(entry.version, accepted.version);
		items.set(accepted.item_id, entry);
	}

	return items.size === 0 ? null : {kind: 'accept', group: result.group, items: [...items.values()]};
}

/** Takes an accept back: one person's write per item, each expecting the version the accept left (a change since is kept). */
export async function undoAccept(store: AsyncStore, channelId: string, entry: AcceptUndoEntry): Promise<{written: number; kept: string[]}> {
	const results = await Promise.allSettled(entry.items.map(async item => store.editItem({channelId, itemId: item.itemId, values: item.values, actor: {kind: 'human'}, expectedVersion: item.version, idempotencyKey: `${entry.group}:undo:${item.itemId}`})));
	const kept: string[] = [];
	for (const [index, result] of results.entries()) {
		if (result.status === 'fulfilled') continue;
		const reason = result.reason instanceof StoreError ? describeRefusal(result.reason.body) : String((result.reason as Error).message);
		kept.push(`${entry.items[index]!.itemId}: ${reason}`);
	}

	return {written: results.length - kept.length, kept};
}
