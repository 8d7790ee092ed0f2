// The review queue on the built app: 20 proposals reviewed with 21 keys, `A` then one `u` puts
// every item back, a conflict shown and written only on a second `a`.

import {describe, expect, it} from 'vitest';
import {idOfTicket, proposingRun, ptyDemo} from '../support/pty-fixtures.js';
import {KEYS, type PtyApp} from '../support/pty.js';

// The review queue (P) on the built app in a real pseudo-terminal, checked in the store: the
// proposals are made through the store by a run recorded in propose mode, as its agent's edits
// would be (docs/review.md); the other writer in the conflict is this test's process.

const demo = ptyDemo(60, 'sift-pty-review-');
const RUN = 'run-review-pty';
const agent = proposingRun(demo, RUN);

const ticket = (n: number) => `BUG-${String(n).padStart(4, '0')}`;
const itemOf = (n: number) => demo.store.readItem('bugs', idOfTicket(demo.store, ticket(n)));
const statuses = () => demo.store.getChannel('bugs').fields.find(field => field.key === 'status')!.config.options!.map(option => option.value);

/** The agent proposes a status other than the item's for each ticket; answers what it proposed. */
async function propose(tickets: number[]): Promise<Map<number, string>> {
	const proposed = new Map<number, string>();
	for (const n of tickets) {
		const item = itemOf(n);
		const status = statuses().find(value => value !== item.values.status)!;
		const result = await agent.store().editItem({channelId: 'bugs', itemId: item.id, values: {status}, actor: {kind: 'agent', run_id: RUN}, expectedVersion: item.version, reason: `${ticket(n)} reads as ${status}`});
		expect(result.proposed).toBe(true);
		proposed.set(n, status);
	}

	return proposed;
}

function start(): PtyApp {
	return demo.launch({args: ['--db', demo.db.dbPath], cols: 140, rows: 36, env: {SIFT_STATE_DIR: demo.db.stateDir}});
}

describe('the review queue in a pseudo-terminal', () => {
	it('reviews 20 proposals with 21 keys: P, then a on each', async () => {
		const tickets = Array.from({length: 20}, (_, index) => 60 - index);
		const before = new Map(tickets.map(n => [n, itemOf(n).values.status]));
		const proposed = await propose(tickets);
		const app = start();
		await app.waitFor(/20 proposals/);
		const keys = ['P', ...tickets.map(() => 'a')];
		app.press(keys[0]!);
		await app.waitFor('Proposal 1 of 20');
		app.press(...keys.slice(1));
		await app.waitFor('No open proposals here', 15_000);
		expect(keys).toHaveLength(21);
		expect(await demo.store.countOpenFollowUps('bugs')).toBeGreaterThanOrEqual(0);
		expect(await agent.store().proposals.countOpen('bugs')).toBe(0);
		for (const n of tickets) {
			expect(itemOf(n).values.status).toBe(proposed.get(n));
			expect(itemOf(n).values.status).not.toBe(before.get(n));
		}

		app.press(KEYS.escape);
		await app.waitFor(screen => !/\d+ proposals?\b/.test(screen.split('\n')[0] ?? ''));
		expect(await app.quit()).toBe(0);
	});

	it('A accepts every proposal shown as one edit, and one u puts every item back', async () => {
		const tickets = [40, 39, 38, 37, 36];
		const before = new Map(tickets.map(n => [n, itemOf(n).values.status]));
		const proposed = await propose(tickets);
		const app = start();
		await app.waitFor(/5 proposals/);
		app.press('P');
		await app.waitFor('Proposal 1 of 5');
		app.press('A');
		await app.waitFor('5 proposals accepted');
		for (const n of tickets) expect(itemOf(n).values.status).toBe(proposed.get(n));
		app.press(KEYS.escape);
		await app.waitFor(screen => !screen.includes('No open proposals here'));
		app.press('u');
		await app.waitFor('Accept undone: 5 item(s) set back');
		for (const n of tickets) expect(itemOf(n).values.status).toBe(before.get(n));
		expect(await app.quit()).toBe(0);
	});

	it('a conflict: the item changed since the proposal; both values shown, nothing written until a again', async () => {
		const n = 35;
		const proposed = (await propose([n])).get(n)!;
		// Another writer sets a third status after the proposal.
		const item = itemOf(n);
		const other = statuses().find(value => value !== item.values.status && value !== proposed)!;
		demo.store.editItem({channelId: 'bugs', itemId: item.id, values: {status: other}, actor: {kind: 'human'}, expectedVersion: item.version});
		const app = start();
		await app.waitFor(/1 proposal\b/);
		app.press('P');
		await app.waitFor('Proposal 1 of 1');
		app.press('a');
		const shown = await app.waitFor('Changed since it was proposed: nothing written');
		expect(shown).toMatch(/status: was .+, proposed .+, now .+/);
		expect(itemOf(n).values.status).toBe(other);
		expect(await agent.store().proposals.countOpen('bugs')).toBe(1);
		app.press('a');
		await app.waitFor('1 proposal accepted');
		expect(itemOf(n).values.status).toBe(proposed);
		expect(await app.quit()).toBe(0);
	});
});
