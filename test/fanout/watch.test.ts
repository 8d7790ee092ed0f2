// `sift watch` through the built CLI with the fake codex. What batches look like in time (settle,
// slots, backoff) is the watch loop's, checked on a stepped clock in watch-loop.test.ts; here the
// whole command: every item once, at most --batch a run and --parallel at once, a restart sends
// nothing again, Ctrl+C. "Nothing else happened" is read from the watch's own cursor file (every
// event seen, nothing waiting), never from a sleep.

import {existsSync} from 'node:fs';
import {execa, type ResultPromise} from 'execa';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/index.js';
import {ensureBuilt, sift, SIFT_ENTRY} from '../support/cli.js';
import {waitUntil} from '../support/wait.js';
import {setUp, type Setup} from '../codex/cli-setup.js';
import {isAlive, readPids} from '../codex/support.js';
import {mostAtOnce, watchCaughtUp} from './support.js';
import {loadWatchCursor, watchCursorPath} from '../../source/codex/watch.js';

beforeAll(() => ensureBuilt());

type RunRow = {id: string; item_ids: string[]; outcome: string | null; started_at: string; finished_at: string | null};
const started: Array<ResultPromise> = [];
const opened: AsyncStore[] = [];

afterEach(async () => {
	for (const child of started.splice(0)) {
		child.kill('SIGKILL');
		await child.catch(() => undefined);
	}

	for (const store of opened.splice(0)) await store.close();
});

function runRows(setup: Setup): RunRow[] {
	const result = sift(['runs', '--db', setup.db, '--json', '--limit', '1000'], setup.env);
	expect(result.code, result.stderr).toBe(0);
	return JSON.parse(result.stdout) as RunRow[];
}

/** `sift watch ARGS --json` in the background; resolves once it says it is watching. */
async function startWatch(setup: Setup, args: string[]) {
	const child = execa(process.execPath, [SIFT_ENTRY, 'watch', '--db', setup.db, '--json', ...args], {env: {...process.env, ...setup.env}, reject: false});
	started.push(child);
	let stderr = '';
	await new Promise<void>((resolve, reject) => {
		child.stderr!.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
			if (stderr.includes('sift: watching')) resolve();
		});
		void child.then(() => reject(new Error(`sift watch ended: ${stderr}`)));
	});
	return {
		child,
		async stop() {
			child.kill('SIGINT');
			const result = await child;
			started.splice(started.indexOf(child), 1);
			return {code: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr)};
		},
	};
}

const until = async (check: () => boolean, timeoutMs: number, what: string) => waitUntil(check, what, {timeoutMs, intervalMs: 100});

const finishedRuns = (setup: Setup) => runRows(setup).filter(row => row.finished_at !== null);


describe('sift watch', () => {
	it('37 items, --batch 10 --parallel 2: each item once, at most 10 a run and 2 at once; stopped and restarted, nothing is sent again', async () => {
		const setup = setUp();
		const store = await openAsyncStore(setup.db);
		opened.push(store);
		const watch = await startWatch(setup, ['--batch', '10', '--parallel', '2', '--settle', '1s']);
		const created: string[] = [];
		for (let index = 0; index < 37; index++) {
			const result = await store.createItem('bugs', {ticket: `NEW-${index}`, status: 'new'}, {kind: 'human'});
			created.push(result.item.id);
		}

		const sentSoFar = () => runRows(setup).flatMap(row => row.item_ids);
		await until(() => sentSoFar().length >= 37, 30_000, 'all 37 items sent');
		await watchCaughtUp(setup.env.SIFT_STATE_DIR!, store);
		await until(() => finishedRuns(setup).length === runRows(setup).length, 30_000, 'every run to finish');
		const first = await watch.stop();
		expect(first.code, first.stderr).toBe(130);
		const rows = runRows(setup);
		expect(rows.every(row => row.outcome === 'ok')).toBe(true);
		const sent = rows.flatMap(row => row.item_ids);
		expect(sent.length).toBe(37);
		expect([...sent].sort()).toEqual([...created].sort());
		expect(rows.length).toBeGreaterThanOrEqual(4);
		expect(Math.max(...rows.map(row => row.item_ids.length))).toBeLessThanOrEqual(10);
		expect(mostAtOnce(rows)).toBeLessThanOrEqual(2);
		// One summary a line, one line a run.
		expect(first.stdout.trimEnd().split('\n').map(line => (JSON.parse(line) as {run_id: string}).run_id).sort()).toEqual(rows.map(row => row.id).sort());
		// The items the runs were told about are exactly the ones the runs table has: the seed's two never went.
		expect(sent).not.toContain(setup.ids[0]);

		// Restarted: nothing again. Items created while it was stopped go out, once.
		const whileStopped: string[] = [];
		for (let index = 0; index < 3; index++) whileStopped.push((await store.createItem('bugs', {ticket: `LATE-${index}`, status: 'new'}, {kind: 'human'})).item.id);
		const again = await startWatch(setup, ['--batch', '10', '--parallel', '2', '--settle', '1s']);
		await until(() => finishedRuns(setup).length >= rows.length + 1, 20_000, 'the run of the items created while stopped');
		await watchCaughtUp(setup.env.SIFT_STATE_DIR!, store);
		const second = await again.stop();
		expect(second.code).toBe(130);
		const after = runRows(setup);
		expect(after).toHaveLength(rows.length + 1);
		const newest = after.find(row => !rows.some(old => old.id === row.id))!;
		expect([...newest.item_ids].sort()).toEqual([...whileStopped].sort());
		expect(readPids(setup.env.FAKE_CODEX_PIDFILE!).filter(isAlive)).toEqual([]);
	}, 120_000);

	it('--where: an item is sent when it comes to match, not before, and not again while it still matches', async () => {
		const setup = setUp();
		const store = await openAsyncStore(setup.db);
		opened.push(store);
		const watch = await startWatch(setup, ['--where', 'ticket:hot', '--settle', '0s', '--instruction', 'Look at the hot ones']);
		const cold = await store.createItem('bugs', {ticket: 'COLD-1'}, {kind: 'human'});
		const hot = await store.createItem('bugs', {ticket: 'HOT-2'}, {kind: 'human'});
		await until(() => finishedRuns(setup).length >= 1, 20_000, 'the first run');
		const warmed = await store.editItem({channelId: 'bugs', itemId: cold.item.id, values: {ticket: 'HOT-1'}, actor: {kind: 'human'}});
		await until(() => finishedRuns(setup).length >= 2, 20_000, 'the second run');
		// Still matching, edited by a person and by an agent: not new, not sent again.
		await store.editItem({channelId: 'bugs', itemId: hot.item.id, values: {status: 'new'}, actor: {kind: 'human'}});
		await store.editItem({channelId: 'bugs', itemId: warmed.item.id, values: {status: 'new'}, actor: {kind: 'agent', run_id: 'run-x'}});
		await watchCaughtUp(setup.env.SIFT_STATE_DIR!, store, 'ticket:hot');
		await watch.stop();
		const rows = runRows(setup).reverse();
		expect(rows.map(row => row.item_ids)).toEqual([[hot.item.id], [cold.item.id]]);
		expect(rows.every(row => (row as unknown as {instruction: string}).instruction === 'Look at the hot ones')).toBe(true);
	}, 60_000);

	it('Ctrl+C cancels the running batches and records them cancelled; no process survives', async () => {
		const setup = setUp({FAKE_CODEX_MODE: 'hang'});
		const store = await openAsyncStore(setup.db);
		opened.push(store);
		const watch = await startWatch(setup, ['--settle', '0s', '--batch', '1']);
		await store.createItem('bugs', {ticket: 'A'}, {kind: 'human'});
		await store.createItem('bugs', {ticket: 'B'}, {kind: 'human'});
		await until(() => readPids(setup.env.FAKE_CODEX_PIDFILE!).length >= 2, 20_000, 'two hanging runs');
		await until(() => runRows(setup).length >= 2, 20_000, 'both runs recorded');
		const stopped = await watch.stop();
		expect(stopped.code).toBe(130);
		expect(stopped.stdout.trimEnd().split('\n').map(line => (JSON.parse(line) as {outcome: string}).outcome)).toEqual(['cancelled', 'cancelled']);
		expect(runRows(setup).map(row => row.outcome)).toEqual(['cancelled', 'cancelled']);
		expect(readPids(setup.env.FAKE_CODEX_PIDFILE!).filter(isAlive)).toEqual([]);
	}, 60_000);

	it('not logged in: the watch takes nothing and says how to log in (exit 4)', async () => {
		const setup = setUp({FAKE_CODEX_LOGGED_IN: '0'});
		const store = await openAsyncStore(setup.db);
		opened.push(store);
		const before = await store.latestSequence('bugs');
		const result = sift(['watch', '--db', setup.db], setup.env);
		expect(result.code, result.stderr).toBe(4);
		expect(result.stderr).toMatch(/Codex is not logged in .*codex login.*; nothing was taken/);
		expect(runRows(setup)).toEqual([]);
		expect(await store.latestSequence('bugs')).toBe(before);
	});

	it('a batch refused for its login halts the watch (exit 4) and gives its items back: the next watch sends them', async () => {
		// Logged in by `codex login status`, refused by the model's endpoint: the run ends auth_required.
		const setup = setUp({FAKE_CODEX_MODE: 'auth'});
		const store = await openAsyncStore(setup.db);
		opened.push(store);
		const child = execa(process.execPath, [SIFT_ENTRY, 'watch', '--db', setup.db, '--json', '--settle', '0s', '--batch', '5'], {env: {...process.env, ...setup.env}, reject: false});
		started.push(child);
		await until(() => existsSync(watchCursorPath(setup.env.SIFT_STATE_DIR!, {location: store.location, channelId: 'bugs', where: undefined})), 20_000, 'the watch to start');
		const ids = [];
		for (const ticket of ['A', 'B', 'C']) ids.push((await store.createItem('bugs', {ticket, status: 'new'}, {kind: 'human'})).item.id);
		const halted = await child;
		started.splice(started.indexOf(child), 1);
		expect(halted.exitCode, String(halted.stderr)).toBe(4);
		expect(String(halted.stderr)).toMatch(/watch stopped: Codex is not logged in or its login was refused .*; its items wait for the next sift watch/);
		expect(runRows(setup).map(row => row.outcome)).toEqual(['auth_required']);
		const cursor = loadWatchCursor(watchCursorPath(setup.env.SIFT_STATE_DIR!, {location: store.location, channelId: 'bugs', where: undefined}))!;
		expect(cursor.pending.map(item => item.id).sort()).toEqual([...ids].sort());

		const again = await startWatch({...setup, env: {...setup.env, FAKE_CODEX_MODE: 'normal'}}, ['--settle', '0s', '--batch', '5']);
		await watchCaughtUp(setup.env.SIFT_STATE_DIR!, store);
		await until(() => finishedRuns(setup).length === 2, 20_000, 'the second run to finish');
		await again.stop();
		expect([...runRows(setup)[0]!.item_ids].sort()).toEqual([...ids].sort());
		expect(runRows(setup).map(row => row.outcome)).toEqual(['ok', 'auth_required']);
	}, 60_000);

	it('usage: arguments, a bad --settle, --parallel out of range; a bad query before anything runs', () => {
		const setup = setUp();
		expect(sift(['watch', 'triage', '--db', setup.db], setup.env).stderr).toMatch(/^sift: sift watch takes no arguments .*--instruction/);
		const settle = sift(['watch', '--db', setup.db, '--settle', 'soon'], setup.env);
		expect(settle.code).toBe(2);
		expect(settle.stderr).toMatch(/--settle must be a duration such as 5s/);
		expect(sift(['watch', '--db', setup.db, '--parallel', '9'], setup.env).stderr).toMatch(/--parallel must be from 1 to 8, got 9/);
		const query = sift(['watch', '--db', setup.db, '--where', 'colour:red'], setup.env);
		expect(query.code).toBe(1);
		expect(query.stderr).toMatch(/colour is not a field/);
	});
});
