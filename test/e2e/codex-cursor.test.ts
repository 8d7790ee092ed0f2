// End-to-end: the agent cursor through the real Codex CLI (node_modules/.bin/codex, CODEX_HOME in a
// temp folder) and the scripted Responses endpoint. Run 1, without items, is the first on the
// channel and triages; then a person makes 5 edits; run 2, without items, must be told in its
// prompt where run 1 stopped. Its scripted agent reads that sequence from the request Codex sent
// and polls from it (with no sequence there it would poll nothing and the test fails), so the
// changes it reaches are exactly the 5 edits, and it never lists the channel.

import {rmSync} from 'node:fs';
import path from 'node:path';
import {afterAll, beforeAll, expect, it} from 'vitest';
import {startRecordedRun} from '../../source/codex/record.js';
import type {RunResult} from '../../source/codex/runner.js';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {codexLocalArgs, localRunOptions, makeCodexHome, SCRIPTED_MODEL} from '../support/codex-local.js';
import {startResponsesEndpoint, type ResponsesEndpointOptions} from '../support/responses-endpoint.js';
import {type Conversation, isObject, readConversation} from '../support/triage/history.js';
import {builtCli, makeDatabase, ROOT} from '../mcp/fixtures.js';
import {tempDir} from '../support/temp.js';

const CODEX = path.join(ROOT, 'node_modules', '.bin', 'codex');
const ITEM_COUNT = 8;
const OUTSIDE_EDITS = 5;
const RUN_TIMEOUT_MS = 240_000;

const dir = tempDir('sift-e2e-cursor-');
beforeAll(() => {
	builtCli();
});
afterAll(() => rmSync(dir, {recursive: true, force: true}));

type Run = {result: RunResult; conversations: Conversation[]};

/** One recorded run (as `sift run` makes it) without items, through the real Codex against its own endpoint. */
async function recordedRun(store: AsyncStore, db: string, instruction: string, policy: Omit<ResponsesEndpointOptions, 'mode'> = {}): Promise<Run> {
	const endpoint = await startResponsesEndpoint({mode: 'triage-functions', ...policy});
	const home = await makeCodexHome();
	try {
		const local = codexLocalArgs({endpointUrl: endpoint.url, model: SCRIPTED_MODEL, codexHome: home.path});
		const handle = await startRecordedRun(store, {
			instruction,
			channelId: 'bugs',
			dbPath: db,
			...localRunOptions(local, CODEX),
			stateDir: path.join(dir, 'state'),
			timeoutMs: RUN_TIMEOUT_MS,
		});
		const result = await handle.done;
		const conversations = endpoint.requests.map(request => readConversation(isObject(request.body) ? request.body['input'] : undefined));
		return {result, conversations};
	} finally {
		await endpoint.close();
		await home.remove();
	}
}

const toolsCalled = (run: Run) => run.conversations.flatMap(conversation => conversation.exchanges.map(exchange => exchange.tool));

it('a second run without items catches up from the first run\'s end through poll_resource_events, and never lists', async () => {
	const db = path.join(dir, 'cursor.db');
	makeDatabase(db, ITEM_COUNT);
	const store = await openAsyncStore(db);
	try {
		// Run 1: the first on the channel. It is told so, lists and triages.
		const first = await recordedRun(store, db, 'Triage the new bugs: set status, owner, severity, points, due and area from the triage wishes at the end of each description.');
		expect(first.result.error, first.result.stderrTail).toBeNull();
		expect(first.result.outcome).toBe('ok');
		expect(first.conversations[0]!.prompt).toContain('No earlier run on channel "bugs" has finished');
		expect(toolsCalled(first)).toContain('list_record_items');
		expect(first.result.editsApplied).toBeGreaterThan(0);
		const afterFirst = await store.latestSequence('bugs');
		expect(await store.runs.get(first.result.runId)).toMatchObject({start_sequence: ITEM_COUNT, end_sequence: afterFirst, outcome: 'ok'});
		expect(afterFirst).toBe(ITEM_COUNT + first.result.editsApplied);

		// A person edits 5 items.
		const page = await store.listPage('bugs', {limit: OUTSIDE_EDITS});
		const outside: Array<{sequence: number; itemId: string}> = [];
		for (const [index, item] of page.items.entries()) {
			const edited = await store.editItem({channelId: 'bugs', itemId: item.id, values: {title: `Retitled by a person ${index}`}, actor: {kind: 'human'}});
			outside.push({sequence: edited.sequence, itemId: item.id});
		}
		expect(outside.map(edit => edit.sequence)).toEqual(Array.from({length: OUTSIDE_EDITS}, (_, n) => afterFirst + n + 1));

		// Run 2: no items. Its agent catches up from the sequence it finds in the prompt Codex sent.
		const second = await recordedRun(store, db, 'Catch up on what changed since the last run.', {catchUp: true});
		expect(second.result.error, second.result.stderrTail).toBeNull();
		expect(second.result.outcome).toBe('ok');
		const [opening] = second.conversations;
		expect(opening!.prompt).toContain(`The last finished run on channel "bugs" ended at event sequence ${afterFirst}.`);
		expect(opening!.prompt).toContain(`after_sequence ${afterFirst}`);

		// What poll_resource_events answered, as Codex handed it back to the agent: exactly the 5 edits.
		const final = second.conversations.at(-1)!;
		const polls = final.exchanges.filter(exchange => exchange.tool === 'poll_resource_events');
		expect(polls.length).toBeGreaterThan(0);
		expect(polls[0]!.args).toMatchObject({resource_type: 'record_channel', resource_id: 'bugs', after_sequence: afterFirst});
		const polled = polls.flatMap(poll => (poll.result as {events: Array<{sequence: number; type: string; item_id: string; actor: {kind: string}}>}).events);
		expect(polled.map(event => ({sequence: event.sequence, itemId: event.item_id}))).toEqual(outside);
		for (const event of polled) expect(event).toMatchObject({type: 'item.updated', actor: {kind: 'human'}});

		// It never listed: not in any request Codex sent, not in the run's steps.
		expect(toolsCalled(second)).not.toContain('list_record_items');
		const steps = second.result.steps.filter(step => step.kind === 'mcp_tool_call').map(step => step.label.split(' ')[0]);
		expect(steps).not.toContain('list_record_items');
		expect(steps).toContain('poll_resource_events');
		expect(steps.filter(tool => tool === 'read_record_item')).toHaveLength(OUTSIDE_EDITS);
		expect(second.result.text).toContain(`from sequence ${afterFirst} to ${afterFirst + OUTSIDE_EDITS}: ${OUTSIDE_EDITS} changes`);

		// Run 2 moved the cursor to where it stopped.
		expect(await store.runs.get(second.result.runId)).toMatchObject({start_sequence: afterFirst + OUTSIDE_EDITS, end_sequence: afterFirst + OUTSIDE_EDITS});
		expect((await store.runs.lastFinished('bugs'))!.id).toBe(second.result.runId);
	} finally {
		await store.close();
	}
}, 300_000);
