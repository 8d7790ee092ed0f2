// The TUI's first frame alone (docs/architecture.md#start-up): spawn of the built CLI in a 140×40
// pseudo-terminal → the header and the first rows drawn, at 1k, 100k and 1M items (1k and 20k with
// --quick), and at the largest in a 200×60 one; the same measure as the first-frame rows of
// ui-speed.ts, without the minutes of its other parts.
// In the same run, the floors under it: bare `node` (spawn → exit), and Node with React and the
// vendored Ink drawing 38 plain rows (ink-floor.tsx); and this build without its code cache, as the
// first start after an install or upgrade is.
// SIFT_BENCH_BEFORE=DIR measures a built checkout of an earlier commit the same way, in the same run.
//   node dist/test/bench/ui-first-frame.js [--quick] [--repeats N]

import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {launch} from '../support/pty.js';
import {close, COLS, firstFrame, ROWS} from './pty-bench.js';
import {cachedBugDatabase, median, printTable, type Row} from './support.js';
import {buildsToMeasure, firstFrames} from './ui-speed.js';

const INK_FLOOR = fileURLToPath(new URL('ink-floor.js', import.meta.url));

/** Spawn → exit of `node -e ''`, and spawn → frame of the Ink floor, `repeats` times each. */
async function floors(repeats: number): Promise<Row[]> {
	const node: number[] = [];
	const ink: number[] = [];
	for (let round = 0; round < repeats; round++) {
		const started = performance.now();
		spawnSync(process.execPath, ['-e', ''], {stdio: 'ignore'});
		node.push(performance.now() - started);
		const inkStarted = performance.now();
		const app = launch({entry: INK_FLOOR, args: [], cols: COLS, rows: ROWS, env: {NODE_ENV: 'production'}});
		await app.waitFor(firstFrame, 30_000);
		ink.push(app.lastOutputAt - inkStarted);
		await close(app);
	}

	return [
		{figure: 'floor: bare node, spawn → exit (ms, median / min)', build: '—', measured: `${median(node).toFixed(0)} / ${Math.min(...node).toFixed(0)}`, goal: '—'},
		{figure: 'floor: Node + React + Ink, 38 plain rows, spawn → frame (ms, median / min)', build: '—', measured: `${median(ink).toFixed(0)} / ${Math.min(...ink).toFixed(0)}`, goal: '—'},
	];
}

export async function benchFirstFrame(quick = false, repeats = quick ? 3 : 11): Promise<Row[]> {
	const [current, ...before] = buildsToMeasure();
	// A code cache of the bench's own: the first start writes it, the others use it (as a person's second start does).
	const cache = mkdtempSync(path.join(tmpdir(), 'sift-bench-code-cache-'));
	try {
		const builds = [{...current!, env: {SIFT_CODE_CACHE: cache}}, {...current!, label: 'this build, no code cache (a first start)', env: {SIFT_CODE_CACHE: 'off'}}, ...before];
		const largest: [string, string] = [quick ? '20k' : '1M', cachedBugDatabase(quick ? 20_000 : 1_000_000).path];
		const sizes: Array<[string, string]> = [['1k', cachedBugDatabase(1000).path], ...(quick ? [] : [['100k', cachedBugDatabase(100_000).path] as [string, string]]), largest];
		// The largest channel once more in a larger terminal: more rows to lay out and draw.
		const rows = [...await firstFrames(builds, sizes, repeats), ...await firstFrames(builds, [largest], repeats, {cols: 200, rows: 60}), ...await floors(repeats)];
		printTable(`TUI first frame: spawn → header and first rows (${COLS}×${ROWS} pseudo-terminal, ${repeats} starts each)`, rows, [
			'Builds take turns start by start, so a busy moment of the machine falls on both alike.',
			'App CPU is user + system time of the whole process (every thread) when the first frame shows.',
			'The floors: what any Node program, and any Ink app drawing this many rows, takes on this machine in this run.',
		]);
		return rows;
	} finally {
		rmSync(cache, {recursive: true, force: true});
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const at = process.argv.indexOf('--repeats');
	await benchFirstFrame(process.argv.includes('--quick'), at === -1 ? undefined : Number(process.argv[at + 1]));
}
