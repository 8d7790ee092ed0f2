// The review queue and run diffs at the command line (docs/review.md): sift proposals list,
// accept (with a conflict, --force) and decline; sift runs diff and revert. The proposals and the
// run's edits are made through the store by this test process, as an agent's server would.

import {beforeAll, describe, expect, it} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/index.js';
import {demoDatabase, ensureBuilt, sift, siftJson} from '../support/cli.js';

beforeAll(() => ensureBuilt());

const agent = (runId: string) => ({kind: 'agent' as const, run_id: runId});

async function withDb<T>(db: string, work: (store: AsyncStore) => Promise<T>): Promise<T> {
	const store = await openAsyncStore(db);
	try {
		return await work(store);
	} finally {
		await store.close();
	}
}

/** A demo database with a run in `mode` that edited (or proposed for) the first two items. */
async function runOn(mode: 'apply' | 'propose', runId: string): Promise<{db: string; ids: string[]; proposals: number[]}> {
	const db = demoDatabase(4);
	return withDb(db, async store => {
		await store.runs.start({id: runId, channelId: 'bugs', itemIds: [], instruction: 'triage', startedAt: new Date().toISOString(), logPath: null, mode});
		const ids = (await store.listPage('bugs')).items.map(item => item.id).reverse();
		const proposals: number[] = [];
		for (const [index, values] of [{status: 'triaged', points: 3}, {severity: 's2'}].entries()) {
			const item = await store.readItem('bugs', ids[index]!);
			const result = await store.editItem({channelId: 'bugs', itemId: item.id, values, actor: agent(runId), expectedVersion: item.version, reason: index === 0 ? 'the reporter asks for it' : undefined});
			if (result.proposal_id !== undefined) proposals.push(result.proposal_id);
		}

		return {db, ids, proposals};
	});
}

describe('sift proposals', () => {
	it('lists the open proposals with their values and reasons, by run, and as JSON', async () => {
		const {db, ids, proposals} = await runOn('propose', 'run-p1');
		const text = sift(['proposals', '--db', db]);
		expect(text.code).toBe(0);
		expect(text.stdout).toContain('2 proposals:');
		expect(text.stdout).toMatch(new RegExp(`#${proposals[0]}  ${ids[0]} v1  open  run run-p1\\n    status: New → Triaged\\n    points: .* → 3\\n    reason: the reporter asks for it`));
		expect(text.stdout).toContain('severity: (empty) → S2 Major');
		const json = siftJson<any[]>(['proposals', 'list', '--run', 'run-p1', '--db', db]);
		expect(json.map(proposal => proposal.id)).toEqual(proposals);
		expect(json[0]).toMatchObject({item_id: ids[0], values: {status: 'triaged', points: 3}, reason: 'the reporter asks for it', status: 'open'});
		expect(siftJson<any[]>(['proposals', '--run', 'other', '--db', db])).toEqual([]);
		expect(siftJson<any[]>(['proposals', '--where', 'severity:s2', '--db', db]).length).toBeLessThanOrEqual(2);
		expect(siftJson<any>(['list', '--where', 'has:proposal', '--db', db]).items.map((item: any) => item.id).sort()).toEqual([ids[0], ids[1]].sort());
	});

	it('a reason or a value with terminal controls is shown inert', async () => {
		const {db, ids} = await runOn('propose', 'run-px');
		await withDb(db, async store => {
			await store.editItem({channelId: 'bugs', itemId: ids[2]!, values: {title: 'evil \u001b[2J title'}, actor: agent('run-px'), reason: 'see \u001b]0;pwned\u0007 this \u202e'});
		});
		const text = sift(['proposals', '--db', db]);
		expect(text.code).toBe(0);
		expect(text.stdout).not.toMatch(/[\u001b\u0007\u202e]/);
		expect(text.stdout).toContain('reason: see');
	});

	it('accept writes at the base version as one edit; a field changed since is a conflict shown with both values, written only with --force', async () => {
		const {db, ids, proposals} = await runOn('propose', 'run-p2');
		// Another process edits the first item's status after the proposal.
		expect(sift(['edit', ids[0]!, 'status=fixed', '--db', db]).code).toBe(0);
		const accepted = sift(['proposals', 'accept', String(proposals[0]), `#${proposals[1]}`, '--db', db]);
		expect(accepted.code).toBe(1);
		expect(accepted.stdout).toContain('1 proposal accepted, 1 conflict, 0 refused');
		expect(accepted.stdout).toContain(`conflict #${proposals[0]} ${ids[0]} (proposed on v1, now v2):`);
		expect(accepted.stdout).toContain('status: was New, proposed Triaged, now Fixed');
		expect(accepted.stdout).toContain('Nothing was overwritten');
		expect(siftJson(['show', ids[0]!, '--db', db])).toMatchObject({version: 2, values: {status: 'fixed'}});
		expect(siftJson(['show', ids[1]!, '--db', db])).toMatchObject({version: 2, values: {severity: 's2'}});
		const events = siftJson<any>(['events', '--db', db]).events;
		expect(events.at(-2)).toMatchObject({type: 'item.updated', item_id: ids[1], actor: {kind: 'human'}, cause: {kind: 'proposal', proposal_id: proposals[1], run_id: 'run-p2'}});
		expect(events.at(-1)).toMatchObject({type: 'proposal.accepted', item_id: ids[1]});
		const forced = siftJson<any>(['proposals', 'accept', String(proposals[0]), '--force', '--db', db]);
		expect(forced.accepted).toMatchObject([{proposal_id: proposals[0], overwrote: ['status'], changes: {status: {from: 'fixed', to: 'triaged'}}}]);
		expect(siftJson(['show', ids[0]!, '--db', db])).toMatchObject({version: 3, values: {status: 'triaged', points: 3}});
		expect(siftJson<any[]>(['proposals', '--db', db])).toEqual([]);
	});

	it('decline --run closes a run\'s proposals without writing; bad ids and flags are usage errors', async () => {
		const {db, ids, proposals} = await runOn('propose', 'run-p3');
		const declined = siftJson<any>(['proposals', 'decline', '--run', 'run-p3', '--db', db]);
		expect(declined.declined.map((entry: any) => entry.proposal_id)).toEqual(proposals);
		expect(siftJson(['show', ids[0]!, '--db', db])).toMatchObject({version: 1});
		expect(sift(['proposals', 'accept', String(proposals[0]), '--db', db]).stdout).toContain(`#${proposals[0]} is already declined`);
		expect(sift(['proposals', 'accept', 'twelve', '--db', db])).toMatchObject({code: 2, stderr: expect.stringContaining('a proposal id is a whole number')});
		expect(sift(['proposals', 'accept', '--db', db])).toMatchObject({code: 2});
		expect(sift(['proposals', 'decline', '1', '--force', '--db', db])).toMatchObject({code: 2, stderr: expect.stringContaining('--force only goes with accept')});
		expect(sift(['proposals', 'accept', '999', '--db', db])).toMatchObject({code: 1, stderr: expect.stringMatching(/^sift: no proposal 999/)});
		expect(sift(['proposals', 'accept', '--run', 'nope', '--db', db])).toMatchObject({code: 2, stderr: expect.stringContaining('no run "nope"')});
	});
});

describe('sift runs diff and revert', () => {
	it('diff lists every field from → to and now; revert without --yes writes nothing; with it sets back what did not change since and reports the rest', async () => {
		const {db, ids} = await runOn('apply', 'run-a1');
		expect(sift(['edit', ids[1]!, 'severity=s4', '--db', db]).code).toBe(0);
		const diff = sift(['runs', 'diff', 'run-a1', '--db', db]);
		expect(diff.code).toBe(0);
		expect(diff.stdout).toContain('run run-a1 on bugs: 3 fields changed on 2 items');
		expect(diff.stdout).toContain('status: New → Triaged, now Triaged');
		expect(diff.stdout).toMatch(/severity: \(empty\) → S2 Major, now S4 Trivial \(changed since\)/);
		const json = siftJson<any>(['runs', 'diff', 'run-a1', '--db', db]);
		expect(json.items.map((item: any) => item.item_id)).toEqual([ids[0], ids[1]]);
		const preview = sift(['runs', 'revert', 'run-a1', '--db', db]);
		expect(preview.code).toBe(0);
		expect(preview.stdout).toContain('would set back 2 fields on 1 item; 1 conflict');
		expect(preview.stdout).toContain('Nothing was written: add --yes to revert.');
		expect(siftJson(['show', ids[0]!, '--db', db])).toMatchObject({version: 2, values: {status: 'triaged'}});
		const reverted = sift(['runs', 'revert', 'run-a1', '--yes', '--db', db]);
		expect(reverted.code).toBe(1);
		expect(reverted.stdout).toContain('run run-a1 reverted: 2 fields set back on 1 item; 1 conflict, 0 refused, 0 already back');
		expect(reverted.stdout).toMatch(/conflict it_\w+ severity: the run set S2 Major \(was \(empty\)\), now S4 Trivial: left as it is/);
		expect(siftJson(['show', ids[0]!, '--db', db])).toMatchObject({version: 3, values: {status: 'new'}});
		expect(siftJson(['show', ids[1]!, '--db', db])).toMatchObject({values: {severity: 's4'}});
		const events = siftJson<any>(['events', '--db', db]).events;
		expect(events.at(-1)).toMatchObject({type: 'item.updated', item_id: ids[0], actor: {kind: 'human'}, cause: {kind: 'revert', run_id: 'run-a1'}});
		expect(sift(['runs', 'diff', '--db', db])).toMatchObject({code: 2});
		expect(sift(['runs', 'diff', 'nope', '--db', db])).toMatchObject({code: 1, stderr: expect.stringMatching(/^sift: no run "nope"/)});
		expect(sift(['runs', '--yes', '--db', db])).toMatchObject({code: 2});
	});

	it('sift runs shows a proposing run\'s proposals next to its edits', async () => {
		const {db} = await runOn('propose', 'run-p4');
		await withDb(db, store => store.runs.end('run-p4', {finishedAt: new Date().toISOString(), outcome: 'ok', usage: null, editsApplied: 0, proposals: 2, rejections: 0, followupsOpened: 0, error: null}));
		expect(sift(['runs', '--db', db]).stdout).toMatch(/run-p4 +ok +0 items +0 edited, 2 proposed \(not applied\), 0 refused/);
		expect(siftJson<any[]>(['runs', '--db', db])[0]).toMatchObject({id: 'run-p4', mode: 'propose', proposals: 2, edits_applied: 0});
		expect(sift(['runs', 'run-p4', '--db', db]).stdout).toContain('propose mode: 2 proposed (not applied), 0 edits applied');
		// Once a person decides, the line says how many of the run's proposals were accepted and declined.
		const declined = siftJson<any>(['proposals', 'decline', '--run', 'run-p4', '--db', db]).declined.length;
		expect(declined).toBeGreaterThan(0);
		expect(siftJson<any[]>(['runs', '--db', db])[0]).toMatchObject({id: 'run-p4', accepted: 0, declined});
		expect(sift(['runs', '--db', db]).stdout).toMatch(new RegExp(`run-p4 +ok +0 items +0 edited, 2 proposed \\(not applied; 0 accepted, ${declined} declined\\), 0 refused`));
		expect(sift(['runs', 'run-p4', '--db', db]).stdout).toContain(`propose mode: 2 proposed (not applied; 0 accepted, ${declined} declined), 0 edits applied`);
	});
});
