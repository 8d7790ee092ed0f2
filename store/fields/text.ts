// Text, email, phone, url.

import {quote} from '../errors.js';
import type {FieldTypeSpec, Refusal} from './spec.js';

/**
 * The most any text value may hold: 1 MiB as UTF-8. `max_length` (in characters) lowers it for
 * one field; previews and pages stay short whatever a value holds (store/previews.ts).
 */
export const TEXT_BYTE_LIMIT = 1024 * 1024;
/** The largest `max_length` a field may set: a character is at least one byte. */
export const TEXT_HARD_LIMIT = TEXT_BYTE_LIMIT;

/** The UTF-8 size of `text`, counted only when it could be over `limit` (a UTF-16 unit is at most 3 bytes). */
const overBytes = (text: string, limit: number) => text.length * 3 > limit && Buffer.byteLength(text) > limit;

const notAString = (what: string, value: unknown): Refusal => ({message: `must be ${what}, got ${quote(value)}`});

export const text: FieldTypeSpec = {
	configKeys: ['max_length', 'long'],
	checkConfig(config) {
		if (config.long !== undefined && typeof config.long !== 'boolean') {
			return 'config.long must be true or false';
		}

		const limit = config.max_length;
		if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > TEXT_HARD_LIMIT)) {
			return `config.max_length must be an integer from 1 to ${TEXT_HARD_LIMIT}`;
		}

		return undefined;
	},
	validate(value, field) {
		if (typeof value !== 'string') {
			return notAString('a string', value);
		}

		const limit = field.config.max_length;
		if (limit !== undefined && value.length > limit) {
			return {message: `must be at most ${limit} characters, got ${value.length}`, max: limit};
		}

		if (overBytes(value, TEXT_BYTE_LIMIT)) {
			return {message: `must be at most ${TEXT_BYTE_LIMIT} bytes (1 MiB) as UTF-8, got ${Buffer.byteLength(value)}`, max: TEXT_BYTE_LIMIT};
		}

		return undefined;
	},
};

const emailShape = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

export const email: FieldTypeSpec = {
	configKeys: [],
	checkConfig: () => undefined,
	validate(value) {
		if (typeof value !== 'string' || value.length > 254 || !emailShape.test(value)) {
			return notAString('an email address like name@example.com', value);
		}

		return undefined;
	},
};

const phoneCharacters = /^[\d +\-().]+$/;

export const phone: FieldTypeSpec = {
	configKeys: [],
	checkConfig: () => undefined,
	validate(value) {
		if (typeof value !== 'string' || !phoneCharacters.test(value)) {
			return notAString('a phone number of digits, spaces and + - ( ) .', value);
		}

		const digits = value.replaceAll(/\D/g, '').length;
		if (digits < 7 || digits > 15) {
			return {message: `must have 7 to 15 digits, got ${digits} in ${quote(value)}`};
		}

		return undefined;
	},
};

/** True for an absolute http(s) URL; shared with the file type. */
export function isWebUrl(value: unknown): value is string {
	if (typeof value !== 'string' || value.length > 2048 || /\s/.test(value)) {
		return false;
	}

	try {
		const url = new URL(value);
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
	} catch {
		return false;
	}
}

export const url: FieldTypeSpec = {
	configKeys: [],
	checkConfig: () => undefined,
	validate(value) {
		return isWebUrl(value) ? undefined : notAString('an absolute http: or https: URL', value);
	},
};
