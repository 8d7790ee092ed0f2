// Duplicates as a relation (docs/records.md#duplicates): a relation field of a channel to itself
// names the record an item duplicates. Its config may name the status that goes with it
// (`duplicate_status`, an option of the select field `status_field`, `status` by default): an edit
// that sets the relation sets that status in the same edit. An item never duplicates itself.

import {quote, StoreError} from './errors.js';
import type {Channel, Field, FieldProblem, Values} from './types.js';

/** The select field a duplicate relation's status goes to. */
export const statusFieldOf = (field: Field) => field.config.status_field ?? 'status';

/** The relations of a channel to its own items: what duplicate_of is. */
export const selfRelations = (channel: Channel) => channel.fields.filter(field => field.type === 'relation' && field.config.channel_id === channel.id);

/** The record a change set proposes as the one its item duplicates: a self-relation's new value. */
export function proposedDuplicate(channel: Channel, changes: Record<string, {to: unknown}>): {key: string; targetId: string} | undefined {
	for (const field of selfRelations(channel)) {
		const to = changes[field.key]?.to;
		if (typeof to === 'string') return {key: field.key, targetId: to};
	}

	return undefined;
}

/** The channel's duplicate relation: the self-relation that names a status, else the first self-relation. */
export const duplicateField = (channel: Channel): Field | undefined => {
	const relations = selfRelations(channel);
	return relations.find(field => field.config.duplicate_status !== undefined) ?? relations[0];
};

/**
 * Checks, at import and on every schema change, that a relation's `duplicate_status` is usable:
 * the relation points into its own channel and the status is an option of its select field.
 */
export function checkDuplicateStatus(channel: Channel): void {
	for (const field of channel.fields.filter(candidate => candidate.type === 'relation')) {
		const {duplicate_status: status, status_field: statusKey} = field.config;
		if (status === undefined && statusKey === undefined) continue;
		const bad = (message: string) => new StoreError({error: 'invalid_schema', message: `field ${field.key}: ${message}`});
		if (typeof status !== 'string' || status === '') throw bad('config.duplicate_status must name an option of the status field');
		if (statusKey !== undefined && (typeof statusKey !== 'string' || statusKey === '')) throw bad('config.status_field must name a select field');
		if (field.config.channel_id !== channel.id) throw bad(`config.duplicate_status needs a relation to its own channel (${channel.id}), this one relates to ${field.config.channel_id}`);
		const target = channel.fields.find(candidate => candidate.key === statusFieldOf(field));
		if (target?.type !== 'select') throw bad(`config.duplicate_status sets ${quote(statusFieldOf(field))}, which is not a select field of this channel`);
		if (!target.config.options!.some(option => option.value === status)) {
			throw bad(`config.duplicate_status ${quote(status)} is not an option of ${target.key}; options: ${target.config.options!.map(option => option.value).join(', ')}`);
		}
	}
}

/**
 * An edit's values with the status its duplicate relations name: set when the edit sets the
 * relation to an item and does not set that status itself (a person's explicit status wins).
 */
export function withDuplicateStatus(channel: Channel, values: unknown): unknown {
	if (typeof values !== 'object' || values === null || Array.isArray(values)) return values;
	const written = values as Values;
	let expanded: Values | undefined;
	for (const field of selfRelations(channel)) {
		const status = field.config.duplicate_status;
		const statusKey = statusFieldOf(field);
		if (status === undefined || typeof written[field.key] !== 'string' || Object.hasOwn(written, statusKey)) continue;
		expanded = {...(expanded ?? written), [statusKey]: status};
	}

	return expanded ?? values;
}

/** Refusals of an edit that relates an item to itself: a duplicate names another record. */
export function selfRelationProblems(channel: Channel, itemId: string, values: Values): FieldProblem[] {
	return selfRelations(channel)
		.filter(field => values[field.key] === itemId)
		.map(field => ({key: field.key, message: `values.${field.key} must be the id of another item in channel ${channel.id}, not the item itself, got ${quote(itemId)}`}));
}
