// Date, boolean, relation, file, json.

import {quote} from '../errors.js';
import {orList} from '../text.js';
import {isPlainObject, type FieldTypeSpec} from './spec.js';
import {isWebUrl} from './text.js';

/** Largest serialized JSON value a json field holds: 64 KiB (docs/reference.md#field-types). */
export const JSON_VALUE_LIMIT = 64 * 1024;

const dateShape = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for `YYYY-MM-DD` naming a real calendar day (no 2026-02-30). */
export function isCalendarDate(value: unknown): value is string {
	const match = typeof value === 'string' ? dateShape.exec(value) : null;
	if (!match) {
		return false;
	}

	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const date = new Date(Date.UTC(year, month - 1, day));
	return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The forms the query language's dates take (query/dates.ts resolveDate), as refusals name them. */
export const DATE_FORMS = ['YYYY-MM-DD', 'today', 'tomorrow', 'yesterday', '+Nd', '-Nd', '+Nw', '-Nw'];

/** Every form a person may type for a date field (source/text/typed-value.ts reads them into YYYY-MM-DD). */
export const TYPED_DATE_FORMS = [...DATE_FORMS, 'a weekday (friday, fri)', 'next WEEKDAY'];

/**
 * The store holds YYYY-MM-DD only; the refusal also names what a person may type instead where
 * sift reads it first (sift edit, sift add, the TUI), so a typed `someday` learns about `+3d`.
 */
const DATE_REFUSAL_HINT = `sift edit/add and the TUI also read ${orList(['today', '+3d', 'friday'])}`;

export const date: FieldTypeSpec = {
	configKeys: [],
	checkConfig: () => undefined,
	validate: value => (isCalendarDate(value) ? undefined : {message: `must be a date as YYYY-MM-DD, got ${quote(value)}; ${DATE_REFUSAL_HINT}`}),
};

export const boolean: FieldTypeSpec = {
	configKeys: [],
	checkConfig: () => undefined,
	validate: value => (typeof value === 'boolean' ? undefined : {message: `must be true or false, got ${quote(value)}`}),
};

export const relation: FieldTypeSpec = {
	configKeys: ['channel_id', 'duplicate_status', 'status_field'],
	checkConfig(config) {
		return typeof config.channel_id === 'string' && config.channel_id !== '' ? undefined : 'config.channel_id must name the target channel';
	},
	validate(value, field, context) {
		const target = field.config.channel_id!;
		// Refused before any lookup: the answer must not tell whether the item exists there.
		if (context.mayRelateTo && !context.mayRelateTo(target)) {
			return {message: `relates to channel ${target}, which is not granted to this writer, got ${quote(value)}`};
		}

		if (typeof value !== 'string' || !context.relationExists(target, value)) {
			return {message: `must be the id of an existing item in channel ${field.config.channel_id}, got ${quote(value)}`};
		}

		return undefined;
	},
};

export const file: FieldTypeSpec = {
	configKeys: [],
	checkConfig: () => undefined,
	validate(value) {
		const valid = isPlainObject(value)
			&& Object.keys(value).length === 2
			&& typeof value.name === 'string'
			&& value.name !== ''
			&& value.name.length <= 255
			&& isWebUrl(value.url);
		return valid ? undefined : {message: `must be {name, url} with an http(s) url, got ${quote(value)}`};
	},
};

export const json: FieldTypeSpec = {
	configKeys: [],
	checkConfig: () => undefined,
	validate(value) {
		const size = Buffer.byteLength(JSON.stringify(value) ?? '');
		return size > JSON_VALUE_LIMIT ? {message: `must be at most ${JSON_VALUE_LIMIT} bytes as JSON, got ${size}`, max: JSON_VALUE_LIMIT} : undefined;
	},
};
