// 16 writer processes on one channel, each in a read-then-edit loop with retry on version_conflict
// (test/store/workers/editor.ts, the same writer the multi-process tests run), on SQLite and on
// PostgreSQL: edits/s, conflicts, and the latency of an edit from its first read to its commit,
// retries included. Bounded: 200 edits per writer, or 10 s. One writer alone gives each backend's
// floor for comparison.

import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {raceIncrements} from '../store/workers/launch.js';
import {seedRace} from '../store/workers/race.js';
import {benchDatabase} from './pg-support.js';
import {percentile, printTable, type Row} from './support.js';

const WRITERS = 16;
const ITEMS = 32;

async function race(backend: string, location: string, writers: number, edits: number, seconds: number): Promise<Row> {
	const ids = await seedRace(location, ITEMS);
	const reports = await raceIncrements(location, ids, writers, edits, seconds);
	const total = reports.reduce((sum, report) => sum + report.edits, 0);
	const wall = (Math.max(...reports.map(report => report.ended)) - Math.min(...reports.map(report => report.started))) / 1000;
	const latencies = reports.flatMap(report => report.latencies_ms);
	const conflicts = reports.reduce((sum, report) => sum + report.conflicts, 0);
	return {
		backend,
		writers,
		items: ITEMS,
		edits: total,
		's': wall,
		'edits/s': Math.round(total / wall),
		conflicts,
		'conflicts/edit': (conflicts / total).toFixed(2),
		'p50 ms': percentile(latencies, 0.5),
		'p99 ms': percentile(latencies, 0.99),
	};
}

export async function benchWriters(quick: boolean): Promise<Row[]> {
	const edits = quick ? 50 : 200;
	const seconds = quick ? 5 : 10;
	const rows: Row[] = [];
	const dir = mkdtempSync(join(tmpdir(), 'sift-bench-writers-'));
	try {
		for (const writers of [1, WRITERS]) {
			rows.push(await race('sqlite', join(dir, `race-${writers}.db`), writers, edits, seconds));
		}
	} finally {
		rmSync(dir, {recursive: true, force: true});
	}

	const database = await benchDatabase('PostgreSQL writers bench');
	if (database) {
		try {
			for (const writers of [1, WRITERS]) {
				rows.push(await race('postgres', database.url, writers, edits, seconds));
				await database.reset();
			}
		} finally {
			await database.drop();
		}
	}

	printTable(`1 and ${WRITERS} writer processes on one channel of ${ITEMS} items: read-then-edit with retry on conflict (≤ ${edits} edits each or ${seconds} s)`, rows, [
		'latency: from the first read to the commit, retries included',
	]);
	return rows;
}

// Run alone: node dist/test/bench/store-writers.js [--quick]
if (import.meta.url === `file://${process.argv[1]}`) {
	await benchWriters(process.argv.includes('--quick'));
}
