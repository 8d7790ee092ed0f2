// The import formats' readers (source/import/): format detection, GitHub issues in every shape the
// API and gh write, CSV by RFC 4180 (BOM, CRLF, quoted commas and newlines, repeated columns),
// JSON Lines, control characters, the inferred schema and the map file. Real files where there
// are real files (test/fixtures/README.md); the rest written here to pin one rule each.

import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {checkNewRows} from '../../store/index.js';
import {channelOfMap, checkMapColumns, readColumnMap, rowOfMap, mapOfChannel, type ColumnMap} from '../../source/import/column-map.js';
import {cleanText} from '../../source/import/clean-text.js';
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
		expect(detectFormat(fixture('linear/linear-export.csv'))).toBe('csv');
		expect(detectFormat(fixture('jira/jira-export.csv'))).toBe('csv');
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

	it('a column name repeated (Jira: one Labels column per label) is one list', async () => {
		const table = await readCsv(fixture('jira/jira-export.csv'));
		expect(table.columns.filter(column => column === 'Labels')).toHaveLength(1);
		expect(Array.isArray(table.rows[0]!.cells.Labels)).toBe(true);
		const map = inferColumnMap(table.survey, {id: 'jira', name: 'Jira'});
		expect(map.columns.Labels).toMatchObject({type: 'multi_select'});
		expect(map.columns.Comment).toMatchObject({type: 'text', config: {long: true}});
		expect(map.columns['Issue key']).toMatchObject({key: 'issue_key', unique: true});
		const channel = channelOfMap(map, table.survey, {id: 'jira', name: 'Jira'}, false);
		expect(checkNewRows(channel, rowsOfMap(map, table))).toMatchObject({count: 200, refused: 0});
	});

	it('the Linear export: ISO date-times as days, Created as each item\'s created_at, ID as the key', async () => {
		const table = await readCsv(fixture('linear/linear-export.csv'));
		const map = inferColumnMap(table.survey, {id: 'linear', name: 'Linear'});
		expect(map.created_at).toBe('Created');
		expect(map.columns.ID).toMatchObject({key: 'source_id', type: 'text', unique: true});
		expect(map.columns.Status).toMatchObject({type: 'select'});
		expect(map.columns['Cycle Start']).toMatchObject({type: 'date'});
		const [first] = rowsOfMap(map, table);
		expect(first!.created_at).toBe('2025-01-02T00:00:00.000Z');
		expect(first!.values.cycle_start).toBe('2025-01-15');
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
