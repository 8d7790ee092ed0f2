// The sync conflicts screen (C) on the built app in a pseudo-terminal: a channel linked to a
// tracker holds three conflicts made through the sync engine (a person's edit, then a pull that
// changed the same field otherwise); one is resolved with ours, one with theirs, one with a typed
// value, each checked in the store; the tracker's hostile text reaches the terminal escaped. F,
// the follow-up queue, lists refusals only and points at C.

import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import type {RemoteRecord} from '../../store/index.js';
import {ptyDemo} from '../support/pty-fixtures.js';
import {KEYS, rowOf} from '../support/pty.js';

const demo = ptyDemo(5, 'sift-pty-sync-conflicts-');
const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-02T10:00:00.000Z';
const EVIL = 'Theirs \u001B[31mred\u001B[0m title';

const remote = (id: string, values: Record<string, unknown>, updatedAt: string): RemoteRecord => ({remote_id: id, values, created_at: T0, updated_at: updatedAt});

describe('the sync conflicts screen in a pseudo-terminal', () => {
	let store: AsyncStore;
	const ids = new Map<string, string>();

	beforeAll(async () => {
		store = await openAsyncStore(demo.db.dbPath);
		await store.sync.link({channel_id: 'bugs', tracker: 'github', remote: 'acme/app', key_field: 'ticket', fields: [
			{key: 'title', remote: 'title', kind: 'scalar'},
			{key: 'status', remote: 'state', kind: 'scalar'},
			{key: 'owner', remote: 'assignee', kind: 'scalar'},
		]});
		await store.sync.applyRemote('bugs', [remote('GH-1', {title: 'Crash', status: 'new', owner: 'aiko'}, T0), remote('GH-2', {title: 'Slow', status: 'new', owner: 'aiko'}, T0)]);
		for (const ticket of ['GH-1', 'GH-2']) ids.set(ticket, (await store.findItemsNamed('bugs', ticket))[0]!.item_id);
		// Both sides change the same fields: ours here, theirs on the tracker.
		await store.editItem({channelId: 'bugs', itemId: ids.get('GH-1')!, values: {status: 'triaged', title: 'Ours title'}, actor: {kind: 'human'}});
		await store.editItem({channelId: 'bugs', itemId: ids.get('GH-2')!, values: {owner: 'mika'}, actor: {kind: 'human'}});
		const outcome = await store.sync.applyRemote('bugs', [remote('GH-1', {title: EVIL, status: 'fixed', owner: 'aiko'}, T1), remote('GH-2', {title: 'Slow', status: 'new', owner: 'ren'}, T1)]);
		expect(outcome.conflicts).toBe(3);
		await store.sync.saveState('bugs', {}, {pulled: T1});
	});

	afterAll(async () => {
		await store?.close();
	});

	const openConflicts = async () => (await store.listFollowUps({channelId: 'bugs', status: 'open'})).filter(followUp => followUp.kind === 'sync_conflict');
	const valuesOf = async (ticket: string) => (await store.readItem('bugs', ids.get(ticket)!)).values;

	it('lists base, ours and theirs, and resolves one with ours, one with theirs and one with a typed value', async () => {
		const conflicts = await openConflicts();
		const order = conflicts.map(followUp => `${followUp.item_id === ids.get('GH-1') ? 'GH-1' : 'GH-2'}:${followUp.key}`);
		const app = demo.launch({args: ['--db', demo.db.dbPath], cols: 120, rows: 30, env: {SIFT_STATE_DIR: demo.db.stateDir}});
		// The header says the sync state; each conflicted row carries its mark.
		const first = await app.waitFor('3 conflicts (C)');
		expect(first.split('\n')[0]).toMatch(/⇅ acme\/app · pulled (\d{4}-\d\d-\d\d )?\d\d:\d\d · (pushed|\d+ to push) · 3 conflicts \(C\)/);
		expect(rowOf(first, 'GH-1').slice(0, 2)).toBe(' !');
		expect(rowOf(first, 'GH-2').slice(0, 2)).toBe(' !');
		// F lists refusals only: the conflicts are C's, and F says so.
		app.press('F');
		const queue = await app.waitFor('3 sync conflicts — press C');
		expect(queue).toContain('No open follow-ups');
		app.press(KEYS.escape);
		await app.waitFor(current => !current.includes('press C'));
		app.press('C');
		await app.waitFor('Sync conflicts: 3');
		// The title's conflict, chosen, shows its three values; the tracker's escape sequence arrives escaped.
		const titleAt = order.indexOf('GH-1:title');
		app.press(...Array.from({length: titleAt}, () => 'j'));
		const screen = await app.waitFor(/theirs: +Theirs/);
		expect(screen).toMatch(/base: +Crash/);
		expect(screen).toMatch(/ours: +Ours title/);
		expect(app.raw).not.toContain('\u001B[31mred');
		app.press(...Array.from({length: titleAt}, () => 'k'));
		await app.waitFor(current => current.includes(`› #${conflicts[0]!.id} `));

		// Take theirs on the first, ours on the second, a typed value on the third.
		app.press('t');
		await app.waitFor('Sync conflicts: 2');
		app.press('o');
		await app.waitFor('Sync conflicts: 1');
		app.press('v');
		await app.waitFor('Value:');
		const third = order[2]!;
		// A value neither side holds now, so the tracker needs it.
		const typed = third.endsWith('status') ? 'in_progress' : third.endsWith('owner') ? 'aiko' : 'Typed title';
		app.press(...typed.split(''), KEYS.enter);
		await app.waitFor('No open sync conflicts');
		expect(await openConflicts()).toEqual([]);

		const resolved = new Map(conflicts.map((followUp, index) => [order[index]!, {followUp, how: ['theirs', 'ours', 'typed'][index]!}]));
		for (const [where, {followUp, how}] of resolved) {
			const [ticket, key] = where.split(':') as [string, string];
			const want = how === 'theirs' ? followUp.theirs : how === 'ours' ? followUp.ours : typed;
			expect((await valuesOf(ticket))[key], `${where} (${how})`).toEqual(want);
		}

		// Ours and the typed value are queued for the tracker (they go out on the next push); theirs is what it holds already.
		const outbox = await store.sync.outbox('bugs');
		const queued = new Map(outbox.map(entry => [`${entry.remote_id}:${entry.field}`, entry.value]));
		for (const [where, {how}] of resolved) {
			if (how === 'theirs') expect(queued.has(where), where).toBe(false);
			else expect(queued.get(where), `${where} (${how})`).toEqual((await valuesOf(where.split(':')[0]!))[where.split(':')[1]!]);
		}

		app.press(KEYS.escape);
		// No conflict left: the header counts what waits to be sent, and those rows are marked unpushed.
		const after = await app.waitFor(current => !current.includes('Sync conflicts') && /\d+ to push/.test(current.split('\n')[0] ?? '') && !current.split('\n')[0]!.includes('conflict'));
		expect(after.split('\n')[0]).toContain(`${outbox.length} to push`);
		// Once the "changed just now" marks have gone, each row with a change to send is marked ↑.
		const gutters = ['GH-1', 'GH-2'].map(ticket => (outbox.some(entry => entry.remote_id === ticket) ? ' ↑' : '  '));
		expect(gutters).toContain(' ↑');
		await app.waitFor(current => ['GH-1', 'GH-2'].every((ticket, index) => rowOf(current, ticket).slice(0, 2) === gutters[index]), 10_000, `the rows' gutters ${JSON.stringify(gutters)}`);

		expect(await app.quit()).toBe(0);
	});

	it('says why o does nothing while no conflict is open', async () => {
		const app = demo.launch({args: ['--db', demo.db.dbPath], cols: 120, rows: 30, env: {SIFT_STATE_DIR: demo.db.stateDir}});
		await app.waitFor('GH-1');
		app.press('C');
		await app.waitFor('No open sync conflicts');
		app.press('o');
		await app.waitFor('No open sync conflicts to resolve.');
		app.press(KEYS.escape);
		await app.waitFor(current => !current.includes('Esc closes'));
		expect(await app.quit()).toBe(0);
	});
});
