// The one way tests wait: poll a condition until it holds, with a deadline that names what was
// awaited. Never a fixed sleep: a loaded machine only makes the wait longer, not the test wrong.

import {setTimeout as sleep} from 'node:timers/promises';

export type WaitOptions = {timeoutMs?: number; intervalMs?: number};

/** Resolves once `check` returns true (it may be async); fails after the deadline saying `what`. */
export async function waitUntil(check: () => boolean | Promise<boolean>, what: string, options: WaitOptions = {}): Promise<void> {
	const {timeoutMs = 10_000, intervalMs = 20} = options;
	const deadline = performance.now() + timeoutMs;
	for (;;) {
		if (await check()) return;
		if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(intervalMs); // the poll's interval between looks at the condition, not a wait for time
	}
}

/** Whether `check` comes to hold within the deadline: for `expect(await eventually(…)).toBe(true)`. */
export async function eventually(check: () => boolean | Promise<boolean>, options: WaitOptions = {}): Promise<boolean> {
	return waitUntil(check, 'a condition', options).then(() => true, () => false);
}
