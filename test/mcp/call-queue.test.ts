// Tool calls one at a time, in order; cancelled calls dropped.

import {setTimeout as delay} from 'node:timers/promises';
import {describe, expect, it} from 'vitest';
import {CallCancelled, CallQueue} from '../../source/mcp/call-queue.js';

describe('CallQueue', () => {
	it('runs calls one at a time in the order given, a failure not holding up the next', async () => {
		const queue = new CallQueue();
		const log: string[] = [];
		const task = (name: string, ms: number, fail = false) => async () => {
			log.push(`start ${name}`);
			await delay(ms);
			log.push(`end ${name}`);
			if (fail) throw new Error(name);
			return name;
		};

		const results = await Promise.allSettled([queue.run(task('a', 30)), queue.run(task('b', 1, true)), queue.run(task('c', 5))]);
		expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
		expect(results.map(result => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
	});

	it('drops a call whose signal aborted while it waited, and idle() waits for the call running', async () => {
		const queue = new CallQueue();
		const controller = new AbortController();
		let ran = false;
		let finished = false;
		const first = queue.run(async () => {
			await delay(30);
			finished = true;
		});
		const second = queue.run(async () => {
			ran = true;
		}, controller.signal);
		controller.abort();
		await queue.idle();
		expect(finished).toBe(true);
		await first;
		await expect(second).rejects.toBeInstanceOf(CallCancelled);
		expect(ran).toBe(false);
	});
});
