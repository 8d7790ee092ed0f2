// Fan-out and watch through the fake codex (issue 13).
// - Fan-out: 200 items in batches of 10 at --parallel 1/2/4/8, the fake taking 200 ms per tool call;
//   the batches go through the same Fanout and batch starter as `sift run`, in this process, so
//   this process's CPU time is sift's own (Codex is the child).
// - Watch: `sift watch` as users run it; items are created one by one and each one's wait is the
//   time from its creation to its Codex process starting (the fake's own clock).

import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {execa} from 'execa';
import {openAsyncStore, type AsyncStore} from '../../store/index.js';
import {Fanout} from '../../source/codex/fanout.js';
import {splitIntoBatches} from '../../source/codex/batches.js';
import {packageRoot, siftEntry} from '../../source/codex/paths.js';
import {batchStarter} from '../../source/codex/run-token.js';
import {median, percentile, printTable, type Row} from './support.js';

const TOOL_DELAY_MS = 200;
const BATCH = 10;
const CHANNEL = {
	id: 'bugs',
	name: 'Bugs',
	fields: [
		{key: 'ticket', label: 'Ticket', type: 'text', is_required: true, is_unique: true, config: {}},
		{key: 'status', label: 'Status', type: 'select', is_required: false, is_unique: false, config: {options: [{value: 'new', label: 'New'}]}},
	],
};

const fakeCodex = () => path.join(packageRoot(), 'test', 'support', 'fake-codex.mjs');
const sleep = async (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

async function channelOf(dir: string, items: number): Promise<{store: AsyncStore; db: string; ids: string[]}> {
	const db = path.join(dir, 'sift.db');
	const store = await openAsyncStore(db, {create: true});
	await store.importChannel({channel: CHANNEL, items: Array.from({length: items}, (_, index) => ({values: {ticket: `BUG-${index}`, status: 'new'}}))});
	const ids: string[] = [];
	for (let page = await store.listPage('bugs'); ; page = await store.listPage('bugs', {beforeId: page.next_before_id})) {
		ids.push(...page.items.map(item => item.id));
		if (!page.next_before_id) break;
	}

	return {store, db, ids: ids.reverse()};
}

export async function benchFanout(quick = false): Promise<void> {
	const items = quick ? 60 : 200;
	const dir = mkdtempSync(path.join(tmpdir(), 'sift-bench-fanout-'));
	const {store, db, ids} = await channelOf(dir, items);
	const env = {...process.env, SIFT_STATE_DIR: path.join(dir, 'state'), FAKE_CODEX_TOOL_DELAY_MS: String(TOOL_DELAY_MS)};
	try {
		const rows: Row[] = [];
		let serial = 0;
		for (const parallel of [1, 2, 4, 8]) {
			const start = batchStarter(store, {instruction: 'Triage these', channelId: 'bugs', dbPath: db, codex: fakeCodex(), env}, undefined);
			const fanout = new Fanout({parallel, start});
			const outcomes: string[] = [];
			let most = 0;
			fanout.subscribe(event => {
				most = Math.max(most, fanout.running);
				if (event.type === 'finished') outcomes.push(event.result.outcome);
			});
			const cpu = process.cpuUsage();
			const began = performance.now();
			for (const batch of splitIntoBatches(ids, BATCH)) fanout.add(batch);
			await fanout.idle();
			const wallMs = performance.now() - began;
			const used = process.cpuUsage(cpu);
			const runs = outcomes.length;
			if (outcomes.some(outcome => outcome !== 'ok')) throw new Error(`fan-out bench: a run ended ${outcomes.find(outcome => outcome !== 'ok')}`);
			if (parallel === 1) serial = wallMs;
			rows.push({
				parallel,
				runs,
				'most at once': most,
				'wall s': wallMs / 1000,
				'speed-up': `${(serial / wallMs).toFixed(2)}×`,
				'sift CPU ms/run': (used.user + used.system) / 1000 / runs,
			});
		}

		printTable(`Fan-out: ${items} items in batches of ${BATCH} through the fake codex (${TOOL_DELAY_MS} ms per tool call, 4 calls a run)`, rows, [
			'sift CPU = this process\'s user+system time over the fan-out, per run: recording the run, reading its stream, the run log. Codex (the fake) is a child, not counted.',
			'A run\'s floor is 4 × 200 ms of tool calls plus a node start of the fake; the machine\'s cores bound the speed-up at high parallelism.',
		]);
	} finally {
		await store.close();
		rmSync(dir, {recursive: true, force: true});
	}

	await benchWatch(quick);
}

/** Waits until the runs (finished) hold `items` items in all. */
async function runsCovering(store: AsyncStore, items: number): Promise<Awaited<ReturnType<AsyncStore['runs']['list']>>> {
	const giveUpAt = Date.now() + 30_000;
	for (;;) {
		const runs = await store.runs.list({limit: 1000});
		if (runs.flatMap(run => run.item_ids).length >= items && runs.every(run => run.finished_at !== null)) return runs;
		if (Date.now() > giveUpAt) throw new Error('watch bench: the runs did not come');
		await sleep(200);
	}
}

/** Creation to Codex start for items created one at a time while `sift watch` runs. */
export async function benchWatch(quick: boolean): Promise<void> {
	const count = quick ? 8 : 20;
	const rows: Row[] = [];
	for (const {settle, batch, parallel} of [{settle: '0s', batch: 10, parallel: 4}, {settle: '2s', batch: 10, parallel: 2}]) {
		const dir = mkdtempSync(path.join(tmpdir(), 'sift-bench-watch-'));
		const {store, db} = await channelOf(dir, 1);
		const timeline = path.join(dir, 'timeline.jsonl');
		const env = {...process.env, SIFT_STATE_DIR: path.join(dir, 'state'), SIFT_CODEX: fakeCodex(), FAKE_CODEX_TIMELINE: timeline};
		const child = execa(process.execPath, [siftEntry(), 'watch', '--db', db, '--json', '--settle', settle, '--batch', String(batch), '--parallel', String(parallel)], {env, reject: false});
		try {
			await new Promise<void>(resolve => {
				child.stderr!.on('data', (chunk: Buffer) => {
					if (chunk.toString().includes('sift: watching')) resolve();
				});
			});
			// A warm-up item first: the first run of a state dir checks the login and probes codex's flags (cached after).
			await store.createItem('bugs', {ticket: 'WARM-UP'}, {kind: 'human'});
			await runsCovering(store, 1);
			const createdAt = new Map<string, number>();
			for (let index = 0; index < count; index++) {
				const at = performance.timeOrigin + performance.now();
				const created = await store.createItem('bugs', {ticket: `NEW-${index}`}, {kind: 'human'});
				createdAt.set(created.item.id, at);
				await sleep(300);
			}

			const runs = (await runsCovering(store, count + 1)).filter(run => run.item_ids.some(id => createdAt.has(id)));
			const startedBy = new Map<number, number>();
			for (const line of readFileSync(timeline, 'utf8').trim().split('\n')) {
				const mark = JSON.parse(line) as {mark: string; at: number; pid: number};
				if (mark.mark === 'started') startedBy.set(mark.pid, mark.at);
			}

			const toRun = runs.flatMap(run => run.item_ids.map(id => Date.parse(run.started_at) - createdAt.get(id)!));
			const toCodex = runs.flatMap(run => run.item_ids.map(id => startedBy.get(run.process_group ?? -1)! - createdAt.get(id)!));
			if (toCodex.some(wait => !Number.isFinite(wait))) throw new Error('watch bench: a run without its start mark');
			rows.push({
				settle,
				batch,
				parallel,
				items: count,
				runs: runs.length,
				'to run median ms': median(toRun),
				'to run p90 ms': percentile(toRun, 0.9),
				'to Codex median ms': median(toCodex),
				'to Codex p90 ms': percentile(toCodex, 0.9),
			});
		} finally {
			child.kill('SIGINT');
			await child;
			await store.close();
			rmSync(dir, {recursive: true, force: true});
		}
	}

	printTable(`Watch: an item's creation to the start of its Codex run (${count} items, one every 300 ms, SQLite)`, rows, [
		'The watch polls SQLite every 500 ms (on PostgreSQL a NOTIFY wakes it at once) and takes what it found as one batch; with --settle a short batch first waits that long to fill.',
		'to run = the run recorded (the watch decided and started it); to Codex = the fake codex\'s first line of JS (its node start included).',
		'An item also waits while --parallel runs are going. The warm-up item and its run are left out.',
	]);
}
