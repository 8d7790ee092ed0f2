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
 * A field as the agent sees it: its type alone when nothing else is set, else an object that
 * leaves out what a default already says (type text, or select when options are given; the label
 * made from the key; flags that are false) with the config's settings beside the flags.
 */
export type AgentField = Field['type'] | {
	type?: Field['type'];
	label?: string;
	required?: true;
	unique?: true;
	[setting: string]: unknown;
};

/** The schema as the agent reads it: each field by its key, in the channel's order. */
export type AgentSchema = Record<string, AgentField>;

/**
 * The options of a select: one string of the values when every label says the same as its value,
 * joined by spaces (a word and the space before it are one token: a quarter fewer tokens than |
 * or a JSON list) or by | when a value holds white space, so a reader splits on | when the string
 * holds one, else on spaces. Else a list of each value, or [value, label] when the label differs.
 * Every value is on the page either way.
 */
export function agentOptions(options: readonly SelectOption[]): AgentOption[] | string {
	const values = options.map(option => option.value);
	if (options.every(option => option.label === option.value) && values.every(value => value !== '' && !value.includes('|'))) {
		if (values.length > 0 && values.every(value => !/\s/.test(value))) return values.join(' ');
		// A single value holding a space would read as several.
		if (values.length > 1 && values.every(value => value.trim() === value)) return values.join('|');
	}

	return options.map(({value, label}) => (label === value ? value : [value, label]));
}

/** The label a field has unless it says otherwise: its key with spaces for underscores, first letter upper-case (state_reason: "State reason"). */
export function defaultLabel(key: string): string {
	return key.charAt(0).toUpperCase() + key.slice(1).replaceAll('_', ' ');
}

/** The type a field has unless it says otherwise: select when it has options, else text. */
const defaultType = (config: Field['config']): Field['type'] => (config.options === undefined ? 'text' : 'select');

/** The config keys in one order whatever the backend kept (PostgreSQL's jsonb reorders keys), so both answer alike. */
const CONFIG_ORDER: ReadonlyArray<keyof FieldConfig> = ['max_length', 'long', 'min', 'max', 'integer', 'options', 'currency', 'max_stars', 'channel_id', 'duplicate_status', 'status_field', 'expression'];

/** The config's settings that say something (false and unset left out), options compact. The store refuses any other config key, so none is named like a flag. */
function agentConfig(config: Field['config']): Record<string, unknown> {
	const kept: Record<string, unknown> = {};
	const keys = [...CONFIG_ORDER.filter(key => key in config), ...Object.keys(config).filter(key => !CONFIG_ORDER.includes(key as keyof FieldConfig)).sort()];
	for (const key of keys) {
		const value = (config as Record<string, unknown>)[key];
		if (value === undefined || value === false) continue;
		kept[key] = key === 'options' && Array.isArray(value) ? agentOptions(value as SelectOption[]) : value;
	}

	return kept;
}

export function agentField(field: Field): AgentField {
	const settings = {
		...(field.type === defaultType(field.config) ? {} : {type: field.type}),
		...(field.label === defaultLabel(field.key) ? {} : {label: field.label}),
		...(field.is_required ? {required: true as const} : {}),
		...(field.is_unique ? {unique: true as const} : {}),
		...agentConfig(field.config),
	};
	return Object.keys(settings).every(key => key === 'type') ? field.type : settings;
}

/** The agent's form of a channel's fields, by key in the channel's order (keys start with a letter, so JSON keeps that order). */
export function agentSchema(fields: readonly Field[]): AgentSchema {
	return Object.fromEntries(fields.map(field => [field.key, agentField(field)]));
}

/**
 * The schema's version as the agent holds it: derived from the stored schema itself (its agent
 * form, the same on both backends), so it changes with every schema change (each evented as
 * channel.updated) and survives restarts; the same schema gives the same version.
 */
export function schemaVersion(schema: AgentSchema): string {
	return createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 12);
}

/** An answer for the agent that carries a channel's schema (a page, search results, similar items): the schema in its agent form once, with its version. */
export type AgentPage<P extends {schema: readonly Field[]} = Page> = Omit<P, 'schema'> & {schema_version: string; schema?: AgentSchema};

/**
 * A page for the agent (list, search and similar answers alike): the same items, the schema in
 * its agent form once, with its version; a client that passes the version it holds gets only the
 * version while the schema is unchanged.
 */
export function agentPage<P extends {schema: readonly Field[]}>(page: P, heldVersion?: string): AgentPage<P> {
	const {schema: fields, ...rest} = page;
	const schema = agentSchema(fields);
	const version = schemaVersion(schema);
	return version === heldVersion ? {schema_version: version, ...rest} : {schema_version: version, schema, ...rest};
}

/**
 * Codex (0.171, a model outside its catalog) passes a tool answer of up to about 12,000 bytes
 * whole (12,024 measured) and cuts a longer one in its middle, which leaves a page that no longer
 * parses: a page asked for without a limit stays under this, schema included, with room for a
 * client that writes the JSON a little longer than we do.
 */
export const DEFAULT_PAGE_BYTES = 11_500;

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
