// A stdio transport with a message size limit that keeps serving after a bad message; answers a
// batch with one array line.

import type {Readable, Writable} from 'node:stream';
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js';
import {ErrorCode, isJSONRPCRequest, type JSONRPCMessage, type RequestId} from '@modelcontextprotocol/sdk/types.js';
import {answerId, cancelledAnswer, cancelledRequestId, checkMessages} from './jsonrpc.js';
import {LineReader, type Line} from './line-reader.js';

/** The largest JSON-RPC message read from stdin, in bytes (the SDK's own stdio limit). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * Newline-delimited JSON-RPC over stdio, like the SDK's StdioServerTransport, but a bad line never
 * ends the session: a message over the size limit is skipped without being held in memory, and it
 * and any line that is not JSON-RPC are answered with a JSON-RPC error (with the request's id when
 * it can be found), after which the server keeps serving.
 */
export class StdioLineTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: (message: JSONRPCMessage) => void;

	private readonly reader: LineReader;
	private readonly log: (line: string) => void;
	private started = false;
	/** The version initialize agreed on: batches are taken only in 2025-03-26. */
	private protocolVersion: string | undefined;
	private initializeId: RequestId | undefined;
	/** Batches still waiting for answers, by the ids of their requests. */
	private readonly batches: Array<{waiting: Set<RequestId>; answers: JSONRPCMessage[]}> = [];
	/** Requests a batch cancelled and already answered: an answer the SDK still sends for one is dropped. */
	private readonly late = new Set<RequestId>();

	constructor(
		private readonly input: Readable,
		private readonly output: Writable,
		options: {maxMessageBytes?: number; log?: (line: string) => void} = {},
	) {
		this.reader = new LineReader(options.maxMessageBytes ?? MAX_MESSAGE_BYTES);
		this.log = options.log ?? (() => undefined);
	}

	async start(): Promise<void> {
		if (this.started) {
			throw new Error('StdioLineTransport already started');
		}

		this.started = true;
		this.input.on('data', this.onData);
		this.input.on('error', this.onInputError);
	}

	async send(message: JSONRPCMessage): Promise<void> {
		const id = answerId(message);
		if (id !== undefined && id === this.initializeId && 'result' in message) {
			const version = (message.result as {protocolVersion?: unknown}).protocolVersion;
			this.protocolVersion = typeof version === 'string' ? version : undefined;
		}

		if (id !== undefined && this.late.delete(id) && !this.batches.some(batch => batch.waiting.has(id))) {
			return; // the late answer of a request its batch cancelled: the batch was answered without it
		}

		const batch = id === undefined ? undefined : this.batches.find(entry => entry.waiting.has(id));
		if (batch) {
			batch.waiting.delete(id!);
			batch.answers.push(message);
			if (batch.waiting.size > 0) return;
			this.batches.splice(this.batches.indexOf(batch), 1);
			return this.write(batch.answers);
		}

		return this.write(message);
	}

	/** One line on stdout: a message, or the answers of one batch as an array. */
	private async write(payload: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
		return new Promise(resolve => {
			if (this.output.write(`${JSON.stringify(payload)}\n`)) {
				resolve();
			} else {
				this.output.once('drain', resolve);
			}
		});
	}

	async close(): Promise<void> {
		this.input.off('data', this.onData);
		this.input.off('error', this.onInputError);
		if (this.input.listenerCount('data') === 0) {
			this.input.pause();
		}

		this.onclose?.();
	}

	private readonly onData = (chunk: Buffer | string) => {
		for (const line of this.reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) {
			try {
				this.receive(line);
			} catch (error) {
				this.onerror?.(error instanceof Error ? error : new Error(String(error)));
			}
		}
	};

	private readonly onInputError = (error: Error) => {
		this.onerror?.(error);
	};

	private receive(line: Line): void {
		if (line.kind === 'oversized') {
			const limit = this.reader.maxBytes;
			this.log(`sift mcp: skipped a message of ${line.bytes} bytes, over the limit of ${limit} bytes`);
			this.refuse(idAtEdges(line.head, line.tail), ErrorCode.InvalidRequest, `message too large: ${line.bytes} bytes; one MCP message may be at most ${limit} bytes (${describeBytes(limit)}). It was skipped: send smaller arguments.`);
			return;
		}

		if (line.text.trim() === '') {
			return;
		}

		let json: unknown;
		try {
			json = JSON.parse(line.text);
		} catch (error) {
			this.refuse(undefined, ErrorCode.ParseError, `parse error: the line is not JSON (${error instanceof Error ? error.message : String(error)})`);
			return;
		}

		const checked = checkMessages(json, this.protocolVersion);
		if (!checked.batch) {
			const [refusal] = checked.refusals;
			if (refusal) this.refuse(refusal.id ?? undefined, refusal.error.code, refusal.error.message);
			else this.deliver(checked.messages[0]!);
			return;
		}

		const requests = checked.messages.filter(isJSONRPCRequest).map(message => message.id);
		const batch = {waiting: new Set(requests), answers: [...checked.refusals] as JSONRPCMessage[]};
		if (batch.waiting.size > 0) this.batches.push(batch);
		else if (batch.answers.length > 0) void this.write(batch.answers);
		for (const message of checked.messages) {
			this.deliver(message);
			// The SDK sends nothing for a cancelled request; a batch still owes it an answer.
			const cancelled = cancelledRequestId(message);
			if (cancelled !== undefined && batch.waiting.has(cancelled)) {
				this.late.add(cancelled);
				void this.send(cancelledAnswer(cancelled));
			}
		}
	}

	private deliver(message: JSONRPCMessage): void {
		if (isJSONRPCRequest(message) && message.method === 'initialize') this.initializeId = message.id;
		this.onmessage?.(message);
	}

	/** A JSON-RPC error answer; without a known id the id is left out, as the MCP schema allows. */
	private refuse(id: RequestId | undefined, code: number, message: string): void {
		const answer = {jsonrpc: '2.0' as const, ...(id === undefined ? {} : {id}), error: {code, message}};
		void this.send(answer as JSONRPCMessage);
	}
}

const describeBytes = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`);

const ID_VALUE = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`;
/** `{"jsonrpc":"2.0","id":…` at the start of a message (serde-style clients put the id first). */
const ID_AT_HEAD = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID_VALUE}`);
/**
 * `…,"id":…}` closing a message (the TypeScript SDK puts the id last). The member right before the
 * line's final brace belongs to the outermost object, so it cannot be an id nested in the params.
 */
const ID_AT_TAIL = new RegExp(String.raw`[{,]\s*"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

/** The request id of a message known only by its first and last bytes, when either shows it. */
export function idAtEdges(head: string, tail: string): RequestId | undefined {
	const found = ID_AT_TAIL.exec(tail) ?? ID_AT_HEAD.exec(head);
	if (!found) {
		return undefined;
	}

	try {
		return JSON.parse(found[1]!) as RequestId;
	} catch {
		return undefined;
	}
}
