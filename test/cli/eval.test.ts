// `sift eval --similar --pairs FILE` on a real duplicate set (GitBugs Hadoop, test/fixtures/duplicates):
// the built CLI reports recall@1/5/10 and MRR from its own per-question ranks, meets the goal
// recall@10 ≥ 0.60, and refuses a missing pairs file, a malformed row and a key that is not unique;
// `--fields` naming no field of the channel, or given with --similar, is refused before any run.

import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {openAsyncStore} from '../../store/api.js';
import {rankingScores} from '../../source/eval/metrics.js';
import {duplicateSet} from '../support/duplicate-sets.js';
import {ensureBuilt, sift} from '../support/cli.js';
import {tempDir} from '../support/temp.js';

describe('sift eval --similar', () => {
	const dir = tempDir('sift-eval-');
	const db = join(dir, 'hadoop.db');
	const pairs = join(dir, 'pairs.csv');

	beforeAll(async () => {
		ensureBuilt();
		const set = duplicateSet('hadoop');
		const store = await openAsyncStore(db, {create: true});
		try {
			await store.importChannel({channel: set.channel, items: set.items});
		} finally {
			await store.close();
		}

		writeFileSync(pairs, set.pairsFile);
	});

	it('asks each known duplicate against the issues filed before it and reports recall@k and MRR', () => {
		const run = sift(['eval', '--similar', '--pairs', pairs, '--key', 'issue', '--db', db, '--json']);
		expect(run.stderr).toBe('');
		expect(run.code).toBe(0);
		const report = JSON.parse(run.stdout) as ReturnType<typeof rankingScores> & {links: number; unresolved_links: number; results: Array<{itemId: string; right: string[]; rank: number | null; returned: string[]}>};
		// The file's 126 rows name each of its 66 links from both ends: 66 duplicates, each asked once.
		expect(report).toMatchObject({channel: 'hadoop', unresolved_links: 0, questions: 66});
		expect(rankingScores(report.results.map(result => result.rank))).toEqual({questions: 66, recall_at_1: report.recall_at_1, recall_at_5: report.recall_at_5, recall_at_10: report.recall_at_10, mrr: report.mrr});
		for (const result of report.results) {
			expect(result.returned.length).toBeLessThanOrEqual(10);
			// Only older items come back: ids grow with the order items were added.
			expect(result.returned.every(id => id < result.itemId)).toBe(true);
		}

		expect(report.recall_at_10).toBeGreaterThanOrEqual(0.6);
		const text = sift(['eval', '--similar', '--pairs', pairs, '--key', 'issue', '--db', db]);
		expect(text.code).toBe(0);
		expect(text.stdout).toContain('66 duplicates asked');
		expect(text.stdout).toMatch(new RegExp(`recall@10 +${report.recall_at_10.toFixed(3)}`));
	});

	it('refuses what it cannot measure, naming the problem', () => {
		expect(sift(['eval', '--similar', '--db', db])).toMatchObject({code: 2, stderr: expect.stringContaining('--pairs FILE')});
		expect(sift(['eval', '--similar', '--pairs', join(dir, 'none.csv'), '--db', db])).toMatchObject({code: 2, stderr: expect.stringContaining('ENOENT')});
		const bad = join(dir, 'bad.csv');
		writeFileSync(bad, 'a,b\n1,2\n3,\n');
		expect(sift(['eval', '--similar', '--pairs', bad, '--db', db])).toMatchObject({code: 2, stderr: expect.stringContaining('line 3')});
		expect(sift(['eval', '--similar', '--pairs', pairs, '--key', 'title', '--db', db])).toMatchObject({code: 2, stderr: expect.stringContaining('not a unique field')});
		// The agent's measure: a field the channel lacks, both measures at once, neither.
		expect(sift(['eval', '--fields', 'severity', '--db', db])).toMatchObject({code: 2, stderr: expect.stringContaining('"severity" is no field of channel hadoop')});
		expect(sift(['eval', '--fields', 'title', '--similar', '--db', db])).toMatchObject({code: 2, stderr: expect.stringContaining('either --fields')});
		expect(sift(['eval', '--db', db])).toMatchObject({code: 2, stderr: expect.stringContaining('--fields KEY,...')});
	});
});
