// The `list_granted_resources` tool.

import type {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import {runTool, type ToolContext} from './results.js';

export const LIST_GRANTED_RESOURCES = 'list_granted_resources';

const output = z.looseObject({
	channels: z.array(z.looseObject({
		id: z.string(),
		name: z.string(),
		item_count: z.number().int(),
		latest_sequence: z.number().int().describe('The channel\'s latest event sequence: pass it as after_sequence to poll_resource_events to see only later changes.'),
	})),
});

export function registerListGrantedResources(server: McpServer, context: ToolContext): void {
	server.registerTool(LIST_GRANTED_RESOURCES, {
		title: 'List granted record channels',
		description: `Lists the record channels this server may ${context.grants.scope === 'read' ? 'read (its token has scope read: no edits)' : 'read and edit'}: for each, its id (use it as record_channel_id / resource_id), name, item count and latest event sequence. Takes no arguments. Any other channel answers not_granted.`,
		inputSchema: z.strictObject({}),
		outputSchema: output,
		annotations: {readOnlyHint: true, openWorldHint: false},
	}, (_args, {signal}) => runTool(context, LIST_GRANTED_RESOURCES, signal, async () => {
		const granted = new Set(context.grants.ids);
		return {channels: (await context.store.listChannels()).filter(channel => granted.has(channel.id))};
	}));
}
