// Benchmark: `sift import` of the same N records as sift JSON, CSV and GitHub JSON, and an upsert
// of them with 10 % changed (`--into --key`), on SQLite and PostgreSQL, through the built CLI as a
// person runs it: rows a second and the process's peak RSS (GNU time's %M). N is 100k (10k with --quick).

import {spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {benchDatabase} from './pg-support.js';
import {printTable, type Row} from './support.js';

const SIFT = fileURLToPath(new URL('../../source/cli.js', import.meta.url));
const TIME = '/usr/bin/time';

const record = (n: number, changed: boolean) => ({key: `K-${n}`, title: `Issue ${n}, with a comma${changed ? ' (edited)' : ''}`, status: ['open', 'closed', 'blocked'][n % 3]!, points: n % 13});

function writeFiles(dir: string, count: number, changedEvery = 0): {sift: string; csv: string; github: string} {
	const rows = Array.from({length: count}, (_, n) => record(n, changedEvery > 0 && n % changedEvery === 0));
	const suffix = changedEvery > 0 ? '-changed' : '';
	const sift = join(dir, `records${suffix}.json`);
	writeFileSync(sift, JSON.stringify({channel: {id: 'records', name: 'Records', fields: [
		{key: 'key', label: 'Key', type: 'text', is_unique: true, is_required: true},
		{key: 'title', label: 'Title', type: 'text'},
		{key: 'status', label: 'Status', type: 'select', config: {options: ['open', 'closed', 'blocked'].map(value => ({value, label: value}))}},
		{key: 'points', label: 'Points', type: 'number', config: {integer: true}},
	]}, items: rows.map(values => ({values}))}));
	const csv = join(dir, `records${suffix}.csv`);
	writeFileSync(csv, `Key,Title,Status,Points\n${rows.map(row => `${row.key},"${row.title}",${row.status},${row.points}`).join('\n')}\n`);
	const github = join(dir, `issues${suffix}.json`);
	writeFileSync(github, JSON.stringify(rows.map((row, n) => ({number: n + 1, title: row.title, body: `Body of ${row.key}`, state: n % 3 === 0 ? 'closed' : 'open', labels: [{name: row.status}], html_url: `https://github.com/o/r/issues/${n + 1}`, created_at: '2024-01-01T00:00:00Z'}))));
	return {sift, csv, github};
}

/** Runs the CLI under GNU time: seconds and peak RSS in MB. */
function timed(args: string[]): {seconds: number; rssMb: number} {
	const started = process.hrtime.bigint();
	const result = spawnSync(TIME, ['-f', '%M', process.execPath, SIFT, ...args], {encoding: 'utf8', env: {...process.env, SIFT_DB: ''}});
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	if (result.status !== 0) throw new Error(`sift ${args.join(' ')} failed: ${result.stderr}`);
	const kb = Number(result.stderr.trim().split('\n').at(-1));
	return {seconds, rssMb: kb / 1024};
}

export async function benchImportFormats(quick: boolean): Promise<void> {
	if (!existsSync(TIME)) {
		console.log('\nimport formats left out: GNU time (/usr/bin/time) is not installed');
		return;
	}

	const count = quick ? 10_000 : 100_000;
	const dir = mkdtempSync(join(tmpdir(), 'sift-bench-import-'));
	const pg = await benchDatabase('import formats on PostgreSQL');
	try {
		const files = writeFiles(dir, count);
		const changed = writeFiles(dir, count, 10);
		const rows: Row[] = [];
		const targets: Array<{name: string; fresh: () => Promise<string>}> = [{name: 'sqlite', fresh: async () => join(mkdtempSync(join(dir, 'db-')), 'store.db')}];
		if (pg) targets.push({name: 'postgres', fresh: async () => {
			await pg.reset();
			return pg.url;
		}});
		for (const target of targets) {
			for (const format of ['sift', 'csv', 'github'] as const) {
				const db = await target.fresh();
				const key = format === 'github' ? 'number' : 'key';
				const imported = timed(['import', files[format], '--channel', 'records', '--db', db]);
				rows.push({backend: target.name, format, run: 'import', rows: count, 'rows/s': Math.round(count / imported.seconds), s: Number(imported.seconds.toFixed(2)), 'peak RSS MB': Math.round(imported.rssMb)});
				const upserted = timed(['import', changed[format], '--into', 'records', '--key', key, '--db', db]);
				rows.push({backend: target.name, format, run: 'upsert, 10 % changed', rows: count, 'rows/s': Math.round(count / upserted.seconds), s: Number(upserted.seconds.toFixed(2)), 'peak RSS MB': Math.round(upserted.rssMb)});
			}
		}

		printTable(`sift import: ${count} records as sift JSON, CSV and GitHub JSON, then an upsert of them with 10 % changed (built CLI, wall time and peak RSS)`, rows, [
			'A sift file streams; CSV and GitHub files are read as records and every row is checked before the one import (CSV is parsed whole, in memory).',
		]);
	} finally {
		await pg?.drop();
		rmSync(dir, {recursive: true, force: true});
	}
}
