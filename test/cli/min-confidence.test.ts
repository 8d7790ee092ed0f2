// `sift proposals accept --min-confidence N`: only the proposals an agent was at least N sure of
// are accepted (inclusive); one without a confidence stays open; a threshold outside 0..1 is refused.
// Then `sift proposals stats` counts per field what was accepted, declined and left open.

import path from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {openAsyncStore} from '../../store/api.js';
import {ensureBuilt, sift, tempDir} from '../support/cli.js';

const CHANNEL = {id: 'issues', name: 'Issues', fields: [{key: 'title', label: 'Title', type: 'text'}]};

beforeAll(() => ensureBuilt());

describe('sift proposals accept --min-confidence', () => {
	it('accepts only proposals at least that sure, leaves the rest open, refuses a bad threshold', async () => {
		const db = path.join(tempDir('sift-min-confidence-'), 'store.db');
		const store = await openAsyncStore(db, {create: true});
		const confidences = [0.95, 0.9, 0.5, undefined];
		try {
			await store.importChannel({channel: CHANNEL, items: confidences.map((_, n) => ({values: {title: `t${n}`}}))});
			const ids = (await store.listPage('issues')).items.map(item => item.id);
			for (const [n, confidence] of confidences.entries()) {
				await store.editItem({channelId: 'issues', itemId: ids[n]!, values: {title: `proposed ${n}`}, actor: {kind: 'agent'}, mode: 'propose', ...(confidence === undefined ? {} : {confidence})});
			}
		} finally {
			await store.close();
		}

		expect(sift(['proposals', 'accept', '--min-confidence', '2', '--db', db]).stderr).toContain('--min-confidence must be a number from 0 to 1');
		const result = sift(['proposals', 'accept', '--min-confidence', '0.9', '--db', db, '--json']);
		expect(result.code, result.stderr).toBe(0);
		const accepted = (JSON.parse(result.stdout) as {accepted: Array<{changes: {title: {to: string}}}>}).accepted;
		expect(accepted.map(entry => entry.changes.title.to).sort()).toEqual(['proposed 0', 'proposed 1']);
		const reopened = await openAsyncStore(db);
		try {
			const open = await reopened.proposals.list({channelId: 'issues'});
			expect(open.map(proposal => proposal.confidence)).toEqual([0.5, null]);
			await reopened.proposals.decline([open[0]!.id]);
		} finally {
			await reopened.close();
		}

		const stats = sift(['proposals', 'stats', '--db', db, '--json']);
		expect(stats.code, stats.stderr).toBe(0);
		expect(JSON.parse(stats.stdout)).toEqual({channel: 'issues', run: null, fields: [{key: 'title', proposed: 4, accepted: 2, auto_accepted: 0, declined: 1, open: 1}]});
		expect(sift(['proposals', 'stats', '--db', db]).stdout).toContain('title  4 proposed: 2 accepted, 1 declined, 1 open');
		expect(sift(['proposals', 'stats', '--run', 'nope', '--db', db])).toMatchObject({code: 2, stderr: expect.stringContaining('no run "nope"')});
	});
});
