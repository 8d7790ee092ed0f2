// What the screen machine's tests share: the demo schema, pages of rows, and screens opened to
// each overlay (the list, the edit picker, the queue, the views).

import type {Key} from 'ink';
import {bugsChannel} from '../../../demo-data/generate.js';
import type {Field, FollowUp, Item} from '../../../store/index.js';
import {DEFAULT_VIEWS} from '../../../source/config/schema.js';
import {initialScreen, reduce} from '../../../source/ui/reducer.js';
import type {EditRequest, Effect, ScreenEvent, ScreenState, Transition} from '../../../source/ui/state.js';
import type {RunSummary} from '../../../source/ui/history.js';
import type {BulkOutcome} from '../../../source/ui/model/bulk.js';
import type {ProposalRow} from '../../../store/proposals.js';

export const fields = bugsChannel.fields as unknown as Field[];
export const field = (key: string) => fields.find(candidate => candidate.key === key)!;
export const editable = fields.filter(candidate => candidate.type !== 'formula');
export const plain = {} as Key;

export const idOf = (n: number) => `itm_${String(n).padStart(4, '0')}`;
export const previewOf = (n: number, version = 1) => ({id: idOf(n), version, updated_at: '2026-01-01T00:00:00.000Z', preview: {ticket: `BUG-${n}`, status: 'new'}});
/** A page of rows newest first from `from`, with a next page when `more`. */
export const page = (from: number, count: number, more: boolean) => ({items: Array.from({length: count}, (_, index) => previewOf(from - index)), next_before_id: more ? idOf(from - count + 1) : null});
export const item = (n: number, version: number, values: Record<string, unknown> = {}): Item => ({id: idOf(n), channel_id: 'bugs', version, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-02T00:00:00.000Z', values: {ticket: `BUG-${n}`, status: 'new', ...values}});
export const followUp = (id: number, n: number): FollowUp => ({id, channel_id: 'bugs', item_id: idOf(n), key: 'status', status: 'open', attempted: 'Done', message: 'not an option', allowed: [{value: 'new', label: 'New'}, {value: 'triaged', label: 'Triaged'}], run_id: null, created_at: '', updated_at: '', resolution: null});
export const run = (id: string) => ({runId: id}) as RunSummary;

/** A screen with one listed page (the last one unless `more`). */
export function listed(count = 40, more = false, rows = 30): ScreenState {
	const {state} = initialScreen({channelId: 'bugs', fields, size: {columns: 100, rows}, total: 300, followUpCount: 2});
	return reduce(state, {type: 'listed', generation: 1, query: {}, page: page(300, count, more)}).state;
}

export const kinds = (transition: Transition) => transition.effects.map(effect => effect.kind);
export const effect = <K extends Effect['kind']>(transition: Transition, kind: K) => transition.effects.find((candidate): candidate is Extract<Effect, {kind: K}> => candidate.kind === kind);
export const run1 = (state: ScreenState, ...events: ScreenEvent[]) => events.reduce<Transition>((previous, event) => {
	const next = reduce(previous.state, event);
	return {state: next.state, effects: [...previous.effects, ...next.effects]};
}, {state, effects: []});

export function editing(stage: 'field' | 'options' | 'text' = 'field', key = 'status'): ScreenState {
	let state = reduce(listed(), {type: 'openEdit'}).state;
	state = reduce(state, {type: 'editOpened', item: item(300, 3)}).state;
	if (stage === 'field') return state;
	const index = editable.findIndex(candidate => candidate.key === key);
	for (let step = 0; step < index; step++) state = reduce(state, {type: 'cursor', delta: 1}).state;
	return reduce(state, {type: 'choose'}).state;
}

export function queued(): ScreenState {
	let state = reduce(listed(), {type: 'openQueue'}).state;
	state = reduce(state, {type: 'queueLoaded', followUps: [followUp(1, 300), followUp(2, 299)]}).state;
	return reduce(state, {type: 'queueEntry', entry: {followUp: followUp(1, 300), item: item(300, 2)}}).state;
}

export const request = (origin: 'picker' | 'queue'): EditRequest => ({itemId: idOf(300), name: 'BUG-300', key: 'status', value: 'triaged', before: 'new', version: 3, origin});
export const ok = (version: number, values: Record<string, unknown> = {status: 'triaged'}) => ({kind: 'ok' as const, result: {ok: true as const, item: item(300, version, values), sequence: 9}});
export const problem = {key: 'status', message: 'values.status must be one of the option values, got "x"', allowed: [{value: 'new', label: 'New'}]};


export function bulkOutcome(): BulkOutcome {
	const edit = (n: number) => ({id: idOf(n), name: `BUG-${n}`, before: 'new', request: {channelId: 'bugs', itemId: idOf(n), values: {status: 'triaged'}, actor: {kind: 'human' as const}, expectedVersion: 1, idempotencyKey: `b:${idOf(n)}`}});
	return {
		plan: {channelId: 'bugs', key: 'status', batch: 'b', edits: [edit(300), edit(299), edit(298)]},
		written: [{id: idOf(300), name: 'BUG-300', before: 'new', after: 'triaged', version: 2}, {id: idOf(298), name: 'BUG-298', before: 'new', after: 'triaged', version: 2}],
		conflicts: [{id: idOf(299), name: 'BUG-299', message: 'changed since version 1', currentVersion: 2}],
		refusals: [],
	};
}

/** A screen listed with the default views, on All. */
export function viewed(): ScreenState {
	const {state} = initialScreen({channelId: 'bugs', fields, size: {columns: 100, rows: 30}, total: 300, followUpCount: 2, views: [...DEFAULT_VIEWS]});
	return reduce(state, {type: 'listed', generation: 1, query: state.query, page: page(300, 40, false)}).state;
}

/** An open proposal of item `n`: status new → triaged (and the fields given). */
export function proposal(id: number, n: number, changes: Record<string, {from: unknown; to: unknown}> = {status: {from: 'new', to: 'triaged'}}): ProposalRow {
	return {id, channel_id: 'bugs', item_id: idOf(n), run_id: 'run_1', base_version: 1, changes, values: Object.fromEntries(Object.entries(changes).map(([key, change]) => [key, change.to])), base_values: Object.fromEntries(Object.entries(changes).map(([key, change]) => [key, change.from])), reason: 'says so', confidence: null, status: 'open', created_at: '', decided_at: null, decided_by: null, written_version: null};
}

/** The review queue open on these proposals. */
export function reviewing(proposals: ProposalRow[] = [proposal(1, 300), proposal(2, 299)]): ScreenState {
	const state = reduce(listed(), {type: 'openReview'}).state;
	return reduce(state, {type: 'reviewLoaded', proposals}).state;
}
