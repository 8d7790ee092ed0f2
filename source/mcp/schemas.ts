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

/** A field in its agent form (agent-shapes.ts): what is false or empty is left out. */
export const fieldOutput = z.looseObject({
	key: z.string(),
	label: z.string(),
	type: z.string(),
	is_required: z.literal(true).optional().describe('Present (true) only when the field must hold a value.'),
	is_unique: z.literal(true).optional().describe('Present (true) only when no two items may hold the same value.'),
	config: z.record(z.string(), z.unknown()).optional().describe('Present only when set. Per type: max_length, long; min, max, integer; options (each the value when its label is the same, else [value, label]; a long list of such options as one string of values separated by spaces); currency; max_stars; channel_id; expression.'),
});

export const actorOutput = z.looseObject({kind: z.string(), run_id: z.string().optional()});

export const eventOutput = z.looseObject({
	sequence: z.number().int(),
	type: z.string(),
	item_id: z.string(),
	version: z.number().int(),
	actor: actorOutput,
	changed: z.array(z.string()).optional().describe('item.updated only: the keys of the fields that changed (read the item for their values).'),
});
