// Benchmark: the built CLI against the fake GitHub in a process of its own
// (test/bench/workers/fake-github.ts), on SQLite: the peak RSS of the sift process alone on a
// first `sift sync pull` of N issues with 3N comments (GNU time's maximum resident set) beside
// `sift --version`'s (the floor: the code loaded, nothing done), and
// under `sift sync --watch` the time from a person's edit (committed to the store, as the TUI
// makes it) to the fake taking its PATCH, over 20 edits: median and p90.

import {spawn, type ChildProcess} from 'node:child_process';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {createInterface} from 'node:readline';
import {fileURLToPath} from 'node:url';
import {openAsyncStore} from '../../store/index.js';
import {FIXTURE_REPO} from '../support/fake-github.js';
import {ensureBuilt, SIFT_ENTRY, siftAsync, siftChild} from '../support/cli.js';
import {tempDir} from '../support/temp.js';
import {waitUntil} from '../support/wait.js';
import {formatNumber, median, percentile, printTable} from './support.js';

const worker = fileURLToPath(new URL('workers/fake-github.js', import.meta.url));
const GNU_TIME = '/usr/bin/time';
const EDITS = 20;
/** The watch's poll interval: far longer than the goal, so only the wake on a local edit can meet it. */
const WATCH_INTERVAL = '60s';

type Write = {issue: number; change: string; at: number};

/** The fake GitHub's process: its URL and token, and the writes it took so far. */
async function startFakeProcess(issues: number, comments: number): Promise<{child: ChildProcess; url: string; token: string; issues: number[]; writes: Write[]}> {
	const child = spawn(process.execPath, [worker, String(issues), String(comments)], {stdio: ['pipe', 'pipe', 'inherit']});
	const writes: Write[] = [];
	const lines = createInterface({input: child.stdout!});
	const started = new Promise<{url: string; token: string; issues: number[]}>((resolve, reject) => {
		child.once('exit', code => reject(new Error(`the fake GitHub exited ${code} before serving`)));
		lines.on('line', line => {
			const message = JSON.parse(line) as {url?: string; token?: string; issues?: number[]; write?: {issue: number; change: string}; at?: number};
			if (message.url) resolve({url: message.url, token: message.token!, issues: message.issues!});
			else if (message.write) writes.push({...message.write, at: message.at!});
		});
	});
	return {child, ...await started, writes};
}

async function stopFakeProcess(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null) return;
	const exited = new Promise(resolve => child.once('exit', resolve));
	child.stdin!.end();
	await exited;
}

/** `sift ARGS` under GNU time: its exit code and its peak RSS in MB (the node process alone). */
async function peakRss(args: string[], env: NodeJS.ProcessEnv): Promise<{code: number | null; mb: number; stderr: string}> {
	const child = spawn(GNU_TIME, ['-v', process.execPath, SIFT_ENTRY, ...args], {env: {...process.env, SIFT_DB: '', XDG_DATA_HOME: tempDir('sift-data-'), ...env}, stdio: ['ignore', 'ignore', 'pipe']});
	let stderr = '';
	child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
	const code = await new Promise<number | null>(resolve => child.on('close', resolve));
	const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
	if (!kb) throw new Error(`GNU time printed no peak RSS: ${stderr.slice(-500)}`);
	return {code, mb: Number(kb[1]) / 1024, stderr};
}

export async function benchSyncGithubProcess(quick: boolean): Promise<void> {
	ensureBuilt();
	if (!existsSync(GNU_TIME)) throw new Error(`${GNU_TIME} is needed to read the CLI's peak RSS`);
	const issues = quick ? 2000 : 10_000;
	const fake = await startFakeProcess(issues, 9);
	let watch: ReturnType<typeof siftChild> | undefined;
	try {
		const db = join(tempDir('sift-bench-sync-process-'), 'store.db');
		const env = {GITHUB_TOKEN: fake.token, GH_TOKEN: '', SIFT_GITHUB_API: fake.url, SIFT_NO_GH: '1', XDG_CONFIG_HOME: tempDir('sift-bench-config-')};
		const added = await siftAsync(['sync', 'add', 'github', FIXTURE_REPO, '--db', db], env);
		if (added.code !== 0) throw new Error(`sift sync add exited ${added.code}: ${added.stderr}`);
		// The floor: the same process doing nothing but start (its code loaded, no store, no request).
		const floor = await peakRss(['--version'], env);
		let started = performance.now();
		const pull = await peakRss(['sync', 'pull', 'rust', '--db', db], env);
		const pullSeconds = (performance.now() - started) / 1000;
		if (pull.code !== 0) throw new Error(`sift sync pull exited ${pull.code}: ${pull.stderr.slice(-500)}`);

		// The watch: its first round done (one --json line), then edits one by one, each timed to the fake's PATCH.
		watch = siftChild(['sync', '--watch', 'rust', '--interval', WATCH_INTERVAL, '--json', '--db', db], env);
		let printed = '';
		watch.child.stdout!.on('data', (chunk: string) => (printed += chunk));
		await waitUntil(() => printed.includes('\n'), 'the first round of sift sync --watch', {timeoutMs: 120_000});
		const store = await openAsyncStore(db);
		const latencies: number[] = [];
		try {
			started = performance.now();
			for (const [edit, issue] of fake.issues.slice(0, EDITS).entries()) {
				const [match] = await store.findItemsNamed('rust', String(issue));
				if (!match) throw new Error(`no item for issue #${issue}`);
				const seen = fake.writes.length;
				await store.editItem({channelId: 'rust', itemId: match.item_id, values: {title: `Watched edit ${edit}`}, actor: {kind: 'human'}});
				const committed = performance.timeOrigin + performance.now();
				await waitUntil(() => fake.writes.slice(seen).some(write => write.issue === issue), `the watch to push the edit of #${issue}`, {timeoutMs: 120_000, intervalMs: 5});
				latencies.push(fake.writes.slice(seen).find(write => write.issue === issue)!.at - committed);
			}
		} finally {
			await store.close();
		}

		const watchSeconds = (performance.now() - started) / 1000;
		watch.child.kill('SIGTERM');
		const ended = await watch.done;
		watch = undefined;
		if (ended.code !== 0) throw new Error(`sift sync --watch exited ${ended.code}: ${ended.stderr.slice(-500)}`);
		printTable(`The sift CLI against the fake GitHub in its own process (SQLite${quick ? ', --quick' : ''})`, [
			{case: 'sift --version (the floor: start-up alone)', time: '', result: `peak RSS ${Math.round(floor.mb)} MB`},
			{case: `sift sync pull, first: ${formatNumber(issues)} issues, ${formatNumber(issues / 3 * 9)} comments`, time: `${pullSeconds.toFixed(2)} s`, result: `peak RSS ${Math.round(pull.mb)} MB (goal ≤ 150)`},
			{case: `sift sync --watch --interval ${WATCH_INTERVAL}: ${EDITS} edits, edit to PATCH`, time: `${watchSeconds.toFixed(2)} s`, result: `median ${Math.round(median(latencies))} ms, p90 ${Math.round(percentile(latencies, 0.9))} ms, max ${Math.round(Math.max(...latencies))} ms (goal ≤ 2,000)`},
		], ['peak RSS: GNU time\'s maximum resident set of the sift process alone; the fake GitHub runs in another process', 'edit to PATCH: from the edit\'s commit in this process to the fake taking the write, on one clock']);
	} finally {
		if (watch) {
			watch.child.kill('SIGTERM');
			await watch.done;
		}

		await stopFakeProcess(fake.child);
	}
}
