// Event -> row in another process: how long after an edit commits in one process another process
// has read the changed row, when it is told (PostgreSQL NOTIFY through store.listen) and when it
// polls pollEvents every N ms (the TUI's intervals: 100 ms while a run works, 250 ms at the
// quickest when idle). The reader is test/bench/workers/follower.ts.

import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {ACTIVE_INTERVAL, IDLE_MIN} from '../../source/ui/poll-schedule.js';
import {openAsyncStore} from '../../store/api.js';
import {seedRace} from '../store/workers/race.js';
import {benchDatabase} from './pg-support.js';
import {median, percentile, printTable, seeded, type Row} from './support.js';

const follower = fileURLToPath(new URL('workers/follower.js', import.meta.url));
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/** `edits` edits at random gaps of 10 to 60 ms; the reader's delay for each, in ms. */
async function follow(location: string, mode: string, edits: number): Promise<number[]> {
	const ids = await seedRace(location, 4);
	const child = spawn(process.execPath, [follower, location, mode], {stdio: ['pipe', 'pipe', 'inherit']});
	const seen = new Map<number, number>();
	let buffer = '';
	let onLine = () => {};
	child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
		buffer += chunk;
		let end;
		while ((end = buffer.indexOf('\n')) >= 0) {
			const line = buffer.slice(0, end);
			buffer = buffer.slice(end + 1);
			if (line.startsWith('{')) {
				const {sequence, at} = JSON.parse(line) as {sequence: number; at: number};
				seen.set(sequence, at);
			}

			onLine();
		}
	});
	const closed = new Promise(resolve => child.on('close', resolve));
	const store = await openAsyncStore(location);
	try {
		await new Promise<void>(resolve => {
			onLine = resolve;
		});
		const random = seeded(7);
		const committed = new Map<number, number>();
		for (let n = 0; n < edits; n++) {
			await sleep(10 + random() * 50);
			const {sequence} = await store.editItem({channelId: 'race', itemId: ids[n % ids.length]!, actor: {kind: 'human'}, values: {a: `edit ${n}`}});
			committed.set(sequence, now());
		}

		const last = Math.max(...committed.keys());
		const deadline = Date.now() + 5000;
		while (!seen.has(last) && Date.now() < deadline) await sleep(5);
		const delays = [...committed].map(([sequence, at]) => (seen.get(sequence) ?? Number.NaN) - at);
		if (delays.some(Number.isNaN)) throw new Error(`${mode}: the reader missed ${delays.filter(Number.isNaN).length} of ${edits} edits`);
		return delays;
	} finally {
		child.stdin.end();
		await closed;
		await store.close();
	}
}

export async function benchPush(quick: boolean): Promise<Row[]> {
	const edits = quick ? 40 : 150;
	const rows: Row[] = [];
	const row = (backend: string, how: string, delays: number[]): Row => ({backend, reader: how, edits: delays.length, 'median ms': median(delays), 'p90 ms': percentile(delays, 0.9), 'max ms': Math.max(...delays)});
	const polls = [ACTIVE_INTERVAL, IDLE_MIN];

	const database = await benchDatabase('Event-to-row bench on PostgreSQL');
	if (database) {
		try {
			for (const mode of ['listen', ...polls.map(String)]) {
				rows.push(row('postgres', mode === 'listen' ? 'NOTIFY (listen)' : `poll every ${mode} ms`, await follow(database.url, mode, edits)));
				await database.reset();
			}
		} finally {
			await database.drop();
		}
	}

	const dir = mkdtempSync(join(tmpdir(), 'sift-bench-push-'));
	try {
		for (const poll of polls) {
			rows.push(row('sqlite', `poll every ${poll} ms`, await follow(join(dir, `push-${poll}.db`), String(poll), edits)));
		}
	} finally {
		rmSync(dir, {recursive: true, force: true});
	}

	printTable('Event -> row in another process: from the commit in one process to the row read in another (ms)', rows, [
		'edits 10 to 60 ms apart; the reader reads the events after its cursor, then each changed item',
	]);
	return rows;
}

// Run alone: node dist/test/bench/store-push.js [--quick]
if (import.meta.url === `file://${process.argv[1]}`) {
	await benchPush(process.argv.includes('--quick'));
}
