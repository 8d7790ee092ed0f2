// End-to-end fan-out: 20 demo items in batches of 10, 2 at once, each batch its own run of the
// real Codex CLI (against the scripted Responses endpoint) with its own `sift mcp` and run id,
// started the way `sift run --batch 10 --parallel 2` starts them. Every item is triaged once, by
// the run whose batch held it, and each refused value becomes that run's follow-up.

import {rmSync} from 'node:fs';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {parseTriageWishes} from '../../demo-data/generate.js';
import {splitIntoBatches} from '../../source/codex/batches.js';
import {Fanout} from '../../source/codex/fanout.js';
import {startStoreRun} from '../../source/codex/run-token.js';
import {openAsyncStore} from '../../store/api.js';
import {openStore} from '../../store/index.js';
import {codexLocalArgs, localRunOptions, makeCodexHome, SCRIPTED_MODEL} from '../support/codex-local.js';
import {startResponsesEndpoint} from '../support/responses-endpoint.js';
import {builtCli, makeDatabase, ROOT} from '../mcp/fixtures.js';
import {tempDir} from '../support/temp.js';

const CODEX = path.join(ROOT, 'node_modules', '.bin', 'codex');
const ITEM_COUNT = 20;
const dir = tempDir('sift-e2e-fanout-');

beforeAll(() => {
	builtCli();
});

afterAll(() => rmSync(dir, {recursive: true, force: true}));

describe('fan-out with the real Codex CLI', () => {
	it('--batch 10 --parallel 2 over 20 items: two runs at once, every item triaged once, follow-ups by run', async () => {
		const db = path.join(dir, 'fanout.db');
		makeDatabase(db, ITEM_COUNT);
		const store = await openAsyncStore(db);
		const endpoint = await startResponsesEndpoint({mode: 'triage-functions'});
		const home = await makeCodexHome();
		try {
			const before = await Promise.all((await store.listPage('bugs')).items.map(async item => store.readItem('bugs', item.id)));
			expect(before).toHaveLength(ITEM_COUNT);
			const local = codexLocalArgs({endpointUrl: endpoint.url, model: SCRIPTED_MODEL, codexHome: home.path});
			const fanout = new Fanout({
				parallel: 2,
				start: async ({runId, itemIds}) => startStoreRun(store, {
					instruction: 'Triage these bugs: set status, owner, severity, points, due and area from the triage wishes at the end of each description.',
					channelId: 'bugs',
					dbPath: db,
					...localRunOptions(local, CODEX),
					stateDir: path.join(dir, 'state'),
					timeoutMs: 240_000,
					runId,
					itemIds,
				}, undefined),
			});
			let most = 0;
			fanout.subscribe(() => {
				most = Math.max(most, fanout.running);
			});
			for (const batch of splitIntoBatches(before.map(item => item.id), 10)) fanout.add(batch);
			await fanout.idle();

			const runs = fanout.snapshot();
			expect(runs).toHaveLength(2);
			expect(most).toBe(2);
			for (const run of runs) expect(run.result?.outcome, run.result?.error ?? '').toBe('ok');
			// One accepted edit per item, across the two runs.
			expect(runs.map(run => run.result!.editsApplied)).toEqual([10, 10]);
			const runOf = new Map(runs.flatMap(run => run.itemIds.map(id => [id, run.runId] as const)));

			const sync = openStore(db);
			try {
				// Each item's only agent edit came from the run whose batch held it.
				const {events} = sync.pollEvents('bugs', {afterSequence: ITEM_COUNT, limit: 100});
				const editedIds = events.map(event => event.item_id);
				expect(new Set(editedIds).size).toBe(editedIds.length);
				for (const event of events) expect(event).toMatchObject({type: 'item.updated', actor: {kind: 'agent', run_id: runOf.get(event.item_id)}});
				// Follow-ups: the values the store refused (points out of range, due not a date), by the same run.
				const followUps = sync.listFollowUps({status: 'open'});
				for (const old of before) {
					const wishes = parseTriageWishes(String(old.values.description));
					const refused = [];
					if (!(Number(wishes.points) >= 0 && Number(wishes.points) <= 13)) refused.push('points');
					if (!/^\d{4}-\d{2}-\d{2}$/.test(wishes.due!)) refused.push('due');
					const mine = followUps.filter(followUp => followUp.item_id === old.id);
					expect(mine.map(followUp => followUp.key).sort(), String(old.values.ticket)).toEqual(refused.sort());
					for (const followUp of mine) expect(followUp.run_id).toBe(runOf.get(old.id));
				}

				expect(followUps.length).toBeGreaterThan(0);
			} finally {
				sync.close();
			}

			// Both runs are in the runs table, finished.
			const recorded = await Promise.all(runs.map(async run => store.runs.get(run.runId)));
			for (const row of recorded) expect(row).toMatchObject({outcome: 'ok', channel_id: 'bugs'});
		} finally {
			await endpoint.close();
			await home.remove();
			await store.close();
		}
	}, 300_000);
});
