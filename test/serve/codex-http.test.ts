// End-to-end over HTTP: the real Codex CLI (node_modules/.bin/codex, CODEX_HOME in a temp folder)
// against the scripted Responses endpoint, reaching the store through `sift serve` with a token
// minted for the run (`sift run --server`), as test/e2e/codex-mcp.test.ts does through stdio.

import {rmSync} from 'node:fs';
import path from 'node:path';
import {afterAll, expect, it} from 'vitest';
import {startServe} from '../../source/serve/http.js';
import {startServerRun} from '../../source/codex/run-token.js';
import {openAsyncStore, openStore} from '../../store/index.js';
import {codexLocalArgs, localRunOptions, makeCodexHome, SCRIPTED_MODEL} from '../support/codex-local.js';
import {startResponsesEndpoint} from '../support/responses-endpoint.js';
import {makeDatabase, ROOT} from '../mcp/fixtures.js';
import {tempDir} from '../support/temp.js';

const CODEX = path.join(ROOT, 'node_modules', '.bin', 'codex');
const ITEM_COUNT = 20;
const dir = tempDir('sift-e2e-http-');
afterAll(() => rmSync(dir, {recursive: true, force: true}));

it('a triage run of 20 demo items through the real Codex CLI and sift serve', async () => {
	const db = path.join(dir, 'e2e.db');
	makeDatabase(db, ITEM_COUNT);
	const store = openStore(db);
	const logs: string[] = [];
	const served = await openAsyncStore(db);
	const server = await startServe({store: served, port: 0, log: line => logs.push(line)});
	const endpoint = await startResponsesEndpoint({mode: 'triage-functions'});
	const home = await makeCodexHome();
	try {
		const itemIds = store.listPage('bugs').items.map(item => item.id);
		const local = codexLocalArgs({endpointUrl: endpoint.url, model: SCRIPTED_MODEL, codexHome: home.path});
		const handle = await startServerRun(served, {
			instruction: 'Triage these bugs: set status, owner, severity, points, due and area from the triage wishes at the end of each description.',
			channelId: 'bugs',
			itemIds,
			dbPath: db,
			...localRunOptions(local, CODEX),
			stateDir: path.join(dir, 'state'),
			timeoutMs: 240_000,
			endpoint: `${server.url}/mcp`,
		});
		const result = await handle.done;
		expect(result.error, result.stderrTail).toBeNull();
		expect(result.outcome).toBe('ok');
		expect(result.editsApplied).toBe(ITEM_COUNT);
		expect(result.rejections).toBeGreaterThan(0);

		// Every write came over HTTP, tagged with the run from the token.
		const {events} = store.pollEvents('bugs', {afterSequence: ITEM_COUNT, limit: 100});
		expect(events).toHaveLength(ITEM_COUNT);
		for (const event of events) expect(event.actor).toEqual({kind: 'agent', run_id: result.runId});
		const followUps = store.listFollowUps({status: 'open'});
		expect(followUps.length).toBeGreaterThan(0);
		for (const followUp of followUps) expect(followUp.run_id).toBe(result.runId);
		expect(store.latestSequence('secrets')).toBe(1);

		const lines = logs.map(line => JSON.parse(line) as Record<string, unknown>);
		const calls = lines.filter(line => line.method === 'tools/call');
		expect(calls.filter(line => line.tool === 'read_record_item')).toHaveLength(ITEM_COUNT);
		for (const line of calls) expect(line.token).toBe(`run-${result.runId}`);

		// The run's token ended with the run.
		const [info] = store.listTokens().filter(token => token.run_id === result.runId);
		expect(info!.revoked_at).not.toBeNull();
		expect(info!.last_used_at).not.toBeNull();
	} finally {
		await endpoint.close();
		await home.remove();
		await server.drain(2000);
		await served.close();
		store.close();
	}
}, 300_000);
