// `sift export` and `sift channel` through the built CLI, on a SQLite file and on PostgreSQL: the
// round trip export → import into an empty store → export gives the same bytes, JSON Lines and CSV
// (RFC 4180, read back with csv-parse) hold every value in full, --out is whole or absent, and the
// schema commands change, refuse (count and first names, exit 1, nothing written) and migrate.

import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {parse} from 'csv-parse/sync';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {ensureBuilt, sift, siftJson, tempDir} from '../support/cli.js';
import {createTestDatabase, PG_OFF, type TestDatabase} from '../support/pg.js';

const CHANNEL = {
	id: 'bugs', name: 'Bugs', fields: [
		{key: 'ref', label: 'Ref', type: 'text', is_required: true, is_unique: true},
		{key: 'title', label: 'Title', type: 'text'},
		{key: 'body', label: 'Body', type: 'text', config: {long: true}},
		{key: 'status', label: 'Status', type: 'select', config: {options: [{value: 'new', label: 'New'}, {value: 'wontfix', label: 'Won\'t fix'}, {value: 'fixed', label: 'Fixed'}]}},
		{key: 'tags', label: 'Tags', type: 'multi_select', config: {options: [{value: 'ui', label: 'UI'}, {value: 'api', label: 'API'}]}},
		{key: 'points', label: 'Points', type: 'number'},
		{key: 'done', label: 'Done', type: 'boolean'},
		{key: 'meta', label: 'Meta', type: 'json'},
		{key: 'age', label: 'Age', type: 'formula', config: {expression: 'days_between(created_at, today())'}},
	],
};

const TRICKY = ['plain', 'comma, and "quotes"', 'line one\r\nline two\nthree', 'ünïcödé — 中文 — العربية — 🙂👍🏽', 'tab\there \u0007bell \u001b[31mred', ' leading and trailing '];
const ITEMS = TRICKY.map((title, index) => ({
	values: {ref: `BUG-${String(index + 1).padStart(4, '0')}`, title, status: ['new', 'wontfix', 'fixed'][index % 3], ...(index % 2 ? {tags: ['ui', 'api']} : {}), points: index * 1.5, done: index % 2 === 0, meta: {n: index, list: [1, 'two']}, ...(index === 2 ? {body: 'x'.repeat(227_963)} : {})},
	created_at: `2025-0${index + 1}-15T08:00:00Z`,
}));

type Target = {name: string; enabled: boolean; fresh(): Promise<string>};

let database: TestDatabase | undefined;
const TARGETS: Target[] = [
	{name: 'sqlite', enabled: true, fresh: async () => path.join(tempDir('sift-export-'), 'store.db')},
	{name: 'postgres', enabled: !PG_OFF, fresh: async () => database!.freshSchemaUrl()},
];

beforeAll(async () => {
	ensureBuilt();
	if (!PG_OFF) database = await createTestDatabase();
});
afterAll(async () => database?.drop());

function importInto(db: string, file: string): void {
	const result = sift(['import', file, '--db', db]);
	expect(result.code, result.stderr).toBe(0);
}

function channelFile(): string {
	const file = path.join(tempDir('sift-export-in-'), 'bugs.json');
	writeFileSync(file, JSON.stringify({channel: CHANNEL, items: ITEMS}));
	return file;
}

const withoutIds = (text: string) => text.replaceAll(/"id":"it_[0-9a-z]+"/g, '"id":"…"');

for (const target of TARGETS) {
	describe.skipIf(!target.enabled)(`sift export and sift channel (${target.name})`, () => {
		it('export --format sift → import into an empty store → export gives the same bytes', async () => {
			const first = await target.fresh();
			importInto(first, channelFile());
			const dir = tempDir('sift-export-out-');
			const one = path.join(dir, 'one.json');
			const exported = sift(['export', '--db', first, '--out', one]);
			expect(exported.code, exported.stderr).toBe(0);
			expect(exported.stderr).toMatch(/exported 6 items of channel bugs/);
			const second = await target.fresh();
			importInto(second, one);
			const two = path.join(dir, 'two.json');
			expect(sift(['export', '--db', second, '--out', two]).code).toBe(0);
			expect(withoutIds(readFileSync(two, 'utf8'))).toBe(withoutIds(readFileSync(one, 'utf8')));
			// Every value in full, with the timestamps, oldest first; no temporary file left.
			const parsed = JSON.parse(readFileSync(one, 'utf8')) as {items: Array<{created_at: string; version: number; values: Record<string, unknown>}>};
			expect(parsed.items.map(item => item.values.title)).toEqual(TRICKY);
			expect(parsed.items[2]!.values.body).toHaveLength(227_963);
			expect(parsed.items[0]).toMatchObject({version: 1, created_at: '2025-01-15T08:00:00.000Z'});
			expect(parsed.items[0]!.values).not.toHaveProperty('age');
			expect(readdirSync(dir).sort()).toEqual(['one.json', 'two.json']);
			// Default: to standard output, the same bytes as the file.
			expect(sift(['export', '--db', first]).stdout).toBe(readFileSync(one, 'utf8'));
		});

		it('jsonl and csv hold every value in full; csv is RFC 4180 (read back by csv-parse); --where selects and sorts', async () => {
			const db = await target.fresh();
			importInto(db, channelFile());
			const [head, ...lines] = sift(['export', '--db', db, '--format', 'jsonl']).stdout.split('\n').filter(Boolean).map(line => JSON.parse(line) as Record<string, unknown>);
			// The first line is the channel, so `sift import` reads the rows back into the same types.
			expect(head).toMatchObject({sift: 'jsonl', channel: {id: 'bugs', fields: expect.arrayContaining([expect.objectContaining({key: 'age', type: 'formula'})])}});
			expect(lines).toHaveLength(6);
			expect(lines[2]).toMatchObject({version: 1, created_at: '2025-03-15T08:00:00.000Z', ref: 'BUG-0003', title: TRICKY[2], tags: [], meta: {n: 2, list: [1, 'two']}});
			expect((lines[2]!.body as string).length).toBe(227_963);
			expect(typeof lines[0]!.age).toBe('number');
			const csv = sift(['export', '--db', db, '--format', 'csv']).stdout;
			const rows = parse(csv, {columns: (header: string[]) => header.map(name => name.replace(/:.*/, ''))}) as Array<Record<string, string>>;
			expect(csv.split('\r\n')[0]).toBe('id:safe,version,created_at,updated_at,ref:text:unique:required,title:text,body:text,status:select,tags:multi_select,points:number,done:boolean,meta:json,age:formula');
			expect(rows.map(row => row.title)).toEqual(TRICKY);
			expect(rows[1]).toMatchObject({tags: '["ui","api"]', points: '1.5', done: 'false', meta: '{"n":1,"list":[1,"two"]}', body: ''});
			expect(rows[2]!.body).toHaveLength(227_963);
			expect(rows[0]!.tags).toBe('[]');
			const newest = sift(['export', '--db', db, '--format', 'jsonl', '--where', 'status:new,fixed sort:-created']).stdout.split('\n').filter(Boolean).slice(1).map(line => (JSON.parse(line) as {ref: string}).ref);
			expect(newest).toEqual(['BUG-0006', 'BUG-0004', 'BUG-0003', 'BUG-0001']);
		});

		it('a refused export writes no file; bad flags are usage errors', async () => {
			const db = await target.fresh();
			importInto(db, channelFile());
			const dir = tempDir('sift-export-bad-');
			const out = path.join(dir, 'out.csv');
			const bad = sift(['export', '--db', db, '--where', 'colour:red', '--out', out]);
			expect(bad.code).toBe(1);
			expect(bad.stderr).toMatch(/colour is not a field of this channel/);
			expect(readdirSync(dir)).toEqual([]);
			const format = sift(['export', '--db', db, '--format', 'xml']);
			expect(format.code).toBe(2);
			expect(format.stderr).toMatch(/--format must be one of sift, jsonl, csv, got "xml"/);
			expect(existsSync(out)).toBe(false);
		});

		it('sift channel: show, add-option, a refused retire (exit 1, count and names), a migrated retire, set', async () => {
			const db = await target.fresh();
			importInto(db, channelFile());
			expect(sift(['channel', 'show', '--db', db]).stdout).toMatch(/status\s+select\s+"Status"\n\s+new\s+"New"/);
			const added = siftJson<{ok: boolean; field: {config: {options: unknown[]}}}>(['channel', 'add-option', 'status', 'triaged', '--label', 'Triaged', '--color', 'cyan', '--db', db]);
			expect(added.field.config.options.at(-1)).toEqual({value: 'triaged', label: 'Triaged', color: 'cyan'});
			const refused = sift(['channel', 'retire-option', 'status', 'wontfix', '--db', db]);
			expect(refused.code).toBe(1);
			expect(refused.stderr).toMatch(/2 items hold status "wontfix": BUG-0002, BUG-0005; give --migrate-to VALUE to move them/);
			const before = sift(['export', '--db', db]).stdout;
			const migrated = siftJson<{migrated: number}>(['channel', 'retire-option', 'status', 'wontfix', '--migrate-to', 'triaged', '--db', db]);
			expect(migrated.migrated).toBe(2);
			const after = JSON.parse(sift(['export', '--db', db]).stdout) as {items: Array<{version: number; values: {status: string}}>};
			expect(after.items.filter(item => item.values.status === 'triaged').map(item => item.version)).toEqual([2, 2]);
			expect(before).not.toBe(JSON.stringify(after));
			const events = sift(['events', '--db', db]).stdout;
			expect(events).toMatch(/channel\.updated/);
			expect(sift(['channel', 'set', 'title', '--required', '--db', db]).code).toBe(0);
			const stray = sift(['channel', 'rename-label', 'status', 'new', 'Fresh', '--color', 'red', '--db', db]);
			expect(stray.code).toBe(2);
			expect(stray.stderr).toMatch(/channel rename-label does not take --color/);
			const badConfig = sift(['channel', 'add-field', 'size', 'number', '--config', '{"min": 5, "max": 1}', '--db', db]);
			expect(badConfig.code).toBe(1);
			expect(badConfig.stderr).toMatch(/field size: config.min \(5\) is greater than config.max \(1\)/);
			expect(sift(['channel', 'show', '--db', db]).stdout).not.toMatch(/size/);
		});

		it('sift channel add-field KEY select takes --option VALUE[:LABEL]; without options it shows both formats', async () => {
			const db = await target.fresh();
			importInto(db, channelFile());
			const bare = sift(['channel', 'add-field', 'impact', 'select', '--db', db]);
			expect(bare.code).toBe(2);
			expect(bare.stderr).toContain('a select field needs its options: --option high:High --option low:Low (VALUE[:LABEL], repeated), or --config \'{"options": [{"value": "high", "label": "High"}, {"value": "low", "label": "Low"}]}\'');
			const added = siftJson<{field: {config: {options: unknown[]}}}>(['channel', 'add-field', 'impact', 'select', '--option', 'high:High impact', '--option', 'low', '--db', db]);
			expect(added.field.config.options).toEqual([{value: 'high', label: 'High impact'}, {value: 'low', label: 'low'}]);
			const misplaced = sift(['channel', 'add-field', 'size', 'number', '--option', 'x', '--db', db]);
			expect(misplaced.code).toBe(2);
			expect(misplaced.stderr).toMatch(/--option is for a select or multi_select field, not "number"/);
			expect(sift(['channel', 'add-option', 'impact', 'mid', '--option', 'x', '--db', db]).stderr).toMatch(/channel add-option does not take --option/);
		});
	});
}
