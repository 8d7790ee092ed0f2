// Hostile inputs to the CLI, import and MCP server; each states its exit and leaves the database
// unchanged.

import {existsSync, mkdirSync, rmSync, statSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {ensureBuilt} from '../support/cli.js';
import {cliCases} from './cases/cli.js';
import {importCases} from './cases/import.js';
import {mcpCases, mcpWriteCases, mcpWriteSetup} from './cases/mcp.js';
import {fingerprint, limited, messageOf, RAW_CONTROL, rawSession, runCli, sdkSession, type CliCase, type CliOutcome, type ImportCase, type McpCase, type McpOutcome} from './harness.js';
import {buildForeign, buildTemplate, copyTemplate, ESCAPE, type Ids} from './template.js';
import {tempDir} from '../support/temp.js';

/**
 * Hostile inputs across the command line, import and the MCP server. Every case states the exit
 * code (or isError), a fragment of the message, and that the database is byte-identical afterwards
 * (see fingerprint). The CLI runs with limited parallelism; MCP cases share one server per session.
 */
const root = tempDir('sift-adversarial-');
const template = path.join(root, 'template.db');
const CLI_PARALLELISM = 3;
/** Generous: the work is a few hundred short processes, and a loaded machine must not fail it. */
const BATCH_TIMEOUT_MS = 300_000;
let ids: Ids;

beforeAll(() => {
	ensureBuilt();
	ids = buildTemplate(template);
});

afterAll(() => rmSync(root, {recursive: true, force: true}));

type Ran = {outcome: CliOutcome; before: string; after: string; db: string; dir: string};

let caseCount = 0;
const caseDir = () => {
	const dir = path.join(root, `c${caseCount++}`);
	mkdirSync(dir);
	return dir;
};

/** Where a CLI case's --db points, made as the case asks. */
function databaseFor(kind: CliCase['db'], dir: string): string {
	switch (kind) {
		case 'foreign': {
			const file = path.join(dir, 'contacts.db');
			buildForeign(file);
			return file;
		}

		case 'text': {
			const file = path.join(dir, 'notes.txt');
			writeFileSync(file, 'not a database\n');
			return file;
		}

		case 'missing': {
			return path.join(dir, 'missing.db');
		}

		case 'directory': {
			const folder = path.join(dir, 'folder.db');
			mkdirSync(folder);
			return folder;
		}

		default: {
			const file = path.join(dir, 'sift.db');
			copyTemplate(template, file);
			return file;
		}
	}
}

async function runCliCase(testCase: CliCase): Promise<Ran> {
	const dir = caseDir();
	const db = databaseFor(testCase.db, dir);
	const before = fingerprint(db);
	const outcome = await runCli([...testCase.args(ids, dir), '--db', db], dir);
	return {outcome, before, after: fingerprint(db), db, dir};
}

async function runImportCase(testCase: ImportCase): Promise<Ran> {
	const dir = caseDir();
	const file = path.join(dir, 'import.json');
	writeFileSync(file, testCase.raw ? (testCase.file as string | Buffer) : JSON.stringify(testCase.file));
	const db = testCase.into === 'new' ? path.join(dir, 'new', 'nested', 'sift.db') : path.join(dir, 'sift.db');
	if (testCase.into !== 'new') {
		copyTemplate(template, db);
	}

	const before = fingerprint(db);
	const outcome = await runCli(['import', file, '--db', db], dir);
	return {outcome, before, after: fingerprint(db), db, dir};
}

/** What every CLI answer must be, whatever the case: plain text and a one-line `sift:` refusal. */
function expectCliAnswer(testCase: CliCase | ImportCase, {outcome, before, after}: Ran): void {
	const all = `${outcome.stderr}\n${outcome.stdout}`;
	expect(outcome.code, all.slice(0, 2000)).toBe(testCase.expect.exit);
	const message = messageOf(testCase.expect, ids);
	if (message) {
		expect(all).toMatch(message);
	}

	if (!testCase.expect.changes) {
		expect(after, 'the database changed').toBe(before);
	}

	expect(all, 'a raw control character reached the terminal').not.toMatch(RAW_CONTROL);
	expect(all).not.toMatch(/Maximum call stack|\n\s+at .+:\d+:\d+\)?\n/);
	if (outcome.code !== 0) {
		expect(outcome.stderr).toMatch(/^sift: \S/);
	}
}

describe('command line', () => {
	const ran = new Map<CliCase, Ran>();
	beforeAll(async () => {
		const results = await limited(cliCases, CLI_PARALLELISM, runCliCase);
		cliCases.forEach((testCase, index) => ran.set(testCase, results[index]!));
	}, BATCH_TIMEOUT_MS);

	it.each(cliCases.map(testCase => [testCase.name, testCase] as const))('%s', (_name, testCase) => {
		const result = ran.get(testCase)!;
		expectCliAnswer(testCase, result);
		if (testCase.db === 'missing') {
			expect(existsSync(result.db), 'a missing database was created').toBe(false);
		}

		if (testCase.db === 'directory') {
			expect(statSync(result.db).isDirectory()).toBe(true);
		}

		if (testCase.db === 'foreign') {
			expect(existsSync(`${result.db}-wal`), 'the foreign file was switched to WAL').toBe(false);
		}
	});

	it('plants escapes the sanitizing cases can find', () => {
		expect(ESCAPE).toMatch(RAW_CONTROL);
	});
});

describe('import', () => {
	const ran = new Map<ImportCase, Ran>();
	beforeAll(async () => {
		const results = await limited(importCases, CLI_PARALLELISM, runImportCase);
		importCases.forEach((testCase, index) => ran.set(testCase, results[index]!));
	}, BATCH_TIMEOUT_MS);

	it.each(importCases.map(testCase => [testCase.name, testCase] as const))('%s', (_name, testCase) => {
		const result = ran.get(testCase)!;
		expectCliAnswer(testCase, result);
		if (testCase.into === 'new' && testCase.expect.exit !== 0) {
			expect(existsSync(path.join(result.dir, 'new')), 'a failed import left a folder behind').toBe(false);
		}
	});
});

type McpRan = {outcome: McpOutcome; twin?: McpOutcome; before: string; after: string};

/** Runs cases one after another over one server; fingerprints around each call. */
async function runSession(cases: McpCase[], session: 'sdk' | 'raw', actor: 'agent' | 'human', setup?: (call: (tool: string, args: Record<string, unknown>) => Promise<McpOutcome>) => Promise<void>): Promise<Map<McpCase, McpRan>> {
	const dir = caseDir();
	const db = path.join(dir, 'sift.db');
	copyTemplate(template, db);
	const results = new Map<McpCase, McpRan>();
	if (session === 'raw') {
		const raw = await rawSession(db, actor, dir);
		try {
			for (const testCase of cases) {
				const before = fingerprint(db);
				const outcome = await raw.line(id => testCase.rawLine!(id, ids));
				results.set(testCase, {outcome, before, after: fingerprint(db)});
			}
		} finally {
			await raw.close();
		}

		return results;
	}

	const sdk = await sdkSession(db, actor, dir);
	try {
		await setup?.(async (tool, args) => sdk.call(tool, args));
		for (const testCase of cases) {
			const before = fingerprint(db);
			const outcome = await sdk.call(testCase.tool, testCase.args(ids));
			const twin = testCase.twin ? await sdk.call(testCase.tool, testCase.twin.args(ids)) : undefined;
			results.set(testCase, {outcome, twin, before, after: fingerprint(db)});
		}
	} finally {
		await sdk.close();
	}

	return results;
}

function expectMcpAnswer(testCase: McpCase, {outcome, twin, before, after}: McpRan): void {
	const {expect: expected} = testCase;
	if (expected.rpcError === undefined) {
		expect(outcome.rpcError, outcome.text.slice(0, 500)).toBeUndefined();
		expect(outcome.isError, outcome.text.slice(0, 500)).toBe(expected.isError ?? false);
	} else {
		expect(outcome.rpcError, outcome.text.slice(0, 500)).toBe(expected.rpcError);
	}

	const message = messageOf(expected, ids);
	if (message) {
		expect(outcome.text).toMatch(message);
	}

	expect(outcome.text.length, 'the answer echoes the input at length').toBeLessThan(5000);
	if (twin && testCase.twin) {
		const [mine, theirs] = testCase.twin.swap(ids);
		expect(twin.text.replaceAll(theirs, mine)).toBe(outcome.text);
		expect(twin.isError).toBe(outcome.isError);
	}

	if (!expected.changes) {
		expect(after, 'the database changed').toBe(before);
	}
}

describe('MCP server', () => {
	const ran = new Map<McpCase, McpRan>();
	beforeAll(async () => {
		// Twin cases last: on a build that wrongly accepts them, their write cannot disturb the others.
		const inOrder = (cases: McpCase[]) => [...cases.filter(testCase => !testCase.twin), ...cases.filter(testCase => testCase.twin)];
		const sdkCases = (actor: 'agent' | 'human') => inOrder(mcpCases.filter(testCase => !testCase.rawLine && (testCase.actor ?? 'agent') === actor));
		const sessions = await Promise.all([
			runSession(sdkCases('agent'), 'sdk', 'agent'),
			runSession(sdkCases('human'), 'sdk', 'human'),
			runSession(mcpCases.filter(testCase => testCase.rawLine), 'raw', 'human'),
			...mcpWriteCases.map(async testCase => runSession([testCase], 'sdk', 'agent', async call => {
				const setup = await call('edit_record_item', mcpWriteSetup(ids));
				expect(setup.isError, setup.text).toBe(false);
			})),
		]);
		for (const session of sessions) {
			for (const [testCase, result] of session) ran.set(testCase, result);
		}
	}, BATCH_TIMEOUT_MS);

	it.each([...mcpCases, ...mcpWriteCases].map(testCase => [testCase.name, testCase] as const))('%s', (_name, testCase) => {
		expectMcpAnswer(testCase, ran.get(testCase)!);
	});
});
