// Tool calls one at a time, in order; cancelled calls dropped. Each call's work waits on a gate
// the test opens, so "one at a time" is seen directly rather than inferred from durations.

import {describe, expect, it} from 'vitest';
import {CallCancelled, CallQueue} from '../../source/mcp/call-queue.js';

/** A promise the test resolves by hand. */
function gate(): {opened: Promise<void>; open: () => void} {
	let open = () => {};
	const opened = new Promise<void>(resolve => {
		open = resolve;
	});
	return {opened, open};
}

/** One turn of the event loop: every promise that could settle by now has. */
const nextTurn = async () => new Promise(resolve => setImmediate(resolve));

describe('CallQueue', () => {
	it('runs calls one at a time in the order given, a failure not holding up the next', async () => {
		const queue = new CallQueue();
		const log: string[] = [];
		const gates = {a: gate(), b: gate(), c: gate()};
		const task = (name: keyof typeof gates, fail = false) => async () => {
			log.push(`start ${name}`);
			await gates[name].opened;
			log.push(`end ${name}`);
			if (fail) throw new Error(name);
			return name;
		};

		const results = Promise.allSettled([queue.run(task('a')), queue.run(task('b', true)), queue.run(task('c'))]);
		// The later calls are free to finish, yet none starts while the first runs.
		gates.c.open();
		gates.b.open();
		await nextTurn();
		expect(log).toEqual(['start a']);
		gates.a.open();
		expect((await results).map(result => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
		expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
	});

	it('drops a call whose signal aborted while it waited, and idle() waits for the call running', async () => {
		const queue = new CallQueue();
		const controller = new AbortController();
		const firstGate = gate();
		let ran = false;
		let finished = false;
		const first = queue.run(async () => {
			await firstGate.opened;
			finished = true;
		});
		const second = queue.run(async () => {
			ran = true;
		}, controller.signal);
		controller.abort();
		let idle = false;
		const idled = queue.idle().then(() => {
			idle = true;
		});
		await nextTurn();
		expect(idle).toBe(false);
		firstGate.open();
		await idled;
		expect(finished).toBe(true);
		await first;
		await expect(second).rejects.toBeInstanceOf(CallCancelled);
		expect(ran).toBe(false);
	});
});
