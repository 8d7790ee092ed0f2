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
	/** auto_accept_above (`sift mcp --auto-accept-above`): a proposal whose confidence is at least this is accepted as it arrives. */
	autoAcceptAbove?: number;
	/** Where unexpected failures are logged (never stdout: that is the JSON-RPC channel). */
	log: (line: string) => void;
	/** The server's calls, one at a time. */
	calls: CallQueue;
};

/** A validation_failed refusal as the agent gets it: the store's body and the keys it kept for a person. */
type RefusalWithFollowUps = Extract<StoreErrorBody, {error: 'validation_failed'}> & {follow_ups: string[]};

type ErrorBody = StoreErrorBody | RefusalWithFollowUps | {error: 'internal_error'; message: string};

/** A refusal a tool body throws with its own body (a store refusal it added to). */
export class ToolRefusal extends Error {
	constructor(readonly body: ErrorBody) {
		super(body.error);
	}
}

/**
 * A successful result: the answer once, as structuredContent (checked against the tool's
 * outputSchema). The text block only points at it: Codex forwards structuredContent alone on its
 * function path and the whole result in code mode, so a full copy in the text would be read twice
 * there, for nothing (MCP asks for the JSON in text only as a SHOULD, for older clients).
 */
export function jsonResult(value: object): CallToolResult {
	return {
		content: [{type: 'text', text: `${SEE_STRUCTURED} (${Buffer.byteLength(JSON.stringify(value))} bytes of JSON)`}],
		structuredContent: value as Record<string, unknown>,
	};
}

/** What the text block of a successful result says instead of repeating the answer. */
export const SEE_STRUCTURED = 'The answer is in structuredContent';

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

		if (error instanceof StoreError || error instanceof ToolRefusal) {
			return errorResult(error.body);
		}

		const message = error instanceof Error ? error.message : String(error);
		context.log(`sift mcp: ${tool} failed: ${error instanceof Error && error.stack ? error.stack : message}`);
		return errorResult({error: 'internal_error', message: `${tool} failed: ${message}`});
	}
}
