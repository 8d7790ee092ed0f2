// Two review queues on one PostgreSQL database: an accept in one leaves the other's queue within 1
// s.

import {afterAll, beforeAll, expect, it} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {describePg} from '../support/pg.js';
import {ptyPgDemo} from '../support/pty-fixtures.js';

// Two people's review queues on one PostgreSQL database, each the built app in its own
// pseudo-terminal: a proposal accepted in one leaves the other's queue within a second (the
// proposal.accepted event, pushed by LISTEN/NOTIFY, reads the queue again).

const RUN = 'run-review-pg';

describePg('two review queues on one PostgreSQL database', () => {
	const demo = ptyPgDemo(10, 'sift-pty-review-pg-');
	let agentStore: AsyncStore;

	beforeAll(async () => {
		agentStore = await openAsyncStore(demo.url);
		await agentStore.runs.start({id: RUN, channelId: 'bugs', itemIds: [], instruction: 'triage', startedAt: new Date().toISOString(), logPath: null, mode: 'propose'});
		// Two proposals, oldest item first: each a points value the item does not hold.
		const items = (await agentStore.listPage('bugs')).items.slice(0, 2);
		for (const item of items) {
			await agentStore.editItem({channelId: 'bugs', itemId: item.id, values: {points: item.preview.points === 13 ? 1 : 13}, actor: {kind: 'agent', run_id: RUN}, expectedVersion: item.version, reason: 'sized by the agent'});
		}
	});

	// Registered after the fixture's hooks, so run before them: the store closes before its database is dropped.
	afterAll(async () => {
		await agentStore?.close();
	});

	it('an accept in one removes the proposal from the other', async () => {
		const [one, other] = [demo.start(), demo.start()];
		await Promise.all([one.waitFor(/2 proposals/), other.waitFor(/2 proposals/)]);
		one.press('P');
		other.press('P');
		await Promise.all([one.waitFor('Proposal 1 of 2'), other.waitFor('Proposal 1 of 2')]);
		one.press('a');
		await one.waitFor('1 proposal accepted');
		await other.waitFor('Proposal 1 of 1', 10_000, 'the accepted proposal gone from the other queue');
		expect(await agentStore.proposals.countOpen('bugs')).toBe(1);
	});
});
