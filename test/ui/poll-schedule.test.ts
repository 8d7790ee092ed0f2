// The poll schedule's backoff.

import {describe, expect, it} from 'vitest';
import {ACTIVE_INTERVAL, IDLE_MIN, INITIAL_POLL, nextPoll, PUSHED_INTERVAL, RETRY_MAX, RETRY_MIN, retryMaxFromEnv, type PollOutcome, type PollStep} from '../../source/ui/poll-schedule.js';

const EMPTY: PollOutcome = {kind: 'events', got: false, hasMore: false};
const GOT: PollOutcome = {kind: 'events', got: true, hasMore: false};
const FAILED: PollOutcome = {kind: 'failed'};
const MISSING: PollOutcome = {kind: 'missing'};

/** Runs the scheduler over outcomes from the start, returning every step. */
function run(outcomes: PollOutcome[], options: {active?: boolean; retryMax?: number; pushed?: boolean} = {}): PollStep[] {
	const steps: PollStep[] = [];
	let state = INITIAL_POLL;
	for (const outcome of outcomes) {
		const step = nextPoll(state, outcome, {active: options.active ?? false, retryMax: options.retryMax, pushed: options.pushed});
		steps.push(step);
		state = step.state;
	}

	return steps;
}

describe('the event poll schedule', () => {
	it('with push, polls only as a guard against a lost notification, at one steady interval', () => {
		const steps = run([EMPTY, GOT, EMPTY, EMPTY, GOT], {pushed: true});
		expect(steps.map(step => step.delay)).toEqual(Array.from({length: 5}, () => PUSHED_INTERVAL));
		// More events waiting are read at once; a failure backs off as without push.
		expect(run([{kind: 'events', got: true, hasMore: true}], {pushed: true})[0]!.delay).toBe(0);
		expect(run([FAILED], {pushed: true})[0]!.delay).toBe(RETRY_MIN);
		// A lost notification costs at most this long: under the 4 s idle cap of polling alone.
		expect(PUSHED_INTERVAL).toBeLessThanOrEqual(2000);
	});

	it('retries a failed poll with a doubling wait, capped at 30 s', () => {
		const steps = run(Array.from({length: 10}, () => FAILED));
		expect(steps.map(step => step.delay)).toEqual([RETRY_MIN, 1000, 2000, 4000, 8000, 16_000, RETRY_MAX, RETRY_MAX, RETRY_MAX, RETRY_MAX]);
		expect(RETRY_MAX).toBe(30_000);
	});

	it('keeps retrying while a run is active, at the same backoff (never the sub-second run pace)', () => {
		const steps = run([FAILED, FAILED, FAILED], {active: true});
		expect(steps.map(step => step.delay)).toEqual([RETRY_MIN, 1000, 2000]);
	});

	it('says "paused" once for a run of failures, and "resumed" once when a poll succeeds', () => {
		const steps = run([EMPTY, FAILED, FAILED, FAILED, EMPTY, EMPTY]);
		expect(steps.map(step => step.notice)).toEqual([null, 'paused', null, null, 'resumed', null]);
		expect(steps.map(step => step.state.phase)).toEqual(['live', 'retrying', 'retrying', 'retrying', 'live', 'live']);
	});

	it('polls at the live pace again after recovering, and a later failure starts the backoff afresh', () => {
		const steps = run([FAILED, FAILED, FAILED, GOT, FAILED], {active: true});
		expect(steps[3]!.delay).toBe(ACTIVE_INTERVAL);
		expect(steps[4]!.delay).toBe(RETRY_MIN);
		const idle = run([FAILED, EMPTY]);
		expect(idle[1]!.delay).toBe(IDLE_MIN);
	});

	it('a missing channel says so once, keeps looking at the backoff pace, and resumes when it is listed again', () => {
		const steps = run([EMPTY, MISSING, MISSING, FAILED, MISSING, EMPTY]);
		expect(steps.map(step => step.notice)).toEqual([null, 'gone', null, null, null, 'resumed']);
		expect(steps.map(step => step.state.phase)).toEqual(['live', 'gone', 'gone', 'gone', 'gone', 'live']);
		expect(steps.slice(1, 5).map(step => step.delay)).toEqual([RETRY_MIN, 1000, 2000, 4000]);
	});

	it('a failing store whose channel then turns out missing says "gone" after "paused", each once', () => {
		const steps = run([FAILED, FAILED, MISSING, MISSING]);
		expect(steps.map(step => step.notice)).toEqual(['paused', null, 'gone', null]);
	});

	it('caps the retry wait at a configured maximum', () => {
		const steps = run([FAILED, FAILED, FAILED, FAILED], {retryMax: 300});
		expect(steps.map(step => step.delay)).toEqual([300, 300, 300, 300]);
		expect(run([FAILED, FAILED, FAILED], {retryMax: 1500}).map(step => step.delay)).toEqual([RETRY_MIN, 1000, 1500]);
	});

	it('reads the cap from SIFT_POLL_MAX_MS, ignoring what is not a positive whole number', () => {
		expect(retryMaxFromEnv({SIFT_POLL_MAX_MS: '300'})).toBe(300);
		expect(retryMaxFromEnv({SIFT_POLL_MAX_MS: '999999'})).toBe(RETRY_MAX);
		for (const raw of [undefined, '', '0', '-5', '1.5', 'soon']) expect(retryMaxFromEnv({SIFT_POLL_MAX_MS: raw})).toBeUndefined();
	});
});
