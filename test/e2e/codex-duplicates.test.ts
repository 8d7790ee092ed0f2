// No invented duplicates, through the real Codex CLI and the scripted Responses endpoint: a run in
// propose mode whose model proposes 50 duplicates, 10 of them to ids outside the channel (an item
// of another channel, or an id nobody has). The store refuses all 10 as validation failures, each
// a follow-up of the run; the other 40 are proposals of duplicate_of with the status it sets.

import {rmSync} from 'node:fs';
import path from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {startRecordedRun} from '../../source/codex/record.js';
import {openAsyncStore} from '../../store/api.js';
import {codexLocalArgs, localRunOptions, makeCodexHome, SCRIPTED_MODEL} from '../support/codex-local.js';
import {startResponsesEndpoint} from '../support/responses-endpoint.js';
import {ROOT} from '../mcp/fixtures.js';
import {ISSUES_WITH_DUPLICATES as ISSUES} from '../support/duplicate-sets.js';
import {tempDir} from '../support/temp.js';
import {newestItemIds} from '../support/item-ids.js';

const CODEX = path.join(ROOT, 'node_modules', '.bin', 'codex');
const PROPOSED = 50;
const OUTSIDE = 10;
const RUN_TIMEOUT_MS = 540_000;
const TEST_TIMEOUT_MS = 600_000;

const dir = tempDir('sift-e2e-duplicates-');
afterAll(() => rmSync(dir, {recursive: true, force: true}));

describe('duplicates through the real Codex CLI', () => {
	it('50 proposed duplicates, 10 to ids outside the channel: all 10 refused as follow-ups, 40 proposed', async () => {
		const db = path.join(dir, 'dups.db');
		const store = await openAsyncStore(db, {create: true});
		try {
			const items = Array.from({length: 2 * PROPOSED}, (_, n) => ({values: {ticket: `D-${n + 1}`, title: `report ${n + 1}`, description: `what happened in report ${n + 1}`, status: 'new'}}));
			await store.importChannel({channel: ISSUES, items});
			await store.importChannel({channel: {id: 'other', name: 'Other', fields: [{key: 'title', label: 'Title', type: 'text'}]}, items: [{values: {title: 'elsewhere'}}]});
			const elsewhere = (await newestItemIds(store, 'other'))[0]!;
			const [targets, duplicates] = [(await newestItemIds(store, 'issues')).slice(0, PROPOSED), (await newestItemIds(store, 'issues')).slice(PROPOSED)];
			// The model's answer for each duplicate, written where it reads it: the last 10 name ids outside the channel.
			const outside = Array.from({length: OUTSIDE}, (_, n) => (n % 2 === 0 ? elsewhere : `k${String(n).padStart(12, '0')}`));
			const wanted = duplicates.map((id, n) => [id, n < PROPOSED - OUTSIDE ? targets[n]! : outside[n - (PROPOSED - OUTSIDE)]!] as const);
			for (const [id, target] of wanted) {
				await store.editItem({channelId: 'issues', itemId: id, values: {description: `Same as another report.\nTriage wishes: duplicate_of ${target}.`}, actor: {kind: 'human'}});
			}

			const endpoint = await startResponsesEndpoint({mode: 'triage-functions'});
			const home = await makeCodexHome();
			try {
				const local = codexLocalArgs({endpointUrl: endpoint.url, model: SCRIPTED_MODEL, codexHome: home.path});
				const handle = await startRecordedRun(store, {
					instruction: 'Mark each of these reports as a duplicate of the record its description names.',
					channelId: 'issues',
					itemIds: duplicates,
					dbPath: db,
					mode: 'propose',
					...localRunOptions(local, CODEX),
					stateDir: path.join(dir, 'state'),
					timeoutMs: RUN_TIMEOUT_MS,
				});
				const result = await handle.done;
				expect(result.outcome, result.stderrTail).toBe('ok');
				expect(result.editsApplied).toBe(0);

				const proposals = await store.proposals.list({runId: result.runId});
				expect(proposals).toHaveLength(PROPOSED - OUTSIDE);
				const proposedTo = new Map(proposals.map(proposal => [proposal.item_id, proposal.values]));
				for (const [id, target] of wanted.slice(0, PROPOSED - OUTSIDE)) expect(proposedTo.get(id)).toEqual({duplicate_of: target, status: 'duplicate'});

				const followUps = await store.listFollowUps({channelId: 'issues', status: 'open'});
				expect(followUps.map(followUp => [followUp.item_id, followUp.key, followUp.attempted, followUp.run_id]).sort()).toEqual(wanted.slice(PROPOSED - OUTSIDE).map(([id, target]) => [id, 'duplicate_of', target, result.runId]).sort());
				for (const followUp of followUps) expect(followUp.message).toContain('must be the id of an existing item in channel issues');
				// Nothing was written: every duplicate is still new, with no relation.
				for (const id of duplicates) expect((await store.readItem('issues', id)).values).toMatchObject({status: 'new', duplicate_of: null});
			} finally {
				await endpoint.close();
				await home.remove();
			}
		} finally {
			await store.close();
		}
	}, TEST_TIMEOUT_MS);
});
