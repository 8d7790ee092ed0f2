// Validation of an edit against the schema, every failing field reported.

import {quote} from './errors.js';
import {FIELD_TYPE_TABLE, type ValidationContext} from './fields/index.js';
import {valueShapeProblem} from './fields/shape.js';
import {isPlainObject} from './fields/spec.js';
import type {Channel, Field, FieldProblem} from './types.js';

export type UniqueLookup = (field: Field, value: unknown) => string | undefined;

export type WriteContext = ValidationContext & {
	/** The id of another item that already holds `value` in a unique field, if any. */
	holderOf: UniqueLookup;
};

const problem = (key: string, rest: Omit<FieldProblem, 'key' | 'message'> & {message: string}): FieldProblem => ({
	key,
	...rest,
	message: `values.${key} ${rest.message}`,
});

function checkOne(field: Field, value: unknown, context: WriteContext): FieldProblem | undefined {
	if (value === null) {
		return field.is_required ? problem(field.key, {message: 'is required and cannot be cleared'}) : undefined;
	}

	const shape = valueShapeProblem(value);
	if (shape) {
		return problem(field.key, {message: shape.message});
	}

	const refusal = FIELD_TYPE_TABLE[field.type].validate(value, field, context);
	if (refusal) {
		return problem(field.key, refusal);
	}

	const holder = field.is_unique ? context.holderOf(field, value) : undefined;
	return holder === undefined ? undefined : problem(field.key, {message: `must be unique, but item ${holder} already has ${quote(value)}`, item_id: holder});
}

/**
 * Checks written values against the channel. Every failing field is reported; nothing is
 * converted, trimmed or clamped. `creating` adds the checks for required fields left out.
 */
export function validateValues(channel: Channel, values: unknown, context: WriteContext, creating: boolean): FieldProblem[] {
	if (!isPlainObject(values)) {
		return [{key: 'values', message: 'values must be an object of field keys to values'}];
	}

	const keys = Object.keys(values);
	if (keys.length === 0 && !creating) {
		return [{key: 'values', message: 'values must set at least one field, got {}'}];
	}

	// A loaded channel carries its lookup already; building one costs more than the checks themselves.
	const fields = (channel as {fieldsByKey?: Map<string, Field>}).fieldsByKey ?? new Map(channel.fields.map(field => [field.key, field]));
	const problems: FieldProblem[] = [];
	for (const key of keys) {
		const field = fields.get(key);
		if (!field) {
			problems.push({key, message: `values.${key} is not a field of this channel`, known: writableKeys(channel)});
			continue;
		}

		const found = field.type === 'formula'
			? problem(key, {message: 'is a formula field and is computed, not written'})
			: checkOne(field, values[key], context);
		if (found) {
			problems.push(found);
		}
	}

	if (creating) {
		for (const field of channel.fields) {
			if (field.is_required && !Object.hasOwn(values, field.key)) {
				problems.push(problem(field.key, {message: 'is required'}));
			}
		}
	}

	return problems;
}

export const writableKeys = (channel: Channel) => channel.fields.filter(field => field.type !== 'formula').map(field => field.key);
