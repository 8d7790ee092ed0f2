// The edit transaction across real processes: several writers on one file lose no update and surface no
// SQLITE_BUSY; a writer SIGKILLed again and again never leaves a half-applied edit or a gap.
// The children are test/store/workers/editor.ts, the same writer the PostgreSQL tests and the bench run.

import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {openStore, type Store} from '../../store/index.js';
import {allEvents, cleanTempDirs, expectGapFree, expectVersionsMatchEvents, human, raceChannel, tempDir} from './helpers.js';
import {raceIncrements, runEditor} from './workers/launch.js';

function raceStore(items: number): {store: Store; ids: string[]} {
	const store = openStore(join(tempDir('sift-race-'), 'race.db'), {create: true});
	store.importChannel({channel: raceChannel, items: Array.from({length: items}, (_, index) => ({values: {title: `item ${index}`, counter: 0, a: 'start', b: 'start'}}))});
	const ids = store.listPage('race').items.map(item => item.id).reverse();
	return {store, ids};
}

afterAll(() => cleanTempDirs());

describe('several processes on one file', () => {
	it('4 processes × 500 conflicting read-modify-write edits: no lost update, no SQLITE_BUSY, versions and events consistent', async () => {
		const {store, ids} = raceStore(3);
		const workers = 4;
		const edits = 500;
		// All start together once every one has the file open.
		const reports = await raceIncrements(store.path, ids, workers, edits);
		expect(reports.map(report => report.edits)).toEqual([edits, edits, edits, edits]);
		// They ran at the same time and really did collide.
		expect(Math.max(...reports.map(report => report.started))).toBeLessThan(Math.min(...reports.map(report => report.ended)));
		expect(reports.reduce((sum, report) => sum + report.conflicts, 0)).toBeGreaterThan(0);

		const items = ids.map(id => store.readItem('race', id));
		expect(items.reduce((sum, item) => sum + (item.values.counter as number), 0)).toBe(workers * edits);
		for (const item of items) {
			expect(item.version).toBe(1 + (item.values.counter as number));
		}

		expect(expectGapFree(store, 'race')).toBe(3 + workers * edits);
		expectVersionsMatchEvents(store, 'race');
		// Each update event moved the counter by exactly one: none was based on a stale read.
		for (const event of allEvents(store, 'race').filter(entry => entry.type === 'item.updated')) {
			expect((event.changes.counter!.to as number) - (event.changes.counter!.from as number)).toBe(1);
			expect(event.actor).toEqual({kind: 'agent', run_id: expect.stringMatching(/^w[0-3]$/) as string});
		}

		expect(store.db.pragma('integrity_check', {simple: true})).toBe('ok');
	}, 60_000);

	it('a writer SIGKILLed again and again leaves no gap and no half-applied edit', async () => {
		const {store, ids} = raceStore(3);
		const kills = 10;
		let before = store.latestSequence('race');
		for (let round = 0; round < kills; round++) {
			const delay = 20 + Math.floor(Math.random() * 131);
			const result = await runEditor(['churn', store.path, ids.join(',')], control => setTimeout(control.kill, delay)); // a random kill moment is the behaviour under test
			expect(result.signal, result.stdout + result.stderr).toBe('SIGKILL');
			expect(result.stdout).toMatch(/^ready\n(edit\n)*$/);
			// The killed writer's work is readable right away by another connection.
			const after = store.latestSequence('race');
			expect(after).toBeGreaterThanOrEqual(before);
			before = after;
		}

		// Reopen the file the way a fresh process would, and check it from scratch.
		store.close();
		const reopened = openStore(store.path);
		expect(reopened.db.pragma('integrity_check', {simple: true})).toBe('ok');
		const total = expectGapFree(reopened, 'race');
		expect(total).toBeGreaterThan(3 + kills);
		expectVersionsMatchEvents(reopened, 'race');
		const events = allEvents(reopened, 'race');
		for (const event of events.filter(entry => entry.type === 'item.updated')) {
			expect(event.changes.a!.to).toBe(event.changes.b!.to);
		}

		for (const id of ids) {
			const item = reopened.readItem('race', id);
			expect(item.values.a).toBe(item.values.b);
			const last = events.filter(event => event.item_id === id).at(-1)!;
			expect(last.version).toBe(item.version);
			if (last.type === 'item.updated') {
				expect(item.values).toMatchObject({a: last.changes.a!.to, b: last.changes.b!.to});
			}
		}

		// And it still takes writes.
		expect(reopened.editItem({channelId: 'race', itemId: ids[0]!, actor: human, values: {a: 'after', b: 'after'}}).sequence).toBe(total + 1);
	}, 60_000);
});
