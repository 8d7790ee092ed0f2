// VisiData (`vd`) driven the way the TUI benches drive sift, for ui-speed.ts's comparison: the same
// demo items as the bench database (same generator, seed and clock) as a JSON Lines file cached
// beside it, `vd FILE` in the same pseudo-terminal harness at the same size, its cursor's row number
// put on its status line so the same key timings read it off the screen.
//   installed?     `vd` on the PATH; else, as root with apt-get, one quiet `apt-get install -y
//                  visidata`; else (or when that fails) a note saying why, never a failed bench
//   loading        vd loads in a thread, drawing rows as they come: its first rows, then "fully
//                  loaded" once the status line's "NN% loading…" is gone
//   sorted view    `status` = new selected (`|`), the selection opened (`"`), sorted by due (`[`)

import {execFileSync} from 'node:child_process';
import {closeSync, existsSync, mkdtempSync, openSync, renameSync, rmSync, writeSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {generateBugItems} from '../../demo-data/generate.js';
import {KEYS, launch, type PtyApp} from '../support/pty.js';
import {COLS, pause, ROWS} from './pty-bench.js';
import {BENCH_NOW, cachedBugFile} from './support.js';

export type VisiData = {program: string; version: string};

/** The status line's right side: the cursor's row (vd counts from 0) and the sheet's row count. */
const STATUS_FORMAT = ' row {sheet.cursorRowIndex} of {sheet.nRows} ';

const onPath = (name: string): string | undefined => {
	try {
		return execFileSync('sh', ['-c', `command -v ${name}`], {encoding: 'utf8'}).trim() || undefined;
	} catch {
		return undefined;
	}
};

/** Why apt-get could not install it: the last line it printed, else the error. */
function aptInstall(): string | undefined {
	try {
		execFileSync('apt-get', ['install', '-y', '-qq', 'visidata'], {stdio: ['ignore', 'ignore', 'pipe'], env: {...process.env, DEBIAN_FRONTEND: 'noninteractive'}, timeout: 300_000});
		return undefined;
	} catch (error) {
		const stderr = String((error as {stderr?: Buffer}).stderr ?? '').trim().split('\n').at(-1);
		return stderr || (error as Error).message.split('\n')[0];
	}
}

let found: VisiData | {skipped: string} | undefined;

/** VisiData when it is installed (or could be installed once with apt-get as root); else why it is skipped. */
export function visiData(): VisiData | {skipped: string} {
	found ??= (() => {
		let program = onPath('vd');
		if (!program) {
			if (!onPath('apt-get')) return {skipped: 'VisiData: skipped, `vd` is not installed and there is no apt-get here to install it with.'};
			if (process.getuid?.() !== 0) return {skipped: 'VisiData: skipped, `vd` is not installed (`apt-get install visidata` needs root; this bench is not root).'};
			console.log('installing VisiData for the comparison: apt-get install -y visidata');
			const failure = aptInstall();
			program = onPath('vd');
			if (!program) return {skipped: `VisiData: skipped, \`apt-get install -y visidata\` failed: ${failure ?? 'no vd afterwards'}`};
		}

		try {
			return {program, version: execFileSync(program, ['--version'], {encoding: 'utf8'}).trim().split('/').at(-1) ?? '?'};
		} catch (error) {
			return {skipped: `VisiData: skipped, \`${program} --version\` failed: ${(error as Error).message.split('\n')[0]}`};
		}
	})();
	return found;
}

/**
 * The bench database's `count` items as JSON Lines (their values and created_at, one object a
 * line), cached beside the database; written under a temporary name and renamed, as it is.
 */
export function jsonLinesOf(count: number, seed = 1): string {
	const path = cachedBugFile(count, seed, 'jsonl');
	if (existsSync(path)) return path;
	console.log(`writing the bench items as JSON Lines for VisiData (cached for later runs): ${path}`);
	const building = `${path}.building-${process.pid}`;
	const fd = openSync(building, 'w');
	try {
		let chunk = '';
		for (const item of generateBugItems({count, seed, now: BENCH_NOW})) {
			chunk += `${JSON.stringify({...item.values, created_at: item.created_at})}\n`;
			if (chunk.length > 1 << 20) {
				writeSync(fd, chunk);
				chunk = '';
			}
		}

		writeSync(fd, chunk);
	} finally {
		closeSync(fd);
	}

	renameSync(building, path);
	return path;
}

/** vd's row under the cursor, from 1 as sift counts (0 when the status line shows none). */
export const vdRow = (screen: string) => {
	const at = /row (\d+) of \d+/.exec(screen)?.[1];
	return at === undefined ? 0 : Number(at) + 1;
};

/** The sheet's row count on vd's status line. */
export const vdTotal = (screen: string) => Number(/row \d+ of (\d+)/.exec(screen)?.[1] ?? 0);

/** vd's first rows: a ticket drawn and its status line up. */
export const vdFirstRows = (screen: string) => /BUG-\d+/.test(screen) && /row 0 of \d+/.test(screen);

/** A thread still at work: the status line's `NN% loading…` (or sorting…, selecting…). */
const busy = (screen: string) => /\d+% \w+…/.test(screen.split('\n').at(-1) ?? '');

export type VisiDataApp = {app: PtyApp; close: () => Promise<void>};

/** `vd FILE` at COLS×ROWS, with no config, plugins or start-up message fetched; its settings folder removed on close. */
export function openVisiData(vd: VisiData, file: string): VisiDataApp {
	const dir = mkdtempSync(join(tmpdir(), 'sift-bench-vd-'));
	const app = launch({program: vd.program, args: ['-N', '--visidata-dir', dir, '--motd-url', '', '--disp-rstatus-fmt', STATUS_FORMAT, file], cols: COLS, rows: ROWS, env: {HOME: dir}});
	return {
		app,
		async close() {
			// gq quits every sheet; killed if it has not gone in 5 s.
			app.press('gq');
			const timer = setTimeout(() => {
				app.kill();
			}, 5000);
			await app.exited;
			clearTimeout(timer);
			rmSync(dir, {recursive: true, force: true});
		},
	};
}

/** Waits until no thread is at work and the row count has held for half a second; the count. */
export async function loaded(app: PtyApp, timeoutMs: number): Promise<number> {
	const started = performance.now();
	let last = -1;
	for (let quiet = 0; quiet < 5;) {
		if (performance.now() - started > timeoutMs) throw new Error(`vd still loading after ${timeoutMs} ms; screen:\n${app.screen()}`);
		await pause(100);
		const screen = app.screen();
		const total = vdTotal(screen);
		quiet = !busy(screen) && total === last && total > 0 ? quiet + 1 : 0;
		last = total;
	}

	return last;
}

/** Launch → vd's first rows drawn, and → fully loaded (its loading thread done), in ms. */
export async function launchToRows(vd: VisiData, file: string, timeoutMs: number): Promise<{firstRows: number; loaded: number}> {
	const started = performance.now();
	const {app, close} = openVisiData(vd, file);
	try {
		await app.waitFor(vdFirstRows, timeoutMs);
		const firstRows = app.lastOutputAt - started;
		await app.waitFor(screen => !busy(screen) && vdTotal(screen) > 0, timeoutMs);
		return {firstRows, loaded: app.lastOutputAt - started};
	} finally {
		await close();
	}
}

/** Types a command's input at its prompt and Enter; back once the prompt has gone (vd drops keys typed while it runs a command). */
async function answer(app: PtyApp, key: string, prompt: string, text: string): Promise<void> {
	app.press(key);
	await app.waitFor(prompt, 10_000);
	app.type(text);
	await app.waitFor(text, 10_000);
	app.press(KEYS.enter);
	await app.waitFor(screen => !screen.includes(prompt), 10_000);
	await pause(300);
}

/**
 * sift's `status:new sort:due` in vd, on a loaded sheet: the status column's `new` rows selected,
 * opened as a sheet of their own, sorted by due ascending; the cursor on its first row.
 */
export async function sortedFiltered(app: PtyApp, timeoutMs: number): Promise<number> {
	await answer(app, 'c', 'column name regex:', '^status$');
	await answer(app, '|', 'select regex:', '^new$');
	await loaded(app, timeoutMs);
	app.press('"');
	await app.waitFor(screen => screen.includes('_selectedref') && vdTotal(screen) > 0, 10_000);
	await loaded(app, timeoutMs);
	await answer(app, 'c', 'column name regex:', '^due$');
	app.press('[');
	await pause(200);
	await loaded(app, timeoutMs);
	app.press('gg');
	await app.waitFor(screen => vdRow(screen) === 1, 10_000);
	return vdTotal(app.screen());
}
