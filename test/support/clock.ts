// A clock a test steps by hand, for code that takes a clock (the watch loop): time moves only
// when the test says, so a schedule ("the batch goes when its settle ends, not before") is checked
// exactly, and "nothing else happened" means the code went back to sleep without acting.

import type {WatchClock} from '../../source/codex/watch-loop.js';
import {waitUntil} from './wait.js';

type Sleeper = {at: number; wake: () => void};

export class SteppedClock implements WatchClock {
	private time: number;
	private readonly sleepers = new Set<Sleeper>();

	constructor(start = Date.parse('2026-01-01T00:00:00Z')) {
		this.time = start;
	}

	now(): number {
		return this.time;
	}

	async sleepUntil(at: number, signal: AbortSignal): Promise<void> {
		if (signal.aborted) return;
		await new Promise<void>(resolve => {
			const done = () => {
				this.sleepers.delete(sleeper);
				signal.removeEventListener('abort', done);
				resolve();
			};
			const sleeper: Sleeper = {at, wake: done};

			signal.addEventListener('abort', done, {once: true});
			this.sleepers.add(sleeper);
			if (at <= this.time) done();
		});
	}

	/** Waits (with a deadline) until something sleeps on this clock; the time it sleeps until. */
	async asleep(what = 'the code under test to sleep on the clock'): Promise<number> {
		await waitUntil(() => this.sleepers.size > 0, what, {intervalMs: 2});
		return Math.min(...[...this.sleepers].map(sleeper => sleeper.at));
	}

	/** Moves time to `at` (never back) and wakes every sleeper due by then. */
	advanceTo(at: number): void {
		this.time = Math.max(this.time, at);
		for (const sleeper of [...this.sleepers]) if (sleeper.at <= this.time) sleeper.wake();
	}

	advance(ms: number): void {
		this.advanceTo(this.time + ms);
	}
}
