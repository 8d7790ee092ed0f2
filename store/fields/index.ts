// The type table: each type's config keys, config check and validator.

import {FormulaError, parseFormula} from '../formula.js';
import type {FieldType} from '../types.js';
import {multiSelect, select} from './choice.js';
import {currency, number, percentage, rating} from './numeric.js';
import type {FieldTypeSpec} from './spec.js';
import {boolean, date, file, json, relation} from './structured.js';
import {email, phone, text, url} from './text.js';

const formula: FieldTypeSpec = {
	configKeys: ['expression'],
	checkConfig(config) {
		try {
			parseFormula(config.expression!);
			return undefined;
		} catch (error) {
			return `config.expression is not a valid formula: ${error instanceof FormulaError ? error.message : String(error)}`;
		}
	},
	// Writes to formulas are refused before a value is ever looked at.
	validate: () => ({message: 'is a formula field and is computed, not written'}),
};

export const FIELD_TYPE_TABLE: Record<FieldType, FieldTypeSpec> = {
	text,
	number,
	date,
	boolean,
	email,
	phone,
	url,
	select,
	multi_select: multiSelect,
	currency,
	percentage,
	rating,
	relation,
	file,
	json,
	formula,
};

export {allowedOf} from './choice.js';
export type {ValidationContext} from './spec.js';
