// The edit transaction as one plan both backends run (docs/architecture.md#the-edit-plan):
// idempotency → version → grants and validation → merge → bump → event → follow-ups. The plan is
// pure: it decides, in this one order, what to read and what to write; each backend answers its
// steps with its own locks, row reads, writes and event appends (store/sqlite/writes.ts
// synchronously, store/postgres/writes.ts asynchronously), inside its own transaction.
//
// A plan is a generator: it yields a step (a read to answer, or a write to make) and is resumed
// with the answer. A StoreError it throws rolls the transaction back; a validation refusal is
// returned instead, so that an agent's follow-ups commit while the edit itself writes nothing.

import type {LoadedChannel} from './channels.js';
import {selfRelationProblems, withDuplicateStatus} from './duplicates.js';
import {invalidArgument, quote, StoreError} from './errors.js';
import {textProblem} from './fields/shape.js';
import type {NewEvent} from './events.js';
import type {Grants} from './grants.js';
import {itemOf, type ItemHeader} from './items.js';
import type {Actor, Changes, DeleteResult, EditResult, FieldProblem, FollowUp, StoreEvent, Values} from './types.js';
import type {WriteContext} from './validate.js';
import {MAX_REASON_LENGTH, type EditMode, type EditRequest, type Validator} from './writes.js';
import type {NewProposal, ProposalDecision, ProposalRow} from './proposals.js';
import {canonicalJson} from './sync/merge.js';
import {actorScope, changesOf, checkExpectedVersion, checkPayload, creationChanges, deletionChanges, fingerprintOf, itemNotFound, keyReused, storedValues, versionConflict} from './write-rules.js';

/** What a plan needs of a stored item; a backend's own row type extends it and comes back in its write steps. */
export type PlanItem = ItemHeader & {values: Values};

/** Where an edit's result is kept under its idempotency key: the caller's own channel and actor. */
export type IdempotencyEntry = {channelId: string; actor: string; key: string; fingerprint: string};

/** One follow-up an agent's refused edit opens or refreshes (docs/reference.md#follow-ups). */
export type FollowUpOpening = Pick<FollowUp, 'channel_id' | 'item_id' | 'key' | 'attempted' | 'message' | 'allowed' | 'min' | 'max'> & {run_id: string | null} & Partial<Pick<FollowUp, 'kind' | 'base' | 'ours' | 'theirs'>>;

/** The steps a plan yields, each with the answer the backend resumes it with. */
export type PlanStep<R extends PlanItem> =
	/** The result kept under this key, if any. */
	| {step: 'replay'; entry: IdempotencyEntry}
	/** The item (a backend that locks rows locks it here), or undefined when it does not exist. */
	| {step: 'item'; channelId: string; itemId: string}
	/** The item's changes after `version`, from the event log, merged per key. */
	| {step: 'changedSince'; item: R; version: number}
	/** The database's answers for validation: related items, unique holders other than the item. */
	| {step: 'context'; channel: LoadedChannel; item: R; values: Values}
	/** The keys the item's open proposals propose: a refusal of one of them opens no follow-up (docs/review.md). */
	| {step: 'proposedKeys'; itemId: string}
	/** Opens or refreshes follow-ups; answers nothing. */
	| {step: 'openFollowUps'; openings: FollowUpOpening[]; at: string}
	/** A write that changes nothing: close the set keys' follow-ups; answers the channel's latest sequence. */
	| {step: 'unchanged'; item: R; resolveKeys: string[]; at: string}
	/** The merged values and bumped version, its event, and the set keys' follow-ups closed; answers the event's sequence. */
	| {step: 'update'; channel: LoadedChannel; item: R; after: Values; event: NewEvent; resolveKeys: string[]}
	/**
	 * Queues the written fields that a link to a tracker syncs (store/sync): each field's outbox
	 * entry takes the new value (canonical JSON, store/sync/merge.ts), its base unchanged; fields
	 * no link syncs are left out by the backend. Answers nothing.
	 */
	| {step: 'queueSync'; channelId: string; itemId: string; values: Record<string, string>; at: string}
	/** Keeps the result under its key; answers nothing. */
	| {step: 'remember'; entry: IdempotencyEntry; result: EditResult; at: string}
	/** Deletes the item, closes its open follow-ups and appends its event; answers the event's sequence. */
	| {step: 'delete'; item: R; event: NewEvent}
	/** The mode the run was recorded in (docs/review.md): 'apply' for a run not recorded. */
	| {step: 'runMode'; runId: string}
	/**
	 * Keeps a proposal and appends its proposal.created event (proposalCreatedEvent), and closes
	 * the item's open follow-ups (refusals) of the keys it proposes, as resolved by it; answers its
	 * id and the event's sequence.
	 */
	| {step: 'propose'; proposal: NewProposal}
	/** The proposals with these ids that exist (a backend that locks rows locks them here). */
	| {step: 'proposals'; ids: number[]}
	/** A channel, loaded: proposals and runs name theirs. */
	| {step: 'channel'; channelId: string}
	/** Records a person's decision on a proposal and appends its event; answers the event's sequence. */
	| {step: 'decide'; proposal: ProposalRow; decision: ProposalDecision; event: NewEvent}
	/** A run's writes, oldest first: item.updated events by the run, or accepting its proposals, after `afterSequence`. */
	| {step: 'runWrites'; channelId: string; runId: string; afterSequence: number};

type Answers<R extends PlanItem> = {
	replay: {fingerprint: string; result: EditResult} | undefined;
	item: R | undefined;
	changedSince: Changes;
	context: WriteContext;
	proposedKeys: string[];
	openFollowUps: void;
	unchanged: number;
	update: number;
	queueSync: void;
	remember: void;
	delete: number;
	runMode: EditMode;
	propose: {id: number; sequence: number};
	proposals: ProposalRow[];
	channel: LoadedChannel;
	decide: number;
	runWrites: StoreEvent[];
};

/** A backend's answers to every step, synchronous (SQLite) or asynchronous (PostgreSQL). */
export type PlanIo<R extends PlanItem, Async extends boolean = false> = {
	[K in PlanStep<R>['step']]: (step: Extract<PlanStep<R>, {step: K}>) => Async extends true ? Promise<Answers<R>[K]> : Answers<R>[K];
};

export type Plan<R extends PlanItem, T> = Generator<PlanStep<R>, T, unknown>;

export type EditOutcome = EditResult | {refused: StoreError};

/** Runs a plan against a synchronous backend, inside its transaction. */
export function runPlan<R extends PlanItem, T>(plan: Plan<R, T>, io: PlanIo<R>): T {
	for (let next = plan.next(); ; next = plan.next((io[next.value.step] as (step: PlanStep<R>) => unknown)(next.value))) {
		if (next.done) return next.value;
	}
}

/** Runs a plan against an asynchronous backend, inside its transaction. */
export async function runPlanAsync<R extends PlanItem, T>(plan: Plan<R, T>, io: PlanIo<R, true>): Promise<T> {
	for (let next = plan.next(); ; next = plan.next(await (io[next.value.step] as (step: PlanStep<R>) => Promise<unknown>)(next.value))) {
		if (next.done) return next.value;
	}
}

/** The checks an edit passes before any transaction starts: nothing is locked for a malformed request. */
export function checkEditRequest(request: EditRequest): void {
	checkPayload(request.values);
	checkExpectedVersion(request.expectedVersion);
	const key = request.idempotencyKey;
	if (key !== undefined && (typeof key !== 'string' || textProblem(key) !== undefined)) {
		// Kept with the result on both backends: the same text rules as a value's.
		throw invalidArgument(`idempotency_key must be a string without NUL characters or lone UTF-16 surrogates, got ${quote(key)}`);
	}

	const {reason, mode} = request;
	if (reason !== undefined && (typeof reason !== 'string' || [...reason].length > MAX_REASON_LENGTH || textProblem(reason) !== undefined)) {
		throw invalidArgument(`reason must be a string of at most ${MAX_REASON_LENGTH} characters without NUL characters or lone UTF-16 surrogates, got ${quote(typeof reason === 'string' ? `${reason.slice(0, 40)}…` : reason)}`);
	}

	const {confidence} = request;
	if (confidence !== undefined && (typeof confidence !== 'number' || !Number.isFinite(confidence) || confidence < 0 || confidence > 1)) {
		throw invalidArgument(`confidence must be a number from 0 to 1, got ${quote(confidence)}`);
	}

	if (mode !== undefined && mode !== 'apply' && mode !== 'propose') {
		throw invalidArgument(`mode must be apply or propose, got ${quote(mode)}`);
	}
}

/**
 * Whether a valid edit is written or proposed: proposed when the caller asks, and always when an
 * agent's run was recorded in propose mode (the run's record decides, so no argument an agent
 * passes can make its edits land).
 */
function* editMode<R extends PlanItem>(request: EditRequest): Plan<R, EditMode> {
	if (request.mode === 'propose') return 'propose';
	const runId = request.actor.kind === 'agent' ? request.actor.run_id : undefined;
	return runId === undefined ? 'apply' : (yield {step: 'runMode', runId}) as EditMode;
}

/** The backend's answers for validation, limited to the writer's grants: a relation only points into a granted channel. */
export function grantedContext(context: WriteContext, grants: Grants | undefined): WriteContext {
	return grants === undefined ? context : {relationExists: context.relationExists, holderOf: context.holderOf, mayRelateTo: channelId => grants.has(channelId)};
}

/**
 * Which refusals of an agent's edit become follow-ups: fields a person can set and the edit
 * tried to set. Unknown keys and formula writes have nothing to resolve by hand; a person's
 * refusals open nothing.
 */
export function followUpOpenings(channel: LoadedChannel, request: EditRequest, problems: FieldProblem[]): FollowUpOpening[] {
	if (request.actor.kind !== 'agent') {
		return [];
	}

	const values = request.values as Values;
	return problems.filter(problem => {
		const field = channel.fieldsByKey.get(problem.key);
		return field !== undefined && field.type !== 'formula' && Object.hasOwn(values, problem.key);
	}).map(problem => ({
		channel_id: channel.id,
		item_id: request.itemId,
		key: problem.key,
		attempted: values[problem.key],
		message: problem.message,
		allowed: problem.allowed,
		min: problem.min,
		max: problem.max,
		run_id: request.actor.run_id ?? null,
	}));
}

const refusal = (problems: FieldProblem[]) => new StoreError({error: 'validation_failed', fields: problems});

/** The loaded item, or not_found; then the version the caller expected, or version_conflict with what changed since. */
function* checkedItem<R extends PlanItem>(channelId: string, itemId: string, expected: number | undefined): Plan<R, R> {
	const item = (yield {step: 'item', channelId, itemId}) as R | undefined;
	if (item === undefined) {
		throw itemNotFound(channelId, itemId);
	}

	if (expected !== undefined && expected !== item.version) {
		throw versionConflict(item.id, item.version, expected, (yield {step: 'changedSince', item, version: expected}) as Changes);
	}

	return item;
}

/**
 * The edit transaction (docs/reference.md#the-edit-transaction), after checkEditRequest:
 * idempotency → version → grants and validation → merge → bump → event → follow-ups.
 */
export function* planEdit<R extends PlanItem>(channel: LoadedChannel, request: EditRequest, validate: Validator, stampedAt?: string): Plan<R, EditOutcome> {
	const entry: IdempotencyEntry | undefined = request.idempotencyKey === undefined
		? undefined
		: {channelId: channel.id, actor: actorScope(request.actor), key: request.idempotencyKey, fingerprint: fingerprintOf(request)};
	if (entry) {
		const kept = (yield {step: 'replay', entry}) as Answers<R>['replay'];
		if (kept) {
			if (kept.fingerprint !== entry.fingerprint) {
				throw keyReused(entry.key);
			}

			return kept.result;
		}
	}

	const mode = yield* editMode<R>(request);
	const item = yield* checkedItem<R>(channel.id, request.itemId, request.expectedVersion);
	// Taken once the item is held: a writer that waited for it is stamped after the one it waited for.
	// A pull stamps the tracker's time instead (store/sync/plan.ts).
	const at = stampedAt ?? new Date().toISOString();
	const values = withDuplicateStatus(channel, request.values) as Values;
	const context = grantedContext((yield {step: 'context', channel, item, values}) as WriteContext, request.grants);
	const problems = validate(channel, values, context, false);
	const selfProblems = selfRelationProblems(channel, item.id, values).filter(found => !problems.some(other => other.key === found.key));
	problems.push(...selfProblems);
	if (problems.length > 0) {
		let openings = followUpOpenings(channel, request, problems);
		if (openings.length > 0) {
			// A field with a valid proposal waiting is in the person's queue already, as that proposal.
			const proposed = new Set((yield {step: 'proposedKeys', itemId: item.id}) as string[]);
			openings = openings.filter(opening => !proposed.has(opening.key));
		}

		if (openings.length > 0) {
			yield {step: 'openFollowUps', openings, at};
		}

		return {refused: refusal(problems)};
	}

	const keys = Object.keys(values);
	const after = storedValues(item.values, values);
	const changes = changesOf(item.values, after, keys);
	let result: EditResult;
	if (mode === 'propose' && Object.keys(changes).length > 0) {
		// Validated exactly as a write, but nothing of the item changes: a person decides (docs/review.md).
		// The proposal takes the place of the refusals its fields had: the queue holds one entry a field.
		const proposal: NewProposal = {channel_id: channel.id, item_id: item.id, run_id: request.actor.run_id ?? null, base_version: item.version, changes, reason: request.reason ?? null, confidence: request.confidence ?? null, actor: request.actor, created_at: at};
		const {id, sequence} = (yield {step: 'propose', proposal}) as Answers<R>['propose'];
		result = {ok: true, item: itemOf(channel, item, item.values), sequence, proposed: true, proposal_id: id};
	} else if (mode === 'propose') {
		// Nothing to propose: the item already holds these values. Follow-ups stay for the person.
		const sequence = (yield {step: 'unchanged', item, resolveKeys: [], at}) as number;
		result = {ok: true, item: itemOf(channel, item, item.values), sequence};
	} else if (Object.keys(changes).length === 0) {
		// Nothing to record, but setting a key still closes its open follow-up.
		const sequence = (yield {step: 'unchanged', item, resolveKeys: keys, at}) as number;
		result = {ok: true, item: itemOf(channel, item, item.values), sequence};
	} else {
		const version = item.version + 1;
		const event: NewEvent = {type: 'item.updated', item_id: item.id, version, actor: request.actor, changes, at, ...(request.cause ? {cause: request.cause} : {})};
		const sequence = (yield {step: 'update', channel, item, after, event, resolveKeys: keys}) as number;
		yield* queueForSync<R>(channel, item.id, request.actor, Object.fromEntries(Object.entries(changes).map(([key, change]) => [key, change.to])), at);
		result = {ok: true, item: itemOf(channel, {...item, version, updated_at: at}, after), sequence};
	}

	if (entry) {
		yield {step: 'remember', entry, result, at};
	}

	return result;
}

/**
 * Every write that is not the sync engine's own queues its changed fields for a linked tracker,
 * in the write's transaction (docs/architecture.md#the-sync-engine): an edit that rolls back
 * leaves no outbox entry, and one that commits cannot lose its entry.
 */
export function* queueForSync<R extends PlanItem>(channel: LoadedChannel, itemId: string, actor: Actor, written: Values, at: string): Plan<R, void> {
	if (actor.kind === 'sync') return;
	const values: Record<string, string> = {};
	for (const [key, value] of Object.entries(written)) {
		const field = channel.fieldsByKey.get(key);
		if (!field || field.type === 'formula') continue;
		values[key] = canonicalJson(value, field.type === 'multi_select' ? 'set' : 'scalar');
	}

	if (Object.keys(values).length > 0) yield {step: 'queueSync', channelId: channel.id, itemId, values, at};
}

/** A delete: the item, its version, then its row, follow-ups and event go together. */
export function* planDelete<R extends PlanItem>(channelId: string, itemId: string, actor: Actor, expectedVersion: number | undefined): Plan<R, DeleteResult> {
	const item = yield* checkedItem<R>(channelId, itemId, expectedVersion);
	const event: NewEvent = {type: 'item.deleted', item_id: item.id, version: item.version + 1, actor, changes: deletionChanges(item.values), at: new Date().toISOString()};
	const sequence = (yield {step: 'delete', item, event}) as number;
	return {ok: true, item_id: itemId, sequence};
}

/**
 * A create's values as stored, after validation (for `sift create` and every imported item):
 * nulls left out. Refuses with every failing field. Creates are never an agent's, so no grants.
 */
export function createdValues(channel: LoadedChannel, values: Values, context: WriteContext, validate: Validator): Values {
	const problems = validate(channel, values, context, true);
	if (problems.length > 0) {
		throw refusal(problems);
	}

	return storedValues({}, values);
}

/**
 * An import item's values checked before the import orders the items (store/sqlite/import.ts,
 * store/postgres/import.ts): everything but what depends on the other items (uniqueness, and
 * relations, which the insert checks), so a refusal names the item by its place in the file and
 * only values JSON keeps exactly are staged.
 */
export function checkStagedValues(channel: LoadedChannel, values: Values, validate: Validator): void {
	createdValues(channel, values, {relationExists: () => true, holderOf: () => undefined}, validate);
}

/** A create's event: every stored key from null; an imported item arrives at the version it had (1 unless its file says). */
export const createdEvent = (id: string, stored: Values, actor: Actor, at: string, version = 1): NewEvent => ({type: 'item.created', item_id: id, version, actor, changes: creationChanges(stored), at});

