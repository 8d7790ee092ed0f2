// The demo's descriptions run as real reports do, 300 to 4,000 characters of markdown (numbered
// steps, a pasted code block, a list, links), the same for the same seed; and the record pane
// draws that markdown (source/ui/markdown.ts): fences and link syntax become code and addresses.

import {beforeAll, describe, expect, it} from 'vitest';
import {generateBugItems, parseTriageWishes} from '../../demo-data/generate.js';
import {loadMarkdown, markdownLines} from '../../source/ui/markdown.js';
import {plainLine} from '../../source/ui/spans.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const descriptions = (seed: number, count = 1000) => [...generateBugItems({count, seed, now: NOW})].map(item => item.values.description as string);

describe('demo descriptions', () => {
	const all = descriptions(7);

	it('run 300 to 4,000 characters, short ones most, long ones too', () => {
		const lengths = all.map(description => description.length);
		expect(Math.min(...lengths)).toBeGreaterThanOrEqual(300);
		expect(Math.max(...lengths)).toBeLessThanOrEqual(4000);
		expect(lengths.filter(length => length > 2000).length).toBeGreaterThan(50);
		expect(lengths.filter(length => length < 1000).length).toBeGreaterThan(300);
	});

	it('hold markdown: numbered steps, code blocks, lists and links; the wishes line still ends each', () => {
		expect(all.filter(description => /^1\. /m.test(description)).length).toBeGreaterThan(900);
		expect(all.filter(description => description.includes('\n```\n')).length).toBeGreaterThan(300);
		expect(all.filter(description => /^- /m.test(description)).length).toBeGreaterThan(200);
		expect(all.filter(description => /\[[^\]]+\]\(https:\/\/[^)]+\)/.test(description)).length).toBeGreaterThan(100);
		for (const description of all) expect(Object.keys(parseTriageWishes(description))).toHaveLength(6);
	});

	it('are the same for the same seed and differ for another', () => {
		expect(descriptions(7, 50)).toEqual(all.slice(0, 50));
		expect(descriptions(8, 50)).not.toEqual(all.slice(0, 50));
	});

	describe('in the record pane', () => {
		beforeAll(loadMarkdown);

		it('draw as markdown: the code block without its fences, links as text and address, steps numbered', () => {
			const long = all.find(description => description.includes('```') && /\]\(https:/.test(description))!;
			const lines = markdownLines(long, 80).map(line => plainLine(line).trimEnd());
			expect(lines.some(line => line.startsWith('```'))).toBe(false);
			expect(lines.some(line => /^1\. /.test(line))).toBe(true);
			expect(lines.some(line => /<https:\/\/[^>]+>/.test(line))).toBe(true);
			expect(lines.join('\n')).not.toMatch(/\]\(https:/);
			for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
		});
	});
});
