// Reads the `input` array Codex POSTs to /v1/responses back into what the scripted agent needs:
// the person's prompt and every tool exchange (call + answer) so far.
//
// Codex replays the whole conversation on every request (store=false), so this is the agent's
// only memory. Both tool paths are understood:
// - plain functions: {type:'function_call', namespace:'mcp__sift', name:'read_record_item',
//   arguments:'{...}', call_id} answered by {type:'function_call_output', call_id, output}
// - code mode: {type:'custom_tool_call', name:'exec', input:'...tools.mcp__sift__read_record_item({...})...'}
//   answered by {type:'custom_tool_call_output', call_id, output}
// `output` is a list of input_text parts: a "Wall time ... Output:" preamble, then the tool's text
// (function path: the MCP text content itself; code mode: the whole CallToolResult as JSON).

export interface Exchange {
	/** Position in the conversation: later exchanges have larger indexes. */
	index: number;
	callId: string;
	/** The bare MCP tool name, e.g. 'read_record_item'. */
	tool: string;
	args: Record<string, unknown>;
	/** Whether Codex has sent the tool's answer yet. */
	answered: boolean;
	/** The tool's JSON answer (a CallToolResult is unwrapped to its payload), else undefined. */
	result: unknown;
	/** isError from the CallToolResult, or an answer shaped like {"error": ...}. */
	isError: boolean;
	/** The answer's text, for messages when it is not JSON. */
	text: string;
}

export interface Conversation {
	/** The person's words: every user message except Codex's own context blocks. */
	prompt: string;
	exchanges: Exchange[];
}

type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readConversation(input: unknown, serverName = 'sift'): Conversation {
	const items = Array.isArray(input) ? input.filter(isObject) : [];
	const prompts: string[] = [];
	const exchanges: Exchange[] = [];
	const byCallId = new Map<string, Exchange>();
	for (const item of items) {
		if (item['type'] === 'message' && item['role'] === 'user') {
			const text = messageText(item);
			if (!isCodexContextBlock(text)) {
				prompts.push(text);
			}
			continue;
		}
		const call = readToolCall(item, serverName);
		if (call) {
			const exchange: Exchange = {
				index: exchanges.length, callId: call.callId, tool: call.tool, args: call.args,
				answered: false, result: undefined, isError: false, text: '',
			};
			exchanges.push(exchange);
			byCallId.set(call.callId, exchange);
			continue;
		}
		if (item['type'] === 'function_call_output' || item['type'] === 'custom_tool_call_output') {
			const exchange = byCallId.get(String(item['call_id']));
			if (exchange) {
				Object.assign(exchange, {answered: true}, readToolOutput(item['output']));
			}
		}
	}
	return {prompt: prompts.join('\n\n'), exchanges};
}

function messageText(item: Json): string {
	const content = item['content'];
	if (typeof content === 'string') {
		return content;
	}
	if (!Array.isArray(content)) {
		return '';
	}
	return content.filter(isObject).map(part => (typeof part['text'] === 'string' ? part['text'] : '')).join('');
}

// Codex adds user-role messages of its own (<environment_context>, <user_instructions>, ...).
function isCodexContextBlock(text: string): boolean {
	return /^\s*<[a-z_]+>/.test(text);
}

interface ToolCall {
	callId: string;
	tool: string;
	args: Record<string, unknown>;
}

function readToolCall(item: Json, serverName: string): ToolCall | undefined {
	const callId = String(item['call_id'] ?? '');
	if (item['type'] === 'function_call') {
		const tool = functionToolName(item, serverName);
		return tool === undefined ? undefined : {callId, tool, args: parseArgs(item['arguments'])};
	}
	if (item['type'] === 'custom_tool_call' && item['name'] === 'exec' && typeof item['input'] === 'string') {
		const parsed = parseExecSource(item['input'], serverName);
		return parsed && {callId, ...parsed};
	}
	return undefined;
}

function functionToolName(item: Json, serverName: string): string | undefined {
	const namespace = `mcp__${serverName}`;
	const name = String(item['name'] ?? '');
	if (item['namespace'] === namespace) {
		return name;
	}
	// Tolerate a flattened name, in case a Codex version stops sending namespaces.
	return name.startsWith(`${namespace}__`) ? name.slice(namespace.length + 2) : undefined;
}

function parseArgs(raw: unknown): Record<string, unknown> {
	if (isObject(raw)) {
		return raw;
	}
	const parsed = typeof raw === 'string' ? parseJsonLoose(raw) : undefined;
	return isObject(parsed) ? parsed : {};
}

/**
 * The JavaScript the scripted agent sends in code mode, one tool call per cell. Kept next to its
 * parser so the two cannot drift apart.
 */
export function execSource(serverName: string, tool: string, args: Record<string, unknown>): string {
	return `const r = await tools.mcp__${serverName}__${tool}(${JSON.stringify(args)});\ntext(r);`;
}

export function parseExecSource(source: string, serverName: string): Omit<ToolCall, 'callId'> | undefined {
	const match = new RegExp(`tools\\.mcp__${serverName}__(\\w+)\\((\\{[\\s\\S]*\\})\\)`).exec(source);
	if (!match) {
		return undefined;
	}
	return {tool: match[1], args: parseArgs(match[2])};
}

/** Unwraps a tool answer as Codex forwards it (see the header comment for the shapes). */
export function readToolOutput(output: unknown): Pick<Exchange, 'result' | 'isError' | 'text'> {
	const texts = outputTexts(output);
	for (const text of texts) {
		const parsed = parseJsonLoose(text);
		if (parsed !== undefined) {
			return unwrapCallToolResult(parsed);
		}
	}
	return {result: undefined, isError: false, text: texts.join('\n')};
}

function outputTexts(output: unknown): string[] {
	if (typeof output === 'string') {
		return [output];
	}
	if (Array.isArray(output)) {
		return output.filter(isObject).map(part => (typeof part['text'] === 'string' ? part['text'] : ''));
	}
	return output === undefined ? [] : [JSON.stringify(output)];
}

function unwrapCallToolResult(value: unknown): Pick<Exchange, 'result' | 'isError' | 'text'> {
	if (!isObject(value) || !Array.isArray(value['content'])) {
		return {result: value, isError: hasErrorKey(value), text: JSON.stringify(value)};
	}
	const flagged = value['isError'] === true;
	const text = value['content'].filter(isObject).map(part => String(part['text'] ?? '')).join('\n');
	const payload = isObject(value['structuredContent']) ? value['structuredContent'] : parseJsonLoose(text);
	return {result: payload, isError: flagged || hasErrorKey(payload), text};
}

function hasErrorKey(value: unknown): boolean {
	return isObject(value) && typeof value['error'] === 'string';
}

/** JSON.parse, else the JSON that starts at the first brace (after a "Output:" preamble). */
export function parseJsonLoose(text: string): unknown {
	for (const candidate of [text, text.slice(Math.max(0, text.indexOf('{')))]) {
		const trimmed = candidate.trim();
		if (trimmed === '' || !/^[{[]/.test(trimmed)) {
			continue;
		}
		try {
			return JSON.parse(trimmed);
		} catch {
			// try the next candidate
		}
	}
	return undefined;
}
