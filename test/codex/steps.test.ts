// Stream items as steps.

import {describe, expect, it} from 'vitest';
import {stepFromItem, type Item} from '../../source/codex/steps.js';
import {RunTracker} from '../../source/codex/tracker.js';

const json = (value: unknown) => ({content: [{type: 'text', text: JSON.stringify(value)}], structured_content: null});

function toolItem(tool: string, args: Record<string, unknown>, fields: Partial<Item> = {}): Item {
	return {id: 'item_1', type: 'mcp_tool_call', server: 'sift', tool, arguments: args, result: null, error: null, status: 'in_progress', ...fields};
}

const edit = (itemId: string) => ({record_channel_id: 'bugs', item_id: itemId, values: {}, expected_version: 2, idempotency_key: 'k'});

describe('stepFromItem', () => {
	const names = new Map<string, string>();

	it('labels a running tool call with the tool and its target', () => {
		expect(stepFromItem(toolItem('edit_record_item', edit('itm_9')), 'started', new Map())).toEqual({
			id: 'item_1',
			kind: 'mcp_tool_call',
			label: 'edit_record_item itm_9',
			status: 'running',
			result: null,
		});
		expect(stepFromItem(toolItem('list_record_items', {record_channel_id: 'bugs'}), 'started', names)?.label).toBe('list_record_items bugs');
		expect(stepFromItem(toolItem('poll_resource_events', {resource_type: 'record_channel', resource_id: 'bugs'}), 'started', names)?.label).toBe('poll_resource_events bugs');
		expect(stepFromItem(toolItem('list_granted_resources', {}), 'started', names)?.label).toBe('list_granted_resources');
	});

	it('summarises results: ok v3, rejected keys, conflict, counts, other errors', () => {
		const completed = (tool: string, body: unknown, status = 'completed') => stepFromItem(toolItem(tool, edit('itm_1'), {result: json(body), status}), 'completed', names)!;
		expect(completed('edit_record_item', {ok: true, item: {id: 'itm_1', version: 3, values: {}}, sequence: 4}).result).toBe('ok v3');
		// Propose mode: the store kept a proposal and wrote nothing, which the step says.
		expect(completed('edit_record_item', {ok: true, proposed: true, proposal_id: 7, item: {id: 'itm_1', version: 3, values: {}}, sequence: 4}).result).toBe('proposed #7, not applied');
		expect(completed('edit_record_item', {error: 'validation_failed', fields: [{key: 'points'}, {key: 'due'}]}, 'failed')).toMatchObject({status: 'failed', result: 'rejected: points, due'});
		expect(completed('edit_record_item', {error: 'version_conflict', current_version: 5}, 'failed').result).toBe('conflict');
		expect(completed('edit_record_item', {error: 'not_granted'}, 'failed').result).toBe('not_granted');
		expect(completed('list_record_items', {items: Array.from({length: 12}, (_, n) => ({id: `i${n}`}))}).result).toBe('12 items');
		expect(completed('list_record_items', {items: [{id: 'i'}]}).result).toBe('1 item');
		expect(completed('poll_resource_events', {events: [], has_more: false}).result).toBe('0 events');
		expect(completed('read_record_item', {id: 'itm_1', version: 7, values: {}}).result).toBe('v7');
	});

	it('prefers structured content, and reports a transport error message', () => {
		const structured = stepFromItem(toolItem('read_record_item', edit('x'), {result: {content: [], structured_content: {item: {id: 'x', version: 2}}}, status: 'completed'}), 'completed', names);
		expect(structured?.result).toBe('v2');
		const failed = stepFromItem(toolItem('read_record_item', edit('x'), {error: {message: 'tool call timed out\nafter 60s'}, status: 'failed'}), 'completed', names);
		expect(failed).toMatchObject({status: 'failed', result: 'tool call timed out'});
	});

	it('names records by the ticket any result reveals', () => {
		const known = new Map<string, string>();
		stepFromItem(toolItem('list_record_items', {record_channel_id: 'bugs'}, {result: json({items: [{id: 'itm_42', preview: {ticket: 'BUG-0042'}}]}), status: 'completed'}), 'completed', known);
		expect(stepFromItem(toolItem('edit_record_item', edit('itm_42')), 'started', known)?.label).toBe('edit_record_item BUG-0042');
		// An edit result names its own item even when nothing was listed first.
		const fresh = new Map<string, string>();
		const done = stepFromItem(toolItem('edit_record_item', edit('itm_7'), {result: json({ok: true, item: {id: 'itm_7', version: 2, values: {ticket: 'BUG-0007'}}}), status: 'completed'}), 'completed', fresh);
		expect(done?.label).toBe('edit_record_item BUG-0007');
	});

	it('describes other item kinds and skips answers, errors and unknown kinds', () => {
		expect(stepFromItem({id: 'c', type: 'command_execution', command: 'ls -la\nrm x', aggregated_output: '', exit_code: 0, status: 'completed'}, 'completed', names)).toMatchObject({
			label: 'ls -la',
			status: 'done',
			result: 'exit 0',
		});
		expect(stepFromItem({id: 'c', type: 'command_execution', command: 'rm x', exit_code: null, status: 'declined'}, 'completed', names)?.status).toBe('failed');
		expect(stepFromItem({id: 'r', type: 'reasoning', text: '**Planning**\nmore'}, 'completed', names)).toMatchObject({label: 'Planning', status: 'done'});
		expect(stepFromItem({id: 't', type: 'todo_list', items: [{text: 'a', completed: true}, {text: 'b', completed: false}]}, 'updated', names)).toMatchObject({label: 'plan 1/2', status: 'running'});
		expect(stepFromItem({id: 'a', type: 'agent_message', text: 'hi'}, 'completed', names)).toBeUndefined();
		expect(stepFromItem({id: 'e', type: 'error', message: 'x'}, 'completed', names)).toBeUndefined();
		expect(stepFromItem({id: 'h', type: 'hologram'}, 'completed', names)).toBeUndefined();
	});

	it('clips long labels', () => {
		const step = stepFromItem({id: 'c', type: 'command_execution', command: 'x'.repeat(200), status: 'in_progress'}, 'started', names)!;
		expect(step.label).toHaveLength(80);
		expect(step.label.endsWith('…')).toBe(true);
	});
});

describe('RunTracker', () => {
	it('turns events into updates once, and counts edits from their results', () => {
		const tracker = new RunTracker();
		const started = toolItem('edit_record_item', edit('itm_1'));
		// b is an unknown key: refused, but kept for nobody (follow_ups names what the store opened).
		const rejected = {...started, id: 'item_2', result: json({error: 'validation_failed', fields: [{key: 'a'}, {key: 'b'}, {key: 'c'}], follow_ups: ['a', 'c']}), status: 'failed'};
		const applied = {...started, result: json({ok: true, item_id: 'itm_1', version: 3}), status: 'completed'};
		expect(tracker.apply({type: 'item.started', item: started})).toHaveLength(1);
		expect(tracker.apply({type: 'item.updated', item: started})).toEqual([]);
		expect(tracker.apply({type: 'item.completed', item: applied})).toEqual([{type: 'step', step: expect.objectContaining({status: 'done', result: 'ok v3'})}]);
		expect(tracker.apply({type: 'item.completed', item: applied})).toEqual([]);
		tracker.apply({type: 'item.completed', item: rejected});
		expect([tracker.editsApplied, tracker.rejections, tracker.followupsOpened]).toEqual([1, 1, 2]);
		expect(tracker.steps.map(step => step.id)).toEqual(['item_1', 'item_2']);
	});

	it('keeps the latest answer, usage, warnings, notices and turn failure', () => {
		const tracker = new RunTracker();
		expect(tracker.apply({type: 'error', message: 'Reconnecting... 2/5'})).toEqual([{type: 'notice', message: 'Reconnecting... 2/5'}]);
		expect(tracker.apply({type: 'item.completed', item: {id: 'w', type: 'error', message: 'rerouted'}})).toEqual([{type: 'warning', message: 'rerouted'}]);
		tracker.apply({type: 'item.completed', item: {id: 'm1', type: 'agent_message', text: 'first'}});
		expect(tracker.apply({type: 'item.completed', item: {id: 'm2', type: 'agent_message', text: 'final'}})).toEqual([{type: 'text', text: 'final'}]);
		expect(tracker.apply({type: 'turn.completed', usage: {input_tokens: 3, output_tokens: 4}})).toEqual([
			{type: 'usage', usage: {input_tokens: 3, cached_input_tokens: 0, output_tokens: 4}},
		]);
		tracker.apply({type: 'turn.failed', error: {message: 'boom'}});
		expect(tracker).toMatchObject({text: 'final', turnCompleted: true, turnFailedMessage: 'boom', lastErrorMessage: 'Reconnecting... 2/5', warnings: ['rerouted']});
	});

	it('ignores unknown events and malformed items', () => {
		const tracker = new RunTracker();
		expect(tracker.apply({type: 'session.configured'})).toEqual([]);
		expect(tracker.apply({type: 'item.started', item: 'nope'})).toEqual([]);
		expect(tracker.apply({type: 'item.started', item: {type: 'mcp_tool_call'}})).toEqual([]);
		expect(tracker.steps).toEqual([]);
	});
});
