// The Follow-ups tab follows the header's follow-up count when one is resolved in the queue (defect
// 13), counts follow-ups as the header does when one record has two, and the Review tab follows a
// proposal made while the screen is open, at 80×24 and 200×60.

import {describe, expect, it} from 'vitest';
import {StoreError} from '../../store/index.js';
import {idOfTicket, proposingRun, ptyDemo} from '../support/pty-fixtures.js';
import {KEYS} from '../support/pty.js';

// The header and the tabs agree on counts, on the built app in a real pseudo-terminal: the
// Follow-ups tab follows the header's follow-up count when one is resolved in the queue, counts
// follow-ups (not records) when one record has two, and the Review tab follows proposals made
// while the screen is open.

const demo = ptyDemo(60, 'sift-pty-counts-');
const RUN = 'run-counts-pty';
const agent = proposingRun(demo, RUN);

/** An agent's refused write: a follow-up on each field given (by default the record's severity). */
function refuse(ticket: string, values: Record<string, unknown> = {severity: 'major'}): void {
	const id = idOfTicket(demo.store, ticket);
	const {version} = demo.store.readItem('bugs', id);
	expect(() => demo.store.editItem({channelId: 'bugs', itemId: id, values, actor: {kind: 'agent', run_id: 'run-pty'}, expectedVersion: version})).toThrow(StoreError);
}

const SIZES = [[80, 24], [200, 60]] as const;
const headerOf = (screen: string) => screen.split('\n')[0]!;
const tabsOf = (screen: string) => screen.split('\n')[1]!;

describe('counts in a pseudo-terminal', () => {
	for (const [cols, rows] of SIZES) {
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
			const screen = await app.waitFor(screen => headerOf(screen).includes(`${open - 1} follow-up`) && screen.includes(`Follow-ups ${open - 1} `), 10_000, 'header and tab after one is resolved');
			expect(demo.store.countOpenFollowUps('bugs')).toBe(open - 1);
			expect(tabsOf(screen)).toContain(`Follow-ups ${open - 1} `);
			expect(await app.quit()).toBe(0);
		});
	}

	for (const [cols, rows, ticket] of [[80, 24, 'BUG-0040'], [200, 60, 'BUG-0039']] as const) {
		it(`two follow-ups on one record: the header and the Follow-ups tab both count two (${cols}×${rows})`, async () => {
			refuse(ticket, {severity: 'major', area: 'nowhere'});
			const open = demo.store.countOpenFollowUps('bugs');
			const records = demo.store.countMatches('bugs', 'has:followup');
			// The record holds two: the store's records with one are fewer than the follow-ups.
			expect(records).toBeLessThan(open);
			const app = demo.launch({args: ['--db', demo.db.dbPath], cols, rows, env: {SIFT_STATE_DIR: demo.db.stateDir}});
			const screen = await app.waitFor(screen => headerOf(screen).includes(`${open} follow-ups`) && /Follow-ups \d/.test(tabsOf(screen)), 10_000, 'header and tab at the start');
			expect(tabsOf(screen)).toContain(`Follow-ups ${open} `);
			// The queue (F) has as many entries as both say.
			app.press('F');
			await app.waitFor(`Follow-up 1 of ${open}`);
			app.press(KEYS.escape);
			expect(await app.quit()).toBe(0);
		});
	}

	for (const [cols, rows, ticket] of [[80, 24, 'BUG-0030'], [200, 60, 'BUG-0029']] as const) {
		it(`the Review tab follows a proposal made while the screen is open, with the header (${cols}×${rows})`, async () => {
			const before = await agent.store().proposals.countOpen('bugs');
			const app = demo.launch({args: ['--db', demo.db.dbPath], cols, rows, env: {SIFT_STATE_DIR: demo.db.stateDir}});
			await app.waitFor(screen => tabsOf(screen).includes(`Review ${before}`), 10_000, 'the Review tab at the start');
			// The agent of a run in propose mode proposes a status for one record: no `r` is pressed.
			const item = demo.store.readItem('bugs', idOfTicket(demo.store, ticket));
			const statuses = demo.store.getChannel('bugs').fields.find(field => field.key === 'status')!.config.options!.map(option => option.value);
			const result = await agent.store().editItem({channelId: 'bugs', itemId: item.id, values: {status: statuses.find(value => value !== item.values.status)!}, actor: {kind: 'agent', run_id: RUN}, expectedVersion: item.version, reason: 'reads so'});
			expect(result.proposed).toBe(true);
			const screen = await app.waitFor(screen => tabsOf(screen).includes(`Review ${before + 1}`), 15_000, 'the Review tab to count the new proposal');
			expect(headerOf(screen)).toContain(`${before + 1} proposal`);
			expect(await app.quit()).toBe(0);
		});
	}
});
