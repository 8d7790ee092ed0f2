// What the agent reads, made compact (docs/reference.md#agent-tools). Every byte of a page or a
// poll is read by the model, so the agent's forms leave out what only a screen needs and what a
// default already says. The store, the TUI, `sift list` and `sift events` keep the full forms.

import {createHash} from 'node:crypto';
import {StoreError, textPart, type Channel, type EditResult, type EventPage, type Field, type FieldConfig, type Item, type Page, type SelectOption, type StoreEvent, type Values} from '../../store/index.js';

/**
 * An option as the agent reads it: its value alone when the label says the same, else [value,
 * label]. Colours are for the screen; an agent writes option values and reads labels.
 */
export type AgentOption = string | [value: string, label: string];

/**
 * Option lists longer than this whose labels all equal their values (a repository's labels, its
 * assignees) are written as one string of the values separated by spaces, when no value holds one.
 */
export const LONG_OPTION_LIST = 12;

/** A field as the agent sees it: flags only when true, config only when set, options compact. */
export type AgentField = {
	key: string;
	label: string;
	type: Field['type'];
	is_required?: true;
	is_unique?: true;
	config?: Record<string, unknown>;
};

export function agentOptions(options: readonly SelectOption[]): AgentOption[] | string {
	const plain = options.every(option => option.label === option.value);
	if (plain && options.length > LONG_OPTION_LIST && options.every(option => !/\s/.test(option.value))) {
		return options.map(option => option.value).join(' ');
	}

	return options.map(({value, label}) => (label === value ? value : [value, label]));
}

/** The config keys in one order whatever the backend kept (PostgreSQL's jsonb reorders keys), so both answer alike. */
const CONFIG_ORDER: ReadonlyArray<keyof FieldConfig> = ['max_length', 'long', 'min', 'max', 'integer', 'options', 'currency', 'max_stars', 'channel_id', 'duplicate_status', 'status_field', 'expression'];

function agentConfig(config: Field['config']): Record<string, unknown> | undefined {
	const kept: Record<string, unknown> = {};
	const keys = [...CONFIG_ORDER.filter(key => key in config), ...Object.keys(config).filter(key => !CONFIG_ORDER.includes(key as keyof FieldConfig)).sort()];
	for (const key of keys) {
		const value = (config as Record<string, unknown>)[key];
		if (value === undefined || value === false) continue;
		kept[key] = key === 'options' && Array.isArray(value) ? agentOptions(value as SelectOption[]) : value;
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

/**
 * The schema's version as the agent holds it: derived from the stored schema itself (its agent
 * form, the same on both backends), so it changes with every schema change (each evented as
 * channel.updated) and survives restarts; the same schema gives the same version.
 */
export function schemaVersion(schema: readonly AgentField[]): string {
	return createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 12);
}

/** A page for the agent. */
export type AgentPage = Omit<Page, 'schema'> & {schema_version: string; schema?: AgentField[]};

/**
 * A page for the agent: the same items, the schema in its agent form once, with its version; a
 * client that passes the version it holds gets only the version while the schema is unchanged.
 */
export function agentPage(page: Page, heldVersion?: string): AgentPage {
	const {schema: fields, ...rest} = page;
	const schema = fields.map(field => agentField(field));
	const version = schemaVersion(schema);
	return version === heldVersion ? {schema_version: version, ...rest} : {schema_version: version, schema, ...rest};
}

/**
 * Codex forwards at most about 12,000 bytes of a tool answer and cuts the rest from its middle,
 * which leaves a page that no longer parses: a page asked for without a limit stays under this.
 */
export const DEFAULT_PAGE_BYTES = 10_000;

/** The page cut to its first items whose JSON fits in `maxBytes` (at least one item); next_before_id goes on after the last kept. */
export function fitPage(page: AgentPage, maxBytes: number): AgentPage {
	let size = Buffer.byteLength(JSON.stringify(page));
	if (size <= maxBytes) return page;
	const items = [...page.items];
	while (items.length > 1 && size > maxBytes) {
		// The item and the comma before it.
		size -= Buffer.byteLength(JSON.stringify(items.pop())) + 1;
	}

	return {...page, items, next_before_id: items.at(-1)!.id};
}

/** Long text a read gives by default, per field, in code points; read on with text_offset. */
export const DEFAULT_TEXT_LIMIT = 4000;
/** The most long text one read gives per field. */
export const MAX_TEXT_LIMIT = 20_000;

/** How much of a long text field a read gave: its whole length, and where to read on (null when the rest was given). */
export type TextCut = {length: number; next_text_offset: number | null};

/** An item as read by the agent: its values without empty ones, long text in bounded parts. */
export type AgentItem = Pick<Item, 'id' | 'version' | 'created_at' | 'updated_at'> & {values: Values; long_text?: Record<string, TextCut>};

export type ReadShape = {
	/** Only these fields' values (every field when absent). */
	fields?: readonly string[];
	textOffset: number;
	textLimit: number;
};

/**
 * The agent's form of a read: empty values left out (the schema lists every field), each long
 * text field cut to its part from textOffset, and for each cut one its length and where to go on.
 */
export function agentItem(channel: Pick<Channel, 'id' | 'fields'>, item: Item, shape: ReadShape): AgentItem {
	const wanted = shape.fields === undefined ? undefined : new Set(shape.fields);
	if (wanted) {
		const known = new Set(channel.fields.map(field => field.key));
		const unknown = [...wanted].filter(key => !known.has(key));
		if (unknown.length > 0) {
			throw new StoreError({error: 'invalid_argument', message: `fields names ${unknown.map(key => JSON.stringify(key)).join(', ')}, not a field of channel ${channel.id}; its fields: ${[...known].join(', ')}`});
		}
	}

	const values: Values = {};
	const cuts: Record<string, TextCut> = {};
	for (const field of channel.fields) {
		const value = item.values[field.key];
		if ((wanted && !wanted.has(field.key)) || value === undefined || value === null) continue;
		if (field.config.long && typeof value === 'string') {
			const {part, length, next_offset} = textPart(value, shape.textOffset, shape.textLimit);
			values[field.key] = part;
			if (shape.textOffset > 0 || next_offset !== null) cuts[field.key] = {length, next_text_offset: next_offset};
		} else {
			values[field.key] = value;
		}
	}

	const {id, version, created_at, updated_at} = item;
	return {id, version, created_at, updated_at, values, ...(Object.keys(cuts).length > 0 ? {long_text: cuts} : {})};
}

/** An edit as answered to the agent: the version, the fields it set with their stored values; never the whole item. */
export type AgentEdit = {ok: true; item_id: string; version: number; sequence: number; changed: Values; proposed?: true; proposal_id?: number};

/**
 * The agent's form of an edit's result. A proposal leaves the item as it was: `version` is then
 * the one to keep passing, and `changed` what was proposed.
 */
export function agentEdit(result: EditResult, sent: Values): AgentEdit {
	const {item, sequence, proposed, proposal_id: proposalId} = result;
	const changed = Object.fromEntries(Object.keys(sent).map(key => [key, proposed ? sent[key] : item.values[key] ?? null]));
	return {ok: true, item_id: item.id, version: item.version, sequence, changed, ...(proposed ? {proposed, ...(proposalId === undefined ? {} : {proposal_id: proposalId})} : {})};
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
