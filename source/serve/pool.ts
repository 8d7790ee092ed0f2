// Idle MCP servers (with their call queues) kept per token identity for reuse.

import type {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import type {CallQueue} from '../mcp/call-queue.js';

/** An MCP server and the queue its tool calls wait in (so a request can wait for its calls to settle). */
export type PooledServer = {server: McpServer; calls: CallQueue};

/**
 * Idle MCP servers of one identity (token name, grants, actor), kept for reuse: building one
 * registers five tools with their schemas, which costs more than the call it serves. A server is
 * lent to one request at a time, connected to that request's transport, and given back once
 * closed and its calls have settled.
 */
export class ServerPool {
	private readonly idle: PooledServer[] = [];

	constructor(
		private readonly create: () => PooledServer,
		private readonly size = 8,
	) {}

	take(): PooledServer {
		return this.idle.pop() ?? this.create();
	}

	give(server: PooledServer): void {
		if (this.idle.length < this.size) this.idle.push(server);
	}
}
