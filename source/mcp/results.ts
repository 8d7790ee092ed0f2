// The tool context, and store results and refusals as MCP results.

import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {StoreError, type StoreErrorBody} from '../../store/index.js';
import type {Actor, AsyncStore, Grants} from '../../store/index.js';
import type {EditMode} from '../../store/writes.js';
import {CallCancelled, CallQueue} from './call-queue.js';

/** What every tool module needs. */
export type ToolContext = {
	store: AsyncStore;
	grants: Grants;
	/** Recorded on every event and follow-up the server's edits produce. */
	actor: Actor;
	/** propose: valid edits become proposals (`sift mcp --propose`); a run recorded in propose mode proposes in any case. */
	mode?: EditMode;
	/** Where unexpected failures are logged (never stdout: that is the JSON-RPC channel). */
	log: (line: string) => void;
	/** The server's calls, one at a time. */
	calls: CallQueue;
};

type ErrorBody = StoreErrorBody | {error: 'internal_error'; message: string};

/** A successful result: the JSON as text, and the same object as structuredContent. */
export function jsonResult(value: object): CallToolResult {
	return {
		content: [{type: 'text', text: JSON.stringify(value)}],
		structuredContent: value as Record<string, unknown>,
	};
}

/**
 * A refusal: the store's JSON body as text. No structuredContent: MCP clients check
 * structuredContent against the tool's outputSchema even on errors, and a refusal is not that shape.
 */
export function errorResult(body: ErrorBody): CallToolResult {
	return {content: [{type: 'text', text: JSON.stringify(body)}], isError: true};
}

/**
 * Runs one tool body in its turn (call-queue.ts): store refusals become isError results, anything
 * else is logged and reported. `signal` is the request's (the SDK aborts it on cancel or close).
 */
export async function runTool(context: ToolContext, tool: string, signal: AbortSignal, body: () => Promise<object>): Promise<CallToolResult> {
	try {
		return jsonResult(await context.calls.run(body, signal));
	} catch (error) {
		if (error instanceof CallCancelled) {
			// Never sent: the SDK drops the answer to an aborted request.
			return errorResult({error: 'internal_error', message: error.message});
		}

		if (error instanceof StoreError) {
			return errorResult(error.body);
		}

		const message = error instanceof Error ? error.message : String(error);
		context.log(`sift mcp: ${tool} failed: ${error instanceof Error && error.stack ? error.stack : message}`);
		return errorResult({error: 'internal_error', message: `${tool} failed: ${message}`});
	}
}
