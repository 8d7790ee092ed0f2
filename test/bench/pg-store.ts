// The PostgreSQL store: importing 1k and 1M demo items (streamed in batches, one transaction), then
// page latency through listPage: the first page and a deep page (90% down, by before_id), with and
// without a status filter. Runs in a fresh database (sift_bench_<random>) on the server named by
// SIFT_BENCH_PG_URL or SIFT_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres),
// dropped afterwards. Without a reachable server the bench says so and is left out.

import {randomBytes} from 'node:crypto';
import {bugsChannel, generateBugItems} from '../../demo-data/generate.js';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {itemIdOf, seqOfItemId} from '../../store/items.js';
import {pgQuery, pgServerUrl as serverUrl, RESET_SQL} from './pg-support.js';
import {BENCH_NOW, median, printTable, type Row} from './support.js';

const FILTER = {status: 'fixed'};

const admin = (sql: string) => pgQuery(serverUrl(), sql);

async function ms(work: () => Promise<unknown>, repeats: number): Promise<number> {
	await work();
	const times: number[] = [];
	for (let n = 0; n < repeats; n++) {
		const start = process.hrtime.bigint();
		await work();
		times.push(Number(process.hrtime.bigint() - start) / 1e6);
	}

	return median(times);
}

async function measure(store: AsyncStore, size: number, importSeconds: number): Promise<Row[]> {
	const newest = (await store.listPage('bugs', {limit: 1})).items[0]!.id;
	const depth = Math.floor((size * 0.9) / 50) * 50;
	// One import into a fresh database numbers its items without gaps: the cursor 90% down is computable.
	const cursor = itemIdOf(seqOfItemId(newest, 'newest') - (depth - 1));
	const rows: Row[] = [];
	for (const filter of [undefined, FILTER]) {
		const first = await ms(() => store.listPage('bugs', {filter}), 31);
		const deep = await ms(() => store.listPage('bugs', {filter, beforeId: cursor}), 31);
		rows.push({
			items: size,
			'import s': importSeconds,
			filter: filter ? `status=${filter.status}` : 'none',
			'deep page at': depth,
			'first ms': first,
			'deep ms': deep,
			'deep/first': (deep / first).toFixed(2),
		});
	}

	return rows;
}

export async function benchPgStore(quick: boolean): Promise<Row[]> {
	const name = `sift_bench_${randomBytes(5).toString('hex')}`;
	try {
		await admin(`CREATE DATABASE ${name}`);
	} catch (error) {
		console.log(`\nPostgreSQL store bench left out: no server at ${new URL(serverUrl()).host} (${(error as Error).message})`);
		return [];
	}

	const url = new URL(serverUrl());
	url.pathname = `/${name}`;
	const sizes = quick ? [1000, 100_000] : [1000, 1_000_000];
	const rows: Row[] = [];
	try {
		for (const size of sizes) {
			const store = await openAsyncStore(url.toString());
			const started = process.hrtime.bigint();
			await store.importChannel({channel: bugsChannel, items: generateBugItems({count: size, seed: 1, now: BENCH_NOW})});
			const importSeconds = Number(process.hrtime.bigint() - started) / 1e9;
			rows.push(...await measure(store, size, importSeconds));
			await store.close();
			await resetDatabase(url.toString());
		}
	} finally {
		await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
	}

	const largest = rows.filter(row => row.items === sizes.at(-1));
	printTable('PostgreSQL store: import, and page latency by before_id (ms, median of 31)', rows, [
		`goal: deep/first ≤ 1.5 at ${sizes.at(-1)} items: ${largest.every(row => Number(row['deep/first']) <= 1.5) ? 'met' : 'NOT met'}`,
		`goal: ${sizes.at(-1)} items imported in ≤ 120 s: ${Number(largest[0]?.['import s']) <= 120 ? 'met' : 'NOT met'} (${Number(largest[0]?.['import s']).toFixed(1)} s)`,
	]);
	return rows;
}

/** Empties the bench database between sizes, so each import starts from a new store. */
async function resetDatabase(url: string): Promise<void> {
	await pgQuery(url, RESET_SQL);
}

// Run alone: node dist/test/bench/pg-store.js [--quick]
if (import.meta.url === `file://${process.argv[1]}`) {
	await benchPgStore(process.argv.includes('--quick'));
}
