// Servers for read-only grants (a token of scope read): no write tools listed, a call of one
// answers `forbidden`.

import type {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import {CallToolRequestSchema, type CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {checkWriteScope, StoreError, type Grants} from '../../store/index.js';
import {errorResult} from './results.js';

/** The tools that write: a server with read-only grants neither lists nor runs them. */
export const WRITE_TOOLS: ReadonlySet<string> = new Set(['edit_record_item']);

type RequestHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/** What a call of a write tool answers under read-only grants: `forbidden`, as the store would. */
function forbidden(grants: Grants): CallToolResult {
	try {
		checkWriteScope(grants);
	} catch (error) {
		if (error instanceof StoreError) return errorResult(error.body);
		throw error;
	}

	throw new Error('refuseWriteTools is only for read-only grants');
}

/**
 * For a server whose grants are read-only (a token of scope read), registered without its write
 * tools: a call of one of them answers `forbidden` instead of the SDK's "tool not found", so a
 * client learns why. The SDK has no public way to wrap its tools/call handler, so its own handler
 * is taken from the protocol's table once; if that table moves in a later SDK, creating the server
 * fails loudly rather than serving a read token wrongly. The store refuses the write too
 * (checkWriteScope), whatever reaches it.
 */
export function refuseWriteTools(server: McpServer, grants: Grants): void {
	const handlers = (server.server as unknown as {_requestHandlers?: Map<string, RequestHandler>})._requestHandlers;
	const sdkCall = handlers?.get(CallToolRequestSchema.shape.method.value);
	if (!sdkCall) throw new Error('the MCP SDK keeps its tools/call handler elsewhere than sift expects: read-only tokens cannot be served');
	const refusal = forbidden(grants);
	server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => (WRITE_TOOLS.has(request.params.name) ? refusal : sdkCall(request, extra) as Promise<CallToolResult>));
}
