// The `poll_resource_events` tool.

import type {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import {EVENT_PAGE_LIMIT} from '../../store/index.js';
import {idArgument, MAX_ID_LENGTH, wholeNumber} from './bounds.js';
import {agentEventPage} from './agent-shapes.js';
import {runTool, type ToolContext} from './results.js';
import {eventOutput} from './schemas.js';

export const POLL_RESOURCE_EVENTS = 'poll_resource_events';

const input = z.strictObject({
	resource_type: z.enum(['record_channel'], {error: 'resource_type must be "record_channel"'}).describe('The kind of resource; only "record_channel".'),
	resource_id: idArgument('resource_id', `The granted channel id, at most ${MAX_ID_LENGTH} characters.`),
	after_sequence: wholeNumber('after_sequence', 0).default(0).describe('Optional cursor: only events with a greater sequence are returned; a whole number 0 or greater, default 0 (from the start). Pass the previous next_after_sequence.'),
	limit: wholeNumber('limit', 1, EVENT_PAGE_LIMIT).default(EVENT_PAGE_LIMIT).describe(`Optional: at most this many events, a whole number from 1 to ${EVENT_PAGE_LIMIT}; default ${EVENT_PAGE_LIMIT}.`),
});

const output = z.looseObject({
	events: z.array(eventOutput),
	next_after_sequence: z.number().int().describe('Pass as after_sequence next time.'),
	has_more: z.boolean().describe('True when more events are waiting: poll again right away.'),
});

export function registerPollResourceEvents(server: McpServer, context: ToolContext): void {
	server.registerTool(POLL_RESOURCE_EVENTS, {
		title: 'Poll resource events',
		description: [
			'Returns the changes to a granted channel after a sequence number, oldest first: each event has sequence (gap-free, 1, 2, 3, ...), type (item.created, item.updated, item.deleted, or channel.updated when a person changed the schema: item_id is then empty and changed lists the fields whose definition changed; the schema of the next page has them), item_id, version, actor (kind human, agent or import, and run_id) and, for item.updated, changed: the keys of the fields that changed.',
			'Events say what changed, not the values: read_record_item gives an item\'s current values.',
			`after_sequence is a whole number 0 or greater (default 0); limit a whole number from 1 to ${EVENT_PAGE_LIMIT} (default ${EVENT_PAGE_LIMIT}).`,
			'Keep next_after_sequence as your cursor; has_more says whether to poll again right away.',
		].join(' '),
		inputSchema: input,
		outputSchema: output,
		annotations: {readOnlyHint: true, openWorldHint: false},
	}, (args, {signal}) => runTool(context, POLL_RESOURCE_EVENTS, signal, async () => {
		const channelId = context.grants.check(args.resource_id);
		return agentEventPage(await context.store.pollEvents(channelId, {afterSequence: args.after_sequence, limit: args.limit}));
	}));
}
