import type {Field} from '../../store/index.js';
import {sanitizeValue} from './sanitize.js';

/** How a stored value reads to a person: select values as their labels, everything escaped. */
export type DisplayValue = {text: string; color?: string; /** A value no option matches: shown raw, never as a label. */ unknown?: boolean};

const optionFor = (field: Field, value: unknown) => field.config.options?.find(option => option.value === value);

export function displayValue(field: Field, value: unknown): DisplayValue {
	if (value === null || value === undefined) {
		return {text: ''};
	}

	if (field.type === 'select') {
		const option = optionFor(field, value);
		return option ? {text: sanitizeValue(option.label), color: option.color} : {text: sanitizeValue(value), unknown: true};
	}

	if (field.type === 'multi_select' && Array.isArray(value)) {
		const labels = value.map(entry => optionFor(field, entry)?.label ?? `?${String(entry)}`);
		return {text: sanitizeValue(labels.join(', ')), unknown: labels.some((label, index) => label === `?${String(value[index])}`)};
	}

	if (field.type === 'boolean') {
		return {text: value ? 'yes' : 'no'};
	}

	if (field.type === 'file' && typeof value === 'object') {
		return {text: sanitizeValue((value as {name?: unknown}).name)};
	}

	return {text: sanitizeValue(value)};
}

/** Fields that fit on one row of a list: short, human-readable ones, in schema order. */
export function shortFields(fields: Field[]): Field[] {
	return fields.filter(field => !field.config.long && field.type !== 'json' && field.type !== 'file' && field.type !== 'multi_select');
}
