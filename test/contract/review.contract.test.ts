// Review before it lands, on both backends (docs/review.md): a run recorded in propose mode turns
// its agent's valid edits into proposals (validated as writes, refusals still follow-ups, the
// idempotency and version rules unchanged); a person accepts them as one bulk edit at their base
// versions (a changed field is a conflict, overwritten only when forced) or declines them; and any
// run's changes can be diffed and reverted where nothing changed them since. An accept by `auto`
// (auto_accept_above) is that same accept, recorded as auto; per field and per run, the store
// counts what was accepted, declined and left open.

import {describe, expect, it} from 'vitest';
import type {AsyncStore} from '../../store/api.js';
import {notePgOff} from '../support/pg.js';
import {agent, human} from '../store/helpers.js';
import {allEvents, BACKENDS, expectGapFree, kitStore, refusalOf, type Backend} from './backends.js';
import {storesOn} from './backends.js';

const RUN = 'run-propose-1';

async function startRun(store: AsyncStore, id: string, mode: 'apply' | 'propose') {
	await store.runs.start({id, channelId: 'kit', itemIds: [], instruction: 'triage', startedAt: new Date().toISOString(), logPath: null, mode});
}

/** A kit store with three items and a run in `mode`; the item ids oldest first. */
async function reviewStore(backend: Backend, mode: 'apply' | 'propose' = 'propose', runId = RUN): Promise<{store: AsyncStore; ids: string[]}> {
	const store = await kitStore(backend, [{values: {title: 'one', status: 'new', points: 1}}, {values: {title: 'two', status: 'new'}}, {values: {title: 'three'}}]);
	await startRun(store, runId, mode);
	const ids = (await store.listPage('kit')).items.map(item => item.id).reverse();
	return {store, ids};
}

const agentEdit = (store: AsyncStore, itemId: string, values: Record<string, unknown>, extra: {expectedVersion?: number; idempotencyKey?: string; reason?: string; runId?: string} = {}) =>
	store.editItem({channelId: 'kit', itemId, values, actor: agent(extra.runId ?? RUN), expectedVersion: extra.expectedVersion, idempotencyKey: extra.idempotencyKey, reason: extra.reason});

describe.each(BACKENDS)('review on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const {keep} = storesOn(backend);
	const opened = async (mode: 'apply' | 'propose' = 'propose', runId = RUN) => {
		const result = await reviewStore(backend, mode, runId);
		keep(result.store);
		return result;
	};

	describe('propose mode', () => {
		it('a valid edit of a proposing run becomes a proposal: the item does not change, the proposal and its event say what and why', async () => {
			const {store, ids} = await opened();
			const result = await agentEdit(store, ids[0]!, {status: 'in_progress', points: 3}, {expectedVersion: 1, reason: 'the reporter says it is being worked on'});
			expect(result).toMatchObject({ok: true, proposed: true, item: {id: ids[0], version: 1, values: {status: 'new', points: 1}}});
			expect(typeof result.proposal_id).toBe('number');
			const item = await store.readItem('kit', ids[0]!);
			expect(item.version).toBe(1);
			expect(item.values).toMatchObject({status: 'new', points: 1});
			const [proposal] = await store.proposals.list({channelId: 'kit'});
			expect(proposal).toMatchObject({
				id: result.proposal_id, channel_id: 'kit', item_id: ids[0], run_id: RUN, base_version: 1, status: 'open',
				values: {status: 'in_progress', points: 3}, base_values: {status: 'new', points: 1}, reason: 'the reporter says it is being worked on',
				decided_at: null, decided_by: null, written_version: null,
			});
			const events = await allEvents(store, 'kit');
			expect(events.at(-1)).toMatchObject({type: 'proposal.created', item_id: ids[0], version: 1, actor: {kind: 'agent', run_id: RUN}, sequence: result.sequence,
				changes: {status: {from: 'new', to: 'in_progress'}, points: {from: 1, to: 3}}, cause: {kind: 'proposal', proposal_id: result.proposal_id, run_id: RUN}});
			expect(events.filter(event => event.type === 'item.updated')).toEqual([]);
			expect(await store.proposals.countOpen('kit')).toBe(1);
			await expectGapFree(store, 'kit');
		});

		it('refusals are the same as in apply mode and still open follow-ups; nothing is proposed', async () => {
			const {store, ids} = await opened();
			const body = await refusalOf(() => agentEdit(store, ids[0]!, {status: 'In progress', points: 20}));
			expect(body).toMatchObject({error: 'validation_failed'});
			expect((body as {fields: Array<{key: string}>}).fields.map(field => field.key).sort()).toEqual(['points', 'status']);
			expect((await store.listFollowUps({channelId: 'kit', status: 'open'})).map(followUp => [followUp.key, followUp.run_id]).sort()).toEqual([['points', RUN], ['status', RUN]]);
			expect(await store.proposals.list()).toEqual([]);
		});

		it('the idempotency key and the version rules are those of any edit', async () => {
			const {store, ids} = await opened();
			const first = await agentEdit(store, ids[1]!, {status: 'wont_fix'}, {expectedVersion: 1, idempotencyKey: 'k1', reason: 'duplicate'});
			const again = await agentEdit(store, ids[1]!, {status: 'wont_fix'}, {expectedVersion: 1, idempotencyKey: 'k1', reason: 'duplicate'});
			expect(again).toEqual(first);
			expect(await store.proposals.list()).toHaveLength(1);
			expect(await refusalOf(() => agentEdit(store, ids[1]!, {status: 'wont_fix'}, {expectedVersion: 1, idempotencyKey: 'k1', reason: 'another reason'}))).toMatchObject({error: 'idempotency_key_reused'});
			await store.editItem({channelId: 'kit', itemId: ids[1]!, values: {title: 'two!'}, actor: human});
			expect(await refusalOf(() => agentEdit(store, ids[1]!, {status: 'new'}, {expectedVersion: 1}))).toMatchObject({error: 'version_conflict', current_version: 2});
		});

		it('the run record decides: an apply run writes, a proposing run cannot be made to write, a reason is refused past 500 characters', async () => {
			const {store, ids} = await opened('propose');
			await startRun(store, 'run-apply', 'apply');
			const written = await agentEdit(store, ids[2]!, {points: 5}, {runId: 'run-apply', reason: 'kept only with proposals'});
			expect(written.proposed).toBeUndefined();
			expect(written.item.version).toBe(2);
			const forced = await store.editItem({channelId: 'kit', itemId: ids[2]!, values: {points: 8}, actor: agent(RUN), mode: 'apply'});
			expect(forced.proposed).toBe(true);
			expect((await store.readItem('kit', ids[2]!)).values.points).toBe(5);
			expect(await refusalOf(() => agentEdit(store, ids[2]!, {points: 8}, {reason: 'x'.repeat(501)}))).toMatchObject({error: 'invalid_argument'});
			expect((await agentEdit(store, ids[2]!, {points: 8}, {reason: '🙂'.repeat(500)})).proposed).toBe(true);
			// Proposing what the item already holds proposes nothing.
			const same = await agentEdit(store, ids[2]!, {points: 5});
			expect(same.proposed).toBeUndefined();
			expect(await store.proposals.list({itemId: ids[2]!})).toHaveLength(2);
		});

		it('has:proposal finds the items with an open proposal; the queue lists by run and by query', async () => {
			const {store, ids} = await opened();
			await startRun(store, 'run-other', 'propose');
			await agentEdit(store, ids[0]!, {status: 'in_progress'});
			await agentEdit(store, ids[2]!, {points: 2}, {runId: 'run-other'});
			expect((await store.listPage('kit', {where: 'has:proposal'})).items.map(item => item.id).sort()).toEqual([ids[0], ids[2]].sort());
			expect((await store.listPage('kit', {where: '-has:proposal'})).items.map(item => item.id)).toEqual([ids[1]]);
			expect(await store.countMatches('kit', 'has:proposals')).toBe(2);
			expect((await store.proposals.list({runId: 'run-other'})).map(proposal => proposal.item_id)).toEqual([ids[2]]);
			expect((await store.proposals.list({channelId: 'kit', where: 'status:new'})).map(proposal => proposal.item_id)).toEqual([ids[0]]);
			expect(await refusalOf(() => store.proposals.list({channelId: 'kit', where: 'has:nothing'}))).toMatchObject({error: 'bad_query', known: ['followup', 'proposal']});
		});
	});

	describe('follow-ups and proposals agree (one queue entry a field)', () => {
		it('a valid proposal for a field closes the item\'s open follow-up of that field as resolved by it; others stay', async () => {
			const {store, ids} = await opened();
			await refusalOf(() => agentEdit(store, ids[0]!, {status: 'Started', points: 20}));
			await refusalOf(() => agentEdit(store, ids[1]!, {status: 'Started'}));
			expect(await store.countOpenFollowUps('kit')).toBe(3);
			const proposed = await agentEdit(store, ids[0]!, {status: 'in_progress'});
			expect(proposed.proposed).toBe(true);
			const open = await store.listFollowUps({channelId: 'kit', status: 'open'});
			expect(open.map(followUp => [followUp.item_id, followUp.key]).sort()).toEqual([[ids[0], 'points'], [ids[1], 'status']].sort());
			expect(await store.listFollowUps({itemId: ids[0], status: 'resolved'})).toMatchObject([{key: 'status', resolution: 'proposed'}]);
			expect(await store.countOpenFollowUps('kit')).toBe(2);
			expect(await store.proposals.countOpen('kit')).toBe(1);
		});

		it('a refusal of a field with a valid proposal waiting opens no follow-up; of another field it does', async () => {
			const {store, ids} = await opened();
			await agentEdit(store, ids[0]!, {status: 'in_progress'});
			const body = await refusalOf(() => agentEdit(store, ids[0]!, {status: 'Started', points: 20}));
			expect((body as {fields: Array<{key: string}>}).fields.map(field => field.key).sort()).toEqual(['points', 'status']);
			expect((await store.listFollowUps({channelId: 'kit', status: 'open'})).map(followUp => followUp.key)).toEqual(['points']);
			// Another item's field has no proposal: its refusal opens one as always.
			await refusalOf(() => agentEdit(store, ids[1]!, {status: 'Started'}));
			expect(await store.countOpenFollowUps('kit')).toBe(2);
		});

		it('a field a person set by hand to the proposed value is no conflict: the accept finds it satisfied and writes nothing more', async () => {
			const {store, ids} = await opened();
			const p = await agentEdit(store, ids[0]!, {status: 'in_progress', points: 3}, {expectedVersion: 1});
			await store.editItem({channelId: 'kit', itemId: ids[0]!, values: {status: 'in_progress'}, actor: human});
			const result = await store.proposals.accept({ids: [p.proposal_id!]});
			expect(result.conflicts).toEqual([]);
			expect(result.accepted).toMatchObject([{proposal_id: p.proposal_id, item_id: ids[0], version: 3, overwrote: [], changes: {points: {from: 1, to: 3}}}]);
			expect((await store.readItem('kit', ids[0]!)).values).toMatchObject({status: 'in_progress', points: 3});
			expect((await store.proposals.get(p.proposal_id!)).status).toBe('accepted');
			// Every field already holding its proposed value: accepted, nothing written.
			const q = await agentEdit(store, ids[1]!, {status: 'wont_fix'}, {expectedVersion: 1});
			await store.editItem({channelId: 'kit', itemId: ids[1]!, values: {status: 'wont_fix'}, actor: human});
			const satisfied = await store.proposals.accept({ids: [q.proposal_id!]});
			expect(satisfied.conflicts).toEqual([]);
			expect(satisfied.accepted).toMatchObject([{proposal_id: q.proposal_id, version: 2, changes: {}, overwrote: []}]);
			expect((await store.proposals.get(q.proposal_id!)).status).toBe('accepted');
			expect(await store.proposals.countOpen('kit')).toBe(0);
			await expectGapFree(store, 'kit');
		});
	});

	describe('accept and decline', () => {
		it('accepting writes at the base version as the person, naming proposal, run and group; the proposal records it', async () => {
			const {store, ids} = await opened();
			await refusalOf(() => agentEdit(store, ids[0]!, {status: 'Started'}));
			const a = await agentEdit(store, ids[0]!, {status: 'in_progress', points: 3}, {expectedVersion: 1});
			const b = await agentEdit(store, ids[1]!, {status: 'wont_fix'}, {expectedVersion: 1});
			const result = await store.proposals.accept({ids: [a.proposal_id!, b.proposal_id!]});
			expect(result.conflicts).toEqual([]);
			expect(result.refused).toEqual([]);
			expect(result.accepted.map(accepted => [accepted.proposal_id, accepted.item_id, accepted.version, accepted.changes])).toEqual([
				[a.proposal_id, ids[0], 2, {status: {from: 'new', to: 'in_progress'}, points: {from: 1, to: 3}}],
				[b.proposal_id, ids[1], 2, {status: {from: 'new', to: 'wont_fix'}}],
			]);
			expect((await store.readItem('kit', ids[0]!)).values).toMatchObject({status: 'in_progress', points: 3});
			const events = await allEvents(store, 'kit');
			const updates = events.filter(event => event.type === 'item.updated');
			expect(updates.map(event => [event.item_id, event.actor, event.cause])).toEqual([
				[ids[0], {kind: 'human'}, {kind: 'proposal', proposal_id: a.proposal_id, run_id: RUN, group: result.group}],
				[ids[1], {kind: 'human'}, {kind: 'proposal', proposal_id: b.proposal_id, run_id: RUN, group: result.group}],
			]);
			expect(events.filter(event => event.type === 'proposal.accepted').map(event => event.cause)).toEqual([
				{kind: 'proposal', proposal_id: a.proposal_id, run_id: RUN, group: result.group},
				{kind: 'proposal', proposal_id: b.proposal_id, run_id: RUN, group: result.group},
			]);
			expect(await store.proposals.get(a.proposal_id!)).toMatchObject({status: 'accepted', decided_by: 'human', written_version: 2});
			expect((await store.proposals.get(a.proposal_id!)).decided_at).toEqual(expect.any(String));
			// Setting the key closes its follow-up, as any write of it.
			expect(await store.listFollowUps({channelId: 'kit', status: 'open'})).toEqual([]);
			expect(await store.proposals.list()).toEqual([]);
			expect((await store.proposals.accept({ids: [a.proposal_id!]})).skipped).toEqual([{proposal_id: a.proposal_id, status: 'accepted'}]);
			await expectGapFree(store, 'kit');
		});

		it('one accept sees its own writes: a unique value an earlier proposal of it took is refused for a later one; the next write numbers on', async () => {
			const {store, ids} = await opened();
			const a = await agentEdit(store, ids[0]!, {code: 'X-1', points: 2});
			const b = await agentEdit(store, ids[1]!, {code: 'X-1'});
			const c = await agentEdit(store, ids[2]!, {points: 4});
			const result = await store.proposals.accept({ids: [a.proposal_id!, b.proposal_id!, c.proposal_id!]});
			expect(result.accepted.map(accepted => [accepted.proposal_id, accepted.version])).toEqual([[a.proposal_id, 2], [c.proposal_id, 2]]);
			expect(result.refused).toMatchObject([{proposal_id: b.proposal_id, item_id: ids[1], error: {error: 'validation_failed', fields: [{key: 'code'}]}}]);
			expect((await store.proposals.get(b.proposal_id!)).status).toBe('open');
			const sequence = await expectGapFree(store, 'kit');
			const edited = await store.editItem({channelId: 'kit', itemId: ids[2]!, values: {points: 5}, actor: human, expectedVersion: 2});
			expect([edited.sequence, edited.item.version]).toEqual([sequence + 1, 3]);
			expect((await store.proposals.decline([b.proposal_id!])).declined).toEqual([{proposal_id: b.proposal_id, item_id: ids[1], sequence: sequence + 2}]);
			await expectGapFree(store, 'kit');
		});

		it('a proposed field changed since the base is a conflict with both values, written only when forced; other fields changing is not', async () => {
			const {store, ids} = await opened();
			const p = await agentEdit(store, ids[0]!, {status: 'in_progress'}, {expectedVersion: 1});
			const q = await agentEdit(store, ids[1]!, {status: 'wont_fix'}, {expectedVersion: 1});
			await store.editItem({channelId: 'kit', itemId: ids[0]!, values: {status: 'wont_fix'}, actor: human});
			await store.editItem({channelId: 'kit', itemId: ids[1]!, values: {title: 'renamed'}, actor: human});
			const result = await store.proposals.accept({ids: [p.proposal_id!, q.proposal_id!]});
			expect(result.conflicts).toEqual([{proposal_id: p.proposal_id, channel_id: 'kit', item_id: ids[0], base_version: 1, current_version: 2, fields: [{key: 'status', base: 'new', proposed: 'in_progress', current: 'wont_fix'}]}]);
			expect(result.accepted.map(accepted => [accepted.item_id, accepted.version])).toEqual([[ids[1], 3]]);
			expect((await store.readItem('kit', ids[0]!)).values.status).toBe('wont_fix');
			expect((await store.proposals.get(p.proposal_id!)).status).toBe('open');
			const forced = await store.proposals.accept({ids: [p.proposal_id!], force: true});
			expect(forced.accepted).toMatchObject([{item_id: ids[0], version: 3, overwrote: ['status'], changes: {status: {from: 'wont_fix', to: 'in_progress'}}}]);
			expect((await store.readItem('kit', ids[0]!)).values.status).toBe('in_progress');
		});

		it('an agent\'s several proposals on one item are accepted together; one field alone can be accepted', async () => {
			const {store, ids} = await opened();
			const s = await agentEdit(store, ids[0]!, {status: 'in_progress'}, {expectedVersion: 1});
			const p = await agentEdit(store, ids[0]!, {points: 5, title: 'one!'}, {expectedVersion: 1});
			expect((await store.proposals.accept({ids: [s.proposal_id!, p.proposal_id!].reverse(), fields: undefined})).accepted).toHaveLength(2);
			const t = await agentEdit(store, ids[1]!, {points: 2, title: 'two!'}, {expectedVersion: 1});
			expect(await refusalOf(() => store.proposals.accept({ids: [t.proposal_id!], fields: ['status']}))).toMatchObject({error: 'invalid_argument'});
			const partial = await store.proposals.accept({ids: [t.proposal_id!], fields: ['points']});
			expect(partial.accepted).toMatchObject([{still_open: true, version: 2, changes: {points: {from: null, to: 2}}}]);
			expect(await store.proposals.get(t.proposal_id!)).toMatchObject({status: 'open', values: {title: 'two!'}, base_version: 2});
			await store.proposals.accept({ids: [t.proposal_id!]});
			expect((await store.readItem('kit', ids[1]!)).values).toMatchObject({points: 2, title: 'two!'});
			expect((await store.proposals.get(t.proposal_id!)).status).toBe('accepted');
		});

		it('declining records the decision and its event; unknown ids refuse the whole call and change nothing', async () => {
			const {store, ids} = await opened();
			const p = await agentEdit(store, ids[0]!, {status: 'in_progress'});
			const before = await allEvents(store, 'kit');
			expect(await refusalOf(() => store.proposals.decline([p.proposal_id!, 9999]))).toMatchObject({error: 'not_found', message: expect.stringContaining('9999')});
			expect(await refusalOf(() => store.proposals.accept({ids: [p.proposal_id!, 9999]}))).toMatchObject({error: 'not_found'});
			expect(await allEvents(store, 'kit')).toEqual(before);
			const declined = await store.proposals.decline([p.proposal_id!]);
			expect(declined.declined).toEqual([{proposal_id: p.proposal_id, item_id: ids[0], sequence: before.length + 1}]);
			expect(await store.proposals.get(p.proposal_id!)).toMatchObject({status: 'declined', decided_by: 'human'});
			expect((await allEvents(store, 'kit')).at(-1)).toMatchObject({type: 'proposal.declined', actor: {kind: 'human'}, cause: {kind: 'proposal', proposal_id: p.proposal_id, run_id: RUN}});
			expect((await store.proposals.accept({ids: [p.proposal_id!]})).skipped).toEqual([{proposal_id: p.proposal_id, status: 'declined'}]);
			expect((await store.readItem('kit', ids[0]!)).version).toBe(1);
			expect(await store.proposals.list({status: 'all'})).toHaveLength(1);
		});

		it('deleting an item closes its open proposals, unwritten', async () => {
			const {store, ids} = await opened();
			const p = await agentEdit(store, ids[2]!, {points: 4});
			await store.deleteItem('kit', ids[2]!, human);
			expect(await store.proposals.get(p.proposal_id!)).toMatchObject({status: 'declined', decided_by: null, decided_at: expect.any(String)});
			expect(await store.proposals.countOpen('kit')).toBe(0);
			expect((await store.proposals.accept({ids: [p.proposal_id!]})).skipped).toEqual([{proposal_id: p.proposal_id, status: 'declined'}]);
		});

		it('a value the schema no longer allows is refused at accept and the proposal stays open', async () => {
			const {store, ids} = await opened();
			const p = await agentEdit(store, ids[2]!, {status: 'wont_fix'});
			await store.changeChannel('kit', {kind: 'retire_option', key: 'status', value: 'wont_fix'});
			const result = await store.proposals.accept({ids: [p.proposal_id!]});
			expect(result.refused).toMatchObject([{proposal_id: p.proposal_id, error: {error: 'validation_failed'}}]);
			expect((await store.proposals.get(p.proposal_id!)).status).toBe('open');
		});
	});

	describe('diff and revert of a run', () => {
		it('an apply run: every field from → to and now; revert sets back what nothing changed since and reports the rest', async () => {
			const {store, ids} = await opened('apply', 'run-a');
			await agentEdit(store, ids[0]!, {status: 'in_progress', points: 3}, {runId: 'run-a'});
			await agentEdit(store, ids[1]!, {status: 'wont_fix'}, {runId: 'run-a'});
			await agentEdit(store, ids[1]!, {points: 8}, {runId: 'run-a'});
			await store.editItem({channelId: 'kit', itemId: ids[1]!, values: {status: 'new'}, actor: human});
			await store.editItem({channelId: 'kit', itemId: ids[0]!, values: {title: 'uno'}, actor: human});
			const diff = await store.runs.diff('run-a');
			expect(diff).toEqual({run_id: 'run-a', channel_id: 'kit', items: [
				{item_id: ids[0], version: 2, current_version: 3, fields: [{key: 'status', from: 'new', to: 'in_progress', now: 'in_progress', changed_since: false}, {key: 'points', from: 1, to: 3, now: 3, changed_since: false}]},
				{item_id: ids[1], version: 3, current_version: 4, fields: [{key: 'status', from: 'new', to: 'wont_fix', now: 'new', changed_since: true}, {key: 'points', from: null, to: 8, now: 8, changed_since: false}]},
			]});
			const reverted = await store.runs.revert('run-a');
			expect(reverted.reverted.map(entry => [entry.item_id, entry.version, entry.changes])).toEqual([
				[ids[0], 4, {status: {from: 'in_progress', to: 'new'}, points: {from: 3, to: 1}}],
				[ids[1], 5, {points: {from: 8, to: null}}],
			]);
			// Changed by someone else to what it was before the run: nothing to set back, nothing overwritten.
			expect(reverted.unchanged).toEqual([{item_id: ids[1], key: 'status'}]);
			expect(reverted.conflicts).toEqual([]);
			expect((await store.readItem('kit', ids[0]!)).values).toMatchObject({status: 'new', points: 1, title: 'uno'});
			const revertEvents = (await allEvents(store, 'kit')).filter(event => event.cause?.kind === 'revert');
			expect(revertEvents.map(event => [event.type, event.actor, event.cause])).toEqual([
				['item.updated', {kind: 'human'}, {kind: 'revert', run_id: 'run-a', group: reverted.group}],
				['item.updated', {kind: 'human'}, {kind: 'revert', run_id: 'run-a', group: reverted.group}],
			]);
			const again = await store.runs.revert('run-a');
			expect(again.reverted).toEqual([]);
			await expectGapFree(store, 'kit');
		});

		it('a field changed since the run is a conflict, left as it is', async () => {
			const {store, ids} = await opened('apply', 'run-b');
			await agentEdit(store, ids[0]!, {status: 'in_progress'}, {runId: 'run-b'});
			await store.editItem({channelId: 'kit', itemId: ids[0]!, values: {status: 'wont_fix'}, actor: human});
			const result = await store.runs.revert('run-b');
			expect(result.conflicts).toEqual([{item_id: ids[0], key: 'status', from: 'new', to: 'in_progress', now: 'wont_fix'}]);
			expect(result.reverted).toEqual([]);
			expect((await store.readItem('kit', ids[0]!)).values.status).toBe('wont_fix');
		});

		it('a proposing run\'s diff is what the person accepted of it; unknown runs are not_found', async () => {
			const {store, ids} = await opened();
			const p = await agentEdit(store, ids[0]!, {status: 'in_progress'});
			await agentEdit(store, ids[1]!, {status: 'wont_fix'});
			expect((await store.runs.diff(RUN)).items).toEqual([]);
			await store.proposals.accept({ids: [p.proposal_id!]});
			expect((await store.runs.diff(RUN)).items).toEqual([{item_id: ids[0], version: 2, current_version: 2, fields: [{key: 'status', from: 'new', to: 'in_progress', now: 'in_progress', changed_since: false}]}]);
			expect((await store.runs.revert(RUN)).reverted).toHaveLength(1);
			expect((await store.readItem('kit', ids[0]!)).values.status).toBe('new');
			expect(await refusalOf(() => store.runs.diff('no-such-run'))).toMatchObject({error: 'not_found'});
		});
	});

	describe('auto accept and per-field counts', () => {
		it('an accept by auto is the person\'s accept recorded as auto: written, decided_by auto, its events say so, and the run reverts it', async () => {
			const {store, ids} = await opened();
			const proposed = await agentEdit(store, ids[0]!, {status: 'in_progress', points: 3}, {expectedVersion: 1});
			const result = await store.proposals.accept({ids: [proposed.proposal_id!], by: 'auto'});
			expect(result.accepted).toHaveLength(1);
			expect(await store.proposals.get(proposed.proposal_id!)).toMatchObject({status: 'accepted', decided_by: 'auto', written_version: 2});
			expect((await store.readItem('kit', ids[0]!)).values).toMatchObject({status: 'in_progress', points: 3});
			const events = (await allEvents(store, 'kit')).slice(-2);
			expect(events.map(event => [event.type, event.actor.kind, event.cause])).toEqual([
				['item.updated', 'human', {kind: 'proposal', proposal_id: proposed.proposal_id, run_id: RUN, group: result.group, auto: true}],
				['proposal.accepted', 'human', {kind: 'proposal', proposal_id: proposed.proposal_id, run_id: RUN, group: result.group, auto: true}],
			]);
			expect(await store.runs.get(RUN)).toMatchObject({accepted: 1, declined: 0});
			// A person's accept stays theirs.
			const other = await agentEdit(store, ids[1]!, {status: 'wont_fix'}, {expectedVersion: 1});
			await store.proposals.accept({ids: [other.proposal_id!]});
			expect(await store.proposals.get(other.proposal_id!)).toMatchObject({decided_by: 'human'});
			expect((await allEvents(store, 'kit')).at(-1)!.cause).not.toHaveProperty('auto');
			const reverted = await store.runs.revert(RUN);
			expect(reverted.conflicts).toEqual([]);
			expect((await store.readItem('kit', ids[0]!)).values).toMatchObject({status: 'new', points: 1});
		});

		it('counts per field and per run what was accepted (auto among it), declined and still open, an accept of some fields included', async () => {
			const {store, ids} = await opened();
			await startRun(store, 'run-other', 'propose');
			const first = await agentEdit(store, ids[0]!, {status: 'in_progress', points: 3}, {expectedVersion: 1});
			const second = await agentEdit(store, ids[1]!, {status: 'wont_fix', points: 2}, {expectedVersion: 1});
			const third = await agentEdit(store, ids[2]!, {status: 'new', points: 5}, {expectedVersion: 1});
			const elsewhere = await agentEdit(store, ids[2]!, {title: 'three, retitled'}, {expectedVersion: 1, runId: 'run-other'});
			await store.proposals.accept({ids: [first.proposal_id!], by: 'auto'});
			// Points alone of the second: its status stays open.
			await store.proposals.accept({ids: [second.proposal_id!], fields: ['points']});
			await store.proposals.decline([third.proposal_id!]);
			expect(await store.proposals.fieldCounts({channelId: 'kit', runId: RUN})).toEqual([
				{key: 'points', proposed: 3, accepted: 2, auto_accepted: 1, declined: 1, open: 0},
				{key: 'status', proposed: 3, accepted: 1, auto_accepted: 1, declined: 1, open: 1},
			]);
			expect(await store.proposals.fieldCounts({channelId: 'kit', runId: 'run-other'})).toEqual([{key: 'title', proposed: 1, accepted: 0, auto_accepted: 0, declined: 0, open: 1}]);
			await store.proposals.accept({ids: [elsewhere.proposal_id!, second.proposal_id!]});
			expect(await store.proposals.fieldCounts({channelId: 'kit'})).toEqual([
				{key: 'points', proposed: 3, accepted: 2, auto_accepted: 1, declined: 1, open: 0},
				{key: 'status', proposed: 3, accepted: 2, auto_accepted: 1, declined: 1, open: 0},
				{key: 'title', proposed: 1, accepted: 1, auto_accepted: 0, declined: 0, open: 0},
			]);
			expect(await store.proposals.fieldCounts({channelId: 'kit', runId: 'no-such-run'})).toEqual([]);
		});
	});
});
