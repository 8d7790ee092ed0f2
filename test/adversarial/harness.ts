// Runs a case and checks its expectation.

import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process';
import {createHash} from 'node:crypto';
import {existsSync, readFileSync, statSync} from 'node:fs';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {SIFT_ENTRY} from '../support/cli.js';
import type {Ids} from './template.js';

/** What a case expects. Every case also expects the database to stay byte-identical unless `changes`. */
export type Expectation = {
	/** CLI and import: the exit code. */
	exit?: number;
	/** MCP: a tool result with isError true. */
	isError?: boolean;
	/** MCP: a JSON-RPC error with this code instead of a result. */
	rpcError?: number;
	/** A fragment of the answer (stderr + stdout for the CLI, the text for MCP); a function when it names an id. */
	message?: RegExp | ((ids: Ids) => RegExp);
	/** The case is allowed to write (a successful edit or import). */
	changes?: boolean;
};

export type CliCase = {
	surface: 'cli';
	name: string;
	/** The arguments after `sift`; `--db FILE` is added unless `db` says otherwise. */
	args: (ids: Ids, dir: string) => string[];
	/** template: a copy of the prepared db (default); foreign: another app's SQLite file; text: a text file; missing: no file; directory: a folder. */
	db?: 'template' | 'foreign' | 'text' | 'missing' | 'directory';
	expect: Expectation;
};

export type ImportCase = {
	surface: 'import';
	name: string;
	/** The import file: a document (written as JSON), or the exact text/bytes. */
	file: unknown;
	raw?: boolean;
	/** existing: into a copy of the prepared db (default); new: into a db path inside folders that do not exist yet. */
	into?: 'existing' | 'new';
	expect: Expectation;
};

export type McpCase = {
	surface: 'mcp';
	name: string;
	tool: string;
	args: (ids: Ids) => Record<string, unknown>;
	/** A whole raw line instead of args, sent on a raw session (human actor); it must carry the `id` given. */
	rawLine?: (id: number, ids: Ids) => string;
	/** The session: agent (default) or human actor; granted bugs, kitchen, tasks. */
	actor?: 'agent' | 'human';
	/** Must answer exactly as this call does, once `swap` is replaced (same refusal for existing and missing). */
	twin?: {args: (ids: Ids) => Record<string, unknown>; swap: (ids: Ids) => [string, string]};
	expect: Expectation;
};

export type AdversarialCase = CliCase | ImportCase | McpCase;

/**
 * The database's state as bytes: the main file and, when it holds anything, the WAL. A process
 * that closed cleanly has checkpointed and removed its WAL, so the main file alone tells; a server
 * still running keeps its writes in the WAL, which is why it is hashed too (-shm is only an index).
 */
export function fingerprint(db: string): string {
	const hash = (file: string) => (existsSync(file) && statSync(file).isFile() && statSync(file).size > 0 ? createHash('sha256').update(readFileSync(file)).digest('hex') : '-');
	return `${hash(db)}:${hash(`${db}-wal`)}`;
}

export type CliOutcome = {code: number | null; stdout: string; stderr: string};

/** Runs the built CLI without a shell, with a private data dir and no inherited SIFT_DB. */
export async function runCli(args: string[], cwd: string): Promise<CliOutcome> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [SIFT_ENTRY, ...args], {cwd, env: {...process.env, SIFT_DB: '', SIFT_DEBUG: '', XDG_DATA_HOME: cwd, NO_COLOR: '1'}, stdio: ['ignore', 'pipe', 'pipe']});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
		});
		child.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		const timer = setTimeout(() => child.kill('SIGKILL'), 30_000); // a deadline for a hung child, not a pace
		child.on('error', reject);
		child.on('close', code => {
			clearTimeout(timer);
			resolve({code, stdout, stderr});
		});
	});
}

/** Maps `work` over `items` with at most `limit` running at once; results keep the input order. */
export async function limited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
	const results: R[] = new Array<R>(items.length);
	let next = 0;
	const worker = async () => {
		while (next < items.length) {
			const index = next++;
			results[index] = await work(items[index]!);
		}
	};

	await Promise.all(Array.from({length: Math.min(limit, items.length)}, worker));
	return results;
}

/** What an MCP call came back with: a tool result's text and isError, or a JSON-RPC error. */
export type McpOutcome = {isError?: boolean; text: string; rpcError?: number};

const mcpArgs = (db: string, actor: string) => [SIFT_ENTRY, 'mcp', '--db', db, '--grant', 'bugs', '--grant', 'kitchen', '--grant', 'tasks', '--actor', actor, '--run', 'run-adversarial'];

/** The SDK client over stdio to `sift mcp`. */
export async function sdkSession(db: string, actor: string, cwd: string) {
	const transport = new StdioClientTransport({command: process.execPath, args: mcpArgs(db, actor), stderr: 'pipe', cwd});
	transport.stderr?.on('data', () => undefined);
	const client = new Client({name: 'sift-adversarial', version: '1.0.0'});
	await client.connect(transport);
	return {
		async call(tool: string, args: Record<string, unknown>): Promise<McpOutcome> {
			try {
				const result = await client.callTool({name: tool, arguments: args});
				const content = result.content as Array<{type: string; text?: string}>;
				return {isError: result.isError === true, text: content.map(part => part.text ?? '').join('\n')};
			} catch (error) {
				const code = (error as {code?: unknown}).code;
				return {rpcError: typeof code === 'number' ? code : -1, text: String((error as Error).message)};
			}
		},
		close: async () => client.close(),
	};
}

/** Newline-delimited JSON-RPC written by hand, for lines the SDK client would never send. */
export async function rawSession(db: string, actor: string, cwd: string) {
	const child: ChildProcessWithoutNullStreams = spawn(process.execPath, mcpArgs(db, actor), {cwd, stdio: 'pipe'});
	const waiting = new Map<number, (message: any) => void>();
	let buffer = '';
	child.stdout.on('data', (chunk: Buffer) => {
		buffer += chunk.toString();
		let newline: number;
		while ((newline = buffer.indexOf('\n')) >= 0) {
			const message = JSON.parse(buffer.slice(0, newline)) as {id?: number};
			buffer = buffer.slice(newline + 1);
			if (typeof message.id === 'number') {
				waiting.get(message.id)?.(message);
			}
		}
	});
	child.stderr.on('data', () => undefined);
	const exited = new Promise(resolve => child.once('exit', resolve));
	let nextId = 1;
	const send = async (id: number, line: string): Promise<any> => {
		const answer = new Promise(resolve => waiting.set(id, resolve));
		child.stdin.write(`${line}\n`);
		return Promise.race([answer, exited.then(() => ({error: {code: -1, message: 'the server exited'}}))]);
	};

	await send(0, JSON.stringify({jsonrpc: '2.0', id: 0, method: 'initialize', params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'raw', version: '1'}}}));
	child.stdin.write(`${JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'})}\n`);
	return {
		/** Sends `line(id)` and waits for the answer with that id. */
		async line(line: (id: number) => string): Promise<McpOutcome> {
			const id = nextId++;
			const message = await send(id, line(id));
			if (message.error) {
				return {rpcError: message.error.code as number, text: String(message.error.message)};
			}

			const content = message.result.content as Array<{text?: string}>;
			return {isError: message.result.isError === true, text: content.map(part => part.text ?? '').join('\n')};
		},
		async close() {
			child.stdin.end();
			await exited;
		},
	};
}

export const messageOf = (expectation: Expectation, ids: Ids): RegExp | undefined =>
	(typeof expectation.message === 'function' ? expectation.message(ids) : expectation.message);

/** Control characters other than newline and tab: nothing a terminal should ever be sent raw. */
export const RAW_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
