// Argument bounds, also stated in words because Codex drops them from schemas.

import * as z from 'zod';
import {MAX_VALUE_NESTING} from '../../store/index.js';

/**
 * Argument bounds of the MCP tools. Codex drops minimum/maximum/maxLength from tool schemas, so
 * every bound here is also stated in words in the descriptions (see the tool modules).
 */
export const MAX_ID_LENGTH = 64;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;
/** The whole `values` object as JSON (the store refuses larger writes too). */
export const MAX_VALUES_BYTES = 1024 * 1024;
/** Any one string inside `values` or `filter`. */
export const MAX_STRING_LENGTH = 65_536;
/** Arrays/objects nested inside one field's value: the store's own limit. */
export const MAX_NESTING = MAX_VALUE_NESTING;
export const MAX_FILTER_KEYS = 20;
/** Field keys one read_record_item may name. */
export const MAX_READ_FIELDS = 100;
/** A schema_version passed back to list_record_items, search_record_items or find_similar_items (the versions given are 12 characters). */
export const MAX_SCHEMA_VERSION_LENGTH = 64;
export const MAX_FILTER_VALUE_LENGTH = 200;
/** Every array element and object member of one call's arguments, counted by the SDK. */
export const MAX_INPUT_ELEMENTS = 100_000;

/** A JSON value of any type, declared with an explicit type list so Codex does not read it as a string. */
const ANY_JSON_TYPES = ['string', 'number', 'boolean', 'object', 'array', 'null'];

export function idArgument(name: string, description: string) {
	return z
		.string({error: `${name} must be a string`})
		.min(1, {error: `${name} must not be empty`})
		.max(MAX_ID_LENGTH, {error: `${name} must be at most ${MAX_ID_LENGTH} characters`})
		.describe(description);
}

/** The schema_version a client holds, passed back so an answer leaves the schema out while it is unchanged. */
export const schemaVersionArgument = z
	.string({error: 'schema_version must be a string'})
	.max(MAX_SCHEMA_VERSION_LENGTH, {error: `schema_version must be at most ${MAX_SCHEMA_VERSION_LENGTH} characters`})
	.optional()
	.describe(`Optional: the schema_version you hold; the answer leaves the schema out while it is unchanged. At most ${MAX_SCHEMA_VERSION_LENGTH} characters.`);

export function wholeNumber(name: string, min: number, max?: number) {
	const range = max === undefined ? `a whole number ${min} or greater` : `a whole number from ${min} to ${max}`;
	const base = z
		.number({error: `${name} must be ${range}`})
		.int({error: `${name} must be ${range}`})
		.min(min, {error: `${name} must be ${range}`});
	return max === undefined ? base : base.max(max, {error: `${name} must be ${range}`});
}

type Shape = {depth: number; longestString: number};

/** Depth of nested arrays/objects and the longest string, found without recursion; stops early past the bounds. */
export function measure(value: unknown): Shape {
	let depth = 0;
	let longestString = 0;
	const stack: Array<[unknown, number]> = [[value, 0]];
	while (stack.length > 0) {
		const [node, level] = stack.pop()!;
		if (typeof node === 'string') {
			longestString = Math.max(longestString, node.length);
			continue;
		}

		if (node === null || typeof node !== 'object') {
			continue;
		}

		depth = Math.max(depth, level + 1);
		if (depth > MAX_NESTING + 1) {
			break;
		}

		const children = Array.isArray(node) ? node : Object.entries(node as Record<string, unknown>).flat();
		for (const child of children) {
			stack.push([child, level + 1]);
		}
	}

	return {depth, longestString};
}

type JsonObject = Record<string, unknown>;

const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A JSON object argument of {string key: value}, passed on as received. Not a zod record: zod
 * drops a `__proto__` key without a word, so `{"__proto__": "x"}` would reach the store as {}
 * (an empty filter lists everything). Kept whole, such a key is refused by name like any unknown key.
 */
function jsonObjectArgument(valueTypes: string[], notAnObject: string, check: (object: JsonObject, context: z.RefinementCtx) => void) {
	return z
		.unknown()
		.meta({type: 'object', propertyNames: {type: 'string'}, additionalProperties: {type: valueTypes}})
		.superRefine((value, context) => {
			if (isJsonObject(value)) {
				check(value, context);
			} else {
				context.addIssue({code: 'custom', message: notAnObject});
			}
		})
		.transform(value => value as JsonObject);
}

/** `values` of edit_record_item: field key → JSON value, bounded in size, string length and depth. */
export const valuesArgument = jsonObjectArgument(ANY_JSON_TYPES, 'values must be an object of field keys to values', (values, context) => {
	const longKey = Object.keys(values).find(key => key.length > MAX_ID_LENGTH);
	if (longKey !== undefined) {
		context.addIssue({code: 'custom', message: `a field key in values is ${longKey.length} characters long; field keys are at most ${MAX_ID_LENGTH} characters`});
		return;
	}

	const shape = measure(values);
	// The values object itself is one level; each field's value may nest MAX_NESTING more.
	if (shape.depth > MAX_NESTING + 1) {
		context.addIssue({code: 'custom', message: `values are nested too deeply: at most ${MAX_NESTING} levels of arrays/objects inside a field's value`});
		return;
	}

	if (shape.longestString > MAX_STRING_LENGTH) {
		context.addIssue({code: 'custom', message: `a string in values is ${shape.longestString} characters long; at most ${MAX_STRING_LENGTH} characters per string`});
		return;
	}

	let bytes: number;
	try {
		bytes = Buffer.byteLength(JSON.stringify(values));
	} catch {
		context.addIssue({code: 'custom', message: 'values must be plain JSON'});
		return;
	}

	if (bytes > MAX_VALUES_BYTES) {
		context.addIssue({code: 'custom', message: `values is ${bytes} bytes as JSON; at most ${MAX_VALUES_BYTES} bytes (1 MiB)`});
	}
});

/**
 * `filter` of list_record_items: equality on select (option value) and boolean fields. Which keys
 * are fields is the store's to say (it names the filterable fields), so every key is passed on.
 */
export const filterArgument = jsonObjectArgument(['string', 'boolean'], 'filter must be an object of {field key: option value or true/false}', (filter, context) => {
	const entries = Object.entries(filter);
	if (entries.length > MAX_FILTER_KEYS) {
		context.addIssue({code: 'custom', message: `filter has ${entries.length} keys; at most ${MAX_FILTER_KEYS}`});
	}

	for (const [key, value] of entries) {
		if (key.length > MAX_ID_LENGTH) {
			context.addIssue({code: 'custom', message: `a filter key is ${key.length} characters long; field keys are at most ${MAX_ID_LENGTH} characters`});
		} else if (typeof value === 'string' ? value.length > MAX_FILTER_VALUE_LENGTH : typeof value !== 'boolean') {
			context.addIssue({code: 'custom', message: `filter.${key} must be an option value (a string of at most ${MAX_FILTER_VALUE_LENGTH} characters) or true/false`});
		}
	}
});
