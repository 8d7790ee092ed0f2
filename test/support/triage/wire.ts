// The Responses API side of the scripted agent: turn a policy Action into the output items Codex
// expects, and frame them as the server-sent events of one streamed response.
//
// Codex 0.171.0 needs only three events per response: response.created, one
// response.output_item.done per item, and response.completed carrying usage (it becomes the usage
// of turn.completed). Tool calls must name the MCP tool the way Codex offered it:
// - plain functions (a model outside Codex's catalog): top-level `tools` holds
//   {type:'namespace', name:'mcp__sift', tools:[{type:'function', name:'edit_record_item', ...}]},
//   so a call is {type:'function_call', namespace:'mcp__sift', name:'edit_record_item', arguments};
// - code mode (Codex's default model): `tools` is absent and an input item
//   {type:'additional_tools', tools:[{type:'namespace', name:'functions', tools:[{type:'custom',
//   name:'exec', ...}]}]} offers `exec`; the MCP tools are "deferred" (not described, but present on
//   the `tools` object), so a call is {type:'custom_tool_call', name:'exec', input:'<javascript>'}.

import {execSource, isObject} from './history.js';
import type {Action} from './policy.js';

export type ToolPath = 'functions' | 'code';

export type OutputItem = Record<string, unknown>;

export function actionItems(action: Action, path: ToolPath, sequence: number, serverName = 'sift'): OutputItem[] {
	if (action.kind === 'answer') {
		return [messageItem(action.text, sequence)];
	}
	const calls = action.kind === 'calls' ? action.calls : [action];
	// Each response starts at a larger sequence than the last one's calls used, so ids never repeat.
	return calls.map((call, index) => {
		const suffix = index === 0 ? `${sequence}` : `${sequence}_${index}`;
		return path === 'functions'
			? {
				type: 'function_call', id: `fc_sift_${suffix}`, call_id: `call_sift_${suffix}`, status: 'completed',
				namespace: `mcp__${serverName}`, name: call.tool, arguments: JSON.stringify(call.args),
			}
			: {
				type: 'custom_tool_call', id: `ctc_sift_${suffix}`, call_id: `call_sift_${suffix}`, status: 'completed',
				name: 'exec', input: execSource(serverName, call.tool, call.args),
			};
	});
}

export function messageItem(text: string, sequence: number): OutputItem {
	return {
		type: 'message', id: `msg_sift_${sequence}`, role: 'assistant', status: 'completed',
		content: [{type: 'output_text', text, annotations: []}],
	};
}

/** Every tool name the request offers, namespaces included ('mcp__sift', 'exec', ...). */
export function offeredToolNames(body: unknown): Set<string> {
	const names = new Set<string>();
	const visit = (tools: unknown): void => {
		for (const tool of Array.isArray(tools) ? tools.filter(isObject) : []) {
			if (typeof tool['name'] === 'string') {
				names.add(tool['name']);
			}
			visit(tool['tools']);
		}
	};
	if (isObject(body)) {
		visit(body['tools']);
		const input = Array.isArray(body['input']) ? body['input'].filter(isObject) : [];
		for (const item of input.filter(i => i['type'] === 'additional_tools')) {
			visit(item['tools']);
		}
	}
	return names;
}

/**
 * The tools a request offers the model, as flat names: a tool of a namespace is
 * `<namespace>__<tool>` (`mcp__sift__edit_record_item`, `collaboration__spawn_agent`), except in the
 * default `functions` namespace of code mode (`exec`); a tool that code mode's `exec` describes as
 * callable from its JavaScript is `exec:<tool>` (`exec:apply_patch`). Sorted.
 */
export function offeredTools(body: unknown): string[] {
	const names = new Set<string>();
	const visit = (tools: unknown, namespace: string | undefined): void => {
		for (const tool of Array.isArray(tools) ? tools.filter(isObject) : []) {
			const name = typeof tool['name'] === 'string' ? tool['name'] : String(tool['type'] ?? '?');
			if (tool['type'] === 'namespace') {
				visit(tool['tools'], name === 'functions' ? undefined : name);
				continue;
			}
			names.add(namespace ? `${namespace}__${name}` : name);
			if (name === 'exec' && typeof tool['description'] === 'string') {
				for (const nested of tool['description'].matchAll(/^### `([^`]+)`/gm)) names.add(`exec:${nested[1]}`);
			}
		}
	};
	if (isObject(body)) {
		visit(body['tools'], undefined);
		const input = Array.isArray(body['input']) ? body['input'].filter(isObject) : [];
		for (const item of input.filter(i => i['type'] === 'additional_tools')) {
			visit(item['tools'], undefined);
		}
	}
	return [...names].sort();
}

/** Why the request cannot be served on this path, or undefined when the needed tool is offered. */
export function missingTool(body: unknown, path: ToolPath, serverName = 'sift'): string | undefined {
	const names = offeredToolNames(body);
	if (path === 'functions' && !names.has(`mcp__${serverName}`)) {
		return `Codex did not offer the mcp__${serverName} tools as functions (offered: ${[...names].join(', ') || 'none'}). `
			+ 'Is the model outside Codex\'s catalog, and is the MCP server configured?';
	}
	if (path === 'code' && !names.has('exec')) {
		return `Codex did not offer the code-mode exec tool (offered: ${[...names].join(', ') || 'none'}). `
			+ 'Code mode needs Codex\'s default model: omit -m.';
	}
	return undefined;
}

// Reported usage feeds Codex's auto-compaction: past its threshold Codex would send a
// summarization request this script does not play. Real histories here are 10k-40k tokens.
const MAX_REPORTED_TOKENS = 20_000;

/** A rough, deterministic token count (4 characters a token, capped), so usage is present and plausible. */
function tokens(value: unknown): number {
	return Math.min(MAX_REPORTED_TOKENS, Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4)));
}

export function sseEvents(responseId: string, items: OutputItem[], requestInput: unknown): string {
	const inputTokens = tokens(requestInput);
	const outputTokens = tokens(items);
	const events: Array<Record<string, unknown>> = [
		{type: 'response.created', response: {id: responseId, status: 'in_progress'}},
		...items.map((item, index) => ({type: 'response.output_item.done', output_index: index, item})),
		{
			type: 'response.completed',
			response: {
				id: responseId,
				status: 'completed',
				usage: {
					input_tokens: inputTokens,
					input_tokens_details: {cached_tokens: 0},
					output_tokens: outputTokens,
					output_tokens_details: {reasoning_tokens: 0},
					total_tokens: inputTokens + outputTokens,
				},
			},
		},
	];
	return events.map(event => `event: ${String(event['type'])}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}
