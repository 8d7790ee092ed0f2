// The record pane's scroll math (record-scroll.ts) and its lines (record-lines.ts).

import stringWidth from 'string-width';
import {beforeAll, describe, expect, it} from 'vitest';
import {bugsChannel} from '../../demo-data/generate.js';
import type {Field, Item} from '../../store/index.js';
import {loadMarkdown} from '../../source/ui/markdown.js';
import {recordLines} from '../../source/ui/record-lines.js';
import {clampScroll, maxScroll, pageLines, scrollBy, visibleWindow} from '../../source/ui/record-scroll.js';
import {lineWidth, plainLine} from '../../source/ui/spans.js';

const fields = bugsChannel.fields as Field[];
const item = (values: Record<string, unknown>): Item => ({id: 'itm_1', channel_id: 'bugs', version: 2, created_at: '', updated_at: '2026-11-30T10:00:00Z', values: {ticket: 'BUG-0001', title: 'Crash', ...values}});

describe('record scroll', () => {
	it('never goes past the end, so the first move back moves (12 J on a 55-line body)', () => {
		const height = 10;
		let scroll = 0;
		for (let press = 0; press < 12; press++) scroll = scrollBy(scroll, {lines: 5}, 55, height);
		expect(scroll).toBe(maxScroll(55, height));
		expect(scroll).toBe(45);
		expect(scrollBy(scroll, {lines: -5}, 55, height)).toBe(40);
	});

	it('pages by the height less the two marker lines: the next page starts after the last line shown', () => {
		const height = 12;
		const first = visibleWindow(100, height, 0);
		const next = visibleWindow(100, height, scrollBy(0, {pages: 1}, 100, height));
		// Shown on the first page: lines 0..height-2 (the last row is the marker); the next shows from the line after.
		expect(next.start + 1).toBe(first.end - 1);
		expect(pageLines(height)).toBe(10);
		expect(scrollBy(95, {pages: 1}, 100, height)).toBe(88);
		expect(scrollBy(3, {pages: -1}, 100, height)).toBe(0);
		expect(scrollBy(40, {to: 'top'}, 100, height)).toBe(0);
		expect(scrollBy(0, {to: 'bottom'}, 100, height)).toBe(88);
	});

	it('stays at the top when everything fits, and counts what lies above and below', () => {
		expect(clampScroll(30, 5, 10)).toBe(0);
		expect(visibleWindow(5, 10, 3)).toEqual({start: 0, end: 5, above: 0, below: 0});
		expect(visibleWindow(30, 10, 5)).toEqual({start: 5, end: 15, above: 6, below: 16});
		expect(visibleWindow(30, 10, 99)).toEqual({start: 20, end: 30, above: 21, below: 0});
		// Too short for markers: just the lines.
		expect(visibleWindow(30, 2, 4)).toEqual({start: 4, end: 6, above: 0, below: 0});
	});
});

describe('record lines', () => {
	beforeAll(loadMarkdown);

	it('short fields first, then long text as markdown, none wider than the pane', () => {
		const lines = recordLines({fields, item: item({status: 'new', description: '## Steps\n\n1. open **Settings**\n2. save'}), flagged: new Set(['status']), width: 40, today: '2026-12-01'});
		const text = lines.map(line => plainLine(line));
		expect(text[0]).toBe('itm_1 · v2 · updated 2026-11-30 10:00:00');
		expect(text).toContain('Status      ⚑New');
		const at = text.findIndex(line => line.startsWith('Description'));
		expect(text.slice(at + 1).map(line => line.trimEnd())).toEqual(['  Steps', '', '  1. open Settings', '  2. save']);
		expect(lines.flat().find(span => span.text === 'Settings')).toMatchObject({bold: true});
		for (const line of lines) expect(lineWidth(line)).toBeLessThanOrEqual(40);
	});

	it('marks a date before today as overdue, with the injected day', () => {
		const late = recordLines({fields, item: item({due: '2026-11-30'}), flagged: new Set(), width: 60, today: '2026-12-01'});
		const due = late.find(line => plainLine(line).startsWith('Due'))!;
		expect(plainLine(due)).toBe(`Due${' '.repeat(10)}2026-11-30 overdue`);
		expect(due.find(span => span.text === '2026-11-30')).toMatchObject({color: 'red', bold: true});
		const onTime = recordLines({fields, item: item({due: '2026-12-01'}), flagged: new Set(), width: 60, today: '2026-12-01'});
		expect(plainLine(onTime.find(line => plainLine(line).startsWith('Due'))!)).toBe(`Due${' '.repeat(10)}2026-12-01`);
	});

	it('shows hidden format characters as marks and keeps every visible letter, raw or as an entity', () => {
		const hidden = 'pay to account 12345 \u200b\u2060\u00ad\ufeffNOT';
		const entities = 'pay to account 12345 &#8203;&ZeroWidthSpace;&shy;&#xFEFF;NOT';
		for (const description of [hidden, entities]) {
			const lines = recordLines({fields, item: item({description: `${description} and more words after it`}), flagged: new Set(), width: 70, today: '2026-12-01'});
			const body = lines.map(line => plainLine(line)).join('\n');
			expect(body).toContain('NOT');
			expect(body).toMatch(/\\u200b/);
			expect(body).not.toMatch(/[\p{Cf}\p{Default_Ignorable_Code_Point}]/u);
			// Ink measures each line as the pane does, so it cuts nothing off the end.
			for (const line of lines) expect(stringWidth(plainLine(line))).toBe(lineWidth(line));
		}
	});
});
