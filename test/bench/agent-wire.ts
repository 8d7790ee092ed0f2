// What the agent reads, in o200k tokens and bytes (docs/agent-tools.md#what-the-agent-reads): a
// default page, reads, a poll and edit answers on the demo channel and on a real GitHub channel
// (the 300 rust-lang/rust issues of test/fixtures), through the real tools in process; and what
// the real Codex sends the model for a 20-item triage run, through the scripted Responses
// endpoint of test/support. Used by the economy bench (agent-economy.ts).

import {existsSync, mkdirSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {encode} from 'gpt-tokenizer/encoding/o200k_base';
import {startRun} from '../../source/codex/runner.js';
import {readGithubFile} from '../../source/import/github.js';
import {openStore, PAGE_LIMIT, SqliteAsyncStore, type Store} from '../../store/index.js';
import {DEFAULT_PAGE_BYTES} from '../../source/mcp/agent-shapes.js';
import {builtCli, callerFor, connectInProcess, makeDatabase, ROOT, textOf, type Caller} from '../mcp/fixtures.js';
import {codexLocalArgs, localRunOptions, makeCodexHome, SCRIPTED_MODEL} from '../support/codex-local.js';
import {startResponsesEndpoint} from '../support/responses-endpoint.js';
import {isObject} from '../support/triage/history.js';
import type {Economy} from '../support/triage/policy.js';
import {bugsChannel, generateBugItems} from '../../demo-data/generate.js';
import {agent, BENCH_NOW, printTable, type Row} from './support.js';

/** The repository: ROOT itself when run from the sources, its parent when run built (dist/test/bench). */
const REPOSITORY = existsSync(join(ROOT, 'test', 'fixtures')) ? ROOT : join(ROOT, '..');

export const REAL_FIXTURE = join(REPOSITORY, 'test', 'fixtures', 'github', 'rust-lang-rest-issues.jsonl');
export const REAL_CHANNEL = 'rust';

export const tokensOf = (text: string): number => encode(text).length;

/** What a run needs of a build: the runner, and a store and importer to make its database (a before-build reads only its own). */
export type Build = {
	label: string;
	startRun: typeof startRun;
	openStore: typeof openStore;
	readGithubFile: typeof readGithubFile;
	makeDatabase: typeof makeDatabase;
};

const THIS_BUILD: Build = {label: 'now', startRun, openStore, readGithubFile, makeDatabase};

/** A new SQLite store in `dir` holding the real GitHub channel (300 rust-lang/rust issues and pull requests), made by `build`. */
export function realChannelStore(dir: string, build: Build = THIS_BUILD): Store {
	const file = build.readGithubFile(REAL_FIXTURE, REAL_CHANNEL, 'rust-lang/rust');
	const store = build.openStore(join(dir, 'real.db'), {create: true});
	store.importChannel({channel: file.channel, items: [...file.rows()].map(({values, created_at}) => ({values, ...(created_at === undefined ? {} : {created_at})}))});
	return store;
}

/** What one answer costs the model: the text it is given, its o200k tokens and bytes. */
export type Answer = {text: string; tokens: number; bytes: number; result: CallToolResult};

/**
 * What the model gets of a result, as the real Codex forwards it on its function path: the
 * structuredContent as JSON when there is one, else the text (a refusal).
 */
export function answerOf(result: CallToolResult): Answer {
	const text = result.structuredContent === undefined ? textOf(result) : JSON.stringify(result.structuredContent);
	return {text, tokens: tokensOf(text), bytes: Buffer.byteLength(text), result};
}

export async function ask(call: Caller, tool: string, args: Record<string, unknown>): Promise<Answer> {
	return answerOf(await call(tool, args));
}

/** The bytes after which Codex 0.171 cuts a tool answer (a model outside its catalog), as measured: no page can be longer. */
export const CODEX_CUT_BYTES = 12_024;

/**
 * The schema's share of a page: its tokens over the page's, as the model reads them, and its
 * bytes over the page's; the floor is its bytes over the longest answer Codex passes whole.
 */
function schemaShare(page: Answer): {tokens: number; share: number; bytes: number; byteShare: number; floor: number} {
	const body = JSON.parse(page.text) as Record<string, unknown>;
	const text = `"schema":${JSON.stringify(body['schema'] ?? null)},`;
	const tokens = tokensOf(text);
	const bytes = Buffer.byteLength(text);
	return {tokens, share: tokens / page.tokens, bytes, byteShare: bytes / page.bytes, floor: bytes / CODEX_CUT_BYTES};
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

/** The edits a triage makes on each channel: ten items, two fields each. */
function editValues(channelId: string, index: number): Record<string, unknown> {
	return channelId === REAL_CHANNEL
		? {state: 'closed', state_reason: index % 2 === 0 ? 'completed' : 'not_planned'}
		: {status: 'triaged', points: [1, 2, 3, 5, 8][index % 5]};
}

/** Page, reads, poll and ten edit answers of one channel, through the tools in process. */
export async function wireFigures(store: Store, channelId: string, label: string, longField: string): Promise<Row> {
	const asyncStore = new SqliteAsyncStore(store);
	const session = await connectInProcess(asyncStore, agent('bench-wire'), [channelId]);
	try {
		const call = callerFor(session.client);
		const page = await ask(call, 'list_record_items', {record_channel_id: channelId});
		const share = schemaShare(page);
		// The default page stops before DEFAULT_PAGE_BYTES: the schema's share of a page of 50 (the old default) as well.
		const fifty = schemaShare(await ask(call, 'list_record_items', {record_channel_id: channelId, limit: PAGE_LIMIT}));
		const pageBody = JSON.parse(page.text) as {items: Array<{id: string}>; schema_version?: unknown};
		const again = await ask(call, 'list_record_items', {record_channel_id: channelId, ...(pageBody.schema_version === undefined ? {} : {schema_version: pageBody.schema_version})});
		const ids: string[] = [];
		for (let before: string | null | undefined; ;) {
			const {items, next_before_id: next} = store.listPage(channelId, {beforeId: before ?? null});
			ids.push(...items.map(item => item.id));
			if (next === null) break;
			before = next;
		}

		const longest = ids.reduce((best, id) => {
			const length = String(store.readItem(channelId, id).values[longField] ?? '').length;
			return length > best.length ? {id, length} : best;
		}, {id: ids[0]!, length: -1});
		const reads: Answer[] = [];
		for (const id of ids) reads.push(await ask(call, 'read_record_item', {record_channel_id: channelId, item_id: id}));
		const longestRead = await ask(call, 'read_record_item', {record_channel_id: channelId, item_id: longest.id});
		const poll = await ask(call, 'poll_resource_events', {resource_type: 'record_channel', resource_id: channelId});
		const edits: Answer[] = [];
		for (const [index, id] of ids.slice(0, 10).entries()) {
			const version = store.readItem(channelId, id).version;
			edits.push(await ask(call, 'edit_record_item', {record_channel_id: channelId, item_id: id, values: editValues(channelId, index), expected_version: version, idempotency_key: `wire-${index}`}));
		}

		const failed = edits.filter(edit => edit.result.isError);
		if (failed.length > 0) throw new Error(`an edit of the wire bench was refused: ${failed[0]!.text}`);
		const sum = (answers: Answer[], key: 'tokens' | 'bytes') => answers.reduce((total, answer) => total + answer[key], 0);
		return {
			channel: label,
			'page tokens': page.tokens,
			'page bytes': page.bytes,
			'page items': pageBody.items.length,
			'schema tokens': share.tokens,
			'schema bytes': share.bytes,
			'schema share': percent(share.share),
			'schema share (bytes)': percent(share.byteShare),
			[`floor (schema ÷ ${CODEX_CUT_BYTES} B)`]: percent(share.floor),
			[`schema share, page of ${PAGE_LIMIT}`]: percent(fifty.share),
			'next page, schema held (tokens)': again.tokens,
			'read tokens (mean)': Math.round(sum(reads, 'tokens') / reads.length),
			'longest read tokens': longestRead.tokens,
			[`longest ${longField} (chars)`]: longest.length,
			'poll tokens': poll.tokens,
			'poll bytes': poll.bytes,
			'10 edit answers (tokens)': sum(edits, 'tokens'),
			'10 edit answers (bytes)': sum(edits, 'bytes'),
		};
	} finally {
		await session.close();
	}
}

type Json = Record<string, unknown>;

/** The texts of a message's content or a tool output: a string, or parts with text. */
function textsOf(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	return Array.isArray(value) ? value.filter(isObject).map(part => (typeof part['text'] === 'string' ? part['text'] : '')) : [];
}

const inputOf = (body: unknown): Json[] => (isObject(body) && Array.isArray(body['input']) ? (body['input'] as unknown[]).filter(isObject) as Json[] : []);

/** Codex's own user-role blocks (<environment_context>, ...), as the scripted endpoint tells them from the prompt. */
const isCodexBlock = (text: string) => /^\s*<[a-z_]+>/.test(text);

/**
 * What one request gives the model to read, as text: every input item's words (messages, the
 * calls' names and arguments, the tools' outputs as the model sees them, unescaped). The tool
 * definitions ride on every request too; they are counted apart (requestParts).
 */
export function modelTexts(body: unknown): {all: string[]; toolOutputs: string[]} {
	const all: string[] = [];
	const toolOutputs: string[] = [];
	for (const item of inputOf(body)) {
		if (item['type'] === 'message') all.push(...textsOf(item['content']));
		else if (item['type'] === 'function_call') all.push(`${String(item['name'])} ${String(item['arguments'])}`);
		else if (item['type'] === 'custom_tool_call') all.push(String(item['input']));
		else if (item['type'] === 'function_call_output' || item['type'] === 'custom_tool_call_output') {
			const texts = textsOf(item['output']);
			all.push(...texts);
			toolOutputs.push(texts.join('\n'));
		}
	}

	return {all, toolOutputs};
}

/** One request's o200k tokens by where they come from. */
export type RequestParts = {
	/** Codex's own instructions and context blocks (developer messages, <environment_context>, ...). */
	codex: number;
	/** The tool definitions Codex adds of its own (its resource tools, ...), as JSON. */
	codexTools: number;
	/** The definitions of sift's tools (names, descriptions, input schemas), as JSON. */
	siftTools: number;
	/** sift's prompt (the user turns). */
	prompt: number;
	/** Earlier turns resent: the model's calls and messages, and every tool answer of an earlier request. */
	history: number;
	/** The tool answers new in this request. */
	answers: number;
};

const PART_KEYS = ['codex', 'codexTools', 'siftTools', 'prompt', 'history', 'answers'] as const;

/** A request's tokens by part; `answered` holds the call ids answered in earlier requests (updated here). */
export function requestParts(body: unknown, answered: Set<string>): RequestParts {
	const parts: RequestParts = {codex: 0, codexTools: 0, siftTools: 0, prompt: 0, history: 0, answers: 0};
	for (const tool of isObject(body) && Array.isArray(body['tools']) ? (body['tools'] as unknown[]).filter(isObject) : []) {
		parts[tool['name'] === 'mcp__sift' ? 'siftTools' : 'codexTools'] += tokensOf(JSON.stringify(tool));
	}

	const fresh: string[] = [];
	for (const item of inputOf(body)) {
		const words = modelTexts({input: [item]}).all.reduce((sum, text) => sum + tokensOf(text), 0);
		if (item['type'] === 'message' && item['role'] === 'developer') parts.codex += words;
		else if (item['type'] === 'message' && item['role'] === 'user') parts[textsOf(item['content']).every(isCodexBlock) ? 'codex' : 'prompt'] += words;
		else if ((item['type'] === 'function_call_output' || item['type'] === 'custom_tool_call_output') && !answered.has(String(item['call_id']))) {
			parts.answers += words;
			fresh.push(String(item['call_id']));
		} else parts.history += words;
	}

	for (const id of fresh) answered.add(id);
	return parts;
}

export type CodexFigures = {
	requests: number;
	/** The old measure: the input as the model reads it, tool definitions left out (modelTexts). */
	inputTokens: number;
	toolTokens: number;
	/** Every request by part, in order. */
	parts: RequestParts[];
	/** Tool answers the model got cut by Codex (JSON that no longer parses), and the longest answer it got, in bytes. */
	cutAnswers: number;
	longestAnswerBytes: number;
};

/** The tool answers of a run's requests, each once (a later request resends the earlier ones). */
function answersOf(bodies: unknown[]): string[] {
	const seen = new Map<string, string>();
	for (const body of bodies) {
		for (const item of inputOf(body)) {
			if (item['type'] === 'function_call_output' || item['type'] === 'custom_tool_call_output') seen.set(String(item['call_id']), textsOf(item['output']).join('\n'));
		}
	}

	return [...seen.values()];
}

/** An answer Codex cut in its middle: it began as JSON and no longer parses. */
function wasCut(text: string): boolean {
	if (!text.trimStart().startsWith('{')) return false;
	try {
		JSON.parse(text);
		return false;
	} catch {
		return true;
	}
}

const sumParts = (parts: RequestParts[]): RequestParts => Object.fromEntries(PART_KEYS.map(key => [key, parts.reduce((total, part) => total + part[key], 0)])) as RequestParts;
const totalOf = (part: RequestParts) => PART_KEYS.reduce((total, key) => total + part[key], 0);

/**
 * The build of an earlier commit, from its worktree (built: npm run build), for the before figures
 * measured in the same run: SIFT_BENCH_BEFORE=/path/to/worktree. Its runner writes its own prompt
 * and starts its own `sift mcp`.
 */
async function beforeBuild(root: string): Promise<Build> {
	const load = async <T>(path: string): Promise<T> => await import(join(root, 'dist', path)) as T;
	return {
		label: `before (${root})`,
		startRun: (await load<{startRun: typeof startRun}>('source/codex/runner.js')).startRun,
		openStore: (await load<{openStore: typeof openStore}>('store/index.js')).openStore,
		readGithubFile: (await load<{readGithubFile: typeof readGithubFile}>('source/import/github.js')).readGithubFile,
		makeDatabase: (await load<{makeDatabase: typeof makeDatabase}>('test/mcp/fixtures.js')).makeDatabase,
	};
}

/**
 * A 20-item triage run of the real Codex on the channel in `db` (a SQLite file), against the
 * scripted Responses endpoint: the o200k tokens of every request, by part (requestParts), and as
 * the model reads its input (modelTexts: the whole conversation, replayed each time).
 */
export async function codexTriageTokens(db: string, channelId: string, itemIds: string[], build: Build = THIS_BUILD, unasked: Economy[] = []): Promise<CodexFigures> {
	builtCli();
	const endpoint = await startResponsesEndpoint({mode: 'triage-functions', channelId, itemIds, unasked});
	const home = await makeCodexHome();
	const state = mkdtempSync(join(tmpdir(), 'sift-bench-codex-'));
	try {
		const local = codexLocalArgs({endpointUrl: endpoint.url, model: SCRIPTED_MODEL, codexHome: home.path});
		const handle = build.startRun({
			instruction: 'Triage these items: set what the reporter asks for at the end of each description.',
			channelId,
			itemIds,
			dbPath: db,
			...localRunOptions(local, join(REPOSITORY, 'node_modules', '.bin', 'codex')),
			stateDir: state,
			timeoutMs: 300_000,
		});
		for await (const _update of handle.updates) {
			// Drained: the run's updates are not measured here.
		}

		const result = await handle.done;
		if (result.outcome !== 'ok') throw new Error(`the Codex run ended ${result.outcome}: ${result.error ?? ''} ${result.stderrTail ?? ''}`);
		const bodies = endpoint.requests.map(request => request.body);
		const inputTokens = bodies.reduce<number>((total, body) => total + modelTexts(body).all.reduce((sum, text) => sum + tokensOf(text), 0), 0);
		const toolTokens = bodies.reduce<number>((total, body) => total + modelTexts(body).toolOutputs.reduce((sum, text) => sum + tokensOf(text), 0), 0);
		const answered = new Set<string>();
		const answers = answersOf(bodies);
		return {
			requests: bodies.length, inputTokens, toolTokens, parts: bodies.map(body => requestParts(body, answered)),
			cutAnswers: answers.filter(text => wasCut(text)).length, longestAnswerBytes: Math.max(0, ...answers.map(text => Buffer.byteLength(text))),
		};
	} finally {
		await endpoint.close();
		await home.remove();
		rmSync(state, {recursive: true, force: true});
	}
}

/** The demo and the real channel as SQLite files in `dir` made by `build`, for a Codex run each: the file and the 20 items to triage. */
export function codexChannels(dir: string, build: Build = THIS_BUILD): Array<{label: string; channelId: string; db: string; itemIds: string[]}> {
	mkdirSync(dir, {recursive: true});
	const demo = join(dir, 'demo.db');
	build.makeDatabase(demo, 20);
	const real = realChannelStore(dir, build);
	const realIds = real.listPage(REAL_CHANNEL, {limit: 20}).items.map(item => item.id);
	real.close();
	const demoStore = build.openStore(demo);
	const demoIds = demoStore.listPage('bugs', {limit: 20}).items.map(item => item.id);
	demoStore.close();
	return [
		{label: 'demo', channelId: 'bugs', db: demo, itemIds: demoIds},
		{label: 'rust-lang/rust (real)', channelId: REAL_CHANNEL, db: join(dir, 'real.db'), itemIds: realIds},
	];
}

/** A run's parts as a table row: per part over all requests, and the total. */
function partsRow(label: string, figures: CodexFigures): Row {
	const sum = sumParts(figures.parts);
	return {
		run: label,
		requests: figures.requests,
		'Codex instructions': sum.codex,
		'Codex tools': sum.codexTools,
		'sift tools': sum.siftTools,
		prompt: sum.prompt,
		history: sum.history,
		'new answers': sum.answers,
		total: totalOf(sum),
		'input as read (old measure)': figures.inputTokens,
		'longest answer (bytes)': figures.longestAnswerBytes,
		'answers cut by Codex': figures.cutAnswers,
	};
}

/** The fewest requests a triage of named items takes: list once (the schema), read every item in one turn, edit every item in one turn, answer. */
export const fewestRequests = (edits: boolean): number => (edits ? 4 : 3);

/**
 * The floor of a run: its requests by part, the fixed part (Codex's instructions and tools, sift's
 * tools, the prompt: paid on every request) apart from the data (the model's calls and the tools'
 * answers: each paid when it arrives and again on every later request). With the fewest requests
 * the task allows, fixed × that many plus the data is as low as this build can go.
 */
function floorRows(figures: CodexFigures): Row[] {
	return figures.parts.map((part, index) => {
		const fixed = part.codex + part.codexTools + part.siftTools + part.prompt;
		return {request: index + 1, 'fixed (Codex + tools + prompt)': fixed, 'data (history + new answers)': part.history + part.answers, total: totalOf(part)};
	});
}

/** Measured the same way before the agent's answers were made lean (commit 1dc4cc2), for the goals below. */
const BEFORE = {
	wire: {demo: {schemaShare: 10.0, editBytes: 6208}, real: {schemaShare: 16.8, editBytes: 17_467}},
	/** o200k tokens the model was given over the run (modelTexts), in all and of the tools' outputs. */
	codex: {bugs: {input: 678_490, tools: 334_425}, [REAL_CHANNEL]: {input: 306_211, tools: 198_731}} as Record<string, {input: number; tools: number}>,
};

/** The wire table (page, reads, poll, edit answers on both channels) and the Codex table, with their goals. */
export async function benchWire(): Promise<Row[]> {
	const dir = mkdtempSync(join(tmpdir(), 'sift-bench-wire-'));
	try {
		const demo = openStore(join(dir, 'demo-400.db'), {create: true});
		demo.importChannel({channel: bugsChannel, items: generateBugItems({count: 400, seed: 1, now: BENCH_NOW})});
		const real = realChannelStore(dir);
		const rows = [await wireFigures(demo, 'bugs', 'demo (400 items)', 'description'), await wireFigures(real, REAL_CHANNEL, 'rust-lang/rust (300, real)', 'body')];
		demo.close();
		real.close();
		const share = (row: Row, key = 'schema share') => Number.parseFloat(String(row[key]));
		const [demoRow, realRow] = rows as [Row, Row];
		printTable('What the agent reads (o200k tokens of the answer the model is given; bytes of its JSON): a default page, a read of every item, a default poll, ten edit answers', rows, [
			`before (1dc4cc2): schema share demo ${BEFORE.wire.demo.schemaShare} %, real ${BEFORE.wire.real.schemaShare} %; ten edit answers demo ${BEFORE.wire.demo.editBytes} B, real ${BEFORE.wire.real.editBytes} B`,
			`A default page stops before ${DEFAULT_PAGE_BYTES} bytes, schema included, under the ${CODEX_CUT_BYTES} bytes after which Codex cuts an answer; the shares are of that page as returned. The floor is the schema over ${CODEX_CUT_BYTES} bytes: no page Codex passes whole gives the schema a smaller share.`,
			`goal: schema share of the default page on the real channel ≤ 12 %: ${share(realRow) <= 12 ? 'met' : 'NOT met'} (${realRow['schema share']} of tokens, ${realRow['schema share (bytes)']} of bytes; floor ${realRow[`floor (schema ÷ ${CODEX_CUT_BYTES} B)`]}); demo ≤ 11 %: ${share(demoRow) <= 11 ? 'met' : 'NOT met'} (${demoRow['schema share']})`,
			`goal: ten edit answers on the real channel ≤ 6.3 KB: ${Number(realRow['10 edit answers (bytes)']) <= 6300 ? 'met' : 'NOT met'}`,
			'goal: the longest real issue read by default ≤ 4,000 tokens: ' + (Number(realRow['longest read tokens']) <= 4000 ? 'met' : 'NOT met'),
		]);
		return [...rows, ...await benchCodexRuns(join(dir, 'codex'))];
	} finally {
		rmSync(dir, {recursive: true, force: true});
	}
}

/**
 * The real Codex's 20-item triage runs, demo and real channel, by request part; with
 * SIFT_BENCH_BEFORE (a built worktree of commit 1dc4cc2) the before-build runs in the same bench,
 * else the before figures recorded above stand.
 */
async function benchCodexRuns(dir: string): Promise<Row[]> {
	const beforeRoot = process.env['SIFT_BENCH_BEFORE'];
	const builds = [...(beforeRoot ? [await beforeBuild(beforeRoot)] : []), THIS_BUILD];
	const runs: Array<{build: Build; channel: string; channelId: string; figures: CodexFigures}> = [];
	for (const [index, build] of builds.entries()) {
		for (const channel of codexChannels(join(dir, String(index)), build)) {
			runs.push({build, channel: channel.label, channelId: channel.channelId, figures: await codexTriageTokens(channel.db, channel.channelId, channel.itemIds, build)});
		}
	}

	const fewer = (now: number, then: number) => `${(((then - now) / then) * 100).toFixed(1)} %`;
	const rows: Row[] = [];
	for (const run of runs) {
		const row = partsRow(`${run.build.label}: ${run.channel}`, run.figures);
		const measuredBefore = runs.find(other => other.build !== THIS_BUILD && other.channelId === run.channelId);
		if (run.build === THIS_BUILD) {
			const recorded = BEFORE.codex[run.channelId]!.input;
			row['fewer than before (total)'] = measuredBefore ? fewer(Number(row.total), totalOf(sumParts(measuredBefore.figures.parts))) : '';
			row['fewer than before (as read)'] = fewer(run.figures.inputTokens, measuredBefore?.figures.inputTokens ?? recorded);
			row['fewer than recorded (as read)'] = `${fewer(run.figures.inputTokens, recorded)} of ${recorded}`;
		}

		rows.push(row);
	}

	const now = runs.find(run => run.build === THIS_BUILD && run.channelId === REAL_CHANNEL)!;
	// The goal is against 1dc4cc2, the build before the answers were made lean; a before-build of a later commit is compared beside it.
	const recordedFewer = (row: Row) => Number.parseFloat(String(row['fewer than recorded (as read)']));
	printTable('What the real Codex sends the model for a 20-item triage run (scripted Responses endpoint, function path): o200k tokens over all requests, by part', rows, [
		'Codex instructions: its developer messages and context blocks; Codex tools and sift tools: the tool definitions (JSON) sent with every request; prompt: sift\'s prompt; history: earlier calls and answers resent; new answers: the tool answers new in each request.',
		'input as read (old measure): every input item\'s text, tool definitions left out, as the 306,211 recorded for 1dc4cc2 on the real channel.',
		'The scripted model is the same for every build: it batches its calls and lists with limit 1 only when the prompt asks it to (test/support/triage/policy.ts); it never uses schema_version or fields (one page, whole reads).',
		`goal: on the real channel ≥ 40 % fewer than 1dc4cc2 (as read, recorded): ${recordedFewer(rows.find(row => row.run === `now: ${now.channel}`)!) >= 40 ? 'met' : 'NOT met'}; than the before-build of this run: ${String(rows.find(row => row.run === `now: ${now.channel}`)!['fewer than before (total)'] || 'not run')} (total)`,
	]);
	const real = codexChannels(join(dir, 'levers')).find(channel => channel.channelId === REAL_CHANNEL)!;
	const levers: Row[] = [];
	for (const unasked of [['parallel calls', 'list limit'], ['list limit'], []] as Economy[][]) {
		const figures = unasked.length === 2 ? runs.find(run => run.build !== THIS_BUILD && run.channelId === REAL_CHANNEL)?.figures : undefined;
		if (figures) levers.push({...partsRow('before: as it was', figures), requests: figures.requests});
		const measured = unasked.length === 0 ? now.figures : await codexTriageTokens(real.db, REAL_CHANNEL, real.itemIds, THIS_BUILD, unasked);
		const taken = (['parallel calls', 'list limit'] as Economy[]).filter(economy => !unasked.includes(economy));
		levers.push(partsRow(`now: ${taken.length === 0 ? 'lean answers, shorter descriptions, a page under the cut' : `and ${taken.join(' and ')}`}`, measured));
	}

	printTable('Each lever on the real channel: the same 20-item run, the scripted model taking the prompt\'s asks one by one (o200k tokens over all requests)', levers);
	const fixed = (part: RequestParts) => part.codex + part.codexTools + part.siftTools + part.prompt;
	const fewest = fewestRequests(false);
	const floor = fewest * fixed(now.figures.parts[0]!);
	printTable(`The floor on the real channel (now): every request of the run, its fixed part and its data`, floorRows(now.figures), [
		`The task needs at least ${fewest} requests here (list for the schema, read every item in one turn, answer; these issues ask for no edits): ${fewest} × ${fixed(now.figures.parts[0]!)} fixed = ${floor} tokens before any data.`,
		`This run took ${now.figures.requests} requests: ${now.figures.requests === fewest ? 'the fewest, so its total is the floor for these answers' : 'more than the fewest'}.`,
	]);
	return rows;
}
