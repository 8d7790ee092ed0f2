// End-to-end: sift's runner launches the real Codex CLI (node_modules/.bin/codex, CODEX_HOME in a
// temp folder) against the scripted Responses endpoint; Codex starts `sift mcp` from the built CLI
// and the endpoint triages a fresh demo database through it. Both of Codex's tool paths are run:
// plain function calls (a model outside Codex's catalog) and code mode (`exec` cells, the default
// model). A third run gets 401 from the endpoint and must ask the user to run `codex login`.

import {readFileSync, rmSync} from 'node:fs';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {bugsChannel, parseTriageWishes} from '../../demo-data/generate.js';
import {startRun, type RunResult} from '../../source/codex/runner.js';
import type {RunUpdate} from '../../source/codex/tracker.js';
import {openStore, type Item, type StoreEvent} from '../../store/index.js';
import {codexLocalArgs, localRunOptions, makeCodexHome, SCRIPTED_MODEL} from '../support/codex-local.js';
import {startResponsesEndpoint, type EndpointMode} from '../support/responses-endpoint.js';
import {builtCli, makeDatabase, ROOT} from '../mcp/fixtures.js';
import {tempDir} from '../support/temp.js';

const CODEX = path.join(ROOT, 'node_modules', '.bin', 'codex');
const ITEM_COUNT = 20;
const RUN_TIMEOUT_MS = 240_000;
const TEST_TIMEOUT_MS = 300_000;
const WISH_FIELDS = ['status', 'owner', 'severity', 'points', 'due', 'area'];
const SELECTS = ['status', 'owner', 'severity', 'area'];

const dir = tempDir('sift-e2e-');
let counter = 0;

beforeAll(() => {
	builtCli();
});

afterAll(() => rmSync(dir, {recursive: true, force: true}));

type Run = {
	result: RunResult;
	updates: RunUpdate[];
	db: string;
	before: Item[];
	/** Every request body the endpoint received. */
	requests: unknown[];
	/** The stdout lines of the run log (Codex's JSONL stream as received). */
	stream: Array<Record<string, any>>;
};

async function triageRun(mode: EndpointMode, model: string | undefined): Promise<Run> {
	const base = path.join(dir, `run${counter++}`);
	const db = `${base}.db`;
	makeDatabase(db, ITEM_COUNT);
	const store = openStore(db);
	const before = store.listPage('bugs').items.map(item => store.readItem('bugs', item.id));
	store.close();

	const endpoint = await startResponsesEndpoint({mode});
	const home = await makeCodexHome();
	try {
		const local = codexLocalArgs({endpointUrl: endpoint.url, model, codexHome: home.path});
		const handle = startRun({
			instruction: 'Triage these bugs: set status, owner, severity, points, due and area from the triage wishes at the end of each description.',
			channelId: 'bugs',
			itemIds: before.map(item => item.id),
			dbPath: db,
			...localRunOptions(local, CODEX),
			stateDir: `${base}-state`,
			timeoutMs: RUN_TIMEOUT_MS,
		});
		const updates: RunUpdate[] = [];
		for await (const update of handle.updates) {
			updates.push(update);
		}

		const result = await handle.done;
		// The run log holds Codex's stdout lines as received, between sift's start and end lines.
		const stream = readFileSync(result.logPath, 'utf8').split('\n').filter(Boolean)
			.map(line => JSON.parse(line) as Record<string, any>)
			.filter(entry => entry.sift === undefined);
		return {result, updates, db, before, requests: endpoint.requests.map(request => request.body), stream};
	} finally {
		await endpoint.close();
		await home.remove();
	}
}

/** The option value a person's word names: exact label, else the one label containing the word. */
function optionFor(key: string, words: string): string {
	const options = bugsChannel.fields.find(field => field.key === key)!.config.options as Array<{value: string; label: string}>;
	const wanted = words.toLowerCase();
	const exact = options.find(option => option.label.toLowerCase() === wanted);
	const containing = options.filter(option => option.label.toLowerCase().split(' ').includes(wanted));
	const found = exact ?? (containing.length === 1 ? containing[0] : undefined);
	if (!found) throw new Error(`no option of ${key} for ${words}`);
	return found.value;
}

/** Everything issue 4 point 4 asks of the database and the run. */
function checkTriage(run: Run): void {
	const {result, updates, db, before} = run;
	expect(result.error, result.stderrTail).toBeNull();
	expect(result.outcome).toBe('ok');
	expect(result.text).toMatch(/\S/);
	expect(result.usage).toMatchObject({input_tokens: expect.any(Number), output_tokens: expect.any(Number)});
	expect(result.usage!.input_tokens).toBeGreaterThan(0);

	// Steps: every MCP call was reported running before it was reported finished. Codex marks a
	// call whose result is isError (a store refusal) as failed, so a refused edit ends "failed".
	const mcpSteps = result.steps.filter(step => step.kind === 'mcp_tool_call');
	const tools = mcpSteps.map(step => step.label.split(' ')[0]);
	expect(tools.filter(tool => tool === 'read_record_item')).toHaveLength(ITEM_COUNT);
	expect(tools.filter(tool => tool === 'edit_record_item').length).toBeGreaterThanOrEqual(ITEM_COUNT);
	expect(tools).toContain('list_record_items');
	for (const step of mcpSteps) {
		const seen = updates.flatMap((update, index) => (update.type === 'step' && update.step.id === step.id ? [[index, update.step.status] as const] : []));
		const running = seen.find(([, status]) => status === 'running');
		const done = seen.find(([, status]) => status !== 'running');
		expect(running, `${step.label} was never reported running`).toBeDefined();
		expect(done, `${step.label} was never reported finished`).toBeDefined();
		expect(running![0]).toBeLessThan(done![0]);
	}

	for (const step of result.steps.filter(step => step.status === 'failed')) {
		expect(step.label).toMatch(/^edit_record_item /);
		expect(step.result).toMatch(/^rejected: /);
	}

	expect(result.editsApplied).toBe(ITEM_COUNT);
	expect(result.rejections).toBeGreaterThan(0);

	const store = openStore(db);
	try {
		// Only agent edits of this run happened after the import, one per item.
		const {events} = store.pollEvents('bugs', {afterSequence: ITEM_COUNT, limit: 100});
		expect(events.length).toBe(ITEM_COUNT);
		for (const event of events) {
			expect(event).toMatchObject({type: 'item.updated', actor: {kind: 'agent', run_id: result.runId}});
		}

		expect(store.latestSequence('secrets')).toBe(1);
		expect(store.listChannels().map(channel => [channel.id, channel.item_count])).toEqual([['bugs', ITEM_COUNT], ['secrets', 1]]);

		const openFollowUps = store.listFollowUps({status: 'open'});
		let expectedFollowUps = 0;
		for (const old of before) {
			const item = store.readItem('bugs', old.id);
			const wishes = parseTriageWishes(String(old.values.description));
			const expected: Record<string, unknown> = {...old.values};
			delete expected.age_days;
			const refused: string[] = [];
			for (const key of SELECTS) {
				expected[key] = optionFor(key, wishes[key]!);
			}

			const points = Number(wishes.points);
			if (points >= 0 && points <= 13) expected.points = points;
			else refused.push('points');
			if (/^\d{4}-\d{2}-\d{2}$/.test(wishes.due!)) expected.due = wishes.due;
			else refused.push('due');

			const {age_days: _age, ...actual} = item.values;
			expect(actual, `${String(old.values.ticket)} ${JSON.stringify(wishes)}`).toEqual(expected);
			for (const key of SELECTS) {
				// An option value, never its label.
				expect(actual[key]).toMatch(/^[a-z0-9_]+$/);
			}

			const changed = WISH_FIELDS.some(key => JSON.stringify(expected[key]) !== JSON.stringify(old.values[key]));
			expect(item.version).toBe(changed ? old.version + 1 : old.version);
			const mine = events.filter((event: StoreEvent) => event.item_id === old.id);
			expect(mine).toHaveLength(changed ? 1 : 0);
			for (const event of mine) {
				expect(Object.keys(event.changes).every(key => WISH_FIELDS.includes(key))).toBe(true);
			}

			const followUps = openFollowUps.filter(followUp => followUp.item_id === old.id);
			expect(followUps.map(followUp => followUp.key).sort()).toEqual([...refused].sort());
			for (const followUp of followUps) {
				expect(followUp.run_id).toBe(result.runId);
				if (followUp.key === 'points') {
					expect(followUp).toMatchObject({attempted: 20, min: 0, max: 13});
				}
			}

			expectedFollowUps += refused.length;
		}

		expect(openFollowUps).toHaveLength(expectedFollowUps);
		expect(openFollowUps.some(followUp => followUp.key === 'points')).toBe(true);
	} finally {
		store.close();
	}
}

describe('a triage run through the real Codex CLI and sift mcp', () => {
	it('function calls (a model outside the catalog): the fields are set as option values, refusals become follow-ups', async () => {
		const run = await triageRun('triage-functions', SCRIPTED_MODEL);
		checkTriage(run);
		// Codex offered the MCP tools as plain functions of the mcp__sift namespace.
		expect(JSON.stringify(run.requests[0])).toContain('mcp__sift');
		expect(JSON.stringify(run.requests.at(-1))).toContain('"function_call_output"');
		expect(run.stream.some(event => event.type === 'item.completed' && event.item?.type === 'mcp_tool_call')).toBe(true);
	}, TEST_TIMEOUT_MS);

	it('code mode (Codex\'s default model, exec cells): the same triage', async () => {
		const run = await triageRun('triage-code', undefined);
		checkTriage(run);
		expect(JSON.stringify(run.requests[0])).toContain('"exec"');
		const last = JSON.stringify(run.requests.at(-1));
		expect(last).toContain('"custom_tool_call"');
		expect(last).toContain('"custom_tool_call_output"');
		expect(last).not.toContain('"function_call"');
	}, TEST_TIMEOUT_MS);

	it('a 401 from the endpoint is auth_required and tells the user to run `codex login`', async () => {
		const run = await triageRun('unauthorized', SCRIPTED_MODEL);
		expect(run.result.outcome).toBe('auth_required');
		expect(run.result.error).toContain('codex login');
		const store = openStore(run.db);
		try {
			expect(store.latestSequence('bugs')).toBe(ITEM_COUNT);
			expect(store.listFollowUps()).toEqual([]);
		} finally {
			store.close();
		}
	}, TEST_TIMEOUT_MS);
});
