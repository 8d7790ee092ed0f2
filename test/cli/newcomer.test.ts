// What a new user hit on the command line in their first hour: counts that read `1 items`, tables
// misaligned by wide characters or sized from the first page only, the demo's folders open to
// other users, and import files that start with a byte order mark.

import {readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {cellWidth} from '../../source/text/width.js';
import {ensureBuilt, sift, tempDir} from '../support/cli.js';

beforeAll(() => ensureBuilt());

const TICKETS = {
	id: 'tickets', name: 'Tickets', fields: [
		{key: 'ticket', label: 'Ticket', type: 'text', is_unique: true, is_required: true},
		{key: 'title', label: 'Title', type: 'text'},
		{key: 'owner', label: 'Owner', type: 'text'},
	],
};

function importTickets(rows: Array<Record<string, string>>): string {
	const dir = tempDir('sift-newcomer-');
	const file = join(dir, 'tickets.json');
	writeFileSync(file, JSON.stringify({channel: TICKETS, items: rows.map(values => ({values}))}));
	const db = join(dir, 'tickets.db');
	const imported = sift(['import', file, '--db', db]);
	expect(imported.code, imported.stderr).toBe(0);
	return db;
}

/** The cell (terminal column) where `text` starts on `line`. */
const cellOf = (line: string, text: string) => {
	const index = line.indexOf(text);
	expect(index, `${JSON.stringify(text)} on ${JSON.stringify(line)}`).toBeGreaterThanOrEqual(0);
	return cellWidth(line.slice(0, index));
};

describe('counts agree with their nouns', () => {
	it('one item reads "1 item" in import, list, list --all, channels and export', () => {
		const db = importTickets([{ticket: 'T-1', title: 'alone', owner: 'ren'}]);
		const dir = tempDir('sift-newcomer-');
		const file = join(dir, 'one.json');
		writeFileSync(file, JSON.stringify({channel: {...TICKETS, id: 'one'}, items: [{values: {ticket: 'T-1'}}]}));
		expect(sift(['import', file, '--db', join(dir, 'one.db')]).stdout).toContain('with 1 item into');
		expect(sift(['list', '--db', db]).stdout).toMatch(/^1 item; end of channel$/m);
		expect(sift(['list', '--all', '--db', db]).stdout).toMatch(/^1 item\n$/m);
		expect(sift(['channels', '--db', db]).stdout).toMatch(/ {2}1 item {2}sequence \d+ {2}0 open follow-ups$/m);
		expect(sift(['export', '--db', db, '--out', join(dir, 'out.jsonl'), '--format', 'jsonl']).stderr).toContain('exported 1 item of channel tickets');
		const output = ['list', 'channels'].map(command => sift([command, '--db', db]).stdout).join('\n');
		expect(output).not.toMatch(/\b1 (items|fields|edits|channels)\b/);
	});
});

describe('CLI tables by terminal cell width', () => {
	it('CJK and emoji rows line up with the header and with ASCII rows', () => {
		const db = importTickets([
			{ticket: 'T-1', title: 'plain ascii title', owner: 'ren'},
			{ticket: 'T-2', title: '漢字のタイトル', owner: 'kai'},
			{ticket: 'T-3', title: '🎉 party 🚀', owner: 'mo'},
			{ticket: 'T-4', title: '한국어 제목이 아주 길어서 잘려야 하는 제목입니다 정말로 깁니다', owner: 'lu'},
		]);
		const lines = sift(['list', '--db', db], {COLUMNS: '60'}).stdout.split('\n');
		const header = lines[0]!;
		const starts = ['ren', 'kai', 'mo', 'lu'].map(owner => cellOf(lines.find(line => line.includes(`T-`) && line.trimEnd().endsWith(owner))!, owner));
		expect(new Set([cellOf(header, 'Owner'), ...starts]).size).toBe(1);
		for (const line of lines) expect(cellWidth(line)).toBeLessThanOrEqual(60);
	});

	it('list --all sizes its columns from every page it shows, not the first', () => {
		// Newest first: the longest ticket is the oldest item, on the last page.
		const rows = [{ticket: 'LONGTICKET-123', title: 'title-first', owner: 'o'}, ...Array.from({length: 9}, (_, index) => ({ticket: `T-${index}`, title: `title-${index}`, owner: 'o'}))];
		const db = importTickets(rows);
		const lines = sift(['list', '--all', '--limit', '3', '--db', db], {COLUMNS: '120'}).stdout.trimEnd().split('\n');
		expect(lines).toHaveLength(1 + rows.length + 1);
		expect(lines.join('\n')).not.toContain('…');
		expect(lines.at(-2)).toContain('LONGTICKET-123');
		expect(new Set([cellOf(lines[0]!, 'Title'), ...lines.slice(1, -1).map(line => cellOf(line, 'title-'))]).size).toBe(1);
	});
});

describe('sift demo', () => {
	it('makes its data folders 0700, as XDG asks', () => {
		const data = join(tempDir('sift-xdg-'), 'not-yet', 'data');
		expect(sift(['demo', '--no-open', '--items', '2'], {XDG_DATA_HOME: data}).code).toBe(0);
		for (const dir of [join(data, '..'), data, join(data, 'sift')]) expect((statSync(dir).mode & 0o777).toString(8), dir).toBe('700');
	});
});

describe('import files that start with a UTF-8 byte order mark', () => {
	const BOM = '\uFEFF';
	const issue = {number: 7, title: 'x', html_url: 'https://github.com/o/r/issues/7', state: 'open', body: 'b', labels: [], user: {login: 'u'}, created_at: '2024-01-01T00:00:00Z', updated_at: '2024-01-01T00:00:00Z'};
	const files: Array<[string, string, string]> = [
		['sift JSON', 'sift.json', JSON.stringify({channel: {id: 'c', name: 'C', fields: [{key: 'title', label: 'Title', type: 'text'}]}, items: [{values: {title: 'a'}}]})],
		['sift JSON over several lines', 'pretty.json', `{\r\n  "items": [{"values": {"title": "a"}}],\r\n  "channel": {"id": "c", "name": "C", "fields": [{"key": "title", "label": "Title", "type": "text"}]}\r\n}\r\n`],
		['GitHub issues (REST array)', 'issues.json', JSON.stringify([issue])],
		['GitHub issues (JSON Lines)', 'issues.jsonl', `${JSON.stringify(issue)}\n`],
		['JSON Lines', 'rows.jsonl', '{"title":"a","n":1}\r\n{"title":"b","n":2}\r\n'],
		['CSV', 'rows.csv', 'title,n\r\na,1\r\nb,2\r\n'],
	];

	it.each(files)('%s imports, told from its content and with --format', (_name, name, text) => {
		const dir = tempDir('sift-bom-');
		const file = join(dir, name);
		writeFileSync(file, BOM + text);
		const told = sift(['import', file, '--db', join(dir, 'a.db'), '--json']);
		expect(told.code, told.stderr).toBe(0);
		const format = (JSON.parse(told.stdout) as {format?: string}).format ?? 'sift';
		const given = sift(['import', file, '--format', format, '--db', join(dir, 'b.db')]);
		expect(given.code, given.stderr).toBe(0);
		const listed = sift(['list', '--all', '--json', '--db', join(dir, 'b.db')]).stdout;
		expect(listed).not.toContain(BOM);
	});

	it('a column map with a BOM is read too', () => {
		const dir = tempDir('sift-bom-');
		const csv = join(dir, 'rows.csv');
		writeFileSync(csv, 'title,n\na,1\n');
		const map = join(dir, 'map.yaml');
		expect(sift(['import', csv, '--schema-out', map, '--db', join(dir, 'x.db')]).code).toBe(0);
		const mapped = join(dir, 'bom-map.yaml');
		writeFileSync(mapped, BOM + readFileSync(map, 'utf8'));
		const result = sift(['import', csv, '--map', mapped, '--db', join(dir, 'y.db')]);
		expect(result.code, result.stderr).toBe(0);
	});
});
