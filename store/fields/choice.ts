// Select and multi_select (and the allowed values with labels)

import {quote} from '../errors.js';
import type {Field, FieldConfig, SelectOption} from '../types.js';
import {isPlainObject, type FieldTypeSpec, type Refusal} from './spec.js';

/** The allowed values with their labels: what lets a caller map "Won't fix" to `wont_fix`. */
export const allowedOf = (field: Field) => (field.config.options ?? []).map(({value, label}) => ({value, label}));

/** The option `text` names: its value exactly, else its value or its label in any case. */
export function optionNamed(field: Field, text: string): SelectOption | undefined {
	const options = field.config.options ?? [];
	const lower = text.toLowerCase();
	return options.find(option => option.value === text)
		?? options.find(option => option.value.toLowerCase() === lower)
		?? options.find(option => option.label.toLowerCase() === lower);
}

/** Option values per field; a field's options never change after import, so the set is kept. */
const optionSets = new WeakMap<Field, Set<string>>();

function optionValues(field: Field): Set<string> {
	let values = optionSets.get(field);
	if (!values) {
		values = new Set((field.config.options ?? []).map(option => option.value));
		optionSets.set(field, values);
	}

	return values;
}

function checkOptions(config: FieldConfig): string | undefined {
	if (!Array.isArray(config.options) || config.options.length === 0) {
		return 'config.options must be a non-empty array of {value, label}';
	}

	const seen = new Set<string>();
	for (const [index, option] of config.options.entries()) {
		if (!isPlainObject(option) || typeof option.value !== 'string' || option.value === '') {
			return `config.options[${index}] needs a non-empty string value`;
		}

		if (typeof option.label !== 'string' || option.label === '') {
			return `config.options[${index}] (${quote(option.value)}) needs a non-empty string label`;
		}

		if (option.color !== undefined && typeof option.color !== 'string') {
			return `config.options[${index}].color must be a string`;
		}

		if (option.description !== undefined && typeof option.description !== 'string') {
			return `config.options[${index}].description must be a string`;
		}

		if (seen.has(option.value)) {
			return `config.options has the value ${quote(option.value)} twice`;
		}

		seen.add(option.value);
	}

	return undefined;
}

const notAnOption = (field: Field, got: string): Refusal => ({
	message: `must be one of the option values, got ${got}`,
	allowed: allowedOf(field),
});

export const select: FieldTypeSpec = {
	configKeys: ['options'],
	checkConfig: checkOptions,
	validate(value, field) {
		return typeof value === 'string' && optionValues(field).has(value) ? undefined : notAnOption(field, quote(value));
	},
};

export const multiSelect: FieldTypeSpec = {
	configKeys: ['options'],
	checkConfig: checkOptions,
	validate(value, field) {
		if (!Array.isArray(value)) {
			return {...notAnOption(field, quote(value)), message: `must be an array of option values, got ${quote(value)}`};
		}

		const values = optionValues(field);
		const strange = value.filter(entry => typeof entry !== 'string' || !values.has(entry));
		if (strange.length > 0) {
			return notAnOption(field, strange.map(entry => quote(entry)).join(', '));
		}

		if (new Set(value).size !== value.length) {
			return {...notAnOption(field, quote(value)), message: `must list each option value once, got ${quote(value)}`};
		}

		return undefined;
	},
};
