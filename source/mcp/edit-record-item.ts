// The `edit_record_item` tool.

import type {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import {followUpOpenings} from '../../store/edit-plan.js';
import {StoreError} from '../../store/index.js';
import {MAX_REASON_LENGTH, type EditRequest} from '../../store/writes.js';
import {idArgument, MAX_ID_LENGTH, MAX_IDEMPOTENCY_KEY_LENGTH, MAX_NESTING, MAX_STRING_LENGTH, valuesArgument, wholeNumber} from './bounds.js';
import {agentEdit} from './agent-shapes.js';
import {runTool, ToolRefusal, type ToolContext} from './results.js';
import {editOutput} from './schemas.js';

export const EDIT_RECORD_ITEM = 'edit_record_item';

const input = z.strictObject({
	record_channel_id: idArgument('record_channel_id', `The granted channel holding the item, at most ${MAX_ID_LENGTH} characters.`),
	item_id: idArgument('item_id', `The item to edit, at most ${MAX_ID_LENGTH} characters.`),
	values: valuesArgument.describe([
		'The fields to set, as {field key: value}; fields not named stay as they are, null clears a field that is not required.',
		'Select fields take one option value (e.g. "in_progress", not the label "In progress"); multi_select an array of option values; numbers must lie within the field\'s min and max; dates are YYYY-MM-DD.',
		`At least one key. At most 1 MiB as JSON, each string at most ${MAX_STRING_LENGTH} characters, at most ${MAX_NESTING} levels of nesting inside a value.`,
	].join(' ')),
	expected_version: wholeNumber('expected_version', 1).describe('The item version you read (a whole number 1 or greater). If the item changed since, the edit is refused with version_conflict and changed_since.'),
	idempotency_key: z
		.string({error: 'idempotency_key must be a string'})
		.min(1, {error: 'idempotency_key must not be empty'})
		.max(MAX_IDEMPOTENCY_KEY_LENGTH, {error: `idempotency_key must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`})
		.describe(`A new unique string for each distinct edit, 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters. Retrying with the same key and the same arguments returns the first result without writing twice; the same key with different arguments is refused (idempotency_key_reused).`),
	reason: z
		.string({error: 'reason must be a string'})
		.max(MAX_REASON_LENGTH, {error: `reason must be at most ${MAX_REASON_LENGTH} characters`})
		.optional()
		.describe(`Optional, at most ${MAX_REASON_LENGTH} characters: why you make this edit, in a sentence, for the person who reviews it (e.g. "the reporter says it blocks checkout"). Kept with a proposal.`),
	confidence: z
		.number({error: 'confidence must be a number from 0 to 1'})
		.min(0, {error: 'confidence must be a number from 0 to 1'})
		.max(1, {error: 'confidence must be a number from 0 to 1'})
		.optional()
		.describe('Optional, 0 to 1: how sure you are of this edit (1: certain). Kept with a proposal; a person may accept only those above a threshold, so say it honestly.'),
});

export function registerEditRecordItem(server: McpServer, context: ToolContext): void {
	server.registerTool(EDIT_RECORD_ITEM, {
		title: 'Edit record item',
		description: [
			'Sets some fields of one item, all or nothing, and answers {ok: true, item_id, version, sequence, changed}: the new version and the fields set, as stored.',
			'In propose mode a valid edit is kept as a proposal for a person instead: {ok: true, proposed: true, proposal_id, version, changed}, the item unchanged; go on (later edits of the same item still pass the version you read).',
			'Refusals change nothing and say why as JSON: validation_failed lists each failing field with its message, "allowed" (values with labels) for select fields, min and max for numbers, and follow_ups (the keys kept for a person); version_conflict gives current_version and changed_since; not_found; idempotency_key_reused.',
			'Write option values, not labels; never clamp or guess: a value you cannot express validly is left for a person as a follow-up.',
			`Limits: ids at most ${MAX_ID_LENGTH} characters, idempotency_key 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, reason at most ${MAX_REASON_LENGTH} characters, expected_version a whole number 1 or greater, values at most 1 MiB as JSON with strings of at most ${MAX_STRING_LENGTH} characters and at most ${MAX_NESTING} levels of nesting.`,
			'Cannot create or delete items or change the schema.',
		].join(' '),
		inputSchema: input,
		outputSchema: editOutput,
		// Idempotent: a repeat with the same idempotency_key and arguments has no further effect.
		annotations: {readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false},
	}, (args, {signal}) => runTool(context, EDIT_RECORD_ITEM, signal, async () => {
		const channelId = context.grants.check(args.record_channel_id);
		const request: EditRequest = {
			channelId,
			itemId: args.item_id,
			values: args.values,
			actor: context.actor,
			expectedVersion: args.expected_version,
			idempotencyKey: args.idempotency_key,
			reason: args.reason,
			confidence: args.confidence,
			// Propose when the server was started so; a run recorded in propose mode proposes whatever this says (the store decides).
			mode: context.mode,
			grants: context.grants,
		};
		try {
			const result = await context.store.editItem(request);
			const threshold = context.autoAcceptAbove;
			if (result.proposed && result.proposal_id !== undefined && threshold !== undefined && args.confidence !== undefined && args.confidence >= threshold) {
				// The person's own accept, by their threshold; a conflict or refusal leaves the proposal open for them.
				const accepted = (await context.store.proposals.accept({ids: [result.proposal_id], by: 'auto'})).accepted[0];
				if (accepted) return {...agentEdit(result, args.values), version: accepted.version, sequence: accepted.sequence, auto_accepted: true as const};
			}

			return agentEdit(result, args.values);
		} catch (error) {
			throw await withFollowUps(context, request, error);
		}
	}));
}

/**
 * A validation_failed refusal with the keys kept for a person (follow_ups), by the store's own
 * rule (store/edit-plan.ts followUpOpenings): an unknown key or a formula opens none.
 */
async function withFollowUps(context: ToolContext, request: EditRequest, error: unknown): Promise<unknown> {
	if (!(error instanceof StoreError) || error.body.error !== 'validation_failed') return error;
	const openings = followUpOpenings(await context.store.loadedChannel(request.channelId), request, error.body.fields);
	return new ToolRefusal({...error.body, follow_ups: openings.map(opening => opening.key)});
}
