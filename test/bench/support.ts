// Shared pieces of the benchmarks: timing, a table printer, seeded randomness, bench databases.

import {existsSync, mkdirSync, mkdtempSync, renameSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {bugsChannel, generateBugItems, mulberry32} from '../../demo-data/generate.js';
import {openStore, type Store, type StoreOptions} from '../../store/index.js';

export type Row = Record<string, string | number>;

/** Prints a titled table with right-aligned numbers; notes go underneath. */
export function printTable(title: string, rows: Row[], notes: string[] = []): void {
	const columns = [...new Set(rows.flatMap(row => Object.keys(row)))];
	const cell = (value: string | number | undefined) => (value === undefined ? '' : typeof value === 'number' ? formatNumber(value) : value);
	const widths = columns.map(column => Math.max(column.length, ...rows.map(row => cell(row[column]).length)));
	const line = (values: string[], numeric: boolean[]) => `| ${values.map((value, index) => (numeric[index] ? value.padStart(widths[index]!) : value.padEnd(widths[index]!))).join(' | ')} |`;
	console.log(`\n${title}`);
	console.log(line(columns, columns.map(() => false)));
	console.log(`|${widths.map(width => '-'.repeat(width + 2)).join('|')}|`);
	for (const row of rows) {
		console.log(line(columns.map(column => cell(row[column])), columns.map(column => typeof row[column] === 'number' || /^[\d.]+×?$/.test(String(row[column])))));
	}

	for (const note of notes) {
		console.log(note);
	}
}

export function formatNumber(value: number): string {
	if (Number.isInteger(value)) {
		return String(value);
	}

	const magnitude = Math.abs(value);
	return value.toFixed(magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3);
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function percentile(values: number[], fraction: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

/** Microseconds taken by `work`. */
export function timeUs(work: () => unknown): number {
	const start = process.hrtime.bigint();
	work();
	return Number(process.hrtime.bigint() - start) / 1000;
}

/** Seeded PRNG, so every run makes the same choices. */
export const seeded = mulberry32;

/** A fixed clock for generated data, so cached databases are the same on every run. */
export const BENCH_NOW = new Date('2026-01-01T00:00:00.000Z');

const scratch: string[] = [];

/** A fresh bugs store of `count` demo items in a scratch directory (removed by cleanScratch). */
export function freshBugStore(count: number, options: StoreOptions = {}, seed = 1): Store {
	const dir = mkdtempSync(join(tmpdir(), 'sift-bench-run-'));
	scratch.push(dir);
	const store = openStore(join(dir, 'bench.db'), {...options, create: true});
	store.importChannel({channel: bugsChannel, items: generateBugItems({count, seed, now: BENCH_NOW})});
	return store;
}

export function cleanScratch(): void {
	for (const dir of scratch.splice(0)) {
		rmSync(dir, {recursive: true, force: true});
	}
}

/** Bumped when the generator or the store's file layout changes, so stale caches are not reused (5: the (status, sort key) indexes). */
const CACHE_VERSION = 5;

/** Where the cached bench file of `count` demo items (seed `seed`) with this extension lives; its folder made if missing. */
export function cachedBugFile(count: number, seed: number, extension: string): string {
	const dir = process.env.SIFT_BENCH_CACHE || join(tmpdir(), 'sift-bench');
	mkdirSync(dir, {recursive: true});
	return join(dir, `bugs-${count}-seed${seed}-v${CACHE_VERSION}.${extension}`);
}

/**
 * A read-only bench database of `count` demo items, cached by size and seed under
 * $SIFT_BENCH_CACHE, else os.tmpdir()/sift-bench/ (run.ts points TMPDIR at a folder it removes
 * when the run ends: set SIFT_BENCH_CACHE to keep the large files between runs). Built (and the import timed) only when missing; built under a temporary name and
 * renamed, so an interrupted build never leaves a half file behind.
 */
export function cachedBugDatabase(count: number, seed = 1): {path: string; importSeconds?: number} {
	const path = cachedBugFile(count, seed, 'db');
	if (existsSync(path)) {
		return {path};
	}

	console.log(`building the bench database of ${count} items (cached for later runs): ${path}`);
	const building = `${path}.building-${process.pid}`;
	const store = openStore(building, {create: true});
	const started = process.hrtime.bigint();
	store.importChannel({channel: bugsChannel, items: generateBugItems({count, seed, now: BENCH_NOW})});
	const importSeconds = Number(process.hrtime.bigint() - started) / 1e9;
	// No ANALYZE: the benches see the query plans a real store file gets.
	store.db.pragma('wal_checkpoint(TRUNCATE)');
	store.close();
	for (const suffix of ['-wal', '-shm']) {
		rmSync(building + suffix, {force: true});
	}

	renameSync(building, path);
	return {path, importSeconds};
}

/** The sizes the store read benches run at: 1k, 100k and 1M items (1k and 20k with --quick). */
export const storeBenchSizes = (quick: boolean): number[] => (quick ? [1000, 20_000] : [1000, 100_000, 1_000_000]);

/** How often a timed read repeats on a database of `size` items: fewer times on the largest files. */
export const repeatsFor = (size: number): number => (size >= 500_000 ? 11 : 21);

/** The median milliseconds `work` takes over `repeats` runs, after one run to warm up. */
export function medianMs(work: () => unknown, repeats: number): number {
	work();
	return median(Array.from({length: repeats}, () => timeUs(work))) / 1000;
}

/**
 * The rows `measure` gives for the cached bench database of each size (cachedBugDatabase), opened
 * read in turn and closed; the notes say which files were cached and how long building one took.
 */
export function acrossBugDatabases(sizes: readonly number[], measure: (store: Store, size: number) => Row[]): {rows: Row[]; notes: string[]} {
	const rows: Row[] = [];
	const notes: string[] = [];
	for (const size of sizes) {
		const {path, importSeconds} = cachedBugDatabase(size);
		notes.push(importSeconds === undefined ? `${size} items: cached ${path}` : `${size} items: built ${path}; importing took ${importSeconds.toFixed(2)} s`);
		const store = openStore(path);
		try {
			rows.push(...measure(store, size));
		} finally {
			store.close();
		}
	}

	return {rows, notes};
}

export const human = {kind: 'human'} as const;
export const agent = (runId = 'bench') => ({kind: 'agent', run_id: runId}) as const;

/**
 * What people do while a reader is away (the catch-up benches): 30 title edits and 3 deletes of
 * distinct items picked from `ids`, and 12 creates: 45 changes.
 */
export function peopleMeanwhile(store: Store, ids: string[], random: () => number): void {
	const pool = [...ids];
	const pick = () => pool.splice(Math.floor(random() * pool.length), 1)[0]!;
	for (let n = 0; n < 30; n++) {
		const itemId = pick();
		const title = store.readItem('bugs', itemId).values.title as string;
		store.editItem({channelId: 'bugs', itemId, values: {title: `${title.slice(0, 180)} (edited)`}, actor: human});
	}

	for (let n = 0; n < 12; n++) {
		store.createItem('bugs', {ticket: `LATE-${n}`, title: `filed later ${n}`}, human);
	}

	for (let n = 0; n < 3; n++) {
		store.deleteItem('bugs', pick(), human);
	}
}
