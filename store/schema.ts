// Checks a channel definition: ids, keys, types, config.

import {checkDuplicateStatus} from './duplicates.js';
import {quote, StoreError} from './errors.js';
import {FIELD_TYPE_TABLE} from './fields/index.js';
import {isPlainObject} from './fields/spec.js';
import {namesIn, parseFormula} from './formula.js';
import {FIELD_TYPES, type Channel, type Field, type FieldConfig, type FieldType} from './types.js';

const SLUG = /^[a-z][a-z0-9_-]{0,63}$/;
const KEY = /^[a-z][a-z0-9_]{0,63}$/;
/** Keys that would collide with item metadata or object machinery. */
const RESERVED_KEYS = new Set(['id', 'version', 'created_at', 'updated_at', 'values', 'constructor', 'prototype']);
/** Every config entry some field type takes. */
const CONFIG_KEYS: ReadonlySet<string> = new Set(Object.values(FIELD_TYPE_TABLE).flatMap(spec => spec.configKeys));
const FORMULA_INPUTS = new Set<FieldType>(['number', 'currency', 'percentage', 'rating', 'date']);

const invalid = (message: string) => new StoreError({error: 'invalid_schema', message});

function checkField(raw: unknown, index: number, seen: Set<string>): Field {
	if (!isPlainObject(raw)) {
		throw invalid(`fields[${index}] must be an object`);
	}

	const {key, label, type, is_required = false, is_unique = false, config = {}} = raw;
	if (typeof key !== 'string' || !KEY.test(key) || RESERVED_KEYS.has(key)) {
		throw invalid(`fields[${index}].key must be a lowercase identifier (a-z, 0-9, _) and not a reserved name, got ${quote(key)}`);
	}

	if (seen.has(key)) {
		throw invalid(`fields[${index}].key ${quote(key)} is used twice`);
	}

	if (typeof label !== 'string' || label.trim() === '') {
		throw invalid(`field ${key} needs a non-empty label`);
	}

	if (typeof type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(type)) {
		throw invalid(`field ${key} has an unknown type ${quote(type)}; known types: ${FIELD_TYPES.join(', ')}`);
	}

	if (typeof is_required !== 'boolean' || typeof is_unique !== 'boolean') {
		throw invalid(`field ${key}: is_required and is_unique must be true or false`);
	}

	if (!isPlainObject(config)) {
		throw invalid(`field ${key}: config must be an object`);
	}

	const unknownConfig = Object.keys(config).find(name => !CONFIG_KEYS.has(name));
	if (unknownConfig !== undefined) {
		throw invalid(`field ${key}: unknown config entry ${quote(unknownConfig)}`);
	}

	if (type === 'formula' && (is_required || is_unique)) {
		throw invalid(`field ${key}: a formula cannot be required or unique`);
	}

	const fieldType = type as FieldType;
	const takes: readonly string[] = FIELD_TYPE_TABLE[fieldType].configKeys;
	const misplaced = Object.keys(config).find(name => !takes.includes(name));
	if (misplaced !== undefined) {
		throw invalid(`field ${key}: config.${misplaced} does not apply to a ${fieldType} field (${takes.length === 0 ? 'it takes no config' : `it takes ${takes.join(', ')}`})`);
	}
	const problem = FIELD_TYPE_TABLE[fieldType].checkConfig(config as FieldConfig);
	if (problem) {
		throw invalid(`field ${key}: ${problem}`);
	}

	seen.add(key);
	return {key, label, type: fieldType, is_required, is_unique, config: config as FieldConfig};
}

/** Formulas may read created_at and the numeric or date fields, never other formulas. */
function checkFormulaInputs(fields: Field[]): void {
	const byKey = new Map(fields.map(field => [field.key, field]));
	for (const field of fields.filter(field => field.type === 'formula')) {
		for (const name of namesIn(parseFormula(field.config.expression!))) {
			const input = byKey.get(name);
			if (name !== 'created_at' && (!input || !FORMULA_INPUTS.has(input.type))) {
				throw invalid(`field ${field.key}: the formula reads ${quote(name)}, which is not created_at or a number, currency, percentage, rating or date field`);
			}
		}
	}
}

/** Checks an imported channel definition and returns it in canonical form, or throws invalid_schema. */
export function checkChannel(raw: unknown): Channel {
	if (!isPlainObject(raw)) {
		throw invalid('channel must be an object with id, name and fields');
	}

	const {id, name, fields} = raw;
	if (typeof id !== 'string' || !SLUG.test(id)) {
		throw invalid(`channel.id must be a slug (lowercase letters, digits, - and _), got ${quote(id)}`);
	}

	if (typeof name !== 'string' || name.trim() === '') {
		throw invalid('channel.name must be a non-empty string');
	}

	if (!Array.isArray(fields) || fields.length === 0 || fields.length > 200) {
		throw invalid('channel.fields must be an array of 1 to 200 fields');
	}

	const seen = new Set<string>();
	const checked = fields.map((field, index) => checkField(field, index, seen));
	checkFormulaInputs(checked);
	checkDuplicateStatus({id, name, fields: checked});
	return {id, name, fields: checked};
}
