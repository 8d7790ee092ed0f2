// The TUI's first frame alone (docs/architecture.md#start-up): spawn of the built CLI in a 140×40
// pseudo-terminal → the header and the first rows drawn, at 1k and 1M items (20k with --quick),
// the same measure as the first-frame rows of ui-speed.ts, without the minutes of its other parts.
// SIFT_BENCH_BEFORE=DIR measures a built checkout of an earlier commit the same way, in the same run.
//   node dist/test/bench/ui-first-frame.js [--quick] [--repeats N]

import {cachedBugDatabase, printTable, type Row} from './support.js';
import {buildsToMeasure, firstFrames} from './ui-speed.js';

export async function benchFirstFrame(quick = false, repeats = quick ? 3 : 11): Promise<Row[]> {
	const builds = buildsToMeasure();
	const sizes: Array<[string, string]> = [['1k', cachedBugDatabase(1000).path], [quick ? '20k' : '1M', cachedBugDatabase(quick ? 20_000 : 1_000_000).path]];
	const rows = await firstFrames(builds, sizes, repeats);
	printTable(`TUI first frame: spawn → header and first rows (140×40 pseudo-terminal, ${repeats} starts each)`, rows, [
		'Builds take turns start by start, so a busy moment of the machine falls on both alike.',
		'App CPU is user + system time of the whole process (every thread) when the first frame shows.',
	]);
	return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const at = process.argv.indexOf('--repeats');
	await benchFirstFrame(process.argv.includes('--quick'), at === -1 ? undefined : Number(process.argv[at + 1]));
}
