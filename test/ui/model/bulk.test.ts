// Bulk edits on marked rows against a real store (SQLite and PostgreSQL): versions the person saw,
// one idempotency key per item, the outcome's written / conflicts / refusals, and the undo plan.

import {randomUUID} from 'node:crypto';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {bugsChannel} from '../../../demo-data/generate.js';
import {describeBulkOutcome, foldBulkResults, planBulkEdit, planUndo, type BulkPlan, type MarkedRow} from '../../../source/ui/model/bulk.js';
import {StoreError, type AsyncStore, type EditResult} from '../../../store/index.js';
import {BACKENDS, type Backend} from '../../contract/backends.js';
import {notePgOff} from '../../support/pg.js';
import {demoField, fieldOf} from './demo-channel.js';

const human = {kind: 'human'} as const;
const owner = demoField('owner');

const conflict = () => new StoreError({error: 'version_conflict', message: 'item x is at version 3, not 2: read it again and merge', current_version: 3, changed_since: {}});

/** Plans, failing the test on a refusal. */
function plan(input: Parameters<typeof planBulkEdit>[0]): BulkPlan {
	const planned = planBulkEdit(input);
	return 'error' in planned ? expect.unreachable(planned.error) : planned;
}

const run = (store: AsyncStore, bulk: BulkPlan) => Promise.allSettled(bulk.edits.map(edit => store.editItem(edit.request)));

describe('planning', () => {
	const rows: MarkedRow[] = [
		{id: '1', version: 4, values: {ticket: 'BUG-0001', owner: 'aiko'}, name: 'BUG-0001'},
		{id: '2', version: 1, values: {ticket: 'BUG-0002'}},
		{id: '1', version: 4, values: {ticket: 'BUG-0001', owner: 'aiko'}, name: 'BUG-0001'},
	];

	it('one request per marked item: the version seen, its own idempotency key, the value before', () => {
		expect(plan({channelId: 'bugs', field: owner, value: 'ren', rows, batch: 'b1'})).toEqual({
			channelId: 'bugs',
			key: 'owner',
			batch: 'b1',
			edits: [
				{id: '1', name: 'BUG-0001', before: 'aiko', request: {channelId: 'bugs', itemId: '1', values: {owner: 'ren'}, actor: human, expectedVersion: 4, idempotencyKey: 'b1:1'}},
				{id: '2', name: '2', before: null, request: {channelId: 'bugs', itemId: '2', values: {owner: 'ren'}, actor: human, expectedVersion: 1, idempotencyKey: 'b1:2'}},
			],
		});
	});

	it('refuses no marked rows', () => {
		expect(planBulkEdit({channelId: 'bugs', field: owner, value: 'ren', rows: [], batch: 'b'})).toEqual({error: 'no rows are marked: mark rows with Space, then edit them together'});
	});

	it('refuses a formula, long text and json: rows do not show them, so undo could not restore them', () => {
		expect(planBulkEdit({channelId: 'bugs', field: demoField('age_days'), value: 1, rows, batch: 'b'})).toEqual({error: 'age_days is a formula field, computed when read, and cannot be edited'});
		expect(planBulkEdit({channelId: 'bugs', field: demoField('description'), value: 'x', rows, batch: 'b'})).toEqual({error: 'description is long text, which rows do not show; edit it one item at a time'});
		expect(planBulkEdit({channelId: 'bugs', field: fieldOf({key: 'meta', type: 'json'}), value: {}, rows, batch: 'b'})).toEqual({error: 'meta is a json field, which rows do not show; edit it one item at a time'});
	});

	it('folding checks that every edit has its result', () => {
		const bulk = plan({channelId: 'bugs', field: owner, value: 'ren', rows, batch: 'b'});
		expect(() => foldBulkResults(bulk, [])).toThrow('a bulk plan of 2 edits got 0 results');
	});

	it('anything but a store refusal is a refusal with its message, made safe', () => {
		const bulk = plan({channelId: 'bugs', field: owner, value: 'ren', rows: rows.slice(0, 2), batch: 'b'});
		const outcome = foldBulkResults(bulk, [{status: 'rejected', reason: new Error('disk \u001b[2Jfull')}, {status: 'rejected', reason: 'odd'}]);
		expect(outcome.refusals).toEqual([{id: '1', name: 'BUG-0001', message: 'disk ␛[2Jfull'}, {id: '2', name: '2', message: 'odd'}]);
		expect(planUndo(outcome)).toBeNull();
	});

	it('describes the outcome: counts, then each conflict and refusal by name, names made safe', () => {
		const bulk = plan({channelId: 'bugs', field: owner, value: 'ren', rows: [...rows.slice(0, 2), {id: '3', version: 1, values: {}, name: 'BUG\u001b[31m'}], batch: 'b'});
		const item = {id: '1', channel_id: 'bugs', version: 5, created_at: '', updated_at: '', values: {}};
		const outcome = foldBulkResults(bulk, [{status: 'fulfilled', value: {ok: true, item, sequence: 9} as EditResult}, {status: 'rejected', reason: conflict()}, {status: 'rejected', reason: new StoreError({error: 'not_found', message: 'item "3" does not exist in channel bugs'})}]);
		expect(describeBulkOutcome(outcome)).toEqual([
			'owner: 1 item written, 1 conflict, 1 refused',
			'conflict on 2: item x is at version 3, not 2: read it again and merge',
			'refused on BUG␛[31m: item "3" does not exist in channel bugs',
		]);
	});
});

describe.each(BACKENDS)('bulk edits on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	let store: AsyncStore;
	beforeAll(() => backend.setUp());
	afterEach(async () => store?.close());
	afterAll(() => backend.tearDown());

	/** A store with `count` demo bugs, and the rows as the list shows them (newest first). */
	async function marked(count: number): Promise<MarkedRow[]> {
		store = await backend.open();
		const items = Array.from({length: count}, (_, index) => ({values: {ticket: `BUG-${String(index + 1).padStart(4, '0')}`, title: `bug ${index + 1}`, owner: index % 2 === 0 ? 'aiko' : null, points: 1}}));
		await store.importChannel({channel: bugsChannel, items});
		const page = await store.listPage('bugs', {limit: count});
		return page.items.map(item => ({id: item.id, version: item.version, values: item.preview, name: String(item.preview.ticket)}));
	}

	const ownerOf = async (id: string) => (await store.readItem('bugs', id)).values.owner ?? null;

	it('5 marked rows, 1 changed meanwhile: 4 written, 1 conflict; one undo reverts the 4', async () => {
		const rows = await marked(5);
		const before = await Promise.all(rows.map(row => ownerOf(row.id)));
		// Someone else sets the third row's owner after the person marked it.
		await store.editItem({channelId: 'bugs', itemId: rows[2]!.id, values: {owner: 'mika'}, actor: human});

		const bulk = plan({channelId: 'bugs', field: owner, value: 'ren', rows, batch: randomUUID()});
		const outcome = foldBulkResults(bulk, await run(store, bulk));
		expect(outcome.written.map(written => written.name)).toEqual(rows.filter((_, index) => index !== 2).map(row => row.name));
		expect(outcome.written.every(written => written.after === 'ren')).toBe(true);
		expect(outcome.conflicts).toEqual([{id: rows[2]!.id, name: rows[2]!.name, currentVersion: 2, message: expect.stringContaining('changed since:\n  owner:')}]);
		expect(outcome.refusals).toEqual([]);
		expect(describeBulkOutcome(outcome)[0]).toBe('owner: 4 items written, 1 conflict, 0 refused');
		expect(await ownerOf(rows[2]!.id)).toBe('mika');

		const undo = planUndo(outcome)!;
		expect(undo.edits.map(edit => edit.request.expectedVersion)).toEqual(outcome.written.map(written => written.version));
		expect(new Set(undo.edits.map(edit => edit.request.idempotencyKey)).size).toBe(4);
		const undone = foldBulkResults(undo, await run(store, undo));
		expect(undone.written).toHaveLength(4);
		expect(await Promise.all(rows.map(row => ownerOf(row.id)))).toEqual(before.map((value, index) => (index === 2 ? 'mika' : value)));

		// Undoing the undo writes the bulk edit again: an undo plan is a plan like any other.
		const redone = foldBulkResults(planUndo(undone)!, await run(store, planUndo(undone)!));
		expect(redone.written.map(written => written.after)).toEqual(['ren', 'ren', 'ren', 'ren']);
	});

	it('a retried batch writes nothing twice: the same keys give the same results', async () => {
		const rows = await marked(3);
		const bulk = plan({channelId: 'bugs', field: owner, value: 'ren', rows, batch: randomUUID()});
		const first = foldBulkResults(bulk, await run(store, bulk));
		const again = foldBulkResults(bulk, await run(store, bulk));
		expect(again.written).toEqual(first.written);
		expect((await store.readItem('bugs', rows[0]!.id)).version).toBe(rows[0]!.version + 1);
	});

	it('refusals carry the refusal wording: what is allowed', async () => {
		const rows = await marked(2);
		const bulk = plan({channelId: 'bugs', field: demoField('points'), value: 99, rows, batch: randomUUID()});
		const outcome = foldBulkResults(bulk, await run(store, bulk));
		expect(outcome.written).toEqual([]);
		expect(outcome.refusals.map(refusal => refusal.message)).toEqual([expect.stringMatching(/^refused:\n {2}.+\n {4}allowed: 0 to 13$/), expect.stringContaining('allowed: 0 to 13')]);
		expect(planUndo(outcome)).toBeNull();
	});

	it('an undo conflicts, not overwrites, where the item changed after the bulk edit', async () => {
		const rows = await marked(2);
		const bulk = plan({channelId: 'bugs', field: owner, value: 'ren', rows, batch: randomUUID()});
		const outcome = foldBulkResults(bulk, await run(store, bulk));
		await store.editItem({channelId: 'bugs', itemId: rows[0]!.id, values: {owner: 'mika'}, actor: human});
		const undone = foldBulkResults(planUndo(outcome)!, await run(store, planUndo(outcome)!));
		expect(undone.written.map(written => written.id)).toEqual([rows[1]!.id]);
		expect(undone.conflicts.map(conflicted => conflicted.id)).toEqual([rows[0]!.id]);
		expect(await ownerOf(rows[0]!.id)).toBe('mika');
	});
});
