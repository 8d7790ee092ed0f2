// Shared output shapes (items, fields, events)

import * as z from 'zod';

/** Output shapes (structuredContent). Loose objects: they describe, they do not strip. */

const values = z.record(z.string(), z.unknown());

export const itemOutput = z.looseObject({
	id: z.string(),
	channel_id: z.string(),
	version: z.number().int().describe('Pass this as expected_version to edit_record_item.'),
	created_at: z.string(),
	updated_at: z.string(),
	values: values.describe('Every stored value plus computed formula fields. Select fields hold option values, not labels.'),
});

/** An item as read_record_item gives it (agent-shapes.ts agentItem). */
export const readOutput = z.looseObject({
	id: z.string(),
	version: z.number().int().describe('Pass this as expected_version to edit_record_item.'),
	created_at: z.string(),
	updated_at: z.string(),
	values: values.describe('The stored values that are not empty, plus computed formula fields; long text in parts (see long_text). Select fields hold option values, not labels.'),
	long_text: z.record(z.string(), z.looseObject({
		length: z.number().int().describe('The field\'s whole length in characters.'),
		next_text_offset: z.number().int().nullable().describe('Pass as text_offset (with fields naming this key) to read on; null when the rest was given.'),
	})).optional().describe('Present when a long text field was cut or read from an offset: per field key.'),
});

/** An edit as edit_record_item answers it (agent-shapes.ts agentEdit): never the whole item. */
export const editOutput = z.looseObject({
	ok: z.literal(true),
	item_id: z.string(),
	version: z.number().int().describe('The item\'s version now: pass it as expected_version to edit it again.'),
	sequence: z.number().int().describe('The event sequence of this edit (the channel\'s latest if nothing changed).'),
	changed: values.describe('The fields this edit set, with the values now stored (with proposed: the values proposed).'),
	proposed: z.literal(true).optional().describe('Present when this server proposes instead of writing: the edit was valid and is kept as a proposal for a person to accept; the item is unchanged.'),
	proposal_id: z.number().int().optional().describe('The proposal kept for this edit (with proposed).'),
	auto_accepted: z.literal(true).optional().describe('Present when the proposal was sure enough to be accepted on arrival (the person\'s auto_accept_above): the item now holds the values, at `version`.'),
});

/**
 * How the schema is written, said once in list_record_items' description (search and similar
 * answers carry the same form): descriptions are sent once per request, the schema with every page.
 */
export const SCHEMA_FORM = 'schema: the fields by key, in order; a field is its type alone ("date"), or an object of what differs from the defaults: type (text; select when options are given), label (the key with spaces for _, first letter capital), required and unique (only when true), its settings (max_length, min, max, options, ...). options: values separated by spaces ("closed open"), or by | when the string holds a |; else a list of values and [value, label] pairs.';

/** A field in its agent form (agent-shapes.ts agentField): its type alone, or what differs from the defaults. */
const fieldOutput = z.union([
	z.string(),
	z.looseObject({
		type: z.string().optional(),
		label: z.string().optional(),
		required: z.literal(true).optional(),
		unique: z.literal(true).optional(),
	}),
]);

/** The schema in its agent form, and its version: what list, search and similar answers carry. */
export const schemaOutput = {
	schema_version: z.string().describe('The version of the schema: pass it back as schema_version to receive the schema again only when it changed.'),
	schema: z.record(z.string(), fieldOutput).optional().describe('Every field of the channel by key, in the form list_record_items describes; left out when the schema_version you passed is still current.'),
};

export const actorOutput = z.looseObject({kind: z.string(), run_id: z.string().optional()});

export const eventOutput = z.looseObject({
	sequence: z.number().int(),
	type: z.string(),
	item_id: z.string(),
	version: z.number().int(),
	actor: actorOutput,
	changed: z.array(z.string()).optional().describe('item.updated only: the keys of the fields that changed (read the item for their values).'),
});
