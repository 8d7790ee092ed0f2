// `npm run bench` (after a build: node dist/test/bench/run.js [--quick]). Runs each benchmark in
// sequence and prints its table. Not part of `npm test`; nothing here is a timed test.
//   --quick   smaller sizes and fewer repetitions, for a fast sanity run.

import {benchAgentEconomy} from './agent-economy.js';
import {benchAgentPages} from './agent-pages.js';
import {benchPgStore} from './pg-store.js';
import {benchPgEditCost} from './pg-store-edit.js';
import {benchPush} from './store-push.js';
import {benchWriters} from './store-writers.js';
import {benchRunner} from './runner.js';
import {benchFanout} from './fanout.js';
import {benchStart} from './start.js';
import {benchServe} from './serve.js';
import {benchCatchingUp} from './store-catchup.js';
import {benchCountLag} from './store-count-lag.js';
import {benchEditCost} from './store-edit.js';
import {benchExport} from './export.js';
import {benchIndexCost} from './store-index-cost.js';
import {benchPageLatency} from './store-latency.js';
import {benchPagingUnderChange} from './store-paging.js';
import {benchQueryLatency} from './store-query-latency.js';
import {benchStaleVersions} from './store-stale.js';
import {benchUi} from './ui.js';
import {benchKeystrokes} from './ui-keystrokes.js';

const quick = process.argv.includes('--quick');
const started = Date.now();
console.log(`sift benchmarks${quick ? ' (--quick)' : ''}: node ${process.version}, ${new Date().toISOString()}`);

// Store benches (docs/reference.md#records).
benchEditCost(quick);
benchPagingUnderChange();
benchCatchingUp();
benchStaleVersions();
benchPageLatency(quick);

// Agents (docs/reference.md#agent-tools): what an agent reads per page and per catch-up poll, and
// what scripted agents achieve through the MCP tools as rejections lose detail.
await benchAgentPages();
await benchAgentEconomy();

// The query language (docs/reference.md#query-language): sorted and filtered pages at depth, and what each index costs a write.
benchQueryLatency(quick);
benchIndexCost(quick);
await benchCountLag(quick);

// Records out (issue 20): sift export of every item, time and peak RSS by size, on both backends.
await benchExport(quick);

// The PostgreSQL store (team mode): import and page latency at 1M.
await benchPgStore(quick);
await benchPgEditCost(quick);

// Team mode: 16 writer processes on one channel, SQLite vs PostgreSQL; event to row in another process, NOTIFY vs polling.
await benchWriters(quick);
await benchPush(quick);

// Codex runner (docs/reference.md#codex-runs): wrapper lag behind a fake codex's own timeline.
await benchRunner();

// Fan-out and watch (issue 13): parallel batches through the fake codex; an item's wait from creation to its run.
await benchFanout(quick);

// Team mode: the agent tools over HTTP (`sift serve`) under load.
await benchServe(quick);

// The TUI (issue 5): the built app in a pseudo-terminal.
await benchUi(quick);
// The TUI (issue 12): keystrokes to set status, owner and due on one row and on 10 marked rows.
await benchKeystrokes();

// npm start (issue: no dead ends for a new user): a second start from a fresh clone to the first frame.
await benchStart();

console.log(`\nall benchmarks done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
