// `npm run bench` (after a build: node dist/test/bench/run.js [--quick]). Runs each benchmark in
// sequence and prints its table. Not part of `npm test`; nothing here is a timed test.
//   --quick   smaller sizes and fewer repetitions, for a fast sanity run.
//   --only NAME[,NAME]  just those benches (their names as printed when one fails, e.g. benchPgStore).
// The benches run in a child process with TMPDIR set to a folder of this run's own; this process
// removes that folder and drops this run's sift_bench_<run>_* databases when the child ends, on
// success, failure, Ctrl+C or a crash alike. A bench that fails (a PostgreSQL restart, say) is
// one error line; the others still run, and the exit code says so. SIFT_BENCH_CACHE=DIR keeps the
// large generated SQLite files between runs, in DIR.

import {spawn} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import {mkdtempSync, rmSync} from 'node:fs';
import {constants, tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

import {benchAgentEconomy} from './agent-economy.js';
import {benchAgentPages} from './agent-pages.js';
import {benchImportFormats} from './import-formats.js';
import {benchPgStore} from './pg-store.js';
import {benchPgEditCost} from './pg-store-edit.js';
import {benchReviewAccept} from './review-accept.js';
import {benchReviewKeys} from './review-keys.js';
import {dropRunDatabases} from './pg-support.js';
import {benchPush} from './store-push.js';
import {benchWriters} from './store-writers.js';
import {benchRunner} from './runner.js';
import {benchFanout} from './fanout.js';
import {benchStart, benchVersionStart} from './start.js';
import {benchSyncGithub} from './sync-github.js';
import {benchSyncGithubProcess} from './sync-github-process.js';
import {benchSyncRedmine} from './sync-redmine.js';
import {benchServe} from './serve.js';
import {benchCatchingUp} from './store-catchup.js';
import {benchCountLag} from './store-count-lag.js';
import {benchEditCost} from './store-edit.js';
import {benchExport} from './export.js';
import {benchIndexCost} from './store-index-cost.js';
import {benchPageLatency} from './store-latency.js';
import {benchPagingUnderChange} from './store-paging.js';
import {benchQueryLatency} from './store-query-latency.js';
import {benchRealShapes} from './real-shapes.js';
import {benchSimilarRecall} from './similar-recall.js';
import {benchSearchLatency} from './search-latency.js';
import {benchAxisPage} from './store-axis-page.js';
import {benchStaleVersions} from './store-stale.js';
import {benchUi} from './ui.js';
import {benchKeystrokes} from './ui-keystrokes.js';
import {benchUiSpeed} from './ui-speed.js';
import {benchFirstFrame} from './ui-first-frame.js';
import {benchDroppedKeys, benchTriageKeys} from './ui-triage.js';

/** The names of the benches that failed, each said on its own error line when it did. */
const failed: string[] = [];

const only = (() => {
	const at = process.argv.indexOf('--only');
	return at === -1 ? undefined : new Set((process.argv[at + 1] ?? '').split(','));
})();

async function step(name: string, bench: () => unknown): Promise<void> {
	if (only && !only.has(name)) return;
	try {
		await bench();
	} catch (error) {
		failed.push(name);
		console.error(`\n${name} failed: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
	}
}

async function runBenches(): Promise<void> {
	// A stray 'error' event or rejection (a dropped connection nobody listened to) ends the run with one line, not a stack dump.
	process.on('uncaughtException', error => {
		console.error(`\nbench run stopped: ${error.message}`);
		if (process.env.SIFT_BENCH_STACK) console.error(error.stack);
		process.exit(1);
	});
	const quick = process.argv.includes('--quick');
	const started = Date.now();
	console.log(`sift benchmarks${quick ? ' (--quick)' : ''}: node ${process.version}, ${new Date().toISOString()}`);

	// Store benches (docs/reference.md#records).
	await step('benchEditCost', () => benchEditCost(quick));
	await step('benchPagingUnderChange', () => benchPagingUnderChange());
	await step('benchCatchingUp', () => benchCatchingUp());
	await step('benchStaleVersions', () => benchStaleVersions());
	await step('benchPageLatency', () => benchPageLatency(quick));

	// Records out: sift export of every item, time and peak RSS by size, on both backends.
	await step('benchExport', () => benchExport(quick));

	// Records in (docs/records.md): sift JSON, CSV and GitHub JSON imports and an upsert, on both backends.
	await step('benchImportFormats', () => benchImportFormats(quick));

	// Agents (docs/reference.md#agent-tools): what an agent reads per page and per catch-up poll, and
	// what scripted agents achieve through the MCP tools as rejections lose detail.
	await step('benchAgentPages', () => benchAgentPages());
	await step('benchAgentEconomy', () => benchAgentEconomy());

	// Tracker sync (docs/sync.md): a first pull, an idle re-sync and edits on both sides against the fake GitHub.
	await step('benchSyncGithub', () => benchSyncGithub(quick));
	// The built CLI with the fake GitHub in another process: the peak RSS of sift alone on a first pull, and an edit's way to GitHub under --watch.
	await step('benchSyncGithubProcess', () => benchSyncGithubProcess(quick));
	// The same engine against a live Redmine 5: first pull, idle re-sync, both-side edits, a push killed at random points.
	await step('benchSyncRedmine', () => benchSyncRedmine(quick));

	// Review (docs/review.md): accepting 1,000 proposals at once, SQLite and PostgreSQL.
	await step('benchReviewAccept', () => benchReviewAccept());
	await step('benchReviewKeys', () => benchReviewKeys());

	// The query language (docs/reference.md#query-language): sorted and filtered pages at depth, and what each index costs a write.
	await step('benchQueryLatency', () => benchQueryLatency(quick));
	// One status value in another field's order (status:new sort:due): flat as the channel grows.
	await step('benchAxisPage', () => benchAxisPage(quick));
	// GitHub-shaped items (labels, assignees, author, bodies): the first page of each common query, both backends.
	await step('benchRealShapes', () => benchRealShapes(quick));
	// Duplicate search (docs/eval.md): find_similar_items on real duplicate sets beside a plain bm25, both backends.
	await step('benchSimilarRecall', () => benchSimilarRecall());
	// search_record_items and find_similar_items p50/p99 at 100k and 1M GitHub-shaped items, both backends.
	await step('benchSearchLatency', () => benchSearchLatency(quick));
	await step('benchIndexCost', () => benchIndexCost(quick));
	await step('benchCountLag', () => benchCountLag(quick));

	// The PostgreSQL store (team mode): import and page latency at 1M.
	await step('benchPgStore', () => benchPgStore(quick));
	await step('benchPgEditCost', () => benchPgEditCost(quick));

	// Team mode: 16 writer processes on one channel, SQLite vs PostgreSQL; event to row in another process, NOTIFY vs polling.
	await step('benchWriters', () => benchWriters(quick));
	await step('benchPush', () => benchPush(quick));

	// Codex runner (docs/reference.md#codex-runs): wrapper lag behind a fake codex's own timeline.
	await step('benchRunner', () => benchRunner());

	// Fan-out and watch (issue 13): parallel batches through the fake codex; an item's wait from creation to its run.
	await step('benchFanout', () => benchFanout(quick));

	// Team mode: the agent tools over HTTP (`sift serve`) under load.
	await step('benchServe', () => benchServe(quick));

	// The TUI (issue 5): the built app in a pseudo-terminal.
	await step('benchUi', () => benchUi(quick));
	// The TUI (issue 12): keystrokes to set status, owner and due on one row and on 10 marked rows.
	await step('benchKeystrokes', () => benchKeystrokes());
	// The TUI (issue 22): keypress → frame in a sorted, filtered view, first frame, dropped keys; SIFT_BENCH_BEFORE=DIR beside an earlier build.
	await step('benchUiSpeed', () => benchUiSpeed(quick));
	// The first-frame rows of benchUiSpeed alone: only with --only benchFirstFrame (benchUiSpeed already has them).
	if (only?.has('benchFirstFrame')) await step('benchFirstFrame', () => benchFirstFrame(quick));
	// The TUI (issue 22): dropped keys in a 200-j burst on the 1k demo, and keys per record of a scripted Inbox triage.
	await step('benchDroppedKeys', () => benchDroppedKeys());
	await step('benchTriageKeys', () => benchTriageKeys(quick));

	// npm start (issue: no dead ends for a new user): a second start from a fresh clone to the first frame.
	await step('benchVersionStart', () => benchVersionStart(quick ? 5 : 15));
	await step('benchStart', () => benchStart());

	console.log(`\nall benchmarks done in ${((Date.now() - started) / 1000).toFixed(1)} s${failed.length > 0 ? `; FAILED: ${failed.join(', ')}` : ''}`);
	process.exitCode = failed.length > 0 ? 1 : 0;
}

/** Starts the benches in a child with a private TMPDIR, then cleans up after it, however it ended. */
async function supervise(): Promise<never> {
	const run = randomBytes(4).toString('hex');
	const root = mkdtempSync(join(tmpdir(), 'sift-bench-'));
	const child = spawn(process.execPath, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
		stdio: 'inherit',
		env: {...process.env, SIFT_BENCH_RUN: run, TMPDIR: root},
	});
	// Ctrl+C reaches the whole foreground group, the child included; a signal sent to this process alone is passed on.
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
	const code = await new Promise<number>(resolve => {
		child.on('exit', (exitCode, signal) => resolve(exitCode ?? 128 + (signal ? constants.signals[signal] : 0)));
	});
	rmSync(root, {recursive: true, force: true});
	try {
		const dropped = await dropRunDatabases(run);
		if (dropped.length > 0) console.log(`bench clean-up: dropped ${dropped.join(', ')}`);
	} catch (error) {
		console.error(`bench clean-up: could not check for sift_bench_${run}_* databases: ${(error as Error).message}`);
	}

	process.exit(code);
}

if (process.env.SIFT_BENCH_RUN) await runBenches();
else await supervise();
