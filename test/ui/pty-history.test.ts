// The run history's `D` (a run's diff) and `U` (the revert's preview, then `U` again reverts, a
// field changed since left as it is), checked in the store, at 80×24 and 200×60.

import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {idOfTicket, ptyDemo} from '../support/pty-fixtures.js';
import {KEYS} from '../support/pty.js';

// The run history's `D` (a run's diff) and `U` (its revert: a preview, then `U` again) on the
// built app in a real pseudo-terminal, checked in the store (docs/review.md#diff-and-revert). The
// run is recorded through the store as a finished apply-mode run whose agent wrote two fields, and
// one of them is changed since by a person: the revert leaves that one as it is.

const demo = ptyDemo(60, 'sift-pty-history-');
let agentStore: AsyncStore;

const ticket = (n: number) => `BUG-${String(n).padStart(4, '0')}`;
const itemOf = (n: number) => demo.store.readItem('bugs', idOfTicket(demo.store, ticket(n)));
const options = (key: string) => demo.store.getChannel('bugs').fields.find(field => field.key === key)!.config.options!.map(option => option.value);

beforeAll(async () => {
	agentStore = await openAsyncStore(demo.db.dbPath);
});

afterAll(async () => {
	await agentStore?.close();
});

/** A finished run whose agent set a status other than each ticket's own; answers the statuses before. */
async function recordRun(id: string, tickets: number[]): Promise<Map<number, unknown>> {
	await agentStore.runs.start({id, channelId: 'bugs', itemIds: tickets.map(n => itemOf(n).id), instruction: 'triage', startedAt: new Date().toISOString(), logPath: null});
	const before = new Map<number, unknown>();
	for (const n of tickets) {
		const item = itemOf(n);
		before.set(n, item.values.status);
		await agentStore.editItem({channelId: 'bugs', itemId: item.id, values: {status: options('status').find(value => value !== item.values.status)}, actor: {kind: 'agent', run_id: id}, expectedVersion: item.version});
	}

	await agentStore.runs.end(id, {finishedAt: new Date().toISOString(), outcome: 'ok', usage: null, editsApplied: tickets.length, rejections: 0, followupsOpened: 0, error: null});
	return before;
}

describe('the run history\'s diff and revert in a pseudo-terminal', () => {
	for (const [cols, rows, tickets] of [[80, 24, [60, 59]], [200, 60, [58, 57]]] as const) {
		it(`D shows the run's diff; U previews the revert, U again reverts it, a field changed since left as it is (${cols}×${rows})`, async () => {
			// The history lists runs by id, newest first (real ids sort by time): this run is on top.
			const runId = `run-${Date.now()}-history`;
			const before = await recordRun(runId, [...tickets]);
			const [kept, reverted] = tickets;
			// A person changes the first ticket's status after the run: the revert must leave it.
			const person = itemOf(kept);
			const personStatus = options('status').find(value => value !== person.values.status && value !== before.get(kept))!;
			demo.store.editItem({channelId: 'bugs', itemId: person.id, values: {status: personStatus}, actor: {kind: 'human'}, expectedVersion: person.version});

			const app = demo.launch({args: ['--db', demo.db.dbPath], cols, rows, env: {SIFT_STATE_DIR: demo.db.stateDir}});
			await app.waitFor(ticket(60));
			app.press('R');
			await app.waitFor(screen => screen.includes('Run history') && screen.includes('2 items, 2 edits'));
			app.press('D');
			const diff = await app.waitFor(`run ${runId} on bugs: 2 fields changed on 2 items`);
			expect(diff).toContain(itemOf(reverted).id);
			expect(diff).toContain('(changed since)');
			await app.waitFor('U reverts it');
			// Nothing is written by D or by the first U.
			const versions = tickets.map(n => itemOf(n).version);
			app.press('U');
			// Lines are cut to the width: the head, then the one set back and the one left (the person's).
			const preview = await app.waitFor(`revert of run ${runId} would set back 1 field on 1 item`);
			expect(preview).toContain(`${itemOf(reverted).id}: status`);
			expect(preview).toContain(`conflict ${person.id} status`);
			expect(preview).toContain('U again reverts');
			expect(tickets.map(n => itemOf(n).version)).toEqual(versions);
			app.press('U');
			const done = await app.waitFor(`run ${runId} reverted: 1 field set back on 1 item`);
			expect(done).toContain(`conflict ${person.id} status`);
			expect(itemOf(reverted).values.status).toBe(before.get(reverted));
			expect(itemOf(kept).values.status).toBe(personStatus);
			// Esc: from the diff back to the history, then to the list.
			app.press(KEYS.escape);
			await app.waitFor(screen => screen.includes('Run history (newest first)') && screen.includes('2 items, 2 edits'));
			app.press(KEYS.escape);
			await app.waitFor(/^j ↓ move/m);
			expect(await app.quit()).toBe(0);
		});
	}
});
