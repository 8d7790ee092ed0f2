// `sift list` pages, `--all`, widths.

import {spawn} from 'node:child_process';
import {createInterface} from 'node:readline';
import {beforeAll, describe, expect, it} from 'vitest';
import {demoDatabase, ensureBuilt, sift, SIFT_ENTRY} from '../support/cli.js';

/** Item ids count in base 36. */
const idOf = (n: number) => `it_${n.toString(36).padStart(10, '0')}`;

beforeAll(() => ensureBuilt());

describe('sift list --all', () => {
	it('streams every item once as JSON Lines, newest first', () => {
		const db = demoDatabase(120);
		const result = sift(['list', '--all', '--json', '--limit', '7', '--db', db]);
		expect(result.code, result.stderr).toBe(0);
		const lines = result.stdout.trimEnd().split('\n');
		expect(lines).toHaveLength(120);
		const ids = lines.map(line => (JSON.parse(line) as {id: string}).id);
		expect(new Set(ids).size).toBe(120);
		expect(ids[0]).toBe(idOf(120));
		expect(ids.at(-1)).toBe(idOf(1));
		expect(JSON.parse(lines[0]!)).toMatchObject({version: 1, preview: {ticket: 'BUG-0120'}});
	});

	it('starts at --before and prints a table with one header and a count', () => {
		const db = demoDatabase(30);
		const result = sift(['list', '--all', '--before', idOf(11), '--limit', '4', '--db', db]);
		const lines = result.stdout.trimEnd().split('\n');
		expect(lines[0]).toMatch(/^id\s+v\s+Ticket/);
		expect(lines.filter(line => line.startsWith('id '))).toHaveLength(1);
		expect(lines.slice(1, -1).map(line => line.slice(0, 13))).toEqual(Array.from({length: 10}, (_, index) => idOf(10 - index)));
		expect(lines.at(-1)).toBe('10 items');
	});

	it('ends quietly with exit 0 when the reader stops early', async () => {
		const db = demoDatabase(3000);
		const child = spawn(process.execPath, [SIFT_ENTRY, 'list', '--all', '--json', '--db', db], {stdio: ['ignore', 'pipe', 'pipe']});
		const lines = createInterface({input: child.stdout});
		let count = 0;
		for await (const line of lines) {
			JSON.parse(line);
			count++;
			if (count === 60) break;
		}

		// Closing the pipe early is a normal end for a streaming command, not a crash.
		child.stdout.destroy();
		const stderr: string[] = [];
		child.stderr.on('data', chunk => stderr.push(String(chunk)));
		const code = await new Promise(resolve => child.on('close', resolve));
		expect(count).toBe(60);
		expect(stderr.join('')).not.toMatch(/EPIPE|\n\s+at /);
		expect(code).toBe(0);
	});
});

describe('sift list table width', () => {
	const longest = (text: string) => Math.max(...text.trimEnd().split('\n').map(line => [...line].length));

	it('fits $COLUMNS when stdout is not a terminal, else 80', () => {
		const db = demoDatabase(12);
		for (const columns of [50, 100, 200]) {
			const {stdout} = sift(['list', '--db', db], {COLUMNS: String(columns)});
			expect(longest(stdout)).toBeLessThanOrEqual(columns);
			expect(stdout).toMatch(/^id\s+v\s+Ticket\s+Title/);
		}

		expect(longest(sift(['list', '--db', db], {COLUMNS: ''}).stdout)).toBeLessThanOrEqual(80);
		const wide = sift(['list', '--db', db], {COLUMNS: '200'}).stdout;
		expect(wide).toMatch(/Severity/);
		expect(wide).toMatch(/BUG-0012/);
	});
});
