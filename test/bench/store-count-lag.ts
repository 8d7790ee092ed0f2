// What a count of matches costs whoever asked for it, on SQLite: counted on the caller's thread
// (the Store's own countMatches) the caller stands still for the whole count; through the
// asynchronous interface the count runs on a worker thread (store/sqlite/count-worker.ts) and the
// caller's timers keep firing. Measured as the longest gap between 5 ms timer ticks during a count.

import {openAsyncStore} from '../../store/api.js';
import {openStore} from '../../store/index.js';
import {cachedBugDatabase, median, printTable, type Row} from './support.js';

// The Unassigned view: it reads nearly every row.
const WHERE = 'owner:none -status:fixed,wont_fix';

async function timed(count: () => number | Promise<number>): Promise<{ms: number; gapMs: number}> {
	let last = performance.now();
	let gap = 0;
	const ticker = setInterval(() => {
		const now = performance.now();
		gap = Math.max(gap, now - last);
		last = now;
	}, 5);
	const started = performance.now();
	await count();
	const ms = performance.now() - started;
	await new Promise(resolve => setTimeout(resolve, 20));
	clearInterval(ticker);
	return {ms, gapMs: Math.max(gap, performance.now() - last)};
}

export async function benchCountLag(quick = false): Promise<void> {
	const size = quick ? 50_000 : 300_000;
	const {path} = cachedBugDatabase(size);
	const sync = openStore(path);
	const store = await openAsyncStore(path);
	const onCaller: Array<{ms: number; gapMs: number}> = [];
	const onWorker: Array<{ms: number; gapMs: number}> = [];
	try {
		// Alternating, so both see the same machine.
		for (let round = 0; round < 5; round++) {
			onCaller.push(await timed(() => sync.countMatches('bugs', WHERE)));
			onWorker.push(await timed(async () => store.countMatches('bugs', WHERE)));
		}
	} finally {
		sync.close();
		await store.close();
	}

	const row = (where: string, samples: Array<{ms: number; gapMs: number}>): Row => ({
		'counted on': where,
		items: size,
		'count ms (median)': median(samples.map(sample => sample.ms)).toFixed(0),
		'longest stall of the caller ms (median)': median(samples.map(sample => sample.gapMs)).toFixed(0),
	});
	printTable(`A view's count (${WHERE}) on SQLite: what the caller waits`, [row('the caller\'s thread', onCaller), row('a worker thread', onWorker)], [
		'the TUI counts its views through the asynchronous interface, so its keys wait for the longest stall on the worker row, not the count',
	]);
}
