// `sift eval --fields` end to end (docs/eval.md): the built CLI copies 200 items with a known
// severity into a scratch store, hides it, and runs the real Codex CLI (CODEX_HOME in a temp
// folder) against the scripted Responses endpoint in propose mode, batches of 50 items read and
// edited with parallel calls. The scripted model knows the answers and is wrong on every fifth item
// (index mod 5 = 0), with confidences chosen so the calibration error can be worked out by hand:
// the report says 0.80 and that figure. The person's store is only read; the copy goes afterwards.

import {mkdtempSync, readdirSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openAsyncStore} from '../../store/api.js';
import type {Channel} from '../../store/index.js';
import {codexLocalArgs, makeCodexHome, SCRIPTED_MODEL} from '../support/codex-local.js';
import {ensureBuilt, siftAsync} from '../support/cli.js';
import {startResponsesEndpoint, type ResponsesEndpoint} from '../support/responses-endpoint.js';
import {ROOT} from '../mcp/fixtures.js';
import {tempDir} from '../support/temp.js';

const CODEX = path.join(ROOT, 'node_modules', '.bin', 'codex');
const ITEMS = 200;
const SEVERITIES = ['s1', 's2', 's3', 's4'];
const TEST_TIMEOUT_MS = 600_000;

const channel: Channel = {
	id: 'bugs',
	name: 'Bugs',
	fields: [
		{key: 'title', label: 'Title', type: 'text', is_required: true, is_unique: false, config: {}},
		{key: 'severity', label: 'Severity', type: 'select', is_required: true, is_unique: false, config: {options: SEVERITIES.map(value => ({value, label: value.toUpperCase()}))}},
		{key: 'description', label: 'Description', type: 'text', is_required: false, is_unique: false, config: {long: true}},
	],
};

const truth = (index: number) => SEVERITIES[index % SEVERITIES.length]!;

/**
 * How sure the scripted model says it is of item `index`, by index mod 10: the two wrong ones
 * (0 and 5) say 0.85 and 0.55, the right ones 0.95 (1, 2, 6, 7) and 0.75 (3, 4, 8, 9).
 */
const CONFIDENCE = [0.85, 0.95, 0.95, 0.75, 0.75, 0.55, 0.95, 0.95, 0.75, 0.75];

/** The scripted model's answer for an item it read: the truth, except every fifth item gets the next severity. */
function answer(item: {values: Record<string, unknown>}) {
	const index = Number(/^Report (\d+)$/.exec(String(item.values.title))?.[1]);
	const right = index % 5 !== 0;
	const severity = right ? truth(index) : truth(index + 1);
	return {values: {severity}, confidence: CONFIDENCE[index % 10]!};
}

const dir = tempDir('sift-e2e-eval-');
const db = path.join(dir, 'bugs.db');
let endpoint: ResponsesEndpoint;
let home: {path: string; remove(): Promise<void>};

beforeAll(async () => {
	ensureBuilt();
	const store = await openAsyncStore(db, {create: true});
	try {
		await store.importChannel({channel, items: Array.from({length: ITEMS}, (_, index) => ({values: {title: `Report ${index}`, severity: truth(index), description: `What report ${index} says.`}}))});
	} finally {
		await store.close();
	}

	endpoint = await startResponsesEndpoint({mode: 'triage-functions', channelId: 'bugs', answers: answer});
	home = await makeCodexHome();
});

afterAll(async () => {
	await endpoint?.close();
	await home?.remove();
	rmSync(dir, {recursive: true, force: true});
});

function evalArgs(extra: string[]): string[] {
	const local = codexLocalArgs({endpointUrl: endpoint.url, model: SCRIPTED_MODEL, codexHome: home.path});
	return ['eval', '--channel', 'bugs', '--fields', 'severity', '--db', db, '--codex', CODEX, '--model', SCRIPTED_MODEL, ...local.config.flatMap(kv => ['--codex-config', kv]), ...extra];
}

describe('sift eval --fields through the real Codex CLI', () => {
	it('reports 0.80 for a model right on a known 80 %, and the calibration error worked out by hand', async () => {
		const before = await openAsyncStore(db);
		const versions = (await before.readItems('bugs', {limit: ITEMS})).items.map(item => item.version);
		await before.close();

		const run = await siftAsync(evalArgs(['--sample', String(ITEMS), '--batch', '50', '--parallel', '2', '--keep', '--json']), {CODEX_HOME: home.path});
		expect(run.code, run.stderr).toBe(0);
		const report = JSON.parse(run.stdout) as {sample: number; runs: string[]; proposals: number; scratch: string; fields: Array<Record<string, number | string | null>>; duplicates: unknown};
		expect(report).toMatchObject({sample: ITEMS, runs: ['ok', 'ok', 'ok', 'ok'], proposals: ITEMS, duplicates: null});
		const [severity] = report.fields;
		expect(severity).toMatchObject({field: 'severity', items: ITEMS, proposed: ITEMS, correct: 160, with_confidence: ITEMS});
		expect(severity!.precision).toBeCloseTo(0.8, 10);
		expect(severity!.recall).toBeCloseTo(0.8, 10);
		expect(severity!.f1).toBeCloseTo(0.8, 10);
		// By hand, over 10 bins: [0.9, 1] holds the 80 right at 0.95 (gap 0.05); [0.7, 0.8) the 80
		// right at 0.75 (gap 0.25); [0.8, 0.9) the 20 wrong at 0.85 (gap 0.85); [0.5, 0.6) the 20
		// wrong at 0.55 (gap 0.55). Weighed by count: (80·0.05 + 80·0.25 + 20·0.85 + 20·0.55) / 200 = 0.26.
		expect(severity!.ece).toBeCloseTo(0.26, 10);

		// The proposals are in the kept scratch copy; the person's store has none, and no run.
		const scratch = await openAsyncStore(report.scratch);
		try {
			expect(await scratch.proposals.list({channelId: 'bugs', status: 'all'})).toHaveLength(ITEMS);
			expect((await scratch.readItems('bugs', {limit: 1})).items[0]!.values.severity).toBeNull();
		} finally {
			await scratch.close();
			rmSync(path.dirname(report.scratch), {recursive: true, force: true});
		}

		const after = await openAsyncStore(db);
		try {
			expect(await after.proposals.list({channelId: 'bugs', status: 'all'})).toEqual([]);
			expect(await after.runs.list({limit: 10})).toEqual([]);
			expect((await after.readItems('bugs', {limit: ITEMS})).items.map(item => item.version)).toEqual(versions);
		} finally {
			await after.close();
		}
	}, TEST_TIMEOUT_MS);

	it('prints a table, and leaves no scratch copy behind without --keep', async () => {
		const scratchParent = mkdtempSync(path.join(tmpdir(), 'sift-eval-tmp-'));
		try {
			const run = await siftAsync(evalArgs(['--sample', '10', '--seed', '7']), {CODEX_HOME: home.path, TMPDIR: scratchParent});
			expect(run.code, run.stderr).toBe(0);
			expect(run.stdout).toContain('the agent on channel bugs: 10 items');
			expect(run.stdout).toMatch(/severity +10 +\d+ +0\.\d{3}/);
			expect(readdirSync(scratchParent).filter(name => name.startsWith('sift-eval-'))).toEqual([]);
		} finally {
			rmSync(scratchParent, {recursive: true, force: true});
		}
	}, TEST_TIMEOUT_MS);
});
