// `sift list --where/--sort/--cursor` and `sift edit --where` through the built CLI.

import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {demoDatabase, ensureBuilt, fileDigest, sift, siftJson, tempDir} from '../support/cli.js';

beforeAll(() => ensureBuilt());

type Preview = {id: string; version: number; preview: Record<string, unknown>};

/** `sift list --all --json ARGS`: every matching item, in the order printed. */
function listAll(args: string[]): Preview[] {
	const result = sift(['list', '--all', '--json', ...args]);
	expect(result.code, result.stderr).toBe(0);
	return result.stdout.trimEnd().split('\n').filter(Boolean).map(line => JSON.parse(line) as Preview);
}

const SEVERITIES = ['s1', 's2', 's3', 's4'];

describe('sift list --where / --sort / --cursor', () => {
	it('--where keeps only the matching items, also with --all across pages', () => {
		const db = demoDatabase(60);
		const everything = listAll(['--db', db]);
		const fresh = everything.filter(item => item.preview.status === 'new');
		expect(fresh.length).toBeGreaterThan(0);
		expect(fresh.length).toBeLessThan(everything.length);
		const matched = listAll(['--where', 'status:new', '--limit', '7', '--db', db]);
		expect(matched.map(item => item.id)).toEqual(fresh.map(item => item.id));
		const page = siftJson<{items: Preview[]}>(['list', '--where', 'status:new', '--db', db]);
		expect(page.items.every(item => item.preview.status === 'new')).toBe(true);
		// A negated term starts with a dash and is still the flag's value.
		expect(listAll(['--where', '-status:new', '--db', db])).toHaveLength(everything.length - fresh.length);
	});

	it('--sort -severity orders by the options, descending, and --all streams every item by cursor', () => {
		const db = demoDatabase(60);
		const sorted = listAll(['--sort', '-severity', '--limit', '7', '--db', db]);
		expect(new Set(sorted.map(item => item.id)).size).toBe(60);
		const ranks = sorted.map(item => item.preview.severity).filter(value => value !== undefined && value !== null).map(value => SEVERITIES.indexOf(value as string));
		expect(new Set(ranks).size).toBeGreaterThan(1);
		expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
		const ascending = listAll(['--sort', 'severity', '--db', db]).map(item => item.preview.severity).filter(value => value !== undefined && value !== null).map(value => SEVERITIES.indexOf(value as string));
		expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
	});

	it('--cursor continues where the printed page ended', () => {
		const db = demoDatabase(30);
		const first = sift(['list', '--sort', 'due', '--limit', '5', '--db', db]);
		expect(first.code, first.stderr).toBe(0);
		const cursor = /--cursor (\S+)/.exec(first.stdout)?.[1];
		expect(cursor).toBeDefined();
		const all = listAll(['--sort', 'due', '--db', db]).map(item => item.id);
		const second = siftJson<{items: Preview[]; next_cursor: string | null}>(['list', '--sort', 'due', '--limit', '5', '--cursor', cursor!, '--db', db]);
		expect(second.items.map(item => item.id)).toEqual(all.slice(5, 10));
	});

	it('refuses a bad term with exit 1 and one line naming it', () => {
		const db = demoDatabase(5);
		const result = sift(['list', '--where', 'status:new bogus:1', '--db', db]);
		expect(result.code).toBe(1);
		expect(result.stdout).toBe('');
		const lines = result.stderr.trimEnd().split('\n');
		expect(lines).toHaveLength(1);
		expect(lines[0]).toMatch(/^sift: .*"bogus:1"/);
	});
});

describe('sift edit --where', () => {
	it('edits every matching item, each at the version it was matched at', () => {
		const db = demoDatabase(20);
		const tickets = ['BUG-0001', 'BUG-0002', 'BUG-0003'];
		const result = sift(['edit', '--where', `ticket:${tickets.join(',')}`, 'owner=ren', '--db', db]);
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout).toMatch(/3 ok, 0 failed/);
		for (const ticket of tickets) {
			expect(siftJson(['show', ticket, '--db', db])).toMatchObject({version: 2, values: {owner: 'ren'}});
		}

		expect(siftJson(['show', 'BUG-0004', '--db', db])).toMatchObject({version: 1});
	});

	it('asks for --yes when more than 20 items match, writing nothing', () => {
		const db = demoDatabase(30);
		const before = fileDigest(db);
		const result = sift(['edit', '--where', 'BUG', 'owner=ren', '--db', db]);
		expect(result.code).toBe(2);
		expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
		expect(result.stderr).toMatch(/^sift: .*more than 20.*--yes/);
		expect(fileDigest(db)).toBe(before);
		const confirmed = siftJson<{ok: number; failed: number}>(['edit', '--where', 'BUG', 'owner=ren', '--yes', '--db', db]);
		expect(confirmed).toMatchObject({ok: 30, failed: 0});
	});

	it('edits the item the query matched, even when its id is another item\'s unique value', () => {
		const dir = tempDir('sift-where-ids-');
		const channel = {id: 'hosts', name: 'Hosts', fields: [
			{key: 'name', label: 'Name', type: 'text', is_unique: true, is_required: true},
			{key: 'role', label: 'Role', type: 'text'},
		]};
		// The second host is named after the first one's id: that id names two items.
		writeFileSync(join(dir, 'hosts.json'), JSON.stringify({channel, items: [{values: {name: 'alpha', role: 'web'}}, {values: {name: 'it_0000000001', role: 'db'}}]}));
		const db = join(dir, 'hosts.db');
		expect(sift(['import', join(dir, 'hosts.json'), '--db', db]).code).toBe(0);
		const result = siftJson<{ok: number; failed: number; items: Array<{item_id: string}>}>(['edit', '--where', 'role:web', 'role=cache', '--db', db]);
		expect(result).toMatchObject({ok: 1, failed: 0, items: [{item_id: 'it_0000000001'}]});
		expect(siftJson(['show', 'alpha', '--db', db])).toMatchObject({version: 2, values: {role: 'cache'}});
		expect(siftJson(['show', 'it_0000000002', '--db', db])).toMatchObject({version: 1, values: {role: 'db'}});
	});
});
