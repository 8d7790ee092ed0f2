// The engine loop's pure parts and its watch: the interval stretches as the rate limit runs low
// and backs off after failures; the watch sleeps on the injected clock between rounds, keeps going
// after an ordinary failure and stops at a fatal one.

import {describe, expect, it} from 'vitest';
import {LOCAL_CHECK_MS, nextWatchDelay, optionsToGrow, watchChannels} from '../../source/sync/engine-loop.js';
import {SteppedClock} from '../support/clock.js';
import {waitUntil} from '../support/wait.js';

describe('the watch interval', () => {
	const now = 1_000_000;
	it('is the interval with quota to spare, longer when it runs low, the reset when it is gone', () => {
		expect(nextWatchDelay({intervalMs: 60_000, failures: 0, now, rate: {remaining: 5000, resetAt: now + 3_600_000}})).toBe(60_000);
		expect(nextWatchDelay({intervalMs: 60_000, failures: 0, now, rate: {remaining: 20, resetAt: now + 3_600_000}})).toBe(400_000);
		expect(nextWatchDelay({intervalMs: 60_000, failures: 0, now, rate: {remaining: 0, resetAt: now + 3_600_000}})).toBe(3_601_000);
	});

	it('doubles after each failure, up to 15 minutes', () => {
		expect(nextWatchDelay({intervalMs: 60_000, failures: 1, now})).toBe(120_000);
		expect(nextWatchDelay({intervalMs: 60_000, failures: 3, now})).toBe(480_000);
		expect(nextWatchDelay({intervalMs: 60_000, failures: 9, now})).toBe(900_000);
	});
});

it('grows only the choice options the records bring that the channel lacks', () => {
	const channel = {id: 'c', name: 'c', fields: [
		{key: 'labels', label: 'L', type: 'multi_select', is_required: false, is_unique: false, config: {options: [{value: 'a', label: 'a'}]}},
		{key: 'state', label: 'S', type: 'select', is_required: false, is_unique: false, config: {options: [{value: 'open', label: 'open'}]}},
		{key: 'title', label: 'T', type: 'text', is_required: false, is_unique: false, config: {}},
	]} as never;
	const record = (values: Record<string, unknown>) => ({remote_id: '1', values, created_at: '', updated_at: ''});
	expect(optionsToGrow(channel, [record({labels: ['a', 'b'], state: 'open', title: 'x'}), record({labels: null, state: 'closed'})])).toEqual({labels: ['b'], state: ['closed']});
});

it('the watch sleeps on the clock between rounds, backs off after a failure, and stops at a fatal one', async () => {
	const clock = new SteppedClock();
	const controller = new AbortController();
	const errors: unknown[] = [];
	let rounds = 0;
	const watching = watchChannels(async () => {
		rounds++;
		if (rounds === 2) throw new Error('502');
		if (rounds === 3) throw Object.assign(new Error('401'), {fatal: true});
	}, {intervalMs: 1000, signal: controller.signal, clock, onError: error => errors.push(error)});
	const start = clock.now();
	expect(await clock.asleep()).toBe(start + 1000);
	clock.advance(1000);
	// After the failure of round 2: twice the interval.
	await waitUntil(() => rounds === 2, 'the second round');
	expect(await clock.asleep()).toBe(start + 3000);
	clock.advance(2000);
	await expect(watching).rejects.toThrow('401');
	expect(errors).toHaveLength(1);
});

it('a local edit wakes the watch before its next poll; none, and it sleeps the interval out; never during a backoff', async () => {
	const clock = new SteppedClock();
	const controller = new AbortController();
	let rounds = 0;
	let edited = false;
	let failNext = false;
	const watching = watchChannels(async () => {
		rounds++;
		edited = false;
		if (failNext) {
			failNext = false;
			throw new Error('502');
		}
	}, {intervalMs: 60_000, signal: controller.signal, clock, onError() {}, localEdit: async () => edited});
	const start = clock.now();
	// Nothing edited: each check goes back to sleep, no round until the poll.
	expect(await clock.asleep()).toBe(start + LOCAL_CHECK_MS);
	clock.advance(LOCAL_CHECK_MS);
	expect(await clock.asleep()).toBe(start + 2 * LOCAL_CHECK_MS);
	expect(rounds).toBe(1);
	// An edit: the next check runs a round, long before the poll would.
	edited = true;
	failNext = true;
	clock.advance(LOCAL_CHECK_MS);
	await waitUntil(() => rounds === 2, 'the round an edit wakes');
	// That round failed: the backoff (twice the interval) is slept out whole, whatever is edited.
	const backoffFrom = clock.now();
	expect(await clock.asleep()).toBe(backoffFrom + 120_000);
	edited = true;
	clock.advance(LOCAL_CHECK_MS);
	expect(await clock.asleep()).toBe(backoffFrom + 120_000);
	expect(rounds).toBe(2);
	controller.abort();
	await watching;
});
