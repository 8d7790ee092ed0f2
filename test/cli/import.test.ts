// `sift import` through the built CLI on SQLite and PostgreSQL: the real GitHub dumps and the
// real Linear and Jira CSV exports (test/fixtures/README.md), three imports of a changing CSV
// (versions and events with actor import), every script, emoji and control characters, a body
// past 100,000 characters, and bad input refused naming the row and the field with nothing written.

import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/index.js';
import {TEXT_HARD_LIMIT} from '../../store/fields/text.js';
import {ensureBuilt, sift, tempDir} from '../support/cli.js';
import {createTestDatabase, PG_OFF, type TestDatabase} from '../support/pg.js';
import {newestItemIds} from '../support/item-ids.js';

const FIXTURES = new URL('../fixtures/', import.meta.url);
const fixture = (name: string) => new URL(name, FIXTURES).pathname;

type Target = {name: string; enabled: boolean; setUp(): Promise<void>; tearDown(): Promise<void>; fresh(): Promise<string>};

let database: TestDatabase | undefined;
const TARGETS: Target[] = [
	{name: 'sqlite', enabled: true, async setUp() {}, async tearDown() {}, fresh: async () => join(tempDir('sift-import-cli-'), 'store.db')},
	{name: 'postgres', enabled: !PG_OFF, async setUp() {
		database = await createTestDatabase();
	}, async tearDown() {
		await database?.drop();
	}, fresh: async () => database!.freshSchemaUrl()},
];

const fileWith = (name: string, content: string | Buffer) => {
	const path = join(tempDir('sift-import-file-'), name);
	writeFileSync(path, content);
	return path;
};

async function withStore<T>(db: string, work: (store: AsyncStore) => Promise<T>): Promise<T> {
	const store = await openAsyncStore(db);
	try {
		return await work(store);
	} finally {
		await store.close();
	}
}

/** Every item of a channel by a key field, with its version and full values, oldest first. */
async function itemsBy(db: string, channelId: string, key: string) {
	return withStore(db, async store => {
		const items = await Promise.all((await newestItemIds(store, channelId)).reverse().map(async id => store.readItem(channelId, id)));
		return Object.fromEntries(items.map(item => [String(item.values[key]), item]));
	});
}

/** What a refused command must leave as it was: channels, items and events. */
async function snapshot(db: string) {
	return withStore(db, async store => {
		const channels = await store.listChannels();
		const state: unknown[] = [channels];
		for (const channel of channels) {
			state.push(await store.getChannel(channel.id), await Promise.all((await newestItemIds(store, channel.id)).map(async id => store.readItem(channel.id, id))), await store.pollEvents(channel.id, {limit: 100}));
		}

		return JSON.parse(JSON.stringify(state, (key, value) => (key === 'age_days' ? undefined : value))) as unknown;
	});
}

describe.each(TARGETS)('sift import on $name', (target: Target) => {
	if (!target.enabled) return;
	beforeAll(async () => {
		ensureBuilt();
		await target.setUp();
	});
	afterAll(() => target.tearDown());

	it('imports the real GitHub dumps (REST with pull requests, gh issue list --json), Linear and Jira CSV exports and an Excel sheet', async () => {
		const db = await target.fresh();
		const runs = [
			['github/freecad-rest-page.json', 'freecad', '30 created, 0 updated, 0 unchanged, 0 conflicts, 0 refused'],
			['github/anysoftkeyboard-gh-issue-list.json', 'ask', '50 created, 0 updated, 0 unchanged, 0 conflicts, 0 refused'],
			['github/rust-lang-rest-issues.jsonl', 'rust', '300 created, 0 updated, 0 unchanged, 0 conflicts, 0 refused'],
			['linear/awaqi-linear-export.csv', 'linear', '27 created, 0 updated, 0 unchanged, 0 conflicts, 0 refused'],
			['jira/bs-sef-2025-team9-jira-export.csv', 'jira', '12 created, 0 updated, 0 unchanged, 0 conflicts, 0 refused'],
			['jira/testautogen-jira-export.csv', 'tes', '22 created, 0 updated, 0 unchanged, 0 conflicts, 0 refused'],
			['sheets/excel-issue-tracker.csv', 'support', '5 created, 0 updated, 0 unchanged, 0 conflicts, 0 refused'],
		] as const;
		for (const [file, channel, summary] of runs) {
			const result = sift(['import', fixture(file), '--channel', channel, '--db', db]);
			expect(result.stderr).toBe('');
			expect(result.code).toBe(0);
			expect(result.stdout).toContain(summary);
		}

		const freecad = await itemsBy(db, 'freecad', 'number');
		expect(Object.values(freecad).filter(item => item.values.is_pull_request === true)).toHaveLength(19);
		expect(freecad['29625']!.created_at).toMatch(/^20\d\d-\d\d-\d\dT/);
		const rust = await itemsBy(db, 'rust', 'number');
		expect(Object.values(rust).filter(item => item.values.is_pull_request === true)).toHaveLength(193);
		expect(rust['27178']!.values.body).not.toContain('\u0000');
		expect(rust['27001']!.created_at < rust['27300']!.created_at).toBe(true);
		// The Jira exports: Jira's dates read (created_at, days), items in created order, Hebrew, emoji and a repeated column kept.
		const jira = await itemsBy(db, 'jira', 'issue_key');
		expect(Object.keys(jira).slice(0, 4)).toEqual(['BSSEF25T9-207', 'BSSEF25T9-210', 'BSSEF25T9-209', 'BSSEF25T9-208']);
		expect(Object.keys(jira).at(-1)).toBe('BSSEF25T9-219');
		expect(jira['BSSEF25T9-210']).toMatchObject({created_at: '2026-01-01T11:53:00.000Z', values: {reporter: 'סעיד אבו האני', created: '2026-01-01', summary: 'System Administrator'}});
		expect(jira['BSSEF25T9-210']!.values.description).toContain('h3. 🔐 After Successful Registration\n\n* Role = *Admin*');
		expect(jira['BSSEF25T9-219']!.values.parent_summary).toBe('Lecturer – Mark Request as Needs Info (Request Additional Information)');
		const tes = await itemsBy(db, 'tes', 'issue_key');
		expect(tes['TES-9']!.values.watchers).toEqual(['Eric Medlock', 'Saicharan Basireddy', 'Sai Sontineni']);
		expect(tes['TES-8']!.values.comment).toContain('next to the “In Progress” text');
		expect(tes['TES-25']!.created_at).toBe('2025-09-22T09:26:00.000Z');
		const linear = await itemsBy(db, 'linear', 'source_id');
		expect(Object.keys(linear)[0]).toBe('AWA-5');
		expect(linear['AWA-27']).toMatchObject({created_at: '2026-04-01T12:14:14.596Z', values: {priority: 'High', updated: '2026-04-30', time_in_status_minutes: 58259}});
		expect(linear['AWA-12']!.values.description).toContain('chunks of 512–1024 tokens');
		// The Excel export: its unnamed empty column and blank row left out.
		const support = await itemsBy(db, 'support', 'ticket_id');
		expect(Object.keys(support)).toEqual(['T001', 'T002', 'T003', 'T004', 'T005']);
		expect(support.T003!.values).toEqual({ticket_id: 'T003', issue_summary: 'Payment failure', sql_query: 'SELECT * FROM payments WHERE txn_id=\'XYZ123\';', api_test: 'POST /payment/process', status: 'Pending', resolution_notes: 'Escalated to billing'});
		// Each item's own times are the issue's, time of day kept, so updated: and sort:-updated mean GitHub's times.
		const rustRaw = readFileSync(fixture('github/rust-lang-rest-issues.jsonl'), 'utf8').trim().split('\n').map(line => JSON.parse(line) as {number: number; created_at: string; updated_at: string; pull_request?: unknown; labels: Array<{name: string; color: string}>});
		for (const issue of rustRaw) {
			expect([rust[String(issue.number)]!.created_at, rust[String(issue.number)]!.updated_at]).toEqual([new Date(issue.created_at).toISOString(), new Date(issue.updated_at).toISOString()]);
			expect(rust[String(issue.number)]!.values.is_pull_request).toBe(issue.pull_request !== null && issue.pull_request !== undefined);
		}

		const before = '2016-01-01T00:00:00Z';
		await withStore(db, async store => {
			const page = await store.readItems('rust', {where: `updated:<${before}`, limit: 500});
			expect(page.items.map(item => item.values.number).sort()).toEqual(rustRaw.filter(issue => issue.updated_at < before).map(issue => issue.number).sort());
			const newest = await store.readItems('rust', {where: 'sort:-updated', limit: 1});
			expect(newest.items[0]!.updated_at).toBe(new Date(rustRaw.map(issue => issue.updated_at).sort().at(-1)!).toISOString());
			const labels = (await store.getChannel('rust')).fields.find(field => field.key === 'labels')!;
			const [label] = rustRaw.flatMap(issue => issue.labels);
			expect(labels.config.options!.find(option => option.value === label!.name)!.color).toBe(`#${label!.color.toLowerCase()}`);
		});
		// Importing a dump again is an upsert on its key: nothing changes.
		const again = sift(['import', fixture('github/freecad-rest-page.json'), '--into', 'freecad', '--key', 'number', '--db', db]);
		expect(again.stdout.trim()).toBe('0 created, 0 updated, 30 unchanged, 0 conflicts, 0 refused');
	}, 240_000);

	it('an older real Linear export with a map: Date#toString date-times as created_at and days, comma lists as multi-selects', async () => {
		const db = await target.fresh();
		const map = fileWith('claw.yaml', 'channel: {id: claw, name: Claw}\ncreated_at: Created\ncolumns:\n  ID: {key: key, type: text, unique: true}\n  Title: {key: title, type: text}\n  Description: {key: description, type: text}\n  Status: {key: status, type: select}\n  Labels: {key: labels, type: multi_select}\n  Roadmaps: {key: roadmaps, type: multi_select}\n  Cycle Start: {key: cycle_start, type: date}\n  Due Date: {key: due, type: date}\n');
		const result = sift(['import', fixture('linear/claw-linear-export-2023.csv'), '--map', map, '--db', db]);
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout).toContain('10 created, 0 updated, 0 unchanged, 0 conflicts, 0 refused');
		const claw = await itemsBy(db, 'claw', 'key');
		expect(Object.keys(claw)).toEqual(['CLA-1', 'CLA-2', 'CLA-3', 'CLA-4', 'CLA-5', 'CLA-6', 'CLA-7', 'CLA-8', 'CLA-9', 'CLA-10']);
		expect(claw['CLA-1']).toMatchObject({created_at: '2022-08-23T13:54:01.000Z', values: {labels: ['Feature'], roadmaps: ['RavenClaw Milestone', 'NextBird'], cycle_start: '2023-02-06', status: 'In Progress'}});
		expect(claw['CLA-3']!.values).toMatchObject({status: 'Triage', due: '2023-02-28'});
		expect(claw['CLA-8']!.values.description).toBe('Well…');
		// Importing it again is an upsert on its key: nothing changes.
		expect(sift(['import', fixture('linear/claw-linear-export-2023.csv'), '--into', 'claw', '--key', 'key', '--map', map, '--db', db]).stdout.trim()).toBe('0 created, 0 updated, 10 unchanged, 0 conflicts, 0 refused');
	});

	it('a re-import over a person\'s change keeps it as a conflict: counted, listed readably, resolved', async () => {
		const db = await target.fresh();
		expect(sift(['import', fileWith('tickets.csv', 'Key,Title,Status\nT-1,Login fails,Open\n'), '--db', db]).code).toBe(0);
		expect(sift(['edit', 'T-1', 'title=Login fails on Safari', '--channel', 'tickets', '--db', db]).code).toBe(0);
		const again = sift(['import', fileWith('tickets-2.csv', 'Key,Title,Status\nT-1,Login broken,Done\n'), '--into', 'tickets', '--key', 'key', '--db', db]);
		expect(again.stdout.trim()).toBe('0 created, 1 updated, 0 unchanged, 1 conflicts, 0 refused');
		const listed = sift(['followups', '--channel', 'tickets', '--db', db]);
		expect(listed.stdout).toContain('title: sync conflict');
		expect(listed.stdout).toMatch(/base: +"Login fails"\n +ours: +"Login fails on Safari"\n +theirs: +"Login broken"/);
		const [conflict] = await withStore(db, store => store.listFollowUps({channelId: 'tickets', status: 'open'}));
		expect(sift(['followups', 'resolve', String(conflict!.id), '--ours', '--theirs', '--channel', 'tickets', '--db', db]).code).toBe(2);
		const resolved = sift(['followups', 'resolve', String(conflict!.id), '--theirs', '--channel', 'tickets', '--db', db]);
		expect(resolved.code, resolved.stderr).toBe(0);
		expect(resolved.stdout).toContain(`resolved follow-up #${conflict!.id}`);
		const items = await itemsBy(db, 'tickets', 'key');
		expect(items['T-1']!.values).toMatchObject({title: 'Login broken', status: 'Done'});
		expect(sift(['followups', '--channel', 'tickets', '--db', db]).stdout.trim()).toBe('No open follow-ups.');
	});

	it('three imports of a changing CSV: creates, versioned edits with actor import, unchanged rows untouched', async () => {
		const db = await target.fresh();
		const first = fileWith('tickets.csv', 'Key,Title,Status,Points\nT-1,Login fails,Open,3\nT-2,"Export, then crash",Open,5\nT-3,Docs,Done,1\nT-4,Typo,Open,1\n');
		expect(sift(['import', first, '--db', db]).stdout).toContain('4 created, 0 updated, 0 unchanged, 0 conflicts, 0 refused');
		const second = fileWith('tickets-2.csv', '\uFEFFKey,Title,Status,Points\r\nT-1,Login fails,Done,3\r\nT-2,"Export, then crash",Open,5\r\nT-3,Docs,Done,1\r\nT-5,"New\r\nrow",Open,2\r\n');
		const two = sift(['import', second, '--into', 'tickets', '--key', 'key', '--db', db]);
		expect(two.code, two.stderr).toBe(0);
		expect(two.stdout.trim()).toBe('1 created, 1 updated, 2 unchanged, 0 conflicts, 0 refused');
		const third = fileWith('tickets-3.csv', 'Key,Title,Status,Points\nT-1,Login fails on Safari,Done,\nT-2,"Export, then crash",Open,5\n');
		expect(sift(['import', third, '--into', 'tickets', '--key', 'key', '--db', db]).stdout.trim()).toBe('0 created, 1 updated, 1 unchanged, 0 conflicts, 0 refused');
		const items = await itemsBy(db, 'tickets', 'key');
		expect(items['T-1']).toMatchObject({version: 3, values: {title: 'Login fails on Safari', status: 'Done'}});
		expect(items['T-1']!.values.points ?? null).toBeNull();
		expect(items['T-2']!.version).toBe(1);
		expect(items['T-4']!.version).toBe(1);
		expect(items['T-5']!.values.title).toBe('New\nrow');
		const events = await withStore(db, async store => (await store.pollEvents('tickets', {limit: 100})).events);
		const t1 = events.filter(event => event.item_id === items['T-1']!.id);
		expect(t1.map(event => [event.type, event.version, event.actor.kind])).toEqual([['item.created', 1, 'import'], ['item.updated', 2, 'import'], ['item.updated', 3, 'import']]);
		expect(t1[1]!.changes).toEqual({status: {from: 'Open', to: 'Done'}});
		expect(t1[2]!.changes).toEqual({title: {from: 'Login fails', to: 'Login fails on Safari'}, points: {from: 3, to: null}});
		expect(events).toHaveLength(4 + 1 + 1 + 1);
	});

	it('every script, emoji and control characters: text kept, C0 controls other than tab and newline removed', async () => {
		const db = await target.fresh();
		const title = 'Ελληνικά русский 中文 日本語 한국어 العربية עברית हिन्दी ไทย ქართული Ge\'ez ግዕዝ 👩‍💻🇺🇦🎉';
		const file = fileWith('scripts.jsonl', `${JSON.stringify({id: 'u1', title, note: 'tab\there\u0007\u001b[2Jend\r\nnext'})}\n${JSON.stringify({id: 'u2', title: 'two', note: 'x'})}\n`);
		const result = sift(['import', file, '--db', db]);
		expect(result.code, result.stderr).toBe(0);
		const items = await itemsBy(db, 'scripts', 'source_id');
		expect(items.u1!.values).toMatchObject({title, note: 'tab\there[2Jend\nnext'});
	});

	it('a body over 100,000 characters (a real dump had one of 227,963)', async () => {
		const db = await target.fresh();
		const body = `${'Stack trace line with ünïcode and 🐛 emoji\n'.repeat(5400)}end`;
		expect(body.length).toBeGreaterThan(227_963);
		const issues = [{number: 6, title: 'short', html_url: 'https://github.com/o/r/issues/6', body: 'ok', state: 'open'}, {number: 7, title: 'long', html_url: 'https://github.com/o/r/issues/7', body, state: 'open'}];
		const result = sift(['import', fileWith('long.json', JSON.stringify(issues)), '--db', db]);
		expect(TEXT_HARD_LIMIT).toBeGreaterThan(body.length);
		expect(result.code, result.stderr).toBe(0);
		expect((await itemsBy(db, 'long', 'number'))['7']!.values.body).toBe(body);
	});

	it('bad input: every refusal names its row and field, and nothing is written', async () => {
		const db = await target.fresh();
		expect(sift(['import', fileWith('base.csv', 'Key,Status,Points\nK-1,Open,1\nK-2,Open,2\nK-3,Done,3\nK-0,Done,4\n'), '--channel', 'base', '--db', db]).code).toBe(0);
		const before = await snapshot(db);
		const bad = fileWith('bad.csv', 'Key,Status,Points\nK-1,Closed,1\nK-4,Open,many\n,Open,3\nK-2,Open,2\nK-2,Done,2\n');
		const result = sift(['import', bad, '--into', 'base', '--key', 'key', '--db', db]);
		expect(result.code).toBe(1);
		expect(result.stdout.split('\n').filter(Boolean)).toEqual([
			'refused line 2 (key "K-1"): refused: values.status must be one of the option values, got "Closed" (allowed: Open, Done)',
			'refused line 3 (key "K-4"): refused: values.points must be a number, got "many"',
			'refused line 4: refused: values.key is the key rows are matched on, and this row has none',
			'refused line 6 (key "K-2"): refused: values.key "K-2" is also the key of line 5; each key may appear once in a file',
			'a value outside a select\'s options is refused; --grow-options adds such values to the field\'s options',
			'0 created, 0 updated, 1 unchanged, 0 conflicts, 4 refused — nothing was written',
		].map(line => expect.stringContaining(line.replace(/ \(allowed: .*\)$/, ''))));
		expect(await snapshot(db)).toEqual(before);
		// --grow-options adds "Closed" and the rest is still refused, so still nothing is written.
		expect(sift(['import', bad, '--into', 'base', '--key', 'key', '--grow-options', '--db', db]).code).toBe(1);
		expect(await snapshot(db)).toEqual(before);
		// A dry run of good rows writes nothing either.
		const good = fileWith('good.csv', 'Key,Status,Points\nK-1,Closed,1\nK-9,Open,9\n');
		const dry = sift(['import', good, '--into', 'base', '--key', 'key', '--grow-options', '--dry-run', '--db', db]);
		expect(dry.stdout).toContain('would add options to status: Closed');
		expect(dry.stdout).toContain('1 created, 1 updated, 0 unchanged, 0 conflicts, 0 refused (dry run: nothing was written)');
		expect(await snapshot(db)).toEqual(before);
		// A new channel whose rows are refused is not created at all.
		const fresh = sift(['import', fileWith('n.csv', 'Key,Due\nA,2026-01-01\nB,2026-02-30\n'), '--map', fileWith('m.yaml', 'columns:\n  Key: {key: key, type: text, unique: true}\n  Due: {key: due, type: date}\n'), '--db', db]);
		expect(fresh.code).toBe(1);
		expect(fresh.stdout).toMatch(/^refused line 3: refused: values\.due must be a real calendar date|^refused line 3: refused: values\.due/m);
		expect(await snapshot(db)).toEqual(before);
	});

	it('--into reads sift files and JSON Lines too: each by the channel\'s fields', async () => {
		const db = await target.fresh();
		const channel = {id: 'hosts', name: 'Hosts', fields: [
			{key: 'name', label: 'Name', type: 'text', is_unique: true, is_required: true},
			{key: 'role', label: 'Role', type: 'select', config: {options: [{value: 'web', label: 'Web'}, {value: 'db', label: 'Database'}]}},
			{key: 'cores', label: 'Cores', type: 'number'},
		]};
		expect(sift(['import', fileWith('hosts.json', JSON.stringify({channel, items: [{values: {name: 'a', role: 'web', cores: 2}}, {values: {name: 'b', role: 'db'}}]})), '--db', db]).code).toBe(0);
		const next = fileWith('hosts-2.json', JSON.stringify({channel, items: [{values: {name: 'a', role: 'db', cores: 2}}, {values: {name: 'c', role: 'web'}}]}));
		expect(sift(['import', next, '--into', 'hosts', '--key', 'name', '--db', db]).stdout.trim()).toBe('1 created, 1 updated, 0 unchanged, 0 conflicts, 0 refused');
		const lines = fileWith('hosts.jsonl', `${JSON.stringify({Name: 'b', Role: 'web', cores: 8})}\n${JSON.stringify({Name: 'c', Role: 'web'})}\n`);
		expect(sift(['import', lines, '--into', 'hosts', '--key', 'name', '--db', db]).stdout.trim()).toBe('0 created, 1 updated, 1 unchanged, 0 conflicts, 0 refused');
		const items = await itemsBy(db, 'hosts', 'name');
		expect(items.a).toMatchObject({version: 2, values: {role: 'db', cores: 2}});
		expect(items.b).toMatchObject({version: 2, values: {role: 'web', cores: 8}});
		expect(items.c!.version).toBe(1);
	});

	it('--dry-run shows the inferred schema and writes nothing; --schema-out writes a map to import with', async () => {
		const db = await target.fresh();
		const csv = fileWith('people.csv', 'Name,Team,Email,Started\nAna,Core,ana@example.com,2024-01-02\nBo,Core,bo@example.com,2024-03-04\nCy,Web,cy@example.com,2024-05-06\nDi,Core,di@example.com,2024-07-08\n');
		const map = join(tempDir('sift-map-'), 'people.yaml');
		const dry = sift(['import', csv, '--dry-run', '--schema-out', map, '--db', db]);
		expect(dry.code, dry.stderr).toBe(0);
		expect(dry.stdout).toContain('  team  select  options: Core, Web');
		expect(dry.stdout).toContain('  email  email');
		expect(dry.stdout).toContain('  started  date');
		expect(dry.stdout).toContain('4 would be created, 0 updated, 0 unchanged, 0 conflicts, 0 refused — nothing was written');
		if (target.name === 'sqlite') expect(existsSync(db)).toBe(false);
		const imported = sift(['import', csv, '--map', map, '--db', db, '--json']);
		expect(imported.code, imported.stderr).toBe(0);
		expect(JSON.parse(imported.stdout)).toMatchObject({channel_id: 'people', created: 4});
		expect((await withStore(db, async store => store.getChannel('people'))).fields.find(field => field.key === 'team')!.config.options).toEqual([{value: 'Core', label: 'Core'}, {value: 'Web', label: 'Web'}]);
	});

	it('a sift file with a UTF-8 BOM imports, and a CSV no longer meets a JSON error', async () => {
		const db = await target.fresh();
		const document = {channel: {id: 'bom', name: 'BOM', fields: [{key: 'title', label: 'Title', type: 'text'}]}, items: [{values: {title: 'after a BOM'}}]};
		const result = sift(['import', fileWith('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(document))])), '--db', db]);
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout).toContain('imported channel bom (BOM) with 1 item into');
		// A dry run of a sift file checks every item and opens no store.
		const other = fileWith('dry.json', JSON.stringify({...document, channel: {...document.channel, id: 'dry'}, items: [{values: {title: 'ok'}}, {values: {title: 5}}]}));
		const dry = sift(['import', other, '--dry-run', '--db', db]);
		expect(dry.code).toBe(1);
		expect(dry.stdout).toContain('refused items[1]: refused: values.title must be a string, got 5');
		expect(dry.stdout).toContain('1 would be created, 0 updated, 0 unchanged, 0 conflicts, 1 refused — nothing was written');
		expect((await withStore(db, async store => store.listChannelNames())).map(channel => channel.id)).toEqual(['bom']);
		const csv = sift(['import', fileWith('report.csv', 'report,count\nweekly,3\n'), '--db', db]);
		expect(csv.stderr).not.toContain('expected "{"');
		expect(csv.code).toBe(0);
	});
});
