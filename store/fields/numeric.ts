// Number, currency, percentage, rating.

import {quote} from '../errors.js';
import {checkBounds, checkRange, isFiniteNumber, type FieldTypeSpec, type Refusal} from './spec.js';

const notANumber = (value: unknown): Refusal => ({message: `must be a number, got ${quote(value)}`});

export const number: FieldTypeSpec = {
	configKeys: ['min', 'max', 'integer'],
	checkConfig(config) {
		if (config.integer !== undefined && typeof config.integer !== 'boolean') {
			return 'config.integer must be true or false';
		}

		return checkBounds(config);
	},
	validate(value, field) {
		if (!isFiniteNumber(value)) {
			return notANumber(value);
		}

		if (field.config.integer && !Number.isInteger(value)) {
			return {message: `must be an integer, got ${value}`};
		}

		return checkRange(value, field.config.min, field.config.max, String(value));
	},
};

const hasAtMostTwoDecimals = (value: number) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

export const currency: FieldTypeSpec = {
	configKeys: ['currency', 'min', 'max'],
	checkConfig(config) {
		if (config.currency !== undefined && (typeof config.currency !== 'string' || !/^[A-Z]{3}$/.test(config.currency))) {
			return 'config.currency must be an ISO 4217 code such as "EUR"';
		}

		return checkBounds(config);
	},
	validate(value, field) {
		if (!isFiniteNumber(value)) {
			return notANumber(value);
		}

		if (!hasAtMostTwoDecimals(value)) {
			return {message: `must have at most 2 decimals, got ${value}`};
		}

		return checkRange(value, field.config.min, field.config.max, String(value));
	},
};

export const percentage: FieldTypeSpec = {
	configKeys: ['min', 'max'],
	checkConfig: checkBounds,
	validate(value, field) {
		if (!isFiniteNumber(value)) {
			return notANumber(value);
		}

		return checkRange(value, field.config.min ?? 0, field.config.max ?? 100, String(value));
	},
};

export const rating: FieldTypeSpec = {
	configKeys: ['max_stars'],
	checkConfig(config) {
		const stars = config.max_stars;
		if (stars !== undefined && (!Number.isInteger(stars) || stars < 1 || stars > 10)) {
			return 'config.max_stars must be an integer from 1 to 10';
		}

		return undefined;
	},
	validate(value, field) {
		const stars = field.config.max_stars ?? 5;
		if (!isFiniteNumber(value) || !Number.isInteger(value)) {
			return {message: `must be a whole number of stars from 1 to ${stars}, got ${quote(value)}`, min: 1, max: stars};
		}

		return checkRange(value, 1, stars, String(value));
	},
};
