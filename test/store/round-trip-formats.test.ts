// sift's own CSV and JSON Lines exports read back without a map (source/import/typed-header.ts,
// typed-map.ts): the typed CSV header and the JSON Lines head, formula neutralisation and its
// undoing, multi-selects, text that looks like a number, big integers, a `__proto__` column, a
// 1 MiB cell, format detection, and a typed header edited into nonsense refused by column and line.

import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {checkChannel, checkNewRows, type Channel, type Item} from '../../store/index.js';
import {channelOfMap, rowOfMap} from '../../source/import/column-map.js';
import {formatOfHead} from '../../source/import/detect-format.js';
import {inferColumnMap} from '../../source/import/infer.js';
import {surveyTable} from '../../source/import/survey.js';
import {csvFile, csvHeader, jsonLinesFile, type TableFile} from '../../source/import/tabular.js';
import {channelOfJsonlHead, neutralised, typedHeaderOf, unneutralised} from '../../source/import/typed-header.js';
import {mapOfTypedHeader, rowOfChannel} from '../../source/import/typed-map.js';
import {exportWriter} from '../../source/export/formats.js';
import {cleanTempDirs, tempDir} from './helpers.js';

afterAll(() => cleanTempDirs());

const CHANNEL: Channel = checkChannel({id: 'rt', name: 'Round trip', fields: [
	{key: 'ref', label: 'Ref', type: 'text', is_required: true, is_unique: true},
	{key: 'title', label: 'Title', type: 'text'},
	{key: 'tags', label: 'Tags', type: 'multi_select', config: {options: [{value: 'a, b', label: 'A and B'}, {value: 'c', label: 'C'}]}},
	{key: 'points', label: 'Points', type: 'number'},
	{key: 'meta', label: 'Meta', type: 'json'},
	{key: 'version_text', label: 'Version', type: 'text'},
]});

const item = (index: number, values: Item['values']): Item => ({id: `it_${index}`, channel_id: 'rt', version: 1, created_at: `2025-01-0${index + 1}T10:11:12.000Z`, updated_at: `2025-02-0${index + 1}T10:11:12.000Z`, values} as Item);

const FORMULA_CELLS = ['=1+2', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\rx', '\'quoted', '\'=already', '-3', 'plain'];
const ITEMS = [
	...FORMULA_CELLS.map((title, index) => item(index % 9, {ref: `R-${index}`, title, tags: index % 2 ? ['a, b', 'c'] : undefined, points: index - 3, meta: index === 0 ? 'a string, not an object' : {n: index}, version_text: ['1.10', '3.0', '01234', '1.2.3', '12345678901234567891'][index % 5]})),
];

function written(format: 'csv' | 'jsonl', csvRaw = false): string {
	const writer = exportWriter(format, CHANNEL, {csvRaw});
	return writer.head() + ITEMS.map((entry, index) => writer.item(entry, index)).join('') + writer.tail();
}

function fileWith(name: string, content: string): string {
	const path = join(tempDir(), name);
	writeFileSync(path, content);
	return path;
}

async function rowsOf(file: TableFile) {
	const rows = [];
	for await (const row of file.rows()) rows.push(row);
	return rows;
}

/** Reads sift's own CSV back as the import does without a map: the typed header's map, options from the data. */
async function csvBack(path: string) {
	const head = (await csvHeader(path))!;
	const typed = typedHeaderOf(path, head.header, head.line)!;
	const map = mapOfTypedHeader(typed);
	const survey = await surveyTable(csvFile(path), map);
	const channel = channelOfMap(map, survey, {id: 'rt', name: 'rt'}, true);
	return {typed, channel, rows: (await rowsOf(csvFile(path))).map(row => rowOfMap(map, row))};
}

const stored = (entry: Item) => Object.fromEntries(Object.entries(entry.values).filter(([, value]) => value !== undefined));
const present = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null));

describe('sift\'s own CSV', () => {
	it('a typed header; formula cells neutralised with a leading \' (plain numbers left alone), and taken off again on import', async () => {
		const text = written('csv');
		expect(text.split('\r\n')[0]).toBe('id:safe,version,created_at,updated_at,ref:text:unique:required,title:text,tags:multi_select,points:number,meta:json,version_text:text');
		const titles = text.split('\r\n').slice(1, -1).map(line => line.split(',')[5]);
		expect(titles).toEqual(['\'=1+2', '\'+SUM(A1)', '\'-2+3', '\'@cmd', '\'\tx', '"\'\rx"', '\'\'quoted', '\'\'=already', '-3', 'plain']);
		const back = await csvBack(fileWith('safe.csv', text));
		expect(back.typed.neutralised).toBe(true);
		expect(back.rows.map(row => row.values.title)).toEqual(FORMULA_CELLS);
		// Each row's values and times as exported; the multi-select's value holding a comma kept, numbers as numbers, a JSON string a string.
		for (const [index, row] of back.rows.entries()) {
			expect({...present(row.values), title: ITEMS[index]!.values.title}).toEqual(stored(ITEMS[index]!));
			expect([row.created_at, row.updated_at]).toEqual([ITEMS[index]!.created_at, ITEMS[index]!.updated_at]);
		}

		expect(back.channel.fields.map(field => [field.key, field.type, field.is_unique])).toEqual([['ref', 'text', true], ['title', 'text', false], ['tags', 'multi_select', false], ['points', 'number', false], ['meta', 'json', false], ['version_text', 'text', false]]);
		expect(checkNewRows(back.channel, back.rows)).toMatchObject({count: 10, refused: 0});
	});

	it('--csv-raw writes the exact bytes under a plain id header, and they are read as they are', async () => {
		const text = written('csv', true);
		expect(text.startsWith('id,version,')).toBe(true);
		const back = await csvBack(fileWith('raw.csv', text));
		expect(back.typed.neutralised).toBe(false);
		expect(back.rows.map(row => row.values.title)).toEqual(FORMULA_CELLS);
	});

	it('neutralised and unneutralised undo each other for every leading character', () => {
		for (const cell of [...FORMULA_CELLS, '', '\'', '\'\'', '=', 'a=b', '-1e5', '-']) expect(unneutralised(neutralised(cell))).toBe(cell);
	});

	it('a typed header edited into nonsense is refused naming the column and the line', async () => {
		const text = written('csv').replace('points:number', 'points:nummber');
		const path = fileWith('edited.csv', text);
		await expect(csvBack(path)).rejects.toThrow(/line 1, column 8 \("points:nummber"\) of the typed header: "nummber" is not a field type/);
		await expect(rowsOf(csvFile(path))).rejects.toThrow(/column 8/);
		const flagged = fileWith('flagged.csv', written('csv').replace('ref:text:unique:required', 'ref:text:uniq'));
		await expect(csvBack(flagged)).rejects.toThrow(/column 5 \("ref:text:uniq"\).*"uniq" is not a flag/);
		// A CSV that is not sift's (no typed column) is no typed header.
		expect(typedHeaderOf('x.csv', ['id', 'version', 'created_at', 'updated_at', 'title'], 1)).toBeUndefined();
	});
});

describe('sift\'s own JSON Lines', () => {
	it('starts with its channel; rows come back as the channel\'s values (an empty multi-select is [], read as no value)', async () => {
		const text = written('jsonl');
		const [head, ...lines] = text.trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>);
		expect(channelOfJsonlHead(head)).toEqual(CHANNEL);
		expect(lines[0]!.tags).toEqual([]);
		const rows = await rowsOf(jsonLinesFile(fileWith('rt.jsonl', text)));
		expect(rows).toHaveLength(10);
		for (const [index, row] of rows.entries()) {
			const record = rowOfChannel(CHANNEL, row);
			expect(present(record.values)).toEqual(stored(ITEMS[index]!));
			expect(record.created_at).toBe(ITEMS[index]!.created_at);
		}
	});

	it('format detection never takes sift\'s own JSON Lines for a GitHub dump, even of GitHub issues', () => {
		const issue = {id: 'it_1', version: 1, created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z', number: 1, title: 'Crash', url: 'https://github.com/o/r/issues/1'};
		expect(formatOfHead(`${JSON.stringify({sift: 'jsonl', channel: CHANNEL})}\n${JSON.stringify(issue)}\n`)).toBe('jsonl');
		expect(formatOfHead(`${JSON.stringify(issue)}\n`)).toBe('jsonl');
		// A head line longer than the detection reads is still sift's.
		expect(formatOfHead(`{"sift":"jsonl","channel":{"id":"x","fields":[{"key":"url","label":"https://github.com/o/r/issues/1 "number": "title": ${'x'.repeat(70_000)}`)).toBe('jsonl');
	});
});

describe('any CSV or JSON Lines', () => {
	it('text that would lose characters as a number stays text: 1.10, 3.0, 01234, +5, versions, integers past 2^53', async () => {
		const path = fileWith('numbers.csv', 'ref,version,zip,big,count\nA,1.10,01234,12345678901234567891,3\nB,3.0,00501,12345678901234567892,4\nC,1.2.3,10001,12345678901234567891,5\n');
		const survey = await surveyTable(csvFile(path));
		const map = inferColumnMap(survey, {id: 'n', name: 'n'});
		expect(Object.values(map.columns).map(spec => spec.type)).toEqual(['text', 'text', 'text', 'text', 'number']);
		const rows = (await rowsOf(csvFile(path))).map(row => rowOfMap(map, row));
		expect(rows.map(row => [row.values.source_version, row.values.zip, row.values.big])).toEqual([['1.10', '01234', '12345678901234567891'], ['3.0', '00501', '12345678901234567892'], ['1.2.3', '10001', '12345678901234567891']]);
	});

	it('JSON integers past 2^53 are kept as their digits, so two distinct big ids stay distinct', async () => {
		const path = fileWith('big.jsonl', '{"id": 12345678901234567891, "n": 1, "s": "12345678901234567891 in a string \\" 99999999999999999999"}\n{"id": 12345678901234567892, "n": -2.5e3, "s": "x"}\n');
		const rows = await rowsOf(jsonLinesFile(path));
		expect(rows.map(row => row.cells.id)).toEqual(['12345678901234567891', '12345678901234567892']);
		expect(rows.map(row => row.cells.n)).toEqual([1, -2500]);
		expect(rows[0]!.cells.s).toBe('12345678901234567891 in a string " 99999999999999999999');
	});

	it('a column named __proto__ is kept, as source_proto', async () => {
		for (const [name, content] of [['proto.csv', 'ref,__proto__\nA,polluted\nB,again\n'], ['proto.jsonl', '{"ref": "A", "__proto__": "polluted"}\n{"ref": "B", "__proto__": "again"}\n']] as const) {
			const path = fileWith(name, content);
			const file = name.endsWith('.csv') ? csvFile(path) : jsonLinesFile(path);
			const map = inferColumnMap(await surveyTable(file), {id: 'p', name: 'p'});
			expect(Object.values(map.columns).map(spec => spec.key)).toEqual(['ref', 'source_proto']);
			expect((await rowsOf(file)).map(row => rowOfMap(map, row).values.source_proto)).toEqual(['polluted', 'again']);
			expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		}
	});

	it('a 1 MiB cell comes in whole', async () => {
		const cell = `${'é'.repeat(262_144)}${'x'.repeat(524_288)}`;
		const path = fileWith('big-cell.csv', `ref,body\nA,"${cell}"\nB,short\n`);
		const map = inferColumnMap(await surveyTable(csvFile(path)), {id: 'b', name: 'b'});
		const rows = (await rowsOf(csvFile(path))).map(row => rowOfMap(map, row));
		expect(Buffer.byteLength(rows[0]!.values.body as string)).toBe(1 << 20);
		expect(rows[0]!.values.body).toBe(cell);
		const channel = channelOfMap(map, await surveyTable(csvFile(path)), {id: 'b', name: 'b'}, true);
		expect(checkNewRows(channel, rows)).toMatchObject({count: 2, refused: 0});
	});
});
