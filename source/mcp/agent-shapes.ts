// What the agent reads, made compact (docs/reference.md#agent-tools). Every byte of a page or a
// poll is read by the model, so the agent's forms leave out what only a screen needs and what a
// default already says. The store, the TUI, `sift list` and `sift events` keep the full forms.

import type {EventPage, Field, Page, StoreEvent} from '../../store/index.js';

/** A field as the agent sees it: flags only when true, config only when set, options without colours. */
export type AgentField = {
	key: string;
	label: string;
	type: Field['type'];
	is_required?: true;
	is_unique?: true;
	config?: Record<string, unknown>;
};

function agentConfig(config: Field['config']): Record<string, unknown> | undefined {
	const kept: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(config)) {
		if (value === undefined || value === false) continue;
		// Colours are for the screen; an agent writes option values and reads labels.
		kept[key] = key === 'options' && Array.isArray(value) ? value.map(({value: option, label}) => ({value: option, label})) : value;
	}

	return Object.keys(kept).length > 0 ? kept : undefined;
}

export function agentField(field: Field): AgentField {
	const config = agentConfig(field.config);
	return {
		key: field.key,
		label: field.label,
		type: field.type,
		...(field.is_required ? {is_required: true as const} : {}),
		...(field.is_unique ? {is_unique: true as const} : {}),
		...(config ? {config} : {}),
	};
}

/** A page for the agent: the same items, the schema in its agent form. */
export function agentPage(page: Page): Omit<Page, 'schema'> & {schema: AgentField[]} {
	return {...page, schema: page.schema.map(field => agentField(field))};
}

/** An event as polled by the agent: what changed (the field keys), not the values. */
export type AgentEvent = Pick<StoreEvent, 'sequence' | 'type' | 'item_id' | 'version' | 'actor'> & {changed?: string[]};

export function agentEvent(event: StoreEvent): AgentEvent {
	const {sequence, type, item_id, version, actor} = event;
	// A create or a delete concerns every field: the item is read whole, or it is gone.
	return type === 'item.updated' || type === 'channel.updated' ? {sequence, type, item_id, version, actor, changed: Object.keys(event.changes)} : {sequence, type, item_id, version, actor};
}

export function agentEventPage(page: EventPage): Omit<EventPage, 'events'> & {events: AgentEvent[]} {
	return {...page, events: page.events.map(event => agentEvent(event))};
}
