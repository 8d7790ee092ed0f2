// The round trip with a live Redmine 5 (test/support/redmine.ts) through the TUI's sync conflicts
// screen, on a SQLite store and on a PostgreSQL one: three issues pulled, each retitled both in sift and on Redmine, a pull that makes them three
// conflicts, the built app in a pseudo-terminal resolving them with t, o and a typed value (v), then
// `sift sync push`, and Redmine's own API read back: theirs kept, ours and the typed title sent once.

import {join} from 'node:path';
import {afterAll, beforeAll, expect, it} from 'vitest';
import {openAsyncStore} from '../../store/api.js';
import {ensureBuilt, siftAsync, tempDir} from '../support/cli.js';
import {suiteLauncher} from '../support/pty-fixtures.js';
import {KEYS} from '../support/pty.js';
import {createTestDatabase, notePgOff, PG_OFF, type TestDatabase} from '../support/pg.js';
import {describeRedmine, useRedmine} from '../support/redmine.js';

type Journal = {details: Array<{name: string; new_value: string | null}>};

describeRedmine('Redmine conflicts resolved in the TUI', () => {
	const redmine = useRedmine();
	const launch = suiteLauncher();
	beforeAll(() => ensureBuilt());
	let database: TestDatabase | undefined;
	afterAll(async () => database?.drop());
	if (PG_OFF) notePgOff();

	it.each(PG_OFF ? ['sqlite'] : ['sqlite', 'postgres'])('%s store: pull, a clash on three issues, t, o and v on the conflicts screen, push: Redmine holds the choices', async backend => {
		const server = redmine.server;
		const dir = tempDir('sift-pty-redmine-');
		const pgStore = async () => (database ??= await createTestDatabase()).freshSchemaUrl();
		const db = backend === 'postgres' ? await pgStore() : join(dir, 'store.db');
		const env = {REDMINE_API_KEY: server.apiKey, XDG_CONFIG_HOME: dir, SIFT_STATE_DIR: join(dir, 'state')};
		const sift = async (args: string[]) => siftAsync([...args, '--db', db], env);
		const ids: number[] = [];
		for (const n of [1, 2, 3]) ids.push(await server.createIssue({subject: `Clash ${backend} ${n}`, tracker_id: server.seed.trackers.Bug}));
		expect((await sift(['sync', 'add', 'redmine', server.url, '--project', 'sift'])).code).toBe(0);
		expect((await sift(['sync', 'sift'])).code).toBe(0);

		// Both sides retitle each issue: ours here, theirs on Redmine; the next pull finds three clashes.
		for (const id of ids) {
			expect((await sift(['edit', String(id), `title=Ours ${id}`, '--channel', 'sift'])).code).toBe(0);
			await server.api('PUT', `/issues/${id}.json`, {issue: {subject: `Theirs ${id}`}});
		}

		const pulled = await sift(['sync', 'pull', 'sift']);
		expect(pulled.code).toBe(3);
		expect(pulled.stdout).toMatch(/3 conflicts open/);
		const store = await openAsyncStore(db);
		const conflicts = (await store.listFollowUps({channelId: 'sift', status: 'open'})).filter(followUp => followUp.kind === 'sync_conflict');
		await store.close();
		// The screen lists them in this order; each is about the issue its theirs names.
		const order = conflicts.map(conflict => Number(String(conflict.theirs).replace('Theirs ', '')));
		expect([...order].sort((a, b) => a - b)).toEqual(ids);

		const app = launch({args: ['--db', db, '--channel', 'sift'], cols: 140, rows: 30, env});
		await app.waitFor('3 conflicts (C)', 30_000);
		app.press('C');
		await app.waitFor('Sync conflicts: 3');
		app.press('t');
		await app.waitFor('Sync conflicts: 2');
		app.press('o');
		await app.waitFor('Sync conflicts: 1');
		app.press('v');
		await app.waitFor('Value:');
		app.press(...'Typed in the TUI'.split(''), KEYS.enter);
		await app.waitFor('No open sync conflicts');
		app.press(KEYS.escape);
		await app.waitFor(screen => /2 to push/.test(screen.split('\n')[0] ?? ''));
		expect(await app.quit()).toBe(0);

		const pushed = await sift(['sync', 'push', 'sift']);
		expect(pushed.stderr).toBe('');
		expect(pushed.code).toBe(0);
		const [theirs, ours, typed] = order as [number, number, number];
		const read = async (id: number) => (await server.api<{issue: {subject: string; journals: Journal[]}}>('GET', `/issues/${id}.json?include=journals`)).issue;
		const titled = async (id: number, subject: string) => (await read(id)).journals.filter(journal => journal.details.some(detail => detail.name === 'subject' && detail.new_value === subject)).length;
		expect((await read(theirs)).subject).toBe(`Theirs ${theirs}`);
		expect(await titled(theirs, `Ours ${theirs}`)).toBe(0);
		expect((await read(ours)).subject).toBe(`Ours ${ours}`);
		expect(await titled(ours, `Ours ${ours}`)).toBe(1);
		expect((await read(typed)).subject).toBe('Typed in the TUI');
		expect(await titled(typed, 'Typed in the TUI')).toBe(1);
		// In step: nothing left to send, nothing open.
		expect((await sift(['sync', 'sift'])).stdout).toMatch(/pushed 0; in step/);
	}, 600_000);
});
