import type {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';

/**
 * Idle MCP servers of one identity (token name, grants, actor), kept for reuse: building one
 * registers five tools with their schemas, which costs more than the call it serves. A server is
 * lent to one request at a time, connected to that request's transport, and given back once closed.
 */
export class ServerPool {
	private readonly idle: McpServer[] = [];

	constructor(
		private readonly create: () => McpServer,
		private readonly size = 8,
	) {}

	take(): McpServer {
		return this.idle.pop() ?? this.create();
	}

	give(server: McpServer): void {
		if (this.idle.length < this.size) this.idle.push(server);
	}
}
