// The app rendered on a real store.

import {describe, expect, it} from 'vitest';
import {openAsyncStore} from '../../store/api.js';
import {StoreError} from '../../store/index.js';
import {idOfTicket, makeEmptyDb} from '../support/pty-fixtures.js';
import {appDemo, renderApp} from './helpers.js';

const DOWN = '\u001b[B';
const PAGE_DOWN = '\u001b[6~';
const ENTER = '\r';
const ESC = '\u001b';

const demo = appDemo(300);

/** Index of a field in the edit chooser (every field but formulas, in schema order). */
function fieldIndex(key: string): number {
	return demo.other.getChannel('bugs').fields.filter(field => field.type !== 'formula').findIndex(field => field.key === key);
}

const rowOf = (frame: string, ticket: string) => frame.split('\n').find(line => line.includes(ticket)) ?? '';

describe('the app, in process', () => {
	it('keys typed in one chunk act one after another', async () => {
		const app = renderApp(demo.store, {stateDir: demo.db.stateDir});
		await app.waitFor(frame => frame.includes('BUG-0300'));
		app.stdin.write('ejjj');
		await app.waitFor(frame => frame.includes('› Status'));
		app.unmount();
	});

	it('pages down past the first page by before_id', async () => {
		const app = renderApp(demo.store, {stateDir: demo.db.stateDir});
		await app.waitFor(frame => frame.includes('row 1 '));
		await app.keys(PAGE_DOWN, PAGE_DOWN, PAGE_DOWN, PAGE_DOWN);
		const frame = await app.waitFor(text => /row (\d+)/.exec(text) !== null && Number(/row (\d+)/.exec(text)![1]) > 50);
		expect(frame).toMatch(/BUG-02[0-4]\d/);
		app.unmount();
	});

	it('G goes to the real oldest record, paging back up works from there, and g to the newest', async () => {
		const app = renderApp(demo.store, {stateDir: demo.db.stateDir});
		await app.waitFor(frame => frame.includes('row 1 '));
		// 300 records, 50 loaded: G reads the last page, not the end of what is loaded.
		await app.keys('G');
		let frame = await app.waitFor(text => text.includes('row 300 '));
		expect(rowOf(frame, 'BUG-0001')).toContain('BUG-0001');
		// Up a whole screen and more: pages before the last one come in by the store's cursor.
		await app.keys(...Array.from({length: 6}, () => '\u001b[5~'));
		frame = await app.waitFor(text => /row (\d+)/.exec(text) !== null && Number(/row (\d+)/.exec(text)![1]) < 250);
		const at = Number(/row (\d+)/.exec(frame)![1]);
		expect(frame).toContain(`BUG-${String(301 - at).padStart(4, '0')}`);
		await app.keys('g');
		await app.waitFor(text => text.includes('row 1 ') && text.includes('BUG-0300'));
		app.unmount();
	});

	it('edits a status through the option picker, as a human with expected_version, and undoes it', async () => {
		const app = renderApp(demo.store, {stateDir: demo.db.stateDir});
		await app.waitFor(frame => frame.includes('BUG-0300'));
		await app.keys('e', ...Array.from({length: fieldIndex('status')}, () => 'j'), ENTER);
		await app.waitFor(frame => frame.includes('› 1 New  new'));
		await app.keys(DOWN, ENTER);
		const frame = await app.waitFor(text => text.includes('BUG-0300: Status New → Triaged'));
		expect(rowOf(frame, 'BUG-0300')).toContain('Triaged');
		const id = idOfTicket(demo.other, 'BUG-0300');
		expect(demo.other.readItem('bugs', id).values.status).toBe('triaged');
		const events = demo.other.pollEvents('bugs', {afterSequence: 300}).events;
		expect(events.at(-1)).toMatchObject({item_id: id, actor: {kind: 'human'}, changes: {status: {from: 'new', to: 'triaged'}}});
		await app.keys('u');
		await app.waitFor(text => text.includes('Undone: BUG-0300 Status back to New'));
		expect(demo.other.readItem('bugs', id).values.status).toBe('new');
		app.unmount();
	});

	it('shows a refused number inline with the allowed range, and saves nothing', async () => {
		const app = renderApp(demo.store, {stateDir: demo.db.stateDir});
		await app.waitFor(frame => frame.includes('BUG-0300'));
		await app.keys('e', ...Array.from({length: fieldIndex('points')}, () => 'j'), ENTER);
		await app.waitFor(frame => frame.includes('Points (number'));
		await app.keys('20', ENTER);
		const frame = await app.waitFor(text => text.includes('Refused: values.points must be between 0 and 13, got 20'));
		expect(frame).toContain('Allowed: 0 to 13');
		expect(demo.other.readItem('bugs', idOfTicket(demo.other, 'BUG-0300')).version).toBe(1);
		app.unmount();
	});

	it('re-reads on a version conflict and shows what changed', async () => {
		const app = renderApp(demo.store, {stateDir: demo.db.stateDir});
		await app.waitFor(frame => frame.includes('BUG-0300'));
		await app.keys('e', ...Array.from({length: fieldIndex('owner')}, () => 'j'), ENTER);
		await app.waitFor(frame => frame.includes('› 4 none'));
		await app.keys(DOWN);
		const id = idOfTicket(demo.other, 'BUG-0300');
		demo.other.editItem({channelId: 'bugs', itemId: id, values: {status: 'fixed'}, actor: {kind: 'agent', run_id: 'r1'}, expectedVersion: 1});
		await app.keys(ENTER);
		const frame = await app.waitFor(text => text.includes('changed since you opened it'));
		expect(frame).toContain('Status: New → Fixed');
		expect(frame).toContain('now v2');
		await app.keys(ENTER);
		await app.waitFor(text => text.includes('BUG-0300: Owner — → Aiko (v3)'));
		app.unmount();
	});

	it('refuses to undo when someone changed the field since', async () => {
		const app = renderApp(demo.store, {stateDir: demo.db.stateDir});
		await app.waitFor(frame => frame.includes('BUG-0300'));
		await app.keys('e', ...Array.from({length: fieldIndex('status')}, () => 'j'), ENTER);
		await app.waitFor(frame => frame.includes('› 1 New  new'));
		await app.keys(DOWN, ENTER);
		await app.waitFor(text => text.includes('Status New → Triaged'));
		const id = idOfTicket(demo.other, 'BUG-0300');
		demo.other.editItem({channelId: 'bugs', itemId: id, values: {status: 'fixed'}, actor: {kind: 'human'}, expectedVersion: 2});
		await app.keys('u');
		await app.waitFor(text => text.includes('Not undone: BUG-0300 Status: Triaged → Fixed was changed by someone else'));
		expect(demo.other.readItem('bugs', id).values.status).toBe('fixed');
		app.unmount();
	});

	it('works through the follow-up queue: pick an allowed value, type one, dismiss one; the header count follows', async () => {
		const refuse = (ticket: string, values: Record<string, unknown>) => {
			const id = idOfTicket(demo.other, ticket);
			expect(() => demo.other.editItem({channelId: 'bugs', itemId: id, values, actor: {kind: 'agent', run_id: 'run-test'}, expectedVersion: 1})).toThrow(StoreError);
			return id;
		};

		const first = refuse('BUG-0299', {status: 'In progress'});
		const second = refuse('BUG-0298', {points: 20, due: 'Friday'});
		const app = renderApp(demo.store, {stateDir: demo.db.stateDir});
		await app.waitFor(frame => frame.includes('3 follow-ups'));
		await app.keys('F');
		let frame = await app.waitFor(text => text.includes('Follow-up 1 of 3'));
		expect(frame).toContain('Codex tried: In progress');
		expect(frame).toContain('In progress  in_progress');
		await app.keys('j', 'j', ENTER);
		frame = await app.waitFor(text => text.includes('Follow-up 1 of 2'));
		expect(demo.other.readItem('bugs', first).values.status).toBe('in_progress');
		expect(frame).toContain('Codex tried: 20');
		expect(frame).toContain('Allowed: 0 to 13');
		await app.keys(ENTER);
		// The input opens empty, not holding what Codex tried.
		frame = await app.waitFor(text => text.includes('Value:'));
		expect(frame).not.toContain('Value: 20');
		await app.keys('8', ENTER);
		frame = await app.waitFor(text => text.includes('Follow-up 1 of 1'));
		expect(demo.other.readItem('bugs', second).values.points).toBe(8);
		expect(frame).toContain('Codex tried: Friday');
		await app.keys('d');
		await app.waitFor(text => text.includes('Dismiss this follow-up?'));
		await app.keys('y');
		await app.waitFor(text => text.includes('No open follow-ups'));
		await app.keys(ESC);
		await app.waitFor(text => text.includes('0 follow-ups'));
		expect(demo.other.countOpenFollowUps('bugs')).toBe(0);
		app.unmount();
	});

	it('updates a visible row in place when another process edits it', async () => {
		const app = renderApp(demo.store, {stateDir: demo.db.stateDir});
		await app.waitFor(frame => frame.includes('BUG-0298'));
		demo.other.editItem({channelId: 'bugs', itemId: idOfTicket(demo.other, 'BUG-0298'), values: {status: 'wont_fix', owner: 'mika'}, actor: {kind: 'agent', run_id: 'r'}, expectedVersion: 1});
		const frame = await app.waitFor(text => rowOf(text, 'BUG-0298').includes('Won\'t fix'), 6000);
		expect(rowOf(frame, 'BUG-0298')).toMatch(/•BUG-0298.*Won't fix\s+Mika/);
		app.unmount();
	});

	it('searches, filters by a field value, and clears both with Esc', async () => {
		const app = renderApp(demo.store, {stateDir: demo.db.stateDir});
		await app.waitFor(frame => frame.includes('BUG-0300'));
		await app.keys('/', 'crash LOG', ENTER);
		let frame = await app.waitFor(text => text.includes('Search: "crash LOG"'));
		// The title is cut where the list's columns end (the ticket column is as wide as its tickets, so Due fits too).
		expect(frame).toContain('Crash log pasted raw: ␛[31mFATA');
		await app.keys(ESC);
		await app.waitFor(text => text.includes('Search and filter cleared'));
		await app.keys('f', ENTER);
		await app.waitFor(text => text.includes('Show rows whose Status is'));
		await app.keys('j', 'j', 'j', ENTER);
		frame = await app.waitFor(text => text.includes('Showing Status = Fixed'));
		const rows = frame.split('\n').filter(line => /BUG-\d{4}/.test(line));
		expect(rows.length).toBeGreaterThan(0);
		for (const line of rows) expect(line).toContain('Fixed');
		app.unmount();
	});

	it('marks rows with space and V, opens the detail pane, and shows the help from the key table', async () => {
		const app = renderApp(demo.store, {stateDir: demo.db.stateDir});
		await app.waitFor(frame => frame.includes('BUG-0300'));
		await app.keys(' ', ' ');
		await app.waitFor(frame => frame.includes('2 marked'));
		await app.keys('V');
		await app.waitFor(frame => /\d{3} marked|loaded rows marked/.test(frame));
		await app.keys(ENTER);
		await app.waitFor(frame => /Ticket\s+BUG-0298/.test(frame) && /Status\s+New/.test(frame));
		await app.keys('?');
		await app.waitFor(frame => frame.includes('Keys — Esc or ? closes'));
		await app.keys(ESC, DOWN);
		app.unmount();
	});

	it('asks before quitting while nothing runs? no: quits at once', async () => {
		const app = renderApp(demo.store, {stateDir: demo.db.stateDir});
		await app.waitFor(frame => frame.includes('BUG-0300'));
		await app.keys('q');
		app.unmount();
	});
});

describe('a database without a channel', () => {
	it('says how to import one or start the demo', async () => {
		const empty = makeEmptyDb();
		const emptyStore = await openAsyncStore(empty.dbPath);
		try {
			const app = renderApp(emptyStore, {stateDir: empty.stateDir});
			const frame = await app.waitFor(text => text.includes('no channel yet'));
			expect(frame).toContain('sift import channel.json --db');
			expect(frame).toContain('sift demo');
			app.unmount();
		} finally {
			await emptyStore.close();
			empty.cleanup();
		}
	});
});
