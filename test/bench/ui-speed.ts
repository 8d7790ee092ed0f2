// The TUI's speed (docs/architecture.md#the-vendored-ink): the built app in a pseudo-terminal, its
// screen read back through a headless xterm, this build beside an earlier one in the same run.
//   keypress → frame     in the sorted, filtered view `status:new sort:due`, at 1k and 1M items:
//                        j → the header's row number moved on; median and p99, and the CPU time of
//                        the app's main thread per key (from /proc: other processes do not count)
//   j while r counts     the same, while r recounts every view's matches (1M)
//   first frame          spawn → the header and the first rows, at 1k and 1M
//   dropped keys         a burst of 200 j in the settled view; 120 j and 20 PgDn sent as soon as the
//                        first frame shows, while the next pages load: rows moved vs keys sent
//   against VisiData     one table per size: j, PgDn, g and G → the cursor's row number changed, in
//                        the plain view and in the sorted, filtered view, sift beside `vd` (2.11) on
//                        the same items as JSON Lines (visidata.ts) in the same run; launch → rows
//                        (vd: first rows drawn, and fully loaded). Skipped with a note without vd.
// SIFT_BENCH_BEFORE=DIR measures a built checkout of an earlier commit the same way, in the same run
// (e.g. `git worktree add --detach DIR main && ln -s $PWD/node_modules DIR/ && npm --prefix DIR run build`).

import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {openStore} from '../../store/index.js';
import {CLI, KEYS, type PtyApp} from '../support/pty.js';
import {burst, close, COLS, type Cursor, firstFrame, type KeyTimes, medianP99, openSift, pause, rowNumber, ROWS, selectedTicket, type Terminal, timeKeys} from './pty-bench.js';
import {cachedBugDatabase, median, printTable, type Row} from './support.js';
import {jsonLinesOf, launchToRows, loaded, openVisiData, sortedFiltered, type VisiData, visiData, vdRow, vdTotal} from './visidata.js';

const QUERY = 'status:new sort:due';

/** A build to measure: its CLI, and the environment it starts with (its code cache, say). */
export type Build = {label: string; cli: string; env?: NodeJS.ProcessEnv; databases?: string};

/** The database a build opens for a bench database: its own copy when it has a folder of them (an older schema). */
const databaseOf = (build: Build, dbPath: string) => (build.databases ? path.join(build.databases, path.basename(dbPath)) : dbPath);

/**
 * User plus system CPU time so far, in ms (clock ticks of 10 ms): of the whole process, or of its
 * main thread alone (the one that handles keys and draws; the counts run on worker threads).
 */
function cpuMs(pid: number, thread: 'process' | 'main' = 'process'): number {
	const fields = readFileSync(thread === 'main' ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
	return (Number(fields[11]) + Number(fields[12])) * 10;
}

const threadCount = (pid: number) => readdirSync(`/proc/${pid}/task`).length;

const open = (build: Build, dbPath: string, terminal?: Terminal): PtyApp => openSift(databaseOf(build, dbPath), {cli: build.cli, env: build.env, terminal});

/** The sorted, filtered view, its first rows on screen. */
async function openSorted(build: Build, dbPath: string): Promise<PtyApp> {
	const app = open(build, dbPath);
	await app.waitFor(firstFrame, 30_000);
	// The views counted at start (on worker threads, seconds at 1M) are done before any key is timed.
	await app.waitFor(/4 All [\d,]+/, 120_000);
	app.press('/');
	await app.waitFor('/ ', 10_000);
	app.type(QUERY);
	await app.waitFor(QUERY, 10_000);
	app.press(KEYS.enter);
	await app.waitFor(screen => screen.includes(`Search: "${QUERY}"`) && firstFrame(screen), 60_000);
	await pause(500);
	return app;
}

/** `count` presses of j, each timed from the write to the frame showing the next row number. */
async function timedSteps(app: PtyApp, count: number): Promise<{times: number[]; cpuPerKey: number}> {
	const times: number[] = [];
	const cpuBefore = cpuMs(app.pid, 'main');
	for (let index = 0; index < count; index++) {
		const at = rowNumber(app.screen());
		times.push(await app.timeKeys('j', screen => rowNumber(screen) === at + 1, 10_000));
		await pause(20);
	}

	return {times, cpuPerKey: (cpuMs(app.pid, 'main') - cpuBefore) / count};
}

const fmt = medianP99;

async function keypress(builds: Build[], sizes: Array<[string, string]>, steps: number): Promise<Row[]> {
	const rows: Row[] = [];
	for (const [label, dbPath] of sizes) {
		for (const build of builds) {
			const app = await openSorted(build, dbPath);
			const {times, cpuPerKey} = await timedSteps(app, steps);
			await close(app);
			rows.push({figure: `j → frame at ${label}, sorted and filtered (ms, median / p99)`, build: build.label, measured: fmt(times), 'main-thread CPU per key (ms)': cpuPerKey.toFixed(1), goal: label === '1M' ? '≤ 16 / ≤ 33' : '—'});
		}
	}

	return rows;
}

/** j pressed while `r` counts every view (the counts come back on the tabs). */
async function keysWhileCounting(builds: Build[], dbPath: string, steps: number): Promise<Row[]> {
	const rows: Row[] = [];
	for (const build of builds) {
		const app = await openSorted(build, dbPath);
		// r lists the view again from its first row, then counts every view, one worker thread per
		// count; keys go in once the rows are back, for as long as the process has more threads than
		// before r (the tabs keep their old counts meanwhile, so the screen cannot tell).
		const idleThreads = threadCount(app.pid);
		const relisted = await app.timeKeys('r', screen => screen.includes('Reloaded from the newest record.') && firstFrame(screen), 60_000);
		const times: number[] = [];
		for (let index = 0; index < steps && threadCount(app.pid) > idleThreads; index++) {
			const at = rowNumber(app.screen());
			times.push(await app.timeKeys('j', screen => rowNumber(screen) === at + 1, 10_000));
			await pause(20);
		}

		await close(app);
		rows.push({figure: 'r → the view listed again at 1M (ms)', build: build.label, measured: relisted.toFixed(0), goal: '—'});
		rows.push({figure: 'j → frame while r counts every view at 1M (ms, median / max)', build: build.label, measured: times.length > 0 ? `${median(times).toFixed(1)} / ${Math.max(...times).toFixed(1)} (${times.length} keys)` : 'counted before the rows were back', goal: 'no key waits for the count'});
	}

	return rows;
}

/** Spawn → first frame, `repeats` times each (also run alone: test/bench/ui-first-frame.ts). */
/** Spawn → first rows of each build at each size, the builds taking turns; in COLS×ROWS unless `terminal` says another size. */
export async function firstFrames(builds: Build[], sizes: Array<[string, string]>, repeats: number, terminal?: Terminal): Promise<Row[]> {
	const where = terminal ? `, ${terminal.cols}×${terminal.rows}` : '';
	const times = new Map<string, {wall: number[]; cpu: number[]}>();
	for (let round = 0; round < repeats; round++) {
		for (const [label, dbPath] of sizes) {
			for (const build of builds) {
				const started = performance.now();
				const app = open(build, dbPath, terminal);
				await app.waitFor(firstFrame, 30_000);
				const cpu = cpuMs(app.pid);
				const key = `${label}\u0000${build.label}`;
				const seen = times.get(key) ?? {wall: [], cpu: []};
				times.set(key, {wall: [...seen.wall, app.lastOutputAt - started], cpu: [...seen.cpu, cpu]});
				await close(app);
			}
		}
	}

	// The app's CPU time up to its first frame (read just after it): what the start costs whatever else runs on the machine.
	return [...times].map(([key, {wall, cpu}]) => {
		const [label, build] = key.split('\u0000');
		return {figure: `spawn → first frame at ${label}${where} (ms, median / min; app CPU median)`, build: build!, measured: `${median(wall).toFixed(0)} / ${Math.min(...wall).toFixed(0)}; CPU ${median(cpu).toFixed(0)}`, goal: '≤ 300 (aim); ≤ 400 at most'};
	});
}

async function droppedKeys(builds: Build[], dbPath: string): Promise<Row[]> {
	const rows: Row[] = [];
	for (const build of builds) {
		const settled = await openSorted(build, dbPath);
		const moved = (await burst(settled, 'j', 200)) - 1;
		await close(settled);
		rows.push({figure: '200 j in a burst, settled sorted view at 1M: rows moved / keys sent', build: build.label, measured: `${moved} / 200`, goal: '200 / 200'});

		const loading = open(build, dbPath);
		await loading.waitFor(firstFrame, 30_000);
		const movedWhileLoading = (await burst(loading, 'j', 120)) - 1;
		await close(loading);
		rows.push({figure: '120 j at the first frame, while pages load (1M): rows moved / keys sent', build: build.label, measured: `${movedWhileLoading} / 120`, goal: '120 / 120'});

		const paging = open(build, dbPath);
		await paging.waitFor(firstFrame, 30_000);
		const pageHeight = await (async () => {
			// One PgDn alone gives the page height; then 20 in a burst from there.
			paging.press(KEYS.pageDown);
			await paging.waitFor(screen => rowNumber(screen) > 1, 10_000);
			return rowNumber(paging.screen()) - 1;
		})();
		const landed = await burst(paging, KEYS.pageDown, 20);
		await close(paging);
		rows.push({figure: '20 PgDn right after the first, while pages load (1M): row landed on / expected', build: build.label, measured: `${landed} / ${1 + 21 * pageHeight}`, goal: 'equal'});
	}

	return rows;
}

/** How many rows the plain view and the sorted, filtered view hold, from the store. */
function viewTotals(dbPath: string): {plain: number; sorted: number} {
	const store = openStore(dbPath);
	try {
		return {plain: store.channelSummary('bugs').item_count, sorted: store.countMatches('bugs', 'status:new')};
	} finally {
		store.close();
	}
}

/**
 * sift's cursor. In the sorted, filtered view the header shows no row number once G has gone to the
 * end, so there G counts once the row number is gone and another ticket than the first is under the
 * cursor.
 */
function siftCursor(app: PtyApp, total: number, sorted: boolean): Cursor {
	const first = selectedTicket(app);
	const atLastRow = sorted
		? (screen: string) => rowNumber(screen) === 0 && ![undefined, first].includes(selectedTicket(app))
		: (screen: string) => rowNumber(screen) === total;
	return {row: rowNumber, total, top: 'g', atBottom: atLastRow};
}

/** vd's cursor on its current sheet (vd's g is a prefix: gg goes to the first row). */
const vdCursor = (app: PtyApp): Cursor => {
	const total = vdTotal(app.screen());
	return {row: vdRow, total, top: 'gg', atBottom: screen => vdRow(screen) === total};
};

type Views = {plain: KeyTimes; sorted: KeyTimes};

/** sift's keys in the plain view (its counts done) and in the sorted, filtered view. */
async function siftViews(build: Build, dbPath: string, steps: number): Promise<Views> {
	const totals = viewTotals(dbPath);
	const plainApp = open(build, dbPath);
	await plainApp.waitFor(firstFrame, 30_000);
	await plainApp.waitFor(/4 All [\d,]+/, 120_000);
	await pause(500);
	const plain = await timeKeys(plainApp, siftCursor(plainApp, totals.plain, false), steps);
	await close(plainApp);
	const sortedApp = await openSorted(build, dbPath);
	const sorted = await timeKeys(sortedApp, siftCursor(sortedApp, totals.sorted, true), steps);
	await close(sortedApp);
	return {plain, sorted};
}

/** vd's keys on the plain sheet (fully loaded) and on its sorted, filtered sheet. */
async function visiDataViews(vd: VisiData, file: string, steps: number): Promise<Views> {
	const {app, close: closeVd} = openVisiData(vd, file);
	try {
		await loaded(app, 600_000);
		await pause(500);
		const plain = await timeKeys(app, vdCursor(app), steps);
		await sortedFiltered(app, 600_000);
		await pause(500);
		const sorted = await timeKeys(app, vdCursor(app), steps);
		return {plain, sorted};
	} finally {
		await closeVd();
	}
}

/** sift's spawn → first frame (as firstFrames times it), `repeats` times. */
async function siftLaunches(build: Build, dbPath: string, repeats: number): Promise<number[]> {
	const times: number[] = [];
	for (let round = 0; round < repeats; round++) {
		const started = performance.now();
		const app = open(build, dbPath);
		await app.waitFor(firstFrame, 30_000);
		times.push(app.lastOutputAt - started);
		await close(app);
	}

	return times;
}

const KEY_ROWS: Array<[keyof KeyTimes, string]> = [['j', 'j'], ['pageDown', 'PgDn'], ['top', 'g (vd: gg)'], ['bottom', 'G']];

/** One comparison row: sift's and vd's medians / p99, their ratio of medians against the goal. */
function versus(key: string, sift: number[], vd: number[] | string, goal = '≤ 1.0×'): Row {
	return {
		key,
		'sift ms (median / p99)': medianP99(sift),
		'VisiData ms (median / p99)': typeof vd === 'string' ? vd : medianP99(vd),
		'sift / VisiData': typeof vd === 'string' ? '—' : `${(median(sift) / median(vd)).toFixed(2)}×`,
		goal,
	};
}

type VisiDataFigures = {views: Views; launches: Array<{firstRows: number; loaded: number}>; file: string};

/** vd's figures at one size; if driving it fails (a prompt that never came, say), why, so the rest of the bench goes on. */
async function measureVisiData(vd: VisiData, count: number, steps: number, launches: number): Promise<VisiDataFigures | {failed: string}> {
	try {
		const file = jsonLinesOf(count);
		const views = await visiDataViews(vd, file, steps);
		const launched: VisiDataFigures['launches'] = [];
		for (let round = 0; round < launches; round++) launched.push(await launchToRows(vd, file, 600_000));
		return {views, launches: launched, file};
	} catch (error) {
		return {failed: `VisiData: not measured, driving it failed: ${String((error as Error).message ?? error).split('\n')[0]}`};
	}
}

/** sift against VisiData at one size: every key in both views, and launch → rows. */
async function againstVisiData(build: Build, label: string, count: number, dbPath: string, steps: number, launches: number): Promise<{rows: Row[]; notes: string[]}> {
	const found = visiData();
	const sift = await siftViews(build, dbPath, steps);
	const siftLaunch = await siftLaunches(build, dbPath, launches);
	const theirs = 'program' in found ? await measureVisiData(found, count, steps, launches) : found;
	const measured = 'views' in theirs ? theirs : undefined;
	const missing = 'skipped' in theirs ? 'skipped' : 'failed';
	const rows: Row[] = [];
	for (const [view, name] of [['plain', 'plain view'], ['sorted', QUERY]] as const) {
		for (const [key, shown] of KEY_ROWS) rows.push(versus(`${shown}, ${name}`, sift[view][key], measured?.views[view][key] ?? missing));
	}

	rows.push(versus('launch → first rows', siftLaunch, measured?.launches.map(each => each.firstRows) ?? missing));
	rows.push(versus('launch → fully loaded (sift: first frame; pages load as needed)', siftLaunch, measured?.launches.map(each => each.loaded) ?? missing, '—'));
	const notes = [
		`Each key timed from its write to the frame showing the cursor's new row number (sift: the header's; vd: \`--disp-rstatus-fmt '${' row {sheet.cursorRowIndex} of {sheet.nRows} '}'\`); ${steps} of j and PgDn, ${Math.max(1, Math.round(steps / 5))} of G and g by turns.`,
		`sift is ${build.label}; launches: ${launches} of each.`,
		measured && 'program' in found
			? `${found.version} (${found.program}) on the same ${label} items as JSON Lines (${path.basename(measured.file)}), keys pressed once it had fully loaded. Its sorted, filtered view: \`status\` = new selected with |, opened with ", sorted by due with [.`
			: 'skipped' in theirs ? theirs.skipped : (theirs as {failed: string}).failed,
		'G in sift\'s sorted, filtered view counts once another ticket than the first is under the cursor (its header shows no row number there).',
	];
	return {rows, notes};
}

/**
 * This build, and the built checkout SIFT_BENCH_BEFORE names, when it names one: its bundle, or the
 * unbundled entry of a build from before the CLI was bundled.
 */
export function buildsToMeasure(): Build[] {
	const builds: Build[] = [{label: 'this build', cli: CLI()}];
	const before = process.env.SIFT_BENCH_BEFORE;
	if (!before) return builds;
	const root = path.resolve(before);
	const cli = [path.join(root, 'dist', 'bin', 'sift.js'), path.join(root, 'dist', 'source', 'cli.js')].find(candidate => existsSync(candidate));
	if (!cli) throw new Error(`SIFT_BENCH_BEFORE=${before}: no built CLI in ${path.join(root, 'dist')} (run npm run build there)`);
	// A build of an older store schema cannot open databases this build has upgraded: SIFT_BENCH_BEFORE_DATA names a folder of its own copies.
	const databases = process.env.SIFT_BENCH_BEFORE_DATA;
	return [...builds, {label: `before (${path.basename(root)})`, cli, ...(databases ? {databases: path.resolve(databases)} : {})}];
}

export async function benchUiSpeed(quick = false): Promise<Row[]> {
	const builds = buildsToMeasure();

	const small = cachedBugDatabase(1000).path;
	const large = cachedBugDatabase(quick ? 20_000 : 1_000_000).path;
	const largeLabel = quick ? '20k' : '1M';
	const sizes: Array<[string, string]> = [['1k', small], [largeLabel, large]];
	const rows: Row[] = [
		...await keypress(builds, sizes, quick ? 30 : 100),
		...await keysWhileCounting(builds, large, quick ? 20 : 60),
		...await firstFrames(builds, sizes, quick ? 2 : 5),
		...await droppedKeys(builds, large),
	];
	printTable(`TUI speed: keypress → frame, first frame, dropped keys (${COLS}×${ROWS} pseudo-terminal)`, rows, [
		'A frame counts when the headless terminal has drawn it (from the key\'s write to the last output chunk that made',
		'the screen show it), so the figures include the pty and the terminal; main-thread CPU per key is the app\'s own',
		'work for a key (the thread that reads keys and draws), whatever else the machine runs.',
		builds[1] ? `Builds measured one after the other in this run: this build, then ${builds[1].label}.` : 'Set SIFT_BENCH_BEFORE=DIR (a built checkout) to measure an earlier build beside this one.',
	]);
	for (const [label, count, dbPath, launches] of [['1k', 1000, small, quick ? 2 : 5], [largeLabel, quick ? 20_000 : 1_000_000, large, quick ? 1 : 2]] as const) {
		const {rows: compared, notes} = await againstVisiData(builds[0]!, label, count, dbPath, quick ? 30 : 100, launches);
		printTable(`TUI keys at ${label} items: sift against VisiData in the same run (${COLS}×${ROWS} pseudo-terminal)`, compared, notes);
		rows.push(...compared);
	}

	return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	await benchUiSpeed(process.argv.includes('--quick'));
}
