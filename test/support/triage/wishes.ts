// The scripted agent's reading of a record: what the reporter asked for, in their words, and
// how those words become field values through the channel's schema (labels → option values).
//
// The store never maps labels to values (docs/reference.md#validation); an agent has to, and this one does it the
// way a careful model would: exact label, else exact value, else the one label containing the
// word ("major" → "S2 Major" → s2). What it cannot map it sends as written, so the store refuses
// it and a person gets a follow-up.

import {isObject} from './history.js';

export interface SchemaOption {
	value: string;
	label: string;
}

export interface SchemaField {
	key: string;
	label?: string;
	type?: string;
	config?: Record<string, unknown>;
	options?: SchemaOption[];
}

/** One refused field of a validation_failed rejection, as far as the agent cares. */
export interface FieldProblem {
	key: string;
	message?: string;
	allowed?: SchemaOption[];
	min?: number;
	max?: number;
}

export type Values = Record<string, unknown>;

/** How the first edit treats select words: mapped through the labels, or sent as written. */
export type FirstAttempt = 'mapped' | 'as_written';

// Never written by an agent: computed, or identity fields the reporter has no say in.
const UNWRITABLE_TYPES = new Set(['formula']);

/** The flags a field of the agent's schema carries beside its settings. */
const FIELD_FLAGS = new Set(['type', 'label', 'required', 'unique']);

/**
 * The fields of a page's schema, read as its tool description tells a model to: the agent's form
 * (an object of fields by key, each its type alone or what differs from the defaults: type text,
 * or select when options are given; the label made from the key), or a list of fields.
 */
export function schemaFields(schema: unknown): SchemaField[] {
	if (Array.isArray(schema)) {
		return schema.filter(isObject).filter(field => typeof field['key'] === 'string') as unknown as SchemaField[];
	}
	if (!isObject(schema)) {
		return [];
	}
	return Object.entries(schema).map(([key, form]) => {
		const label = key.charAt(0).toUpperCase() + key.slice(1).replaceAll('_', ' ');
		if (!isObject(form)) return {key, label, type: String(form)};
		const config = Object.fromEntries(Object.entries(form).filter(([name]) => !FIELD_FLAGS.has(name)));
		const type = typeof form['type'] === 'string' ? form['type'] : (config['options'] === undefined ? 'text' : 'select');
		return {key, label: typeof form['label'] === 'string' ? form['label'] : label, type, config};
	});
}

export function optionsOf(field: SchemaField): SchemaOption[] {
	const options = field.config?.['options'] ?? field.options;
	// The agent's compact form: values whose labels say the same as one string, split on | when it holds one, else on spaces.
	if (typeof options === 'string') {
		return options.split(options.includes('|') ? '|' : ' ').filter(Boolean).map(value => ({value, label: value}));
	}
	if (!Array.isArray(options)) {
		return [];
	}
	return options.flatMap(o => {
		// A value whose label says the same, or [value, label], or the store's {value, label}.
		if (typeof o === 'string') return [{value: o, label: o}];
		if (Array.isArray(o) && typeof o[0] === 'string') return [{value: o[0], label: String(o[1] ?? o[0])}];
		return isObject(o) ? [{value: String(o['value']), label: String(o['label'] ?? o['value'])}] : [];
	});
}

/**
 * The reporter's wishes as [name, words] pairs, in order. Understands the demo generator's line
 * ("Triage wishes: status In progress, owner Aiko, ..., area Sync.") and, failing that, loose
 * "Key: value" phrases ("Status: In progress. Owner: Aiko.").
 */
export function parseWishes(description: string): Array<[string, string]> {
	const line = wishesLine(description);
	return line === undefined ? keyColonPhrases(description) : wishesLinePairs(line);
}

function wishesLine(description: string): string | undefined {
	const marker = /triage wishes\s*:/gi;
	let last: RegExpExecArray | null = null;
	for (let match = marker.exec(description); match; match = marker.exec(description)) {
		last = match;
	}
	if (!last) {
		return undefined;
	}
	return description.slice(last.index + last[0].length).split('\n')[0].trim().replace(/\.$/, '');
}

function wishesLinePairs(line: string): Array<[string, string]> {
	const pairs: Array<[string, string]> = [];
	for (const part of line.split(',')) {
		const match = /^\s*(\S+)\s+(.+?)\s*$/.exec(part);
		if (match) {
			pairs.push([match[1], match[2]]);
		}
	}
	return pairs;
}

function keyColonPhrases(description: string): Array<[string, string]> {
	const pairs: Array<[string, string]> = [];
	// A value runs to the end of its sentence; ISO dates and "Won't fix" have no '.' in them.
	const phrase = /(?:^|[\s.;,])([A-Za-z][\w ()]{0,30}?)\s*:\s*([^.;,\n]+)/g;
	for (let match = phrase.exec(description); match; match = phrase.exec(description)) {
		pairs.push([match[1].trim(), match[2].trim()]);
	}
	return pairs;
}

/**
 * The schema field a wish names, by key or label, case-insensitively. "Please set Status" names
 * Status: the longest run of trailing words that is a field wins.
 */
export function fieldNamed(name: string, schema: SchemaField[]): SchemaField | undefined {
	const words = normalize(name).split(' ');
	for (let start = 0; start < words.length; start++) {
		const wanted = words.slice(start).join(' ');
		const field = schema.find(f => normalize(f.key) === wanted)
			?? schema.find(f => f.label !== undefined && normalize(f.label) === wanted);
		if (field) {
			return field;
		}
	}
	return undefined;
}

/** The option value for a person's word, or undefined when no single option fits. */
export function matchOption(word: string, options: SchemaOption[]): string | undefined {
	const wanted = normalize(word);
	const exactLabel = options.find(o => normalize(o.label) === wanted);
	if (exactLabel) {
		return exactLabel.value;
	}
	const exactValue = options.find(o => normalize(o.value) === wanted);
	if (exactValue) {
		return exactValue.value;
	}
	const containing = options.filter(o => normalize(o.label).split(/\s+/).includes(wanted));
	return containing.length === 1 ? containing[0].value : undefined;
}

function normalize(text: string): string {
	return text.trim().toLowerCase().replace(/[\u2018\u2019]/g, '\'').replace(/\s+/g, ' ');
}

/** A person's words as the value a field of this type takes; what does not fit stays as written. */
export function wordsToValue(words: string, field: SchemaField, firstAttempt: FirstAttempt = 'mapped'): unknown {
	switch (field.type) {
		case 'select':
			return firstAttempt === 'as_written' ? words : (matchOption(words, optionsOf(field)) ?? words);
		case 'multi_select':
			return [firstAttempt === 'as_written' ? words : (matchOption(words, optionsOf(field)) ?? words)];
		case 'number':
		case 'currency':
		case 'percentage':
		case 'rating':
			return /^-?\d+(?:\.\d+)?$/.test(words.trim()) ? Number(words) : words;
		case 'boolean':
			return booleanWord(words) ?? words;
		default:
			// Dates stay as written: "2026-12-04" is right, "Friday" is for the store to refuse.
			return words;
	}
}

function booleanWord(words: string): boolean | undefined {
	const word = normalize(words);
	if (['yes', 'true'].includes(word)) {
		return true;
	}
	return ['no', 'false'].includes(word) ? false : undefined;
}

/**
 * The edit the agent wants for one item: each wish that names a writable field, as a value,
 * leaving out what the item already holds (an edit that changes nothing is noise in the log).
 */
export function planValues(
	description: string,
	current: Values,
	schema: SchemaField[],
	firstAttempt: FirstAttempt = 'mapped',
): Values {
	const values: Values = {};
	for (const [name, words] of parseWishes(description)) {
		const field = fieldNamed(name, schema);
		if (!field || UNWRITABLE_TYPES.has(field.type ?? '')) {
			continue;
		}
		// A multi_select named again adds its option to those already asked for (and held).
		if (field.type === 'multi_select' && (field.key in values || Array.isArray(current[field.key]))) {
			const asked = (Array.isArray(values[field.key]) ? values[field.key] : current[field.key] ?? []) as unknown[];
			const [option] = wordsToValue(words, field, firstAttempt) as unknown[];
			if (!asked.includes(option)) values[field.key] = [...asked, option];
			continue;
		}
		if (field.key in values) {
			continue;
		}
		const value = wordsToValue(words, field, firstAttempt);
		if (JSON.stringify(value) !== JSON.stringify(current[field.key])) {
			values[field.key] = value;
		}
	}
	return values;
}

export interface Correction {
	/** What to send next: the fields that passed, plus the refused ones it could fix. */
	values: Values;
	/** The refused fields it could not fix, with what was tried and why it was refused. */
	dropped: Array<{key: string; attempted: unknown; message: string}>;
}

/**
 * The retry after a validation_failed rejection: a refused select word is looked up again in the
 * rejection's `allowed` values and labels; everything else refused (out of range, not a date,
 * unknown field, ...) is dropped for a person to resolve. Nothing is clamped or guessed.
 */
export function correctValues(sent: Values, problems: FieldProblem[]): Correction {
	const values: Values = {...sent};
	const dropped: Correction['dropped'] = [];
	for (const problem of problems) {
		const attempted = sent[problem.key];
		const fixed = fixFromAllowed(attempted, problem.allowed);
		if (fixed === undefined) {
			delete values[problem.key];
			dropped.push({key: problem.key, attempted, message: problem.message ?? 'refused'});
		} else {
			values[problem.key] = fixed;
		}
	}
	return {values, dropped};
}

function fixFromAllowed(attempted: unknown, allowed: SchemaOption[] | undefined): unknown {
	if (!allowed || allowed.length === 0) {
		return undefined;
	}
	if (Array.isArray(attempted)) {
		const fixed = attempted.map(word => matchOption(String(word), allowed));
		return fixed.every(v => v !== undefined) && JSON.stringify(fixed) !== JSON.stringify(attempted) ? fixed : undefined;
	}
	const value = typeof attempted === 'string' ? matchOption(attempted, allowed) : undefined;
	// Sending back what was just refused would only be refused again.
	return value === attempted ? undefined : value;
}
