// Every export format comes back as itself, through the built CLI on SQLite and PostgreSQL: the
// real GitHub dump, a real Jira CSV and the demo channel, each exported as CSV and JSON Lines,
// imported without a map, and exported again give the same values; sift's own export imports
// --into its channel by key with every row unchanged. Also: --channel for a sift file, the
// --grow-options hint of a refusal, and a killed import's staging folder removed by the next sift.

import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {spawnSync} from 'node:child_process';
import {parse} from 'csv-parse/sync';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {ensureBuilt, sift, tempDir} from '../support/cli.js';
import {createTestDatabase, PG_OFF, type TestDatabase} from '../support/pg.js';

const FIXTURES = new URL('../fixtures/', import.meta.url);
const fixture = (name: string) => new URL(name, FIXTURES).pathname;

type Target = {name: string; enabled: boolean; fresh(): Promise<string>};

let database: TestDatabase | undefined;
const TARGETS: Target[] = [
	{name: 'sqlite', enabled: true, fresh: async () => path.join(tempDir('sift-round-trip-'), 'store.db')},
	{name: 'postgres', enabled: !PG_OFF, fresh: async () => database!.freshSchemaUrl()},
];

beforeAll(async () => {
	ensureBuilt();
	if (!PG_OFF) database = await createTestDatabase();
});
afterAll(async () => database?.drop());

function ok(args: string[], env?: NodeJS.ProcessEnv): string {
	const result = sift(args, env);
	expect(result.code, `sift ${args.join(' ')}: ${result.stderr}${result.stdout}`).toBe(0);
	return result.stdout;
}

/** A CSV export's rows without id and version (a new item's own), and without a formula's column (a CSV carries no expression). */
function csvValues(text: string): string[][] {
	const [header, ...rows] = parse(text, {relax_column_count: false}) as string[][];
	const kept = header!.map((name, index) => (index < 2 || name.endsWith(':formula') ? -1 : index)).filter(index => index >= 0);
	return [header!, ...rows].map(row => kept.map(index => row[index]!));
}

/** A JSON Lines export: its head's channel, and its rows without id and version. */
function jsonlValues(text: string): {channel: unknown; rows: unknown[]} {
	const [head, ...rows] = text.trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>);
	return {channel: head!.channel, rows: rows.map(({id: _id, version: _version, ...rest}) => rest)};
}

for (const target of TARGETS) {
	describe.skipIf(!target.enabled)(`export → import → export (${target.name})`, () => {
		const sources = [
			{name: 'GitHub REST page', channel: 'freecad', key: 'number', load: (db: string) => ok(['import', fixture('github/freecad-rest-page.json'), '--channel', 'freecad', '--db', db])},
			{name: 'Jira CSV', channel: 'tes', key: 'issue_key', load: (db: string) => ok(['import', fixture('jira/testautogen-jira-export.csv'), '--channel', 'tes', '--db', db])},
			{name: 'demo channel', channel: 'bugs', key: 'ticket', load: (db: string) => ok(['demo', '--db', db, '--items', '40', '--no-open'])},
		];

		for (const source of sources) {
			it(`${source.name}: CSV and JSON Lines give the same values back without a map, and re-import --into unchanged`, async () => {
				const db = await target.fresh();
				source.load(db);
				const dir = tempDir('sift-round-trip-files-');
				for (const format of ['csv', 'jsonl'] as const) {
					const first = path.join(dir, `first.${format}`);
					ok(['export', '--db', db, '--channel', source.channel, '--format', format, '--out', first]);
					const copy = await target.fresh();
					// No --format and no map: told from the content, read into the same types.
					ok(['import', first, '--channel', source.channel, '--db', copy]);
					const again = ok(['export', '--db', copy, '--channel', source.channel, '--format', format]);
					const before = readFileSync(first, 'utf8');
					if (format === 'csv') {
						expect(csvValues(again)).toEqual(csvValues(before));
					} else {
						expect(jsonlValues(again)).toEqual(jsonlValues(before));
					}

					// sift's own export, read --into its channel by key: every row unchanged.
					const rows = format === 'csv' ? csvValues(before).length - 1 : jsonlValues(before).rows.length;
					const into = ok(['import', first, '--into', source.channel, '--key', source.key, '--db', db]);
					expect(into.trim()).toBe(`0 created, 0 updated, ${rows} unchanged, 0 conflicts, 0 refused`);
				}
			}, 300_000);
		}

		it('--channel names the channel a sift file makes', async () => {
			const db = await target.fresh();
			const file = path.join(tempDir('sift-round-trip-sift-'), 'bugs.json');
			writeFileSync(file, JSON.stringify({channel: {id: 'bugs', name: 'Bugs', fields: [{key: 'title', label: 'Title', type: 'text'}]}, items: [{values: {title: 'one'}}]}));
			expect(ok(['import', file, '--channel', 'renamed', '--db', db])).toMatch(/imported channel renamed/);
			expect(ok(['import', file, '--channel', 'dry', '--dry-run', '--db', db])).toMatch(/channel dry/);
			expect(ok(['channels', '--db', db])).toMatch(/renamed/);
		});

		it('a label outside a select\'s options refused during an import names --grow-options', async () => {
			const db = await target.fresh();
			const dir = tempDir('sift-round-trip-grow-');
			writeFileSync(path.join(dir, 'first.csv'), 'Key,Status\nT-1,Open\nT-2,Open\nT-3,Done\nT-4,Done\n');
			ok(['import', path.join(dir, 'first.csv'), '--channel', 'tickets', '--db', db]);
			writeFileSync(path.join(dir, 'next.csv'), 'Key,Status\nT-5,Blocked\n');
			const refused = sift(['import', path.join(dir, 'next.csv'), '--into', 'tickets', '--key', 'key', '--db', db]);
			expect(refused.code).toBe(1);
			expect(refused.stdout).toMatch(/"Blocked"/);
			expect(refused.stdout).toMatch(/--grow-options adds such values/);
			expect(ok(['import', path.join(dir, 'next.csv'), '--into', 'tickets', '--key', 'key', '--grow-options', '--db', db])).not.toMatch(/--grow-options/);
		});
	});
}

describe('a killed import\'s staged rows', () => {
	it('the next sift removes the staging folders whose sift is gone, and leaves a live one\'s', async () => {
		const tmp = tempDir('sift-round-trip-tmp-');
		// A process that has ended: its pid names a killed import's folder.
		const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {encoding: 'utf8'});
		const dead = path.join(tmp, `sift-import-${gone.stdout}-abc123`);
		const live = path.join(tmp, `sift-import-${process.pid}-def456`);
		for (const dir of [dead, live]) {
			mkdirSync(dir);
			writeFileSync(path.join(dir, 'rows.jsonl'), '{"values":{}}\n');
		}

		const db = path.join(tempDir('sift-round-trip-reap-'), 'store.db');
		ok(['demo', '--db', db, '--items', '5', '--no-open'], {TMPDIR: tmp});
		ok(['export', '--db', db, '--format', 'csv'], {TMPDIR: tmp});
		expect(readdirSync(tmp).filter(name => name.startsWith('sift-import-'))).toEqual([path.basename(live)]);
	});
});
