// The import formats' readers (source/import/): format detection, GitHub issues in every shape the
// API and gh write, CSV by RFC 4180 (BOM, CRLF, quoted commas and newlines, repeated columns),
// JSON Lines, control characters, trackers' date formats, the inferred schema and the map file.
// Real files where there are real files (test/fixtures/README.md); the rest written here to pin
// one rule each.

import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {checkNewRows} from '../../store/index.js';
import {channelOfMap, checkMapColumns, readColumnMap, rowOfMap, mapOfChannel, type ColumnMap} from '../../source/import/column-map.js';
import {cleanText} from '../../source/import/clean-text.js';
import {calendarDay, isoDateTime} from '../../source/import/date-time.js';
import {detectFormat, formatOfHead} from '../../source/import/detect-format.js';
import {readGithubFile} from '../../source/import/github.js';
import {inferColumn, inferColumnMap} from '../../source/import/infer.js';
import {surveyTable} from '../../source/import/survey.js';
import {csvFile, jsonLinesFile, RecordStarts, type TableFile, type TableRow} from '../../source/import/tabular.js';
import {cleanTempDirs, tempDir} from './helpers.js';

afterAll(() => cleanTempDirs());

const FIXTURES = new URL('../fixtures/', import.meta.url);
const fixture = (name: string) => new URL(name, FIXTURES).pathname;

/** A small file's rows gathered, and its survey (the first streamed pass), as the import makes them. */
async function tableOf(file: TableFile, map?: ColumnMap) {
	const rows: TableRow[] = [];
	for await (const row of file.rows()) rows.push(row);
	const survey = await surveyTable(file, map);
	return {rows, survey, columns: survey.columns};
}

const readCsv = async (path: string, map?: ColumnMap) => tableOf(csvFile(path), map);
const readJsonLines = async (path: string, map?: ColumnMap) => tableOf(jsonLinesFile(path), map);
const rowsOfMap = (map: ColumnMap, table: {rows: TableRow[]; columns: string[]}) => {
	checkMapColumns(map, table.columns);
	return table.rows.map(row => rowOfMap(map, row));
};

function fileWith(name: string, content: string | Buffer): string {
	const path = join(tempDir(), name);
	writeFileSync(path, content);
	return path;
}

const REST_ISSUE = (number: number, extra: Record<string, unknown> = {}) => ({
	url: `https://api.github.com/repos/o/r/issues/${number}`, html_url: `https://github.com/o/r/issues/${number}`, number, title: `Issue ${number}`,
	user: {login: 'octocat'}, labels: [{name: 'bug'}], state: 'open', assignees: [], milestone: null, created_at: '2024-05-01T10:00:00Z',
	updated_at: '2024-05-02T10:00:00Z', closed_at: null, body: 'body', state_reason: null, ...extra,
});

describe('format detection', () => {
	it('tells each format from its head', () => {
		expect(formatOfHead('{"channel": {"id": "x"}, "items": []}')).toBe('sift');
		expect(formatOfHead('\uFEFF{\n  "items": [],\n  "channel": {}\n}')).toBe('sift');
		expect(formatOfHead('[{"number": 1, "title": "t", "html_url": "https://github.com/o/r/issues/1"}]')).toBe('github');
		expect(formatOfHead(`${JSON.stringify(REST_ISSUE(1))}\n${JSON.stringify(REST_ISSUE(2))}\n`)).toBe('github');
		expect(formatOfHead('{"name": "a", "size": 1}\n{"name": "b", "size": 2}\n')).toBe('jsonl');
		expect(formatOfHead('Key,Summary\r\nA-1,x\r\n')).toBe('csv');
		expect(formatOfHead('\uFEFFKey,Summary\n')).toBe('csv');
	});

	it('reads the real fixtures as what they are', () => {
		expect(detectFormat(fixture('github/freecad-rest-page.json'))).toBe('github');
		expect(detectFormat(fixture('github/anysoftkeyboard-gh-issue-list.json'))).toBe('github');
		for (const csv of ['linear/awaqi-linear-export.csv', 'linear/claw-linear-export-2023.csv', 'jira/bs-sef-2025-team9-jira-export.csv', 'jira/testautogen-jira-export.csv']) expect(detectFormat(fixture(csv))).toBe('csv');
	});
});

describe('GitHub issues', () => {
	it('a real REST page: issues and pull requests mixed, labels, assignees and milestones as options from the data', () => {
		const file = readGithubFile(fixture('github/freecad-rest-page.json'), 'freecad', 'FreeCAD');
		const rows = [...file.rows()];
		expect(rows).toHaveLength(30);
		expect(rows.filter(row => row.values.is_pull_request === true)).toHaveLength(19);
		expect(rows.filter(row => row.values.is_pull_request === false)).toHaveLength(11);
		const fields = new Map(file.channel.fields.map(field => [field.key, field]));
		expect(fields.get('number')).toMatchObject({is_unique: true, is_required: true});
		expect(fields.get('labels')!.config.options!.map(option => option.value)).toContain('Mod: Core');
		expect(fields.get('milestone')!.config.options!.map(option => option.value)).toEqual(['1.1', '1.2']);
		for (const row of rows) {
			expect(row.at).toMatch(/^issue #\d+$/);
			expect(row.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
			expect(row.values.url).toMatch(/^https:\/\/github\.com\/FreeCAD\/FreeCAD\/(issues|pull)\/\d+$/);
		}

		expect(checkNewRows(file.channel, file.rows())).toMatchObject({count: 30, refused: 0});
	});

	it('real `gh issue list --json` output: camelCase keys, upper-case states, author logins', () => {
		const file = readGithubFile(fixture('github/anysoftkeyboard-gh-issue-list.json'), 'ask', 'ASK');
		const rows = [...file.rows()];
		expect(rows).toHaveLength(50);
		expect(rows[0]!.values).toMatchObject({number: 4657, state: 'open', author: 'ilyaza', created_on: '2026-02-07', is_pull_request: false});
		expect(rows[0]!.created_at).toBe('2026-02-07T06:11:47Z');
		expect(checkNewRows(file.channel, file.rows())).toMatchObject({count: 50, refused: 0});
	});

	it('a real REST dump as JSON Lines (300 rust-lang/rust issues and pull requests): NULs removed, CRLF as LF, emoji and curly quotes kept', () => {
		const file = readGithubFile(fixture('github/rust-lang-rest-issues.jsonl'), 'rust', 'Rust');
		const rows = [...file.rows()];
		expect(rows).toHaveLength(300);
		expect(rows.filter(row => row.values.is_pull_request === true)).toHaveLength(193);
		const byNumber = new Map(rows.map(row => [row.values.number, row.values]));
		// #27178's body holds 3,184 NUL characters (a program's output pasted in) among 83,959 characters.
		const nuls = byNumber.get(27178)!.body as string;
		expect(nuls).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
		expect(nuls).toContain('stream did not contain valid UTF-8\nOK!: \nOK!: \nOK!: ');
		expect(nuls.length).toBeLessThanOrEqual(83_959 - 3184);
		expect(byNumber.get(27060)!.body).not.toContain('\r');
		expect(byNumber.get(27109)!.body).toContain('😛');
		expect(byNumber.get(27109)!.body).toContain('don’t');
		const fields = new Map(file.channel.fields.map(field => [field.key, field]));
		expect(fields.get('state_reason')!.config.options!.map(option => option.value)).toEqual(['completed', 'not_planned']);
		expect(checkNewRows(file.channel, file.rows())).toMatchObject({count: 300, refused: 0});
	});

	it('reads an array, JSON Lines, and the concatenated arrays of gh api --paginate alike', () => {
		const issues = [REST_ISSUE(1), REST_ISSUE(2, {pull_request: {url: 'x'}}), REST_ISSUE(3)];
		const shapes = [
			JSON.stringify(issues),
			issues.map(issue => JSON.stringify(issue)).join('\n'),
			`${JSON.stringify(issues.slice(0, 2))}${JSON.stringify(issues.slice(2))}`,
			`${JSON.stringify(issues.slice(0, 1))}\n[]\n${JSON.stringify(issues.slice(1))}\n`,
		];
		for (const shape of shapes) {
			const rows = [...readGithubFile(fileWith('issues.json', shape), 'gh', 'GH').rows()];
			expect(rows.map(row => [row.values.number, row.values.is_pull_request])).toEqual([[1, false], [2, true], [3, false]]);
		}
	});

	it('bodies keep every script and emoji; control characters other than tab and newline are removed, CRLF becomes LF', () => {
		const body = 'Ελληνικά русский 中文 日本語 한국어 العربية עברית हिन्दी ไทย 👩‍💻🎉\r\nline\ttab\u0007bell\u001b[31mred\u0000nul\rend';
		const [row] = readGithubFile(fileWith('one.json', JSON.stringify([REST_ISSUE(9, {body})])), 'gh', 'GH').rows();
		expect(row!.values.body).toBe('Ελληνικά русский 中文 日本語 한국어 العربية עברית हिन्दी ไทย 👩‍💻🎉\nline\ttabbell[31mrednul\nend');
		expect(cleanText('a\r\nb\rc\u007fd')).toBe('a\nb\nc\u007fd');
	});

	it('"pull_request": null is an issue; only a pull_request object makes a pull request', () => {
		const rows = [...readGithubFile(fileWith('prs.json', JSON.stringify([REST_ISSUE(1, {pull_request: null}), REST_ISSUE(2, {pull_request: {url: 'https://api.github.com/repos/o/r/pulls/2', merged_at: null}})])), 'gh', 'GH').rows()];
		expect(rows.map(row => row.values.is_pull_request)).toEqual([false, true]);
	});

	it('every field kept: times of day, merge time, draft, comment count, locked, closed_by, milestone due date, label colours and descriptions', () => {
		const pull = REST_ISSUE(7, {
			pull_request: {url: 'https://api.github.com/repos/o/r/pulls/7', merged_at: '2024-05-03T08:09:10Z'}, draft: true, comments: 12, locked: true,
			closed_by: {login: 'hubot'}, state: 'closed', closed_at: '2024-05-03T08:09:11Z', created_at: '2024-05-01T10:11:12Z', updated_at: '2024-05-03T08:09:12Z',
			milestone: {title: 'v2', due_on: '2024-06-30T07:00:00Z'}, labels: [{name: 'bug', color: 'D73A4A', description: 'Something is not working'}, {name: 'docs', color: '0075ca', description: ''}],
		});
		const file = readGithubFile(fileWith('full.json', JSON.stringify([pull, REST_ISSUE(8, {comments: 0, locked: false})])), 'gh', 'GH');
		const [row, issue] = [...file.rows()];
		expect(row).toMatchObject({created_at: '2024-05-01T10:11:12Z', updated_at: '2024-05-03T08:09:12Z'});
		expect(row!.values).toMatchObject({is_pull_request: true, merged_at: '2024-05-03T08:09:10Z', is_draft: true, comments: 12, locked: true, closed_by: 'hubot', closed_at: '2024-05-03T08:09:11Z', closed_on: '2024-05-03', milestone: 'v2', milestone_due_on: '2024-06-30'});
		expect(issue!.values).toMatchObject({is_pull_request: false, merged_at: null, is_draft: null, comments: 0, locked: false, closed_by: null});
		const labels = file.channel.fields.find(field => field.key === 'labels')!;
		expect(labels.config.options).toEqual([{value: 'bug', label: 'bug', color: '#d73a4a', description: 'Something is not working'}, {value: 'docs', label: 'docs', color: '#0075ca'}]);
		expect(checkNewRows(file.channel, file.rows())).toMatchObject({count: 2, refused: 0});
	});

	it('the real dumps: merge times, drafts and comment counts as the REST API gave them', () => {
		const rows = new Map([...readGithubFile(fixture('github/rust-lang-rest-issues.jsonl'), 'rust', 'Rust').rows()].map(row => [row.values.number, row]));
		const raw = new Map(readFileSync(fixture('github/rust-lang-rest-issues.jsonl'), 'utf8').trim().split('\n').map(line => JSON.parse(line) as Record<string, any>).map(issue => [issue.number, issue]));
		for (const [number, issue] of raw) {
			const row = rows.get(number)!;
			expect(row.values.is_pull_request).toBe(issue.pull_request !== null && issue.pull_request !== undefined);
			expect(row.values.merged_at).toBe(issue.pull_request?.merged_at ?? null);
			expect(row.values.comments).toBe(issue.comments);
			expect(row.values.closed_at).toBe(issue.closed_at);
			expect(row.values.closed_by).toBe(issue.closed_by?.login ?? null);
			expect([row.created_at, row.updated_at]).toEqual([issue.created_at, issue.updated_at]);
		}
	});

	it('a dump mixing two repositories is refused naming both', () => {
		const other = {...REST_ISSUE(5), url: 'https://api.github.com/repos/x/y/issues/5', html_url: 'https://github.com/x/y/issues/5', repository_url: 'https://api.github.com/repos/x/y'};
		expect(() => readGithubFile(fileWith('mixed.json', JSON.stringify([REST_ISSUE(1), other])), 'gh', 'GH')).toThrow(/mixes two repositories, o\/r \(issue #1\) and x\/y \(issue #5\)/);
	});

	it('an issue number that is no whole number from 1 up is refused: 1.5, -3, 1e300', () => {
		for (const number of [1.5, -3, 1e300, 0]) {
			expect(() => readGithubFile(fileWith('bad-number.json', JSON.stringify([{...REST_ISSUE(1), number}])), 'gh', 'GH')).toThrow(/issue 1 has no whole-number "number" from 1 up/);
		}
	});

	it('an object that is no issue is refused, naming its place in the file', () => {
		expect(() => [...readGithubFile(fileWith('bad.json', JSON.stringify([REST_ISSUE(1), {title: 'no number'}])), 'gh', 'GH').rows()]).toThrow(/issue 2 has no whole-number "number"/);
		expect(() => readGithubFile(fileWith('empty.json', '[]'), 'gh', 'GH')).toThrow(/no issues to import/);
	});
});

describe('CSV', () => {
	it('RFC 4180: a BOM, CRLF, quoted commas, quotes and line breaks; each row named by the line it starts on', async () => {
		const path = fileWith('t.csv', '\uFEFFKey,Summary,Note\r\nA-1,"Hello, world","say ""hi"""\r\nA-2,"two\r\nlines",plain\r\nA-3,third,\r\n');
		const table = await readCsv(path);
		expect(table.columns).toEqual(['Key', 'Summary', 'Note']);
		expect(table.rows).toEqual([
			{cells: {Key: 'A-1', Summary: 'Hello, world', Note: 'say "hi"'}, at: 'line 2'},
			{cells: {Key: 'A-2', Summary: 'two\r\nlines', Note: 'plain'}, at: 'line 3'},
			{cells: {Key: 'A-3', Summary: 'third', Note: ''}, at: 'line 5'},
		]);
		const map = inferColumnMap(table.survey, {id: 't', name: 'T'});
		const rows = rowsOfMap(map, table);
		expect(rows[1]!.values.summary).toBe('two\nlines');
		expect(rows[2]!.values.note).toBeNull();
	});

	it('a real Jira export: each repeated column (Watchers, Comment) one list, Jira\'s dates as days and Created as created_at', async () => {
		const table = await readCsv(fixture('jira/testautogen-jira-export.csv'));
		expect(table.rows).toHaveLength(22);
		expect(table.columns.filter(column => column === 'Watchers')).toHaveLength(1);
		const map = inferColumnMap(table.survey, {id: 'jira', name: 'Jira'});
		expect(map.columns['Issue key']).toMatchObject({key: 'issue_key', unique: true});
		expect(map.columns.Watchers).toMatchObject({type: 'multi_select'});
		expect(map.columns.Comment).toMatchObject({type: 'text', config: {long: true}});
		expect(map.columns.Created).toMatchObject({type: 'date'});
		expect(map.columns['Due date']).toMatchObject({type: 'date'});
		expect(map.created_at).toBe('Created');
		const rows = rowsOfMap(map, table);
		const tes9 = rows.find(row => row.values.issue_key === 'TES-9')!;
		expect(tes9.values.watchers).toEqual(['Eric Medlock', 'Saicharan Basireddy', 'Sai Sontineni']);
		expect(tes9.created_at).toBe('2025-08-20T12:38:00.000Z');
		expect(tes9.values.resolved).toBe('2025-08-29');
		// Two of its three Comment cells, the first over two lines: one text, the cells a blank line apart.
		expect(tes9.values.comment).toMatch(/^21\/Aug\/25 10:39 AM;5fe07a7dd3649601392ba191;.*database or not\nAlong with .* application\. \n\n22\/Aug\/25 9:14 AM;/s);
		expect(rows.find(row => row.values.issue_key === 'TES-13')!.values.due_date).toBe('2025-09-18');
		const channel = channelOfMap(map, table.survey, {id: 'jira', name: 'Jira'}, false);
		expect(checkNewRows(channel, rows)).toMatchObject({count: 22, refused: 0});
	});

	it('a real Jira export with a BOM, Hebrew names, emoji and 21 repeated empty columns', async () => {
		const table = await readCsv(fixture('jira/bs-sef-2025-team9-jira-export.csv'));
		expect(table.columns[0]).toBe('Summary');
		expect(table.columns).toHaveLength(95 - 20 - 20);
		expect(table.columns).toContain('Custom field (תאריך התחלה)');
		// A repeated column keeps its non-empty cells: 21 empty ones are an empty list.
		expect(table.rows[0]!.cells['Custom field (Asset type)']).toEqual([]);
		const map = inferColumnMap(table.survey, {id: 'sce', name: 'SCE'});
		expect(map.columns['Custom field (תאריך התחלה)']).toMatchObject({key: 'custom_field'});
		expect(map.columns.Reporter).toMatchObject({type: 'select'});
		const rows = rowsOfMap(map, table);
		const admin = rows.find(row => row.values.issue_key === 'BSSEF25T9-210')!;
		expect(admin.values.reporter).toBe('סעיד אבו האני');
		expect(admin.values.description).toMatch(/^h2\. 4️⃣ System Administrator – Sign-Up\n\nh3\. 🧾 Registration Form Fields\n/);
		expect(admin).toMatchObject({created_at: '2026-01-01T11:53:00.000Z', at: 'line 218'});
		expect(admin.values.last_viewed).toBe('2026-01-01');
		expect(rows.map(row => row.values.custom_field_asset_type)).toEqual(Array.from({length: 12}, () => null));
		const channel = channelOfMap(map, table.survey, {id: 'sce', name: 'SCE'}, false);
		expect(checkNewRows(channel, rows)).toMatchObject({count: 12, refused: 0});
	});

	it('a real Linear export: ISO date-times as days, Created as each item\'s created_at, ID as the key', async () => {
		const table = await readCsv(fixture('linear/awaqi-linear-export.csv'));
		expect(table.columns).toHaveLength(34);
		const map = inferColumnMap(table.survey, {id: 'linear', name: 'Linear'});
		expect(map.created_at).toBe('Created');
		expect(map.columns.ID).toMatchObject({key: 'source_id', type: 'text', unique: true});
		expect(map.columns.Priority).toMatchObject({type: 'select'});
		expect(map.columns.Updated).toMatchObject({type: 'date'});
		expect(map.columns['Time in status (minutes)']).toMatchObject({type: 'number', config: {integer: true}});
		const [first] = rowsOfMap(map, table);
		expect(first).toMatchObject({created_at: '2026-04-01T12:14:14.596Z', at: 'line 2', values: {source_id: 'AWA-27', updated: '2026-04-30', time_in_status_minutes: 58259}});
		expect(first!.values.description).toContain('contributed to the response.\n\nVerification: ');
	});

	it('an older real Linear export: Date#toString date-times, its zone kept; lists given by a map', async () => {
		const path = fixture('linear/claw-linear-export-2023.csv');
		const inferred = inferColumnMap((await readCsv(path)).survey, {id: 'claw', name: 'Claw'});
		expect(inferred.created_at).toBe('Created');
		expect(inferred.columns['Cycle Start']).toMatchObject({type: 'date'});
		const map = readColumnMap(fileWith('claw.yaml', 'created_at: Created\ncolumns:\n  ID: {key: key, type: text, unique: true}\n  Title: {key: title, type: text}\n  Description: {key: description, type: text}\n  Labels: {key: labels, type: multi_select}\n  Roadmaps: {key: roadmaps, type: multi_select}\n  Cycle Start: {key: cycle_start, type: date}\n'));
		const table = await readCsv(path, map);
		const rows = rowsOfMap(map, table);
		expect(rows).toHaveLength(10);
		expect(rows[0]).toMatchObject({created_at: '2022-08-23T13:54:01.000Z', values: {key: 'CLA-1', labels: ['Feature'], roadmaps: ['RavenClaw Milestone', 'NextBird'], cycle_start: '2023-02-06'}});
		expect(rows[7]!.values).toMatchObject({key: 'CLA-8', description: 'Well…', labels: null, roadmaps: null});
		expect(channelOfMap(map, table.survey, {id: 'claw', name: 'Claw'}, false).fields.find(field => field.key === 'roadmaps')!.config.options!.map(option => option.value)).toEqual(['RavenClaw Milestone', 'NextBird']);
	});

	it('a real Excel \'CSV UTF-8\' export of a tracker: BOM and CRLF, its unnamed empty last column and blank last row left out', async () => {
		const table = await readCsv(fixture('sheets/excel-issue-tracker.csv'));
		expect(table.columns).toEqual(['Ticket ID', 'Issue Summary', 'SQL Query', 'API Test', 'Status', 'Resolution Notes']);
		expect(table.rows.map(row => row.at)).toEqual(['line 2', 'line 3', 'line 4', 'line 5', 'line 6']);
		const map = inferColumnMap(table.survey, {id: 'support', name: 'Support'});
		expect(map.columns['Ticket ID']).toMatchObject({key: 'ticket_id', unique: true});
		expect(map.columns.Status).toMatchObject({type: 'select'});
		expect(map.columns['SQL Query']).toMatchObject({type: 'text'});
		const rows = rowsOfMap(map, table);
		expect(rows[2]!.values).toMatchObject({ticket_id: 'T003', sql_query: 'SELECT * FROM payments WHERE txn_id=\'XYZ123\';', status: 'Pending', resolution_notes: 'Escalated to billing'});
		expect(checkNewRows(channelOfMap(map, table.survey, {id: 'support', name: 'Support'}, false), rows)).toMatchObject({count: 5, refused: 0});
	});

	it('a spreadsheet\'s blank rows are no records; a column with no name is dropped while empty, and refused naming the line once it holds a value', async () => {
		const table = await readCsv(fileWith('sheet.csv', 'Task,Owner,\r\nWrite docs,Ana,\r\n,,\r\n"",,\r\nFix login,Bo,\r\n,,\r\n'));
		expect(table.rows).toEqual([{cells: {Task: 'Write docs', Owner: 'Ana'}, at: 'line 2'}, {cells: {Task: 'Fix login', Owner: 'Bo'}, at: 'line 5'}]);
		expect(inferColumnMap(table.survey, {id: 's', name: 'S'}).columns.Task).toMatchObject({unique: true});
		await expect(readCsv(fileWith('named.csv', 'Task,,Owner\nA,,Ana\nB,note,Bo\n'))).rejects.toThrow(/named\.csv: column 2 of the header row has no name, but line 3 has a value in it \("note"\); name the column or delete it/);
		await expect(readCsv(fileWith('blank.csv', ',,\nA,B,C\n'))).rejects.toThrow(/blank\.csv: the header row \(the first row\) names no column/);
	});

	it('refuses what it cannot read, naming the file', async () => {
		await expect(readCsv(fileWith('bad.csv', 'a,b\n1,2,3\n'))).rejects.toThrow(/bad\.csv: not a CSV file sift can read/);
		await expect(readCsv(fileWith('blank.csv', 'a,,c\n1,2,3\n'))).rejects.toThrow(/column 2 of the header row has no name/);
		await expect(readCsv(fileWith('latin1.csv', Buffer.from([0x61, 0x0a, 0xe9, 0x0a])))).rejects.toThrow(/not valid UTF-8/);
	});
});

describe('JSON Lines', () => {
	it('one object a line; JSON types give the field types; a bad line is named', async () => {
		const path = fileWith('t.jsonl', '{"id": "x1", "n": 3, "ok": true, "tags": ["a", "b"]}\n\n{"id": "x2", "n": 4, "ok": false, "tags": ["a"]}\n{"id": "x3", "n": 5, "ok": true, "tags": ["b", "a"]}\n');
		const table = await readJsonLines(path);
		expect(table.rows.map(row => row.at)).toEqual(['line 1', 'line 3', 'line 4']);
		const map = inferColumnMap(table.survey, {id: 't', name: 'T'});
		expect(map.columns).toMatchObject({id: {key: 'source_id', unique: true}, n: {type: 'number'}, ok: {type: 'boolean'}, tags: {type: 'multi_select'}});
		await expect(readJsonLines(fileWith('bad.jsonl', '{"a": 1}\n{"a": \n'))).rejects.toThrow(/line 2 is not valid JSON/);
		await expect(readJsonLines(fileWith('arr.jsonl', '[1]\n'))).rejects.toThrow(/line 1 is not a JSON object/);
	});
});

describe('the inferred schema', () => {
	it('picks the narrowest type every cell fits', () => {
		expect(inferColumn(['1', '2', '-3'])).toEqual({type: 'number', config: {integer: true}});
		expect(inferColumn(['1.5', '2'])).toEqual({type: 'number'});
		expect(inferColumn(['yes', 'No', 'TRUE'])).toEqual({type: 'boolean'});
		expect(inferColumn(['2024-02-29', '2025-01-01'])).toEqual({type: 'date'});
		expect(inferColumn(['2024-02-30'])).not.toEqual({type: 'date'});
		expect(inferColumn(['https://a.example/x', 'http://b.example'])).toEqual({type: 'url'});
		expect(inferColumn(['a@b.example', 'c@d.example'])).toEqual({type: 'email'});
		expect(inferColumn(['open', 'closed', 'open', 'open'])).toEqual({type: 'select'});
		expect(inferColumn(['ui; bug', 'bug', 'ui', 'bug; ux', 'ux'])).toEqual({type: 'multi_select', separator: ';'});
		expect(inferColumn(['one', 'two', 'three'])).toEqual({type: 'text'});
		expect(inferColumn(['x'.repeat(300)])).toEqual({type: 'text', config: {long: true}});
		expect(inferColumn(['', undefined])).toEqual({type: 'text'});
		// Booleans and numbers are read trimmed; dates, URLs and emails as written.
		expect(inferColumn([' 12', '7 '])).toEqual({type: 'number', config: {integer: true}});
		expect(inferColumn([' yes', 'no '])).toEqual({type: 'boolean'});
		expect(inferColumn([' 2024-01-01', '2024-01-02'])).toEqual({type: 'text'});
		expect(inferColumn(['2024-01-01T10:00:00Z', '2024-01-02'])).toEqual({type: 'date'});
		expect(inferColumn([`${'a'.repeat(250)}@b.example`])).toEqual({type: 'text', config: {long: true}});
		expect(inferColumn([true, 'yes'])).toEqual({type: 'json'});
	});
});

describe('dates as trackers write them', () => {
	it('ISO, Jira\'s dd/Mon/yy h:mm AM (or 24-hour) read as UTC, and Date#toString with its offset', () => {
		expect([calendarDay('2026-04-01'), isoDateTime('2026-04-01'), isoDateTime('2026-04-01T12:14:14.596Z')]).toEqual(['2026-04-01', undefined, '2026-04-01T12:14:14.596Z']);
		expect([calendarDay('10/Jan/26 11:19 AM'), isoDateTime('10/Jan/26 11:19 AM')]).toEqual(['2026-01-10', '2026-01-10T11:19:00.000Z']);
		expect([isoDateTime('1/Jan/26 12:05 AM'), isoDateTime('01/Jan/26 12:05 PM'), isoDateTime('30/Jul/18 23:33'), isoDateTime('29/feb/24 9:00 pm')]).toEqual(['2026-01-01T00:05:00.000Z', '2026-01-01T12:05:00.000Z', '2018-07-30T23:33:00.000Z', '2024-02-29T21:00:00.000Z']);
		expect(isoDateTime('14/Jul/99 3:42 PM')).toBe('1999-07-14T15:42:00.000Z');
		expect([calendarDay('Mon Mar 20 2023 04:00:00 GMT-0500 (EST)'), isoDateTime('Mon Mar 20 2023 04:00:00 GMT-0500 (EST)')]).toEqual(['2023-03-20', '2023-03-20T09:00:00.000Z']);
		expect(isoDateTime('Tue Aug 23 2022 13:54:01 GMT+0000 (GMT)')).toBe('2022-08-23T13:54:01.000Z');
		for (const text of ['29/Feb/25 9:00 AM', '10/Jan/26 13:00 PM', '10/Jan/26 0:30 AM', '10/Foo/26 1:00 AM', '10/Jan/26', '2026-02-30', 'Mon Feb 30 2023 05:00:00 GMT+0000 (GMT)', 'Feb 06 2023', '11/01/2023 15:22']) {
			expect([text, calendarDay(text), isoDateTime(text)]).toEqual([text, undefined, undefined]);
		}
	});

	it('a column of them is a date column, and a map\'s created_at column of them gives ISO instants', async () => {
		expect(inferColumn(['10/Jan/26 11:19 AM', '01/Jan/26 11:53 AM', ''])).toEqual({type: 'date'});
		expect(inferColumn(['Mon Feb 06 2023 05:00:00 GMT+0000 (GMT)'])).toEqual({type: 'date'});
		expect(inferColumn(['10/Jan/26 11:19 AM', 'soon'])).toEqual({type: 'text'});
		const map = readColumnMap(fileWith('m.yaml', 'created_at: Created\ncolumns:\n  Key: {key: key, type: text, unique: true}\n  Due: {key: due, type: date}\n'));
		const table = await readCsv(fileWith('t.csv', 'Key,Created,Due\nK-1,14/Jul/25 3:42 PM,31/Jul/25 12:00 AM\nK-2,2025-07-15T08:00:00Z,2025-08-01\nK-3,someday,\n'), map);
		expect(rowsOfMap(map, table).map(row => [row.created_at, row.values.due])).toEqual([['2025-07-14T15:42:00.000Z', '2025-07-31'], ['2025-07-15T08:00:00Z', '2025-08-01'], ['someday', null]]);
	});
});

describe('the map file', () => {
	it('maps named columns to keys, types and options; columns it does not name are left out', async () => {
		const map = readColumnMap(fileWith('map.yaml', 'channel: {id: tickets, name: Tickets}\ncolumns:\n  Key: {key: key, type: text, unique: true}\n  State: {key: state, type: select, options: [Open, {value: Done, label: Finished}]}\n  Tags: {key: tags, type: multi_select, separator: "|"}\n'));
		const table = await readCsv(fileWith('t.csv', 'Key,State,Tags,Extra\nK1,Open,a|b,x\nK2,Done,b,y\n'), map);
		const channel = channelOfMap(map, table.survey, {id: 'x', name: 'x'}, false);
		expect(channel.id).toBe('tickets');
		expect(channel.fields.find(field => field.key === 'state')!.config.options).toEqual([{value: 'Open', label: 'Open'}, {value: 'Done', label: 'Finished'}]);
		expect(channel.fields.find(field => field.key === 'tags')!.config.options).toEqual([{value: 'a', label: 'a'}, {value: 'b', label: 'b'}]);
		expect(rowsOfMap(map, table).map(row => row.values)).toEqual([{key: 'K1', state: 'Open', tags: ['a', 'b']}, {key: 'K2', state: 'Done', tags: ['b']}]);
	});

	it('a value outside a map\'s options is refused naming the value, the row and the field', async () => {
		const map = readColumnMap(fileWith('map.yaml', 'columns:\n  Key: {key: key, type: text, unique: true}\n  State: {key: state, type: select, options: [Open]}\n'));
		const table = await readCsv(fileWith('t.csv', 'Key,State\nK1,Open\nK2,Blocked\n'), map);
		const check = checkNewRows(channelOfMap(map, table.survey, {id: 't', name: 'T'}, false), rowsOfMap(map, table));
		expect(check.refused).toBe(1);
		expect(check.refusals[0]).toMatchObject({at: 'line 3', error: {error: 'validation_failed', fields: [{key: 'state', message: 'values.state must be one of the option values, got "Blocked"'}]}});
		expect(checkNewRows(channelOfMap(map, table.survey, {id: 't', name: 'T'}, true), rowsOfMap(map, table)).refused).toBe(0);
	});

	it('a bad map is refused naming the entry; a column the file lacks is named', async () => {
		expect(() => readColumnMap(fileWith('m.yaml', 'columns:\n  Key: {key: key, type: colour}\n'))).toThrow(/m\.yaml: columns\.Key\.type/);
		expect(() => readColumnMap(fileWith('m.yaml', 'columns:\n  Key: {key: key, type: text, extra: 1}\n'))).toThrow(/m\.yaml: columns\.Key/);
		const table = await readCsv(fileWith('t.csv', 'Key\nK1\n'));
		const map = readColumnMap(fileWith('m.yaml', 'columns:\n  Nope: {key: nope, type: text}\n'));
		expect(() => rowsOfMap(map, table)).toThrow(/the map names the column "Nope", which the file does not have/);
	});

	it('without a map, --into reads each column as the field of its label or key', async () => {
		const table = await readCsv(fileWith('t.csv', 'Key,Due date,points\nK1,2026-01-02,3\n'));
		const channel = {id: 't', name: 'T', fields: [
			{key: 'key', label: 'Key', type: 'text' as const, is_required: true, is_unique: true, config: {}},
			{key: 'due_date', label: 'Due', type: 'date' as const, is_required: false, is_unique: false, config: {}},
			{key: 'points', label: 'Points', type: 'number' as const, is_required: false, is_unique: false, config: {}},
		]};
		expect(rowsOfMap(mapOfChannel(channel, table.columns), table)[0]!.values).toEqual({key: 'K1', due_date: '2026-01-02', points: 3});
		expect(() => mapOfChannel(channel, ['Key', 'Colour'])).toThrow(/the column "Colour" matches no field of channel t/);
	});
});

describe('streaming', () => {
	it('a record\'s start line is the same however the text is cut into chunks (a CR at a chunk\'s end, CRLF inside quotes)', () => {
		const text = 'a,b\r\n"x\r\ny",2\r\n\r\n3,4\r"5\n\n6",7\n8,9';
		const whole = new RecordStarts();
		whole.feed(text);
		whole.end();
		const expected = [whole.shift(), whole.shift(), whole.shift(), whole.shift(), whole.shift()];
		expect(expected).toEqual([1, 2, 5, 6, 9]);
		for (const size of [1, 2, 3, 5]) {
			const cut = new RecordStarts();
			for (let index = 0; index < text.length; index += size) cut.feed(text.slice(index, index + size));
			cut.end();
			expect([cut.shift(), cut.shift(), cut.shift(), cut.shift(), cut.shift()]).toEqual(expected);
		}
	});

	it('rows past the first chunks of a large file are read and named by their line', async () => {
		// 40,000 rows with a quoted two-line cell each: well past csv-parse's and the file stream's chunks.
		const lines = ['Key,Note'];
		for (let index = 0; index < 40_000; index++) lines.push(`K${index},"first\r\nsecond ${index}"`);
		const path = fileWith('big.csv', `${lines.join('\r\n')}\r\n`);
		let count = 0;
		let last: TableRow | undefined;
		for await (const row of csvFile(path).rows()) {
			count++;
			last = row;
		}

		expect(count).toBe(40_000);
		expect(last).toEqual({cells: {Key: 'K39999', Note: 'first\r\nsecond 39999'}, at: `line ${2 + (39_999 * 2)}`});
	});
});
