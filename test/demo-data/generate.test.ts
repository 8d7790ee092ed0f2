// The demo generator: fields, determinism.

import type {Channel, Field} from '../../store/index.js';
import {mkdtemp, readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, it, expect, afterAll} from 'vitest';
import channelFile from '../../demo-data/bugs.channel.json' with {type: 'json'};
import {
	formatTriageWishes,
	generateBugItems,
	parseTriageWishes,
	type GeneratedItem,
	type TriageWishes,
} from '../../demo-data/generate.js';
import {writeImportFile} from '../../demo-data/write-import-file.js';

const NOW = new Date('2025-06-18T12:00:00.000Z');
const DAY_MS = 86_400_000;

const take = (count: number, seed: number, now: Date = NOW): GeneratedItem[] =>
	[...generateBugItems({count, seed, now})];

// The schema as the tests understand it, written out by hand (not derived from the generator).
const STATUS = {new: 'New', triaged: 'Triaged', in_progress: 'In progress', fixed: 'Fixed', wont_fix: "Won't fix"};
const OWNER = {aiko: 'Aiko', mika: 'Mika', ren: 'Ren'};
const SEVERITY = {s1: 'S1 Critical', s2: 'S2 Major', s3: 'S3 Minor', s4: 'S4 Trivial'};

const fields = (channelFile as unknown as {channel: Channel}).channel.fields;
const field = (key: string): Field => {
	const found = fields.find(f => f.key === key);
	if (!found) {
		throw new Error(`no field ${key}`);
	}
	return found;
};
const optionsOf = (key: string) => field(key).config.options!;
const AREA_VALUES = new Set(optionsOf('area').map(o => o.value));
const AREA_LABELS = new Set(optionsOf('area').map(o => o.label));

const isRealDate = (text: unknown): boolean => {
	if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(text)) {
		return false;
	}
	const date = new Date(`${text}T00:00:00Z`);
	return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
};
const isEmailShaped = (text: unknown): boolean =>
	typeof text === 'string' && text.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text);

describe('bugs.channel.json', () => {
	it('has exactly the demo channel\'s fields, in order', () => {
		expect(channelFile.channel.id).toBe('bugs');
		expect(fields.map(f => [f.key, f.type])).toEqual([
			['ticket', 'text'], ['title', 'text'], ['description', 'text'], ['status', 'select'],
			['owner', 'select'], ['severity', 'select'], ['points', 'number'], ['area', 'select'],
			['due', 'date'], ['reporter', 'email'], ['age_days', 'formula'],
		]);
		expect(field('ticket')).toMatchObject({is_required: true, is_unique: true});
		expect(field('title')).toMatchObject({is_required: true, config: {max_length: 200}});
		expect(field('description').config).toMatchObject({long: true, max_length: 20000});
		expect(field('points').config).toEqual({min: 0, max: 13, integer: true});
		expect(field('age_days').config).toEqual({expression: 'days_between(created_at, today())'});
		const pairs = (key: string) => Object.fromEntries(optionsOf(key).map(o => [o.value, o.label]));
		expect(pairs('status')).toEqual(STATUS);
		expect(pairs('owner')).toEqual(OWNER);
		expect(pairs('severity')).toEqual(SEVERITY);
		for (const key of ['status', 'owner', 'severity', 'area']) {
			for (const option of optionsOf(key)) {
				expect(option.color, `${key}.${option.value}`).toMatch(/^[a-z]+$/);
			}
		}
	});
});

describe('generateBugItems', () => {
	const items = take(5000, 42);

	it('is reproducible: same seed and now give identical output', () => {
		expect(take(5000, 42)).toEqual(items);
	});

	it('differs for a different seed', () => {
		const other = take(5000, 43);
		expect(other).not.toEqual(items);
		const sameTitles = other.filter((item, i) => item.values['title'] === items[i].values['title']).length;
		expect(sameTitles).toBeLessThan(500);
	});

	it('honors count, including 0 and 1, and rejects bad counts', () => {
		expect(items).toHaveLength(5000);
		expect(take(0, 1)).toEqual([]);
		expect(take(1, 1)).toHaveLength(1);
		expect(() => take(-1, 1)).toThrow(RangeError);
		expect(() => take(1.5, 1)).toThrow(RangeError);
	});

	it('gives unique, zero-padded tickets that widen for large counts', () => {
		const tickets = items.map(item => item.values['ticket']);
		expect(new Set(tickets).size).toBe(items.length);
		expect(tickets[0]).toBe('BUG-0001');
		expect(tickets[4999]).toBe('BUG-5000');
		const big = generateBugItems({count: 123_456, seed: 1, now: NOW});
		expect(big.next().value?.values['ticket']).toBe('BUG-000001');
	});

	it('spreads created_at over the past ~120 days, strictly increasing', () => {
		let previous = '';
		for (const item of items) {
			expect(item.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
			expect(item.created_at > previous).toBe(true);
			previous = item.created_at;
		}
		const first = Date.parse(items[0].created_at);
		const last = Date.parse(items[items.length - 1].created_at);
		expect(NOW.getTime() - first).toBeLessThanOrEqual(120 * DAY_MS);
		expect(NOW.getTime() - first).toBeGreaterThan(119 * DAY_MS);
		expect(last).toBeLessThan(NOW.getTime());
		expect(NOW.getTime() - last).toBeLessThan(DAY_MS);
	});

	it('makes items mostly new, the rest spread over the other statuses', () => {
		const counts: Record<string, number> = {};
		for (const item of items) {
			const status = item.values['status'] as string;
			counts[status] = (counts[status] ?? 0) + 1;
		}
		expect(counts['new'] / items.length).toBeGreaterThan(0.8);
		expect(counts['new'] / items.length).toBeLessThan(0.9);
		for (const status of ['triaged', 'in_progress', 'fixed', 'wont_fix']) {
			expect(counts[status], status).toBeGreaterThan(0);
		}
	});

	it('writes only valid values for every field', () => {
		const keys = new Set(fields.map(f => f.key));
		for (const item of items) {
			const v = item.values;
			for (const key of Object.keys(v)) {
				expect(keys.has(key), key).toBe(true);
			}
			expect(v['age_days']).toBeUndefined();
			expect(typeof v['ticket']).toBe('string');
			expect(typeof v['title']).toBe('string');
			expect((v['title'] as string).length).toBeGreaterThan(0);
			expect((v['title'] as string).length).toBeLessThanOrEqual(200);
			expect(typeof v['description']).toBe('string');
			expect((v['description'] as string).length).toBeLessThanOrEqual(20000);
			expect(isEmailShaped(v['reporter']), String(v['reporter'])).toBe(true);
			expect(Object.hasOwn(STATUS, v['status'] as string)).toBe(true);
			if (v['status'] === 'new') {
				expect(Object.keys(v).sort()).toEqual(['description', 'reporter', 'status', 'ticket', 'title']);
				continue;
			}
			expect(Object.hasOwn(OWNER, v['owner'] as string), String(v['owner'])).toBe(true);
			expect(Object.hasOwn(SEVERITY, v['severity'] as string), String(v['severity'])).toBe(true);
			expect(AREA_VALUES.has(v['area'] as string), String(v['area'])).toBe(true);
			const points = v['points'];
			expect(typeof points === 'number' && Number.isInteger(points) && points >= 0 && points <= 13, String(points)).toBe(true);
			expect(isRealDate(v['due']), String(v['due'])).toBe(true);
		}
	});

	it('includes a few hostile titles (ESC colour, OSC title, bidi override)', () => {
		const hostile = items.filter(item => /[\u001b\u202e]/.test(item.values['title'] as string));
		expect(hostile.length).toBe(10);
		const all = hostile.map(item => item.values['title']).join('\n');
		expect(all).toContain('\u001b[31m');
		expect(all).toContain('\u001b]0;pwned\u0007');
		expect(all).toContain('\u202e');
	});
});

describe('triage wishes', () => {
	const items = take(3000, 7);
	const wishDates = new Set(Array.from({length: 30}, (_, d) =>
		new Date(NOW.getTime() + (d + 1) * DAY_MS).toISOString().slice(0, 10)));

	it('ends every description with wishes in a person\'s words that parse back exactly', () => {
		const seen = {severityLabel: 0, severityWord: 0, friday: 0, isoDue: 0, points20: 0};
		for (const item of items) {
			const description = item.values['description'] as string;
			const wishes = parseTriageWishes(description);
			expect(Object.keys(wishes)).toEqual(['status', 'owner', 'severity', 'points', 'due', 'area']);
			// Round trip: formatting what was parsed reproduces the end of the description.
			expect(description.endsWith(`\n\n${formatTriageWishes(wishes as TriageWishes)}`), description).toBe(true);

			expect(['Triaged', 'In progress', 'Fixed', "Won't fix"]).toContain(wishes['status']);
			expect(Object.values(OWNER)).toContain(wishes['owner']);
			const severityWords = ['critical', 'major', 'minor', 'trivial'];
			expect([...Object.values(SEVERITY), ...severityWords]).toContain(wishes['severity']);
			expect(['1', '2', '3', '5', '8', '13', '20']).toContain(wishes['points']);
			expect(wishes['due'] === 'Friday' || wishDates.has(wishes['due']), wishes['due']).toBe(true);
			expect(AREA_LABELS.has(wishes['area']), wishes['area']).toBe(true);

			if (severityWords.includes(wishes['severity'])) seen.severityWord++; else seen.severityLabel++;
			if (wishes['due'] === 'Friday') seen.friday++; else seen.isoDue++;
			if (wishes['points'] === '20') seen.points20++;
		}
		for (const [what, count] of Object.entries(seen)) {
			expect(count, what).toBeGreaterThan(50);
		}
	});

	it('parses the documented example and tolerates descriptions without wishes', () => {
		const text = 'Sync stalls. It really does.\n\nTriage wishes: status In progress, owner Aiko, '
			+ 'severity S2 Major, points 20, due Friday, area Sync.';
		expect(parseTriageWishes(text)).toEqual({
			status: 'In progress', owner: 'Aiko', severity: 'S2 Major', points: '20', due: 'Friday', area: 'Sync',
		});
		expect(parseTriageWishes("Triage wishes: status Won't fix, due 2025-07-01.")).toEqual({status: "Won't fix", due: '2025-07-01'});
		expect(parseTriageWishes('No wishes here.')).toEqual({});
		expect(parseTriageWishes('Triage wishes: __proto__ x, constructor y.')).toEqual({});
	});
});

describe('writeImportFile', () => {
	const dirPromise = mkdtemp(join(tmpdir(), 'sift-demo-data-'));
	afterAll(async () => {
		await rm(await dirPromise, {recursive: true, force: true});
	});

	it('streams a complete import file that parses with the expected items', async () => {
		const path = join(await dirPromise, 'bugs.json');
		await writeImportFile(path, {count: 2500, seed: 9, now: NOW});
		const parsed = JSON.parse(await readFile(path, 'utf8')) as {channel: unknown; items: GeneratedItem[]};
		expect(parsed.channel).toEqual(channelFile.channel);
		expect(parsed.items).toHaveLength(2500);
		expect(parsed.items).toEqual(take(2500, 9));
	});

	it('writes an empty items list for count 0', async () => {
		const path = join(await dirPromise, 'empty.json');
		await writeImportFile(path, {count: 0, seed: 1});
		const parsed = JSON.parse(await readFile(path, 'utf8')) as {items: unknown[]};
		expect(parsed.items).toEqual([]);
	});

	it('rejects when the file cannot be written', async () => {
		const path = join(await dirPromise, 'missing-dir', 'x.json');
		await expect(writeImportFile(path, {count: 10, seed: 1})).rejects.toThrow(/ENOENT/);
	});
});
