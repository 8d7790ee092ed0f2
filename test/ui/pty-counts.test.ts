import {describe, expect, it} from 'vitest';
import {StoreError} from '../../store/index.js';
import {idOfTicket, ptyDemo} from '../support/pty-fixtures.js';
import {KEYS} from '../support/pty.js';

// The header and the tabs agree on counts, on the built app in a real pseudo-terminal: the
// Follow-ups tab follows the header's follow-up count when one is resolved in the queue.

const demo = ptyDemo(60, 'sift-pty-counts-');

/** An agent's refused write: a follow-up on the record's severity. */
function refuse(ticket: string): void {
	const id = idOfTicket(demo.store, ticket);
	const {version} = demo.store.readItem('bugs', id);
	expect(() => demo.store.editItem({channelId: 'bugs', itemId: id, values: {severity: 'major'}, actor: {kind: 'agent', run_id: 'run-pty'}, expectedVersion: version})).toThrow(StoreError);
}

describe('counts in a pseudo-terminal', () => {
	for (const [cols, rows] of [[80, 24], [200, 60]] as const) {
		it(`the Follow-ups tab follows the header when a follow-up is resolved (${cols}×${rows})`, async () => {
			refuse('BUG-0050');
			refuse('BUG-0049');
			const open = demo.store.countOpenFollowUps('bugs');
			const app = demo.launch({args: ['--db', demo.db.dbPath], cols, rows, env: {SIFT_STATE_DIR: demo.db.stateDir}});
			await app.waitFor(screen => screen.includes(`${open} follow-ups`) && screen.includes(`Follow-ups ${open} `), 10_000, 'header and tab at the start');
			app.press('F');
			await app.waitFor(`Follow-up 1 of ${open}`);
			app.press('d');
			await app.waitFor('Dismiss this follow-up?');
			app.press('y');
			await app.waitFor(`Follow-up 1 of ${open - 1}`);
			app.press(KEYS.escape);
			const screen = await app.waitFor(screen => screen.split('\n')[0]!.includes(`${open - 1} follow-up`) && screen.includes(`Follow-ups ${open - 1} `), 10_000, 'header and tab after one is resolved');
			expect(demo.store.countOpenFollowUps('bugs')).toBe(open - 1);
			expect(screen.split('\n')[1]).toContain(`Follow-ups ${open - 1} `);
			expect(await app.quit()).toBe(0);
		});
	}
});
