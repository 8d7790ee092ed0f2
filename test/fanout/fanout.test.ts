// The fan-out scheduler with real fake-codex runs: the parallel limit, events and snapshots, cancel
// one, cancel all.

import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {Fanout, type FanoutEvent, type StartBatch} from '../../source/codex/fanout.js';
import {startRun} from '../../source/codex/runner.js';
import type {RunUpdate} from '../../source/codex/tracker.js';
import {FAKE_CODEX, isAlive, readPids, tempDir} from '../codex/support.js';
import {waitUntil} from '../support/wait.js';

/** Each batch a real run of the fake codex (no store: the scheduler does not need one). */
function fakeStarter(mode: string, dir = tempDir(), fakeEnv: NodeJS.ProcessEnv = {}): {start: StartBatch; pidFile: string} {
	const pidFile = path.join(dir, 'pids');
	const start: StartBatch = async ({runId, itemIds}) => startRun({
		runId,
		itemIds,
		instruction: 'Triage these bugs',
		channelId: 'bugs',
		dbPath: path.join(dir, 'sift.db'),
		codex: FAKE_CODEX,
		stateDir: path.join(dir, 'state'),
		timeoutMs: 120_000, // a bound on a run the test holds at a gate, on a loaded machine; never reached
		killGraceMs: 500,
		env: {...process.env, FAKE_CODEX_MODE: mode, FAKE_CODEX_PIDFILE: pidFile, ...fakeEnv},
	});
	return {start, pidFile};
}

describe('Fanout', () => {
	it('runs batches at most `parallel` at once, tells every change, and keeps a board snapshot per change', async () => {
		// Each run waits at its first step until the test has seen two going and the third queued (the step gate).
		const dir = tempDir();
		const stepGate = path.join(dir, 'step-gate');
		const {start} = fakeStarter('normal', dir, {FAKE_CODEX_STEP_GATE: stepGate});
		const fanout = new Fanout({parallel: 2, start});
		const events: FanoutEvent[] = [];
		const snapshots = new Set<unknown>();
		let most = 0;
		fanout.subscribe(event => {
			events.push(event);
			snapshots.add(fanout.snapshot());
			most = Math.max(most, fanout.running);
		});
		const runs = [fanout.add(['a', 'b']), fanout.add(['c']), fanout.add(['d'])];
		expect(fanout.snapshot().map(run => run.state)).toEqual(['starting', 'starting', 'queued']);
		expect(fanout.free).toBe(-1);
		await waitUntil(() => fanout.snapshot().filter(run => run.currentStep?.startsWith('list_record_items') === true).length === 2, 'two runs at their first step', {timeoutMs: 60_000});
		expect(fanout.snapshot().map(run => run.state)).toEqual(['running', 'running', 'queued']);
		writeFileSync(stepGate, '');
		await fanout.idle();
		expect(most).toBe(2);
		const board = fanout.snapshot();
		expect(board.map(run => run.state)).toEqual(['finished', 'finished', 'finished']);
		expect(board.map(run => run.runId)).toEqual(runs.map(run => run.runId));
		expect(new Set(board.map(run => run.runId)).size).toBe(3);
		for (const run of board) {
			expect(run.result?.outcome).toBe('ok');
			expect(run.stepsDone).toBe(5);
			expect(run.currentStep).toBeNull();
			expect(run.usage).toEqual({input_tokens: 5120, cached_input_tokens: 1024, output_tokens: 312});
			expect(run.finishedAt! >= run.startedAt!).toBe(true);
		}

		// The third batch started only once one of the first two had finished.
		const types = events.map(event => `${event.type}:${event.run.index}`);
		expect(types.indexOf('started:2')).toBeGreaterThan(Math.min(types.indexOf('finished:0'), types.indexOf('finished:1')));
		// While running, the board said which step was going.
		expect(events.some(event => event.type === 'update' && event.run.currentStep === 'edit_record_item BUG-0042')).toBe(true);
		// A new snapshot object per change: what useSyncExternalStore compares.
		expect(snapshots.size).toBe(events.length);
		// A run's own updates replay from its first.
		const replayed: RunUpdate[] = [];
		for await (const update of fanout.updatesOf(runs[0]!.runId)!) replayed.push(update);
		expect(replayed.filter(update => update.type === 'step')).toHaveLength(9);
	}, 180_000);

	it('cancel(runId) stops one run; a queued batch cancelled never starts; cancelAll leaves no process', async () => {
		const {start, pidFile} = fakeStarter('hang');
		const fanout = new Fanout({parallel: 2, start});
		const started: string[] = [];
		fanout.subscribe(event => {
			if (event.type === 'started') started.push(event.run.runId);
		});
		const [first, second, third, fourth] = [fanout.add(['a']), fanout.add(['b']), fanout.add(['c']), fanout.add(['d'])];
		fanout.cancel(third!.runId);
		expect(fanout.snapshot()[2]!.state).toBe('skipped');
		await waitUntil(() => readPids(pidFile).length >= 2, 'two runs started');
		fanout.cancel(first!.runId);
		// The fourth takes the first's place.
		await waitUntil(() => readPids(pidFile).length >= 3, 'the fourth run started');
		fanout.cancelAll();
		await fanout.idle();
		const board = fanout.snapshot();
		expect(board.map(run => run.state)).toEqual(['finished', 'finished', 'skipped', 'finished']);
		expect(board.map(run => run.result?.outcome ?? null)).toEqual(['cancelled', 'cancelled', null, 'cancelled']);
		expect(started).toEqual([first!.runId, second!.runId, fourth!.runId]);
		expect(readPids(pidFile).filter(isAlive)).toEqual([]);
	}, 60_000);

	it('a batch whose run cannot start is unstarted, with why; the others go on', async () => {
		const {start} = fakeStarter('normal');
		const fanout = new Fanout({
			parallel: 1,
			start: async batch => {
				if (batch.itemIds.includes('bad')) throw new Error('the run log cannot be written');
				return start(batch);
			},
		});
		fanout.add(['bad']);
		fanout.add(['good']);
		await fanout.idle();
		expect(fanout.snapshot().map(run => [run.state, run.error, run.result?.outcome ?? null])).toEqual([
			['unstarted', 'the run log cannot be written', null],
			['finished', null, 'ok'],
		]);
	}, 30_000);

	it('subscribe and snapshot work unbound, as useSyncExternalStore calls them', async () => {
		const fanout = new Fanout({parallel: 1, start: fakeStarter('normal').start});
		const {subscribe, snapshot} = fanout;
		let told = 0;
		const unsubscribe = subscribe(() => told++);
		const before = snapshot();
		expect(snapshot()).toBe(before);
		const run = fanout.add(['a']);
		fanout.cancel(run.runId);
		expect(told).toBeGreaterThan(0);
		expect(snapshot()).not.toBe(before);
		unsubscribe();
		// The run was cancelled while starting: it ends cancelled, and nothing of it is left.
		await fanout.idle();
		expect(snapshot()[0]!.result?.outcome).toBe('cancelled');
	}, 30_000);

	it('refuses a parallelism below 1', () => {
		expect(() => new Fanout({parallel: 0, start: fakeStarter('normal').start})).toThrow(RangeError);
	});
});
