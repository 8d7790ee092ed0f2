// Benchmark: `sift import` of the same N records as sift JSON, CSV and GitHub JSON (N = 100k by
// default, 10k with --quick, any with `node dist/test/bench/import-formats.js ROWS`), then an
// upsert into that channel of 100k of them (or N, if fewer) with 10 % changed (`--into --key`), on
// SQLite and PostgreSQL, through the built CLI as a person runs it: rows a second and the
// process's peak RSS (GNU time's %M). A row "bare CLI" is the floor: the same built CLI printing
// its help, every module loaded and nothing read.

import {spawnSync} from 'node:child_process';
import {closeSync, existsSync, mkdtempSync, openSync, rmSync, writeSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {benchDatabase} from './pg-support.js';
import {printTable, type Row} from './support.js';
import {siftEntry} from '../../source/codex/paths.js';

const SIFT = siftEntry();
const TIME = '/usr/bin/time';
/** The upsert's size: 100k rows (10 % of them changed) against a channel of N. */
const UPSERT_ROWS = 100_000;

type Record = {key: string; title: string; status: string; points: number; body: string};

const record = (n: number, changed: boolean): Record => ({key: `K-${n}`, title: `Issue ${n}, with a comma${changed ? ' (edited)' : ''}`, status: ['open', 'closed', 'blocked'][n % 3]!, points: n % 13, body: `Body of K-${n}: "quoted", a second line\nand ünïcödé ✓`});

/** Writes a file a piece at a time (a million records never sit in one string). */
function writeLines(path: string, head: string, count: number, line: (n: number) => string, tail: string): void {
	const fd = openSync(path, 'w');
	try {
		let pending = head;
		for (let n = 0; n < count; n++) {
			pending += line(n);
			if (pending.length > 1 << 20) {
				writeSync(fd, pending);
				pending = '';
			}
		}

		writeSync(fd, pending + tail);
	} finally {
		closeSync(fd);
	}
}

const CHANNEL = {id: 'records', name: 'Records', fields: [
	{key: 'key', label: 'Key', type: 'text', is_unique: true, is_required: true},
	{key: 'title', label: 'Title', type: 'text'},
	{key: 'status', label: 'Status', type: 'select', config: {options: ['open', 'closed', 'blocked'].map(value => ({value, label: value}))}},
	{key: 'points', label: 'Points', type: 'number', config: {integer: true}},
	{key: 'body', label: 'Body', type: 'text', config: {long: true}},
]};

const csvCell = (text: string) => `"${text.replaceAll('"', '""')}"`;
const issue = (row: Record, n: number) => ({number: n + 1, title: row.title, body: row.body, state: n % 3 === 0 ? 'closed' : 'open', labels: [{name: row.status}], html_url: `https://github.com/o/r/issues/${n + 1}`, created_at: '2024-01-01T00:00:00Z'});

function writeFiles(dir: string, count: number, changedEvery = 0): {sift: string; csv: string; github: string} {
	const at = (n: number) => record(n, changedEvery > 0 && n % changedEvery === 0);
	const suffix = changedEvery > 0 ? '-changed' : '';
	const files = {sift: join(dir, `records${suffix}.json`), csv: join(dir, `records${suffix}.csv`), github: join(dir, `issues${suffix}.json`)};
	writeLines(files.sift, `{"channel":${JSON.stringify(CHANNEL)},"items":[`, count, n => `${n === 0 ? '' : ','}\n${JSON.stringify({values: at(n)})}`, '\n]}\n');
	writeLines(files.csv, 'Key,Title,Status,Points,Body\r\n', count, n => {
		const row = at(n);
		return `${row.key},${csvCell(row.title)},${row.status},${row.points},${csvCell(row.body)}\r\n`;
	}, '');
	writeLines(files.github, '[', count, n => `${n === 0 ? '' : ','}\n${JSON.stringify(issue(at(n), n))}`, '\n]\n');
	return files;
}

/** Runs the CLI under GNU time: seconds and peak RSS in MiB. */
function timed(args: string[]): {seconds: number; rssMiB: number} {
	const started = process.hrtime.bigint();
	const result = spawnSync(TIME, ['-f', '%M', process.execPath, SIFT, ...args], {encoding: 'utf8', env: {...process.env, SIFT_DB: ''}, maxBuffer: 1 << 26});
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	if (result.status !== 0) throw new Error(`sift ${args.join(' ')} failed: ${result.stderr.slice(-2000)}`);
	const kb = Number(result.stderr.trim().split('\n').at(-1));
	return {seconds, rssMiB: kb / 1024};
}

export async function benchImportFormats(quick: boolean, count = quick ? 10_000 : 100_000, backends: string[] = ['sqlite', 'postgres']): Promise<void> {
	if (!existsSync(TIME)) {
		console.log('\nimport formats left out: GNU time (/usr/bin/time) is not installed');
		return;
	}

	const upsertCount = Math.min(UPSERT_ROWS, count);
	const dir = mkdtempSync(join(tmpdir(), 'sift-bench-import-'));
	const pg = backends.includes('postgres') ? await benchDatabase('import formats on PostgreSQL') : null;
	try {
		const files = writeFiles(dir, count);
		const changed = writeFiles(dir, upsertCount, 10);
		const floor = timed(['help']);
		const rows: Row[] = [{backend: '—', format: '—', run: 'bare CLI (sift help)', rows: 0, 'rows/s': '', s: Number(floor.seconds.toFixed(2)), 'peak RSS MiB': Math.round(floor.rssMiB), 'RSS ÷ sift import': ''}];
		const targets: Array<{name: string; fresh: () => Promise<string>}> = [];
		if (backends.includes('sqlite')) targets.push({name: 'sqlite', fresh: async () => join(mkdtempSync(join(dir, 'db-')), 'store.db')});
		if (pg) targets.push({name: 'postgres', fresh: async () => {
			await pg.reset();
			return pg.url;
		}});
		for (const target of targets) {
			let siftRss = Number.NaN;
			for (const format of ['sift', 'csv', 'github'] as const) {
				const db = await target.fresh();
				const key = format === 'github' ? 'number' : 'key';
				const imported = timed(['import', files[format], '--channel', 'records', '--db', db]);
				if (format === 'sift') siftRss = imported.rssMiB;
				rows.push({backend: target.name, format, run: 'import', rows: count, 'rows/s': Math.round(count / imported.seconds), s: Number(imported.seconds.toFixed(2)), 'peak RSS MiB': Math.round(imported.rssMiB), 'RSS ÷ sift import': (imported.rssMiB / siftRss).toFixed(2)});
				const upserted = timed(['import', changed[format], '--into', 'records', '--key', key, '--db', db]);
				rows.push({backend: target.name, format, run: `upsert, 10 % changed, into ${count}`, rows: upsertCount, 'rows/s': Math.round(upsertCount / upserted.seconds), s: Number(upserted.seconds.toFixed(2)), 'peak RSS MiB': Math.round(upserted.rssMiB), 'RSS ÷ sift import': ''});
				if (db.startsWith('/')) rmSync(db, {force: true});
			}
		}

		printTable(`sift import: ${count} records as sift JSON, CSV and GitHub JSON, then an upsert of ${upsertCount} with 10 % changed (built CLI, wall time and peak RSS)`, rows, [
			'Every format streams: a sift file into the one transaction; CSV and JSON Lines in a survey pass (the schema), a check pass that stages the rows in a temporary file, then the transaction from the staged rows; GitHub JSON by the incremental JSON scanner the same way.',
			'Peak RSS is the sift process\'s (PostgreSQL\'s server is not counted). A unique field\'s values and an upsert\'s keys go to a temporary SQLite database past 50k rows (store/spill-map.ts); V8\'s heap is bounded as for export (source/commands/bounded-heap.ts).',
		]);
	} finally {
		await pg?.drop();
		rmSync(dir, {recursive: true, force: true});
	}
}

// `node dist/test/bench/import-formats.js [--quick] [ROWS] [--sqlite|--postgres]`: this bench alone.
if (process.argv[1]?.endsWith('import-formats.js')) {
	const size = process.argv.slice(2).find(arg => /^\d+$/.test(arg));
	const backends = process.argv.includes('--sqlite') ? ['sqlite'] : process.argv.includes('--postgres') ? ['postgres'] : undefined;
	await benchImportFormats(process.argv.includes('--quick'), size === undefined ? undefined : Number(size), backends);
}
