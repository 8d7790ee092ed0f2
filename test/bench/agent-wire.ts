// What the agent reads, in o200k tokens and bytes (docs/agent-tools.md#what-the-agent-reads): a
// default page, reads, a poll and edit answers on the demo channel and on a real GitHub channel
// (the 300 rust-lang/rust issues of test/fixtures), through the real tools in process; and what
// the real Codex sends the model for a 20-item triage run, through the scripted Responses
// endpoint of test/support. Used by the economy bench (agent-economy.ts).

import {existsSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {encode} from 'gpt-tokenizer/encoding/o200k_base';
import {startRun} from '../../source/codex/runner.js';
import {readGithubFile} from '../../source/import/github.js';
import {openStore, SqliteAsyncStore, type Store} from '../../store/index.js';
import {builtCli, callerFor, connectInProcess, makeDatabase, ROOT, textOf, type Caller} from '../mcp/fixtures.js';
import {codexLocalArgs, localRunOptions, makeCodexHome, SCRIPTED_MODEL} from '../support/codex-local.js';
import {startResponsesEndpoint} from '../support/responses-endpoint.js';
import {isObject} from '../support/triage/history.js';
import {bugsChannel, generateBugItems} from '../../demo-data/generate.js';
import {agent, BENCH_NOW, printTable, type Row} from './support.js';

/** The repository: ROOT itself when run from the sources, its parent when run built (dist/test/bench). */
const REPOSITORY = existsSync(join(ROOT, 'test', 'fixtures')) ? ROOT : join(ROOT, '..');

export const REAL_FIXTURE = join(REPOSITORY, 'test', 'fixtures', 'github', 'rust-lang-rest-issues.jsonl');
export const REAL_CHANNEL = 'rust';

export const tokensOf = (text: string): number => encode(text).length;

/** A new SQLite store in `dir` holding the real GitHub channel (300 rust-lang/rust issues and pull requests). */
export function realChannelStore(dir: string): Store {
	const file = readGithubFile(REAL_FIXTURE, REAL_CHANNEL, 'rust-lang/rust');
	const store = openStore(join(dir, 'real.db'), {create: true});
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

/** The schema's share of a page: its tokens over the page's, as the model reads them. */
function schemaShare(page: Answer): {tokens: number; share: number} {
	const body = JSON.parse(page.text) as Record<string, unknown>;
	const schema = JSON.stringify(body['schema'] ?? null);
	const tokens = tokensOf(`"schema":${schema},`);
	return {tokens, share: tokens / page.tokens};
}

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
			'schema share': `${(share.share * 100).toFixed(1)} %`,
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

/**
 * What one request gives the model to read, as text: every input item's words (messages, the
 * calls' names and arguments, the tools' outputs as the model sees them, unescaped). Codex's
 * tool list is sent with every request too; it is the same before and after, and left out.
 */
export function modelTexts(body: unknown): {all: string[]; toolOutputs: string[]} {
	const input = isObject(body) && Array.isArray(body['input']) ? (body['input'] as unknown[]).filter(isObject) as Json[] : [];
	const all: string[] = [];
	const toolOutputs: string[] = [];
	for (const item of input) {
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

export type CodexFigures = {requests: number; inputTokens: number; toolTokens: number; toolOutputTokens: number; lastToolOutputs: string[]};

/**
 * A 20-item triage run of the real Codex on the channel in `db` (a SQLite file), against the
 * scripted Responses endpoint: the o200k tokens of every request's input as the model reads it
 * (modelTexts: the whole conversation, replayed each time), and of the tool outputs in the last request.
 */
export async function codexTriageTokens(db: string, channelId: string, itemIds: string[]): Promise<CodexFigures> {
	builtCli();
	const endpoint = await startResponsesEndpoint({mode: 'triage-functions', channelId, itemIds});
	const home = await makeCodexHome();
	const state = mkdtempSync(join(tmpdir(), 'sift-bench-codex-'));
	try {
		const local = codexLocalArgs({endpointUrl: endpoint.url, model: SCRIPTED_MODEL, codexHome: home.path});
		const handle = startRun({
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
		const lastToolOutputs = modelTexts(bodies.at(-1)).toolOutputs;
		return {requests: bodies.length, inputTokens, toolTokens, toolOutputTokens: lastToolOutputs.reduce((total, output) => total + tokensOf(output), 0), lastToolOutputs};
	} finally {
		await endpoint.close();
		await home.remove();
		rmSync(state, {recursive: true, force: true});
	}
}

/** The demo and the real channel as SQLite files in `dir`, for a Codex run each: the file and the 20 items to triage. */
export function codexChannels(dir: string): Array<{label: string; channelId: string; db: string; itemIds: string[]}> {
	const demo = join(dir, 'demo.db');
	makeDatabase(demo, 20);
	const real = realChannelStore(dir);
	const realIds = real.listPage(REAL_CHANNEL, {limit: 20}).items.map(item => item.id);
	real.close();
	const demoStore = openStore(demo);
	const demoIds = demoStore.listPage('bugs', {limit: 20}).items.map(item => item.id);
	demoStore.close();
	return [
		{label: 'demo', channelId: 'bugs', db: demo, itemIds: demoIds},
		{label: 'rust-lang/rust (real)', channelId: REAL_CHANNEL, db: join(dir, 'real.db'), itemIds: realIds},
	];
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
		const share = (row: Row) => Number.parseFloat(String(row['schema share']));
		const [demoRow, realRow] = rows as [Row, Row];
		printTable('What the agent reads (o200k tokens of the answer the model is given; bytes of its JSON): a default page, a read of every item, a default poll, ten edit answers', rows, [
			`before (1dc4cc2): schema share demo ${BEFORE.wire.demo.schemaShare} %, real ${BEFORE.wire.real.schemaShare} %; ten edit answers demo ${BEFORE.wire.demo.editBytes} B, real ${BEFORE.wire.real.editBytes} B`,
			`goal: schema share of a default page on the real channel ≤ 12 %: ${share(realRow) <= 12 ? 'met' : 'NOT met'}; demo ≤ 11 %: ${share(demoRow) <= 11 ? 'met' : 'NOT met'}`,
			`goal: ten edit answers on the real channel ≤ 6.3 KB: ${Number(realRow['10 edit answers (bytes)']) <= 6300 ? 'met' : 'NOT met'}`,
			'goal: the longest real issue read by default ≤ 4,000 tokens: ' + (Number(realRow['longest read tokens']) <= 4000 ? 'met' : 'NOT met'),
		]);
		const codexRows: Row[] = [];
		for (const channel of codexChannels(join(dir, 'codex'))) {
			const figures = await codexTriageTokens(channel.db, channel.channelId, channel.itemIds);
			const before = BEFORE.codex[channel.channelId]!;
			const fewer = (now: number, then: number) => `${(((then - now) / then) * 100).toFixed(1)} %`;
			codexRows.push({
				channel: channel.label,
				requests: figures.requests,
				'tokens given the model (all requests)': figures.inputTokens,
				before: before.input,
				fewer: fewer(figures.inputTokens, before.input),
				'of them tool answers': figures.toolTokens,
				'tool answers before': before.tools,
				'tool answers fewer': fewer(figures.toolTokens, before.tools),
			});
		}

		printTable('What the real Codex sends the model for a 20-item triage run (scripted Responses endpoint, function path): o200k tokens of every request\'s input as the model reads it', codexRows, [
			'Codex replays the conversation on every request; its own instructions (about 4,400 tokens) come with each. It cuts any tool answer over about 12 KB in its middle, before and after alike.',
			`goal: on the real channel ≥ 40 % fewer than before: ${codexRows.some(row => String(row.channel).includes('real') && Number.parseFloat(String(row.fewer)) >= 40) ? 'met' : 'NOT met'}`,
		]);
		return [...rows, ...codexRows];
	} finally {
		rmSync(dir, {recursive: true, force: true});
	}
}
