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

/** A field in its agent form (agent-shapes.ts): what is false or empty is left out. */
export const fieldOutput = z.looseObject({
	key: z.string(),
	label: z.string(),
	type: z.string(),
	is_required: z.literal(true).optional().describe('Present (true) only when the field must hold a value.'),
	is_unique: z.literal(true).optional().describe('Present (true) only when no two items may hold the same value.'),
	config: z.record(z.string(), z.unknown()).optional().describe('Present only when set. Per type: max_length, long; min, max, integer; options [{value, label}]; currency; max_stars; channel_id; expression.'),
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
