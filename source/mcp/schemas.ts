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

export const fieldOutput = z.looseObject({
	key: z.string(),
	label: z.string(),
	type: z.string(),
	is_required: z.boolean(),
	is_unique: z.boolean(),
	config: z.record(z.string(), z.unknown()).describe('Per type: max_length; min, max, integer; options [{value, label, color}]; max_stars; channel_id; expression.'),
});

export const actorOutput = z.looseObject({kind: z.string(), run_id: z.string().optional()});

export const eventOutput = z.looseObject({
	sequence: z.number().int(),
	type: z.string(),
	item_id: z.string(),
	version: z.number().int(),
	actor: actorOutput,
	changes: z.record(z.string(), z.looseObject({from: z.unknown(), to: z.unknown()})),
	at: z.string(),
});
