// Folds stream events into updates: steps, answer text, usage.

import {isRecord, type CodexEvent} from './stream.js';
import {followUpKeys, stepFromItem, toolPayload, type Item, type ItemNames, type ItemPhase, type Step} from './steps.js';

export type Usage = {input_tokens: number; cached_input_tokens: number; output_tokens: number};

/** What a run reports while it goes; every update comes from a line of Codex's stream. */
export type RunUpdate =
	| {type: 'step'; step: Step}
	/** The answer so far: the latest agent_message. */
	| {type: 'text'; text: string}
	/** An item of type error: Codex carries on. */
	| {type: 'warning'; message: string}
	/** A top-level error event, such as "Reconnecting... 2/5": not fatal by itself. */
	| {type: 'notice'; message: string}
	| {type: 'usage'; usage: Usage}
	/** Not from the stream but from its silence: no line from Codex for a while (see runner.ts). */
	| {type: 'stall'; message: string};

const PHASES: Record<string, ItemPhase> = {'item.started': 'started', 'item.updated': 'updated', 'item.completed': 'completed'};

/** Folds `codex exec --json` events into steps, the answer, usage and the facts the outcome needs. */
export class RunTracker {
	text = '';
	usage: Usage | null = null;
	turnCompleted = false;
	turnFailedMessage: string | null = null;
	lastErrorMessage: string | null = null;
	readonly warnings: string[] = [];
	/** edit_record_item calls the store wrote. */
	editsApplied = 0;
	/** edit_record_item calls the store kept as proposals (propose mode). */
	proposals = 0;
	/** edit_record_item calls refused with validation_failed. */
	rejections = 0;
	/**
	 * Follow-ups those refusals opened or refreshed: the keys each names in follow_ups, which the
	 * server lists by the store's own rule (an unknown key or a formula opens none).
	 */
	followupsOpened = 0;

	private readonly stepsById = new Map<string, Step>();
	private readonly names: ItemNames = new Map();
	private readonly countedEdits = new Set<string>();

	get steps(): Step[] {
		return [...this.stepsById.values()];
	}

	/** Applies one event and returns the updates it causes (none for unknown or repeated ones). */
	apply(event: CodexEvent): RunUpdate[] {
		const phase = PHASES[event.type];
		if (phase) return isItem(event.item) ? this.applyItem(event.item, phase) : [];
		switch (event.type) {
			case 'turn.completed':
				return this.completeTurn(event.usage);
			case 'turn.failed':
				this.turnFailedMessage = messageOf(event.error) ?? 'Codex reported turn.failed without a message.';
				return [];
			case 'error':
				this.lastErrorMessage = messageOf(event) ?? 'Codex reported an error without a message.';
				return [{type: 'notice', message: this.lastErrorMessage}];
			default:
				return [];
		}
	}

	private applyItem(item: Item, phase: ItemPhase): RunUpdate[] {
		if (item.type === 'agent_message') return this.answer(item.text);
		if (item.type === 'error') return this.warn(messageOf(item));
		if (phase === 'completed') this.countEdit(item);
		const step = stepFromItem(item, phase, this.names);
		if (!step || sameStep(this.stepsById.get(step.id), step)) return [];
		this.stepsById.set(step.id, step);
		return [{type: 'step', step}];
	}

	private answer(text: unknown): RunUpdate[] {
		if (typeof text !== 'string' || !text || text === this.text) return [];
		this.text = text;
		return [{type: 'text', text}];
	}

	private warn(message: string | null): RunUpdate[] {
		if (!message) return [];
		this.warnings.push(message);
		return [{type: 'warning', message}];
	}

	private completeTurn(usage: unknown): RunUpdate[] {
		this.turnCompleted = true;
		this.usage = readUsage(usage);
		return this.usage ? [{type: 'usage', usage: this.usage}] : [];
	}

	private countEdit(item: Item): void {
		if (item.type !== 'mcp_tool_call' || item.tool !== 'edit_record_item' || this.countedEdits.has(item.id)) return;
		this.countedEdits.add(item.id);
		const payload = toolPayload(item);
		if (!isRecord(payload)) return;
		if (payload.ok === true && payload.proposed === true) this.proposals++;
		else if (payload.ok === true) this.editsApplied++;
		if (payload.error === 'validation_failed') {
			this.rejections++;
			this.followupsOpened += followUpKeys(payload).length;
		}
	}
}

function isItem(value: unknown): value is Item {
	return isRecord(value) && typeof value.id === 'string' && typeof value.type === 'string';
}

function readUsage(value: unknown): Usage | null {
	if (!isRecord(value) || typeof value.input_tokens !== 'number' || typeof value.output_tokens !== 'number') return null;
	const cached = typeof value.cached_input_tokens === 'number' ? value.cached_input_tokens : 0;
	return {input_tokens: value.input_tokens, cached_input_tokens: cached, output_tokens: value.output_tokens};
}

function messageOf(value: unknown): string | null {
	return isRecord(value) && typeof value.message === 'string' && value.message ? value.message : null;
}

function sameStep(a: Step | undefined, b: Step): boolean {
	return a !== undefined && a.label === b.label && a.status === b.status && a.result === b.result && a.kind === b.kind;
}
