// Codex's items as steps (tool calls, commands, messages) the run pane shows.

import {isRecord} from './stream.js';
import {counted} from '../text/format.js';

export type StepStatus = 'running' | 'done' | 'failed';

/** One thing Codex did, as the run pane and `sift run` show it. */
export type Step = {
	/** Codex's item id, stable across started / updated / completed. */
	id: string;
	/** The item type: mcp_tool_call, command_execution, reasoning, ... */
	kind: string;
	label: string;
	status: StepStatus;
	/** Short outcome such as "ok v3", "proposed #4, not applied", "rejected: points, due", "conflict", "12 items". */
	result: string | null;
};

export type Item = Record<string, unknown> & {id: string; type: string};

/** Item types that are not steps: the answer and warnings are reported on their own. */
const NOT_STEPS = new Set(['agent_message', 'error']);

const LABEL_MAX = 80;
const RESULT_MAX = 60;

/**
 * The record field shown instead of an opaque item id when the stream reveals it
 * (the demo channel's ticket, e.g. BUG-0042); other channels fall back to the id.
 */
const NAME_FIELD = 'ticket';

/** Record item id → its human name, learned from tool results as the run goes. */
export type ItemNames = Map<string, string>;

/** Which event carried the item: item.started, item.updated or item.completed. */
export type ItemPhase = 'started' | 'updated' | 'completed';

/** The step an item describes, or undefined for answers, warnings and unknown item types. */
export function stepFromItem(item: Item, phase: ItemPhase, names: ItemNames): Step | undefined {
	if (NOT_STEPS.has(item.type)) return undefined;
	const describe = DESCRIBERS[item.type];
	if (!describe) return undefined;
	const status = stepStatus(item, phase);
	const {label, result} = describe(item, status, names);
	return {id: item.id, kind: item.type, label: clip(label, LABEL_MAX), status, result: result === null ? null : clip(result, RESULT_MAX)};
}

type Description = {label: string; result: string | null};
type Describer = (item: Item, status: StepStatus, names: ItemNames) => Description;

const DESCRIBERS: Record<string, Describer> = {
	mcp_tool_call: describeToolCall,
	command_execution: item => ({
		label: firstLine(text(item.command)),
		result: typeof item.exit_code === 'number' ? `exit ${item.exit_code}` : null,
	}),
	file_change: item => ({label: `change ${count(item.changes, 'file')}`, result: null}),
	web_search: item => ({label: `search ${text(item.query)}`, result: null}),
	reasoning: item => ({label: firstLine(text(item.text)).replaceAll('**', '') || 'thinking', result: null}),
	todo_list: item => ({label: `plan ${todoProgress(item.items)}`, result: null}),
	collab_tool_call: item => ({label: text(item.tool), result: null}),
};

/** Failed and declined read as failed; otherwise done once completed, running before. */
function stepStatus(item: Item, phase: ItemPhase): StepStatus {
	if (item.status === 'failed' || item.status === 'declined') return 'failed';
	return phase === 'completed' || item.status === 'completed' ? 'done' : 'running';
}

function describeToolCall(item: Item, status: StepStatus, names: ItemNames): Description {
	const payload = toolPayload(item);
	learnNames(payload, names);
	const tool = item.server && item.server !== 'sift' ? `${text(item.server)}.${text(item.tool)}` : text(item.tool);
	const target = toolTarget(item.arguments, names);
	return {label: target ? `${tool} ${target}` : tool, result: status === 'running' ? null : toolResult(item, status, payload)};
}

/** What a sift tool call is about: the record (by name when known), else the channel. */
function toolTarget(args: unknown, names: ItemNames): string {
	if (!isRecord(args)) return '';
	if (typeof args.item_id === 'string') return names.get(args.item_id) ?? args.item_id;
	if (typeof args.record_channel_id === 'string') return args.record_channel_id;
	if (typeof args.resource_id === 'string') return args.resource_id;
	return '';
}

/** The tool's answer: structured content when present, else the first text block parsed as JSON when it parses. */
export function toolPayload(item: Record<string, unknown>): unknown {
	const result = item.result;
	if (!isRecord(result)) return undefined;
	if (result.structured_content !== undefined && result.structured_content !== null) return result.structured_content;
	const block = Array.isArray(result.content) ? result.content.find(entry => isRecord(entry) && entry.type === 'text') : undefined;
	if (!isRecord(block) || typeof block.text !== 'string') return undefined;
	try {
		return JSON.parse(block.text) as unknown;
	} catch {
		return block.text;
	}
}

function toolResult(item: Item, status: StepStatus, payload: unknown): string {
	if (isRecord(item.error) && typeof item.error.message === 'string') return firstLine(item.error.message);
	if (isRecord(payload)) {
		const summary = summarizeObject(payload);
		if (summary) return summary;
	}
	if (Array.isArray(payload)) return count(payload, 'result');
	if (typeof payload === 'string' && payload.trim()) return firstLine(payload);
	return status === 'failed' ? 'failed' : 'ok';
}

function summarizeObject(payload: Record<string, unknown>): string | undefined {
	// Propose mode: the store kept a proposal and wrote nothing (docs/review.md).
	if (payload.ok === true && payload.proposed === true) return `proposed${typeof payload.proposal_id === 'number' ? ` #${payload.proposal_id}` : ''}, not applied`;
	if (payload.ok === true) {
		const version = isRecord(payload.item) ? payload.item.version : payload.version;
		return typeof version === 'number' ? `ok v${version}` : 'ok';
	}
	if (payload.error === 'validation_failed') return `rejected: ${rejectedKeys(payload).join(', ')}`;
	if (payload.error === 'version_conflict') return 'conflict';
	if (typeof payload.error === 'string') return payload.error;
	if (Array.isArray(payload.items)) return count(payload.items, 'item');
	if (Array.isArray(payload.events)) return count(payload.events, 'event');
	if (Array.isArray(payload.channels)) return count(payload.channels, 'channel');
	if (Array.isArray(payload.resources)) return count(payload.resources, 'resource');
	const version = isRecord(payload.item) ? payload.item.version : payload.version;
	return typeof version === 'number' ? `v${version}` : undefined;
}

/** The keys of a validation_failed rejection, in the store's order. */
export function rejectedKeys(payload: Record<string, unknown>): string[] {
	if (!Array.isArray(payload.fields)) return [];
	return payload.fields.flatMap(field => (isRecord(field) && typeof field.key === 'string' ? [field.key] : []));
}

/** The keys a validation_failed refusal kept for a person as follow-ups (edit_record_item's follow_ups). */
export function followUpKeys(payload: Record<string, unknown>): string[] {
	return Array.isArray(payload.follow_ups) ? payload.follow_ups.filter((key): key is string => typeof key === 'string') : [];
}

/** Remembers record names from any item objects a result carries (lists, reads, edits). */
function learnNames(payload: unknown, names: ItemNames): void {
	if (!isRecord(payload)) return;
	const candidates = [payload, payload.item, ...(Array.isArray(payload.items) ? payload.items : [])];
	for (const candidate of candidates) {
		if (!isRecord(candidate) || typeof candidate.id !== 'string') continue;
		const name = [candidate.values, candidate.preview].map(values => (isRecord(values) ? values[NAME_FIELD] : undefined)).find(value => typeof value === 'string');
		if (typeof name === 'string' && name.trim()) names.set(candidate.id, name);
	}
}

function todoProgress(items: unknown): string {
	if (!Array.isArray(items)) return '';
	const done = items.filter(entry => isRecord(entry) && entry.completed === true).length;
	return `${done}/${items.length}`;
}

/** "3 items": the length of a list the stream reported, with its noun. */
const count = (list: unknown, noun: string) => counted(Array.isArray(list) ? list.length : 0, noun);

function text(value: unknown): string {
	return typeof value === 'string' ? value : '';
}

function firstLine(value: string): string {
	return value.trim().split('\n', 1)[0]!.trim();
}

function clip(value: string, max: number): string {
	return value.length <= max ? value : value.slice(0, max - 1) + '…';
}
