// Proposals as both backends keep them (docs/review.md): what an agent in propose mode asked to
// write, waiting for a person. The plan that makes one is store/edit-plan.ts (a mode of the one
// edit plan); accepting, declining and reverting are store/review-plan.ts; the SQL is
// store/sqlite/proposals.ts and store/postgres/proposals.ts.

import {invalidArgument, notFound, quote} from './errors.js';
import type {NewEvent} from './events.js';
import type {Actor, ActorKind, Changes, EventCause, Values} from './types.js';

export type ProposalStatus = 'open' | 'accepted' | 'declined';

/** Who decided a proposal: a person (human), or `auto`, the config's auto_accept_above on the proposal's arrival (docs/review.md#auto-accept). */
export type ProposalDecider = ActorKind | 'auto';
export const PROPOSAL_STATUSES: readonly ProposalStatus[] = ['open', 'accepted', 'declined'];

/** A proposal as callers see it. */
export type Proposal = {
	id: number;
	channel_id: string;
	item_id: string;
	/** The run whose agent proposed it (null for a server started without a run). */
	run_id: string | null;
	/** The item's version the agent read: an accept writes on it, unless a proposed field changed since. */
	base_version: number;
	/** Field key → the proposed value (null clears the field). */
	values: Values;
	/** Field key → what the field held at the base version (null: empty). */
	base_values: Values;
	reason: string | null;
	/** How sure the agent said it was, 0 to 1; null when it did not say (docs/review.md#confidence). */
	confidence: number | null;
	status: ProposalStatus;
	created_at: string;
	decided_at: string | null;
	decided_by: ProposalDecider | null;
	/** The item's version the accept wrote (null until accepted). */
	written_version: number | null;
};

/** A proposal row as the plans handle it: the proposal and its changes. */
export type ProposalRow = Proposal & {changes: Changes};

/** What the edit plan keeps when a valid edit is proposed. */
export type NewProposal = {channel_id: string; item_id: string; run_id: string | null; base_version: number; changes: Changes; reason: string | null; confidence: number | null; actor: Actor; created_at: string};

/**
 * A decision on one proposal. An accept of some of its fields leaves it open with the rest,
 * based on the version that accept wrote (the rest did not change by it).
 */
export type ProposalDecision = {status: ProposalStatus; changes: Changes; base_version: number; written_version: number | null; decided_at: string; decided_by: ProposalDecider};

/** Which proposals to list. `where` (the query language) needs `channelId`. */
export type ProposalQuery = {channelId?: string; runId?: string; itemId?: string; status?: ProposalStatus | 'all'; where?: string; limit?: number; now?: Date; /** Only ids after this one: the cursor of the next page. */ afterId?: number};

export const PROPOSAL_LIST_LIMIT = 1000;

/** The proposed values and the base values of a proposal's changes. */
export const proposedValues = (changes: Changes): Values => Object.fromEntries(Object.entries(changes).map(([key, change]) => [key, change.to]));
export const baseValues = (changes: Changes): Values => Object.fromEntries(Object.entries(changes).map(([key, change]) => [key, change.from]));

/** One stored row in the public shape. */
export function proposalOf(row: Omit<Proposal, 'values' | 'base_values'> & {changes: Changes}): ProposalRow {
	return {...row, values: proposedValues(row.changes), base_values: baseValues(row.changes)};
}

/** The agent's proposal.created event, once the proposal has its id. */
export function proposalCreatedEvent(proposal: NewProposal, id: number): NewEvent {
	return {type: 'proposal.created', item_id: proposal.item_id, version: proposal.base_version, actor: proposal.actor, changes: proposal.changes, at: proposal.created_at, cause: {kind: 'proposal', proposal_id: id, run_id: proposal.run_id}};
}

export const proposalCause = (proposal: Pick<Proposal, 'id' | 'run_id'>, group: string, auto = false): EventCause => ({kind: 'proposal', proposal_id: proposal.id, run_id: proposal.run_id, group, ...(auto ? {auto: true as const} : {})});

/** The checked query of a proposal list. */
export function checkProposalQuery(query: ProposalQuery): Required<Pick<ProposalQuery, 'limit'>> & ProposalQuery {
	const limit = query.limit ?? PROPOSAL_LIST_LIMIT;
	if (!Number.isInteger(limit) || limit < 1 || limit > PROPOSAL_LIST_LIMIT) {
		throw invalidArgument(`limit must be a whole number from 1 to ${PROPOSAL_LIST_LIMIT}, got ${quote(limit)}`);
	}

	if (query.status !== undefined && query.status !== 'all' && !PROPOSAL_STATUSES.includes(query.status)) {
		throw invalidArgument(`status must be one of ${[...PROPOSAL_STATUSES, 'all'].join(', ')}, got ${quote(query.status)}`);
	}

	if (query.afterId !== undefined && (!Number.isSafeInteger(query.afterId) || query.afterId < 0)) {
		throw invalidArgument(`afterId must be a whole number 0 or greater, got ${quote(query.afterId)}`);
	}

	if (query.where !== undefined && query.channelId === undefined) {
		throw invalidArgument('a proposal query by where needs the channel');
	}

	return {...query, limit};
}

/** Proposal ids as given: whole numbers, at least one, each once. */
export function checkProposalIds(ids: readonly unknown[]): number[] {
	if (ids.length === 0) {
		throw invalidArgument('name at least one proposal');
	}

	const bad = ids.findIndex(id => !Number.isSafeInteger(id) || (id as number) < 1);
	if (bad !== -1) {
		throw invalidArgument(`a proposal id is a whole number 1 or greater, got ${quote(ids[bad])}`);
	}

	return [...new Set(ids as number[])];
}

/** Every id asked for exists, or not_found naming the missing ones (nothing is decided then). */
export function checkAllFound(ids: readonly number[], rows: readonly ProposalRow[]): Map<number, ProposalRow> {
	const byId = new Map(rows.map(row => [row.id, row]));
	const missing = ids.filter(id => !byId.has(id));
	if (missing.length > 0) {
		throw notFound(`no proposal ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ''}; \`sift proposals\` lists them`);
	}

	return byId;
}

/** The columns a proposal query filters on, with their values (status 'all' filters nothing). */
export function proposalFilters(query: ProposalQuery): Array<[column: string, value: string]> {
	const status = query.status === 'all' ? undefined : query.status ?? 'open';
	const filters: Array<[string, string | undefined]> = [['channel_id', query.channelId], ['status', status], ['item_id', query.itemId], ['run_id', query.runId]];
	return filters.filter((filter): filter is [string, string] => filter[1] !== undefined);
}

/** One field's decisions (docs/review.md#per-field-counts): proposed = accepted + declined + open. */
export type ProposalFieldCounts = {key: string; proposed: number; accepted: number; auto_accepted: number; declined: number; open: number};

/** Whose decisions to count: a channel's, or one run's. */
export type FieldCountsQuery = {channelId: string; runId?: string};

/** What fieldCounts folds, as each backend reads it: the proposals' statuses and fields, and each accept's fields. */
export type DecisionRecords = {
	proposals: Array<{status: ProposalStatus; keys: string[]}>;
	/** One per proposal.accepted event: the fields that accept wrote, and whether auto_accept_above made it. */
	accepts: Array<{keys: string[]; auto: boolean}>;
};

/**
 * Per field, how the proposals fared. An accepted field is counted from the accept's event (an
 * accept of some fields leaves the rest in the open proposal, so the row alone would lose it);
 * a declined or open field from the proposal row, which keeps what was still to decide.
 */
export function foldFieldCounts({proposals, accepts}: DecisionRecords): ProposalFieldCounts[] {
	const counts = new Map<string, ProposalFieldCounts>();
	const of = (key: string) => {
		let entry = counts.get(key);
		if (!entry) {
			entry = {key, proposed: 0, accepted: 0, auto_accepted: 0, declined: 0, open: 0};
			counts.set(key, entry);
		}

		return entry;
	};

	for (const accept of accepts) {
		for (const key of accept.keys) {
			const entry = of(key);
			entry.proposed++;
			entry.accepted++;
			if (accept.auto) entry.auto_accepted++;
		}
	}

	for (const proposal of proposals) {
		if (proposal.status === 'accepted') continue;
		for (const key of proposal.keys) {
			const entry = of(key);
			entry.proposed++;
			entry[proposal.status]++;
		}
	}

	return [...counts.values()].sort((a, b) => a.key.localeCompare(b.key));
}
