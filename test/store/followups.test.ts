// Follow-ups (docs/reference.md#follow-ups) on a real file; grants are in test/contract/grants.contract.test.ts.

import {afterAll, beforeEach, describe, expect, it} from 'vitest';
import type {Store} from '../../store/index.js';
import {agent, cleanTempDirs, human, kitStore, refusal, snapshot, STATUS_ALLOWED} from './helpers.js';

afterAll(() => cleanTempDirs());

describe('follow-ups', () => {
	let store: Store;
	let itemId: string;

	beforeEach(() => {
		store = kitStore();
		itemId = store.createItem('kit', {title: 'target', points: 3}, human).item.id;
	});

	const refuseAsAgent = (values: Record<string, unknown>, runId = 'run-1') =>
		refusal(() => store.editItem({channelId: 'kit', itemId, actor: agent(runId), values}));

	it('open on an agent refusal: one per settable refused field, with what was tried and what is allowed', () => {
		refuseAsAgent({status: 'In progress', points: 20, due: 'Friday', title: 'fine', colour: 'red', age_days: 2});
		const open = store.listFollowUps({channelId: 'kit', status: 'open'});
		expect(open).toHaveLength(3);
		expect(open).toEqual([
			expect.objectContaining({channel_id: 'kit', item_id: itemId, key: 'status', status: 'open', attempted: 'In progress', message: 'values.status must be one of the option values, got "In progress"', allowed: STATUS_ALLOWED, run_id: 'run-1', resolution: null}),
			expect.objectContaining({key: 'points', attempted: 20, message: 'values.points must be between 0 and 13, got 20', min: 0, max: 13, run_id: 'run-1'}),
			expect.objectContaining({key: 'due', attempted: 'Friday', message: 'values.due must be a date as YYYY-MM-DD, got "Friday"; sift edit/add and the TUI also read today, +3d or friday'}),
		]);
		expect(open[2]).not.toHaveProperty('allowed');
		expect(store.countOpenFollowUps('kit')).toBe(3);
		// The item itself did not move.
		expect(store.readItem('kit', itemId)).toMatchObject({version: 1, values: {title: 'target', points: 3, status: null}});
	});

	it('refresh on a second refusal: still one open row per item and key, with the newer attempt', () => {
		refuseAsAgent({status: 'In progress'}, 'run-1');
		const [first] = store.listFollowUps({itemId});
		refuseAsAgent({status: 'Doing', points: 14}, 'run-2');
		const open = store.listFollowUps({itemId, status: 'open'});
		expect(open.map(row => row.key)).toEqual(['status', 'points']);
		expect(open[0]).toMatchObject({id: first!.id, attempted: 'Doing', message: 'values.status must be one of the option values, got "Doing"', run_id: 'run-2', created_at: first!.created_at});
		expect(open[0]!.updated_at >= first!.updated_at).toBe(true);
		expect(store.listFollowUps({itemId})).toHaveLength(2);
	});

	it('resolve when a later successful edit sets the key (by a person or an agent)', () => {
		refuseAsAgent({status: 'In progress', points: 20});
		store.editItem({channelId: 'kit', itemId, actor: human, values: {status: 'in_progress'}});
		const rows = store.listFollowUps({itemId});
		expect(rows.find(row => row.key === 'status')).toMatchObject({status: 'resolved', resolution: 'set'});
		expect(rows.find(row => row.key === 'points')).toMatchObject({status: 'open', resolution: null});
		store.editItem({channelId: 'kit', itemId, actor: agent('run-3'), values: {points: 13}});
		expect(store.countOpenFollowUps('kit')).toBe(0);
		// A new refusal after resolution opens a new row.
		refuseAsAgent({status: 'Closed'});
		expect(store.listFollowUps({itemId, status: 'open'})).toMatchObject([{key: 'status', attempted: 'Closed'}]);
		expect(store.listFollowUps({itemId})).toHaveLength(3);
	});

	it('dismiss by a person; dismissing twice or an unknown id is a clear error', () => {
		refuseAsAgent({status: 'In progress'});
		const [row] = store.listFollowUps({itemId});
		expect(store.dismissFollowUp(row!.id)).toMatchObject({id: row!.id, status: 'dismissed', resolution: 'dismissed'});
		expect(store.countOpenFollowUps('kit')).toBe(0);
		expect(refusal(() => store.dismissFollowUp(row!.id))).toEqual({error: 'invalid_argument', message: `follow-up ${row!.id} is already dismissed`});
		expect(refusal(() => store.dismissFollowUp(999))).toEqual({error: 'not_found', message: 'follow-up 999 does not exist'});
		// The same key refused again opens a fresh follow-up.
		refuseAsAgent({status: 'Open'});
		expect(store.listFollowUps({itemId, status: 'open'})).toMatchObject([{key: 'status', attempted: 'Open'}]);
	});

	it('a person\'s refusals open no follow-ups', () => {
		const before = snapshot(store);
		refusal(() => store.editItem({channelId: 'kit', itemId, actor: human, values: {status: 'In progress', points: 20}}));
		expect(store.listFollowUps()).toEqual([]);
		expect(snapshot(store)).toEqual(before);
	});

	it('a deleted item closes its open follow-ups', () => {
		refuseAsAgent({status: 'In progress'});
		store.deleteItem('kit', itemId, human);
		expect(store.listFollowUps({itemId})).toMatchObject([{status: 'dismissed', resolution: 'item_deleted'}]);
		expect(store.countOpenFollowUps('kit')).toBe(0);
	});

	it('an agent edit of an unknown item opens nothing', () => {
		refusal(() => store.editItem({channelId: 'kit', itemId: 'it_zzzzzzzzzz', actor: agent(), values: {status: 'Nope'}}));
		expect(store.listFollowUps()).toEqual([]);
	});

	it('lists by run and by channel', () => {
		refuseAsAgent({status: 'A'}, 'run-a');
		refuseAsAgent({points: 99}, 'run-b');
		expect(store.listFollowUps({runId: 'run-b'}).map(row => row.key)).toEqual(['points']);
		expect(store.listFollowUps({channelId: 'other'})).toEqual([]);
	});
});
