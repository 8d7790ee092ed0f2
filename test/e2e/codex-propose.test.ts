// End-to-end review (docs/review.md) through the real Codex CLI (node_modules/.bin/codex, CODEX_HOME
// in a temp folder) and the scripted Responses endpoint, with runs recorded as `sift run` records
// them. A run in propose mode triages: no item changes, its valid edits are proposals, its refused
// values follow-ups. A person accepts some and declines the rest, checked through the store's
// events; an item edited by another process (`sift edit`) between proposal and accept is a
// conflict. Then an apply-mode run is diffed and reverted with one of its items changed since.

import {execFileSync} from 'node:child_process';
import {rmSync} from 'node:fs';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startRecordedRun} from '../../source/codex/record.js';
import type {RunResult} from '../../source/codex/runner.js';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import type {Item} from '../../store/index.js';
import {codexLocalArgs, localRunOptions, makeCodexHome, SCRIPTED_MODEL} from '../support/codex-local.js';
import {startResponsesEndpoint} from '../support/responses-endpoint.js';
import {builtCli, makeDatabase, ROOT} from '../mcp/fixtures.js';
import {tempDir} from '../support/temp.js';

const CODEX = path.join(ROOT, 'node_modules', '.bin', 'codex');
const ITEM_COUNT = 6;
const RUN_TIMEOUT_MS = 240_000;
const TEST_TIMEOUT_MS = 300_000;
const WISH_FIELDS = ['status', 'owner', 'severity', 'points', 'due', 'area'];

const dir = tempDir('sift-e2e-propose-');
let cli = '';
beforeAll(() => {
	cli = builtCli();
});
afterAll(() => rmSync(dir, {recursive: true, force: true}));

/** One recorded triage run on every item, in `mode`, through the real Codex. */
async function triage(store: AsyncStore, db: string, items: Item[], mode: 'apply' | 'propose'): Promise<RunResult> {
	const endpoint = await startResponsesEndpoint({mode: 'triage-functions'});
	const home = await makeCodexHome();
	try {
		const local = codexLocalArgs({endpointUrl: endpoint.url, model: SCRIPTED_MODEL, codexHome: home.path});
		const handle = await startRecordedRun(store, {
			instruction: 'Triage these bugs: set status, owner, severity, points, due and area from the triage wishes at the end of each description.',
			channelId: 'bugs',
			itemIds: items.map(item => item.id),
			dbPath: db,
			mode,
			...localRunOptions(local, CODEX),
			stateDir: path.join(dir, 'state'),
			timeoutMs: RUN_TIMEOUT_MS,
		});
		return await handle.done;
	} finally {
		await endpoint.close();
		await home.remove();
	}
}

async function freshStore(name: string): Promise<{store: AsyncStore; db: string; items: Item[]}> {
	const db = path.join(dir, `${name}.db`);
	makeDatabase(db, ITEM_COUNT);
	const store = await openAsyncStore(db);
	const ids = (await store.listPage('bugs')).items.map(item => item.id);
	return {store, db, items: await Promise.all(ids.map(async id => store.readItem('bugs', id)))};
}

/** `sift edit` in a process of its own: another writer of the same file. */
const editInAnotherProcess = (db: string, itemId: string, assignment: string) => execFileSync(process.execPath, [cli, 'edit', itemId, assignment, '--channel', 'bugs', '--db', db], {stdio: 'pipe'});

describe('review through the real Codex CLI', () => {
	it('propose mode: items unchanged, proposals and follow-ups recorded; accept, decline and a conflict from another process', async () => {
		const {store, db, items} = await freshStore('propose');
		try {
			const startSequence = await store.latestSequence('bugs');
			const result = await triage(store, db, items, 'propose');
			expect(result.error, result.stderrTail).toBeNull();
			expect(result.outcome).toBe('ok');
			expect(result.editsApplied).toBe(0);
			expect(result.rejections).toBeGreaterThan(0);

			// Nothing landed: every item as it was.
			for (const before of items) expect(await store.readItem('bugs', before.id)).toEqual({...before, values: {...before.values, age_days: expect.any(Number)}});
			const proposals = await store.proposals.list({runId: result.runId});
			expect(proposals.length).toBe(result.proposals);
			expect(proposals.length).toBeGreaterThan(0);
			expect(await store.runs.get(result.runId)).toMatchObject({mode: 'propose', proposals: proposals.length, edits_applied: 0});
			for (const proposal of proposals) {
				expect(proposal).toMatchObject({channel_id: 'bugs', run_id: result.runId, base_version: 1, status: 'open'});
				expect(Object.keys(proposal.values).every(key => WISH_FIELDS.includes(key))).toBe(true);
				for (const key of ['status', 'owner', 'severity', 'area']) if (key in proposal.values) expect(proposal.values[key]).toMatch(/^[a-z0-9_]+$/);
			}

			// Refused values are still follow-ups of this run, never proposals (points 20 is out of range).
			const followUps = await store.listFollowUps({channelId: 'bugs', status: 'open'});
			expect(followUps.length).toBeGreaterThan(0);
			expect(followUps.every(followUp => followUp.run_id === result.runId)).toBe(true);
			for (const followUp of followUps.filter(candidate => candidate.key === 'points')) {
				expect(followUp.attempted).toBe(20);
				expect(proposals.find(proposal => proposal.item_id === followUp.item_id)?.values.points).toBeUndefined();
			}

			const events = (await store.pollEvents('bugs', {afterSequence: startSequence})).events;
			expect(events.map(event => event.type)).toEqual(proposals.map(() => 'proposal.created'));
			expect(events.map(event => event.cause)).toEqual(proposals.map(proposal => ({kind: 'proposal', proposal_id: proposal.id, run_id: result.runId})));

			// Another process edits a proposed field of the first proposal's item.
			const conflicted = proposals.find(proposal => typeof proposal.values.status === 'string');
			expect(conflicted, 'every demo wish asks for a status other than New').toBeDefined();
			const others = proposals.filter(proposal => proposal !== conflicted);
			const field = 'status';
			const theirs = conflicted!.values.status === 'wont_fix' ? 'fixed' : 'wont_fix';
			editInAnotherProcess(db, conflicted!.item_id, `status=${theirs}`);
			const half = Math.ceil(others.length / 2);
			const accepting = [conflicted!, ...others.slice(0, half)];
			const declining = others.slice(half);
			const beforeAccept = await store.latestSequence('bugs');
			const accepted = await store.proposals.accept({ids: accepting.map(proposal => proposal.id)});
			expect(accepted.conflicts.map(conflict => conflict.proposal_id)).toEqual([conflicted!.id]);
			expect(accepted.conflicts[0]!.fields.find(entry => entry.key === field)).toMatchObject({base: conflicted!.base_values.status, proposed: conflicted!.values.status, current: theirs});
			expect((await store.readItem('bugs', conflicted!.item_id)).values[field]).toBe(theirs);
			expect(accepted.accepted.map(entry => entry.proposal_id)).toEqual(others.slice(0, half).map(proposal => proposal.id));
			for (const proposal of others.slice(0, half)) {
				const item = await store.readItem('bugs', proposal.item_id);
				expect(item.version).toBe(2);
				for (const [key, value] of Object.entries(proposal.values)) expect(item.values[key]).toEqual(value);
			}

			const declined = await store.proposals.decline(declining.map(proposal => proposal.id));
			expect(declined.declined).toHaveLength(declining.length);
			for (const proposal of declining) expect((await store.readItem('bugs', proposal.item_id)).version).toBe(1);

			// The store's events say who did what, for whom: the person, naming each proposal and the run.
			const review = (await store.pollEvents('bugs', {afterSequence: beforeAccept})).events;
			const writes = review.filter(event => event.type === 'item.updated');
			expect(writes.map(event => [event.item_id, event.actor, event.cause])).toEqual(others.slice(0, half).map(proposal => [proposal.item_id, {kind: 'human'}, {kind: 'proposal', proposal_id: proposal.id, run_id: result.runId, group: accepted.group}]));
			expect(review.filter(event => event.type === 'proposal.accepted').map(event => event.cause?.kind === 'proposal' ? event.cause.proposal_id : null)).toEqual(others.slice(0, half).map(proposal => proposal.id));
			expect(review.filter(event => event.type === 'proposal.declined').map(event => event.cause?.kind === 'proposal' ? event.cause.proposal_id : null)).toEqual(declining.map(proposal => proposal.id));
			expect((await store.proposals.list({runId: result.runId})).map(proposal => proposal.id)).toEqual([conflicted!.id]);
		} finally {
			await store.close();
		}
	}, TEST_TIMEOUT_MS);

	it('an apply run\'s diff and revert: an item changed since (in another process) is reported, not overwritten', async () => {
		const {store, db, items} = await freshStore('apply');
		try {
			const result = await triage(store, db, items, 'apply');
			expect(result.outcome, result.stderrTail).toBe('ok');
			expect(result.editsApplied).toBe(ITEM_COUNT);
			const diff = await store.runs.diff(result.runId);
			expect(diff.items.map(item => item.item_id).sort()).toEqual(items.map(item => item.id).sort());
			const changed = diff.items[0]!;
			const field = changed.fields.find(entry => entry.from !== null)!;
			editInAnotherProcess(db, changed.item_id, `${field.key}=null`);
			const again = await store.runs.diff(result.runId);
			expect(again.items[0]!.fields.find(entry => entry.key === field.key)).toMatchObject({from: field.from, to: field.to, now: null, changed_since: true});
			const reverted = await store.runs.revert(result.runId);
			expect(reverted.conflicts).toEqual([{item_id: changed.item_id, key: field.key, from: field.from, to: field.to, now: null}]);
			expect(reverted.reverted).toHaveLength(ITEM_COUNT);
			expect((await store.readItem('bugs', changed.item_id)).values[field.key]).toBeNull();
			for (const before of items) {
				const now = await store.readItem('bugs', before.id);
				for (const key of WISH_FIELDS) if (!(before.id === changed.item_id && key === field.key)) expect(now.values[key], `${before.id} ${key}`).toEqual(before.values[key]);
			}

			const reverts = (await store.pollEvents('bugs', {afterSequence: await store.latestSequence('bugs') - ITEM_COUNT})).events;
			expect(reverts.every(event => event.actor.kind === 'human' && event.cause?.kind === 'revert' && event.cause.run_id === result.runId)).toBe(true);
		} finally {
			await store.close();
		}
	}, TEST_TIMEOUT_MS);
});
