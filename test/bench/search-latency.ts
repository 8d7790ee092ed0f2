// search_record_items and find_similar_items latency on GitHub-shaped items (the generator and
// cached stores of real-shapes.ts): p50 and p99 of store.searchItems and store.similarItems
// through the async interface, at 100k and 1M items (100k only with --quick), SQLite and
// PostgreSQL. Goal: p50 ≤ 50 ms, p99 ≤ 150 ms.

import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {fixtureIssues, postgresShapes, sqliteShapes} from './real-shapes.js';
import {BENCH_NOW, median, percentile, printTable, seeded, type Row} from './support.js';

const CHANNEL = 'issues';
/** Searches as an agent words them: a common word, a rare one, a phrase, words with a filter. */
const SEARCHES = ['compiler', 'segfault', '"expected behavior"', 'error borrow', 'panic state:open'];
const SIMILAR_ASKS = 101;
const SEARCH_REPEATS = 41;

async function timed(work: () => Promise<unknown>): Promise<number> {
	const start = process.hrtime.bigint();
	await work();
	return Number(process.hrtime.bigint() - start) / 1e6;
}

async function measure(store: AsyncStore, backend: string, size: number): Promise<Row[]> {
	const rows: Row[] = [];
	const row = (tool: string, ask: string, times: number[]): Row => {
		const p50 = median(times);
		const p99 = percentile(times, 0.99);
		return {items: size, backend, tool, ask, runs: times.length, 'p50 ms': p50, 'p99 ms': p99, goal: p50 <= 50 && p99 <= 150 ? 'met' : 'NOT met'};
	};

	const all: number[] = [];
	for (const query of SEARCHES) {
		await store.searchItems(CHANNEL, {query, limit: 20, now: BENCH_NOW});
		const times: number[] = [];
		for (let n = 0; n < SEARCH_REPEATS; n++) times.push(await timed(() => store.searchItems(CHANNEL, {query, limit: 20, now: BENCH_NOW})));
		all.push(...times);
		rows.push(row('search_record_items', query, times));
	}

	rows.push(row('search_record_items', 'all of the above', all));
	// Random items: their own titles and bodies are the questions.
	const latest = await store.latestSequence(CHANNEL);
	const page = await store.listPage(CHANNEL, {limit: 1});
	const newest = page.items[0]!.id;
	const random = seeded(11);
	const idOf = (seq: number) => newest.slice(0, 3) + seq.toString(36).padStart(newest.length - 3, '0');
	const summary = await store.channelSummary(CHANNEL);
	const first = summary.latest_sequence - summary.item_count;
	const times: number[] = [];
	await store.similarItems(CHANNEL, newest, {limit: 10});
	for (let n = 0; n < SIMILAR_ASKS; n++) {
		const seq = Math.max(1, first + 1 + Math.floor(random() * (latest - first)));
		// Only a missing item (none at that seq) is passed over; a timeout fails the bench rather than being timed 101 times.
		times.push(await timed(() => store.similarItems(CHANNEL, idOf(seq), {limit: 10}).catch((error: unknown) => {
			if ((error as {body?: {error?: string}}).body?.error !== 'not_found') throw error;
		})));
	}

	rows.push(row('find_similar_items', `${SIMILAR_ASKS} random items, limit 10`, times));
	return rows;
}

export async function benchSearchLatency(quick: boolean): Promise<Row[]> {
	const issues = fixtureIssues();
	const rows: Row[] = [];
	const notes: string[] = [];
	for (const size of quick ? [100_000] : [100_000, 1_000_000]) {
		for (const made of [await sqliteShapes(issues, size), await postgresShapes(issues, size)]) {
			if (!made) continue;
			notes.push(made.note);
			const store = await openAsyncStore(made.location);
			try {
				const measured = await measure(store, made.location.startsWith('postgres') ? 'postgres' : 'sqlite', size);
				printTable(`Agent search latency (${measured[0]?.backend}, ${size} items)`, measured);
				rows.push(...measured);
			} finally {
				await store.close();
			}
		}
	}

	printTable('search_record_items and find_similar_items latency: GitHub-shaped items; goal p50 ≤ 50 ms, p99 ≤ 150 ms', rows, notes);
	return rows;
}
