// How a Redmine project maps to a sift channel, read from the server so nothing is hard-coded:
// tracker, status (closed or not, as the server says), priority, category, assignee (the project's
// members) and target version become selects; subject and description become title and long text;
// custom fields become sift types by format (list → select, multi-list → multi-select, int and
// float → number, date, bool → boolean, string and text → text), and a format sift cannot represent
// is listed as local-only; done ratio, estimated hours, start and due dates sync too; author and
// created, updated and closed times are read-only. Also: an issue as a RemoteRecord, a journal
// with notes as a read-only comment, and a sift value as what Redmine's PUT takes.

import type {Channel, Field} from '../../../store/index.js';
import type {RemoteComment, RemoteRecord, SyncedField} from '../../../store/sync/types.js';
import {cleanText} from '../../import/clean-text.js';
import {readFieldMap} from '../map-file.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Redmine's REST objects are read field by field, each checked where it is used
export type Raw = Record<string, any>;

/** A named thing of the server (tracker, status, user, version…): its id and name, and what else matters. */
export type Named = {id: number; name: string; closed?: boolean; status?: string};

/** A custom field as the link keeps it: its id and format, and whether it holds several values. */
export type MappedCustomField = {id: number; name: string; format: string; multiple: boolean};

/** Redmine's built-in two-way fields: the issue attribute → sift key and type. */
export const REDMINE_SYNCED: ReadonlyArray<{remote: string; key: string; label: string}> = [
	{remote: 'subject', key: 'title', label: 'Title'},
	{remote: 'description', key: 'description', label: 'Description'},
	{remote: 'tracker', key: 'tracker', label: 'Tracker'},
	{remote: 'status', key: 'status', label: 'Status'},
	{remote: 'priority', key: 'priority', label: 'Priority'},
	{remote: 'category', key: 'category', label: 'Category'},
	{remote: 'assigned_to', key: 'assignee', label: 'Assignee'},
	{remote: 'fixed_version', key: 'target_version', label: 'Target version'},
	{remote: 'done_ratio', key: 'done_ratio', label: 'Done %'},
	{remote: 'estimated_hours', key: 'estimated_hours', label: 'Estimated hours'},
	{remote: 'start_date', key: 'start_date', label: 'Start date'},
	{remote: 'due_date', key: 'due_date', label: 'Due date'},
];

/** Read-only: pulled, never pushed. The issue id is the key (`number`). */
export const REDMINE_READ_ONLY: ReadonlyArray<{remote: string; key: string; label: string; type: Field['type']}> = [
	{remote: 'author', key: 'author', label: 'Author', type: 'text'},
	{remote: 'created_on', key: 'created_on', label: 'Created on', type: 'date'},
	{remote: 'updated_on', key: 'updated_on', label: 'Updated on', type: 'date'},
	{remote: 'closed_on', key: 'closed_on', label: 'Closed on', type: 'date'},
	{remote: 'url', key: 'url', label: 'URL', type: 'url'},
];

/** The custom-field formats sift represents, and as what. */
const CUSTOM_TYPES: Record<string, Field['type']> = {list: 'select', int: 'number', float: 'number', date: 'date', bool: 'boolean', string: 'text', text: 'text'};

/** The sift type of a custom field, or undefined when sift cannot represent it (it stays local-only). */
export function customFieldType(field: MappedCustomField): Field['type'] | undefined {
	if (field.format === 'list') return field.multiple ? 'multi_select' : 'select';
	return field.multiple ? undefined : CUSTOM_TYPES[field.format];
}

/** What the server holds that a channel is made of. */
export type ProjectShape = {
	trackers: Named[];
	statuses: Named[];
	priorities: Named[];
	categories: Named[];
	members: Named[];
	versions: Named[];
	customFields: Array<MappedCustomField & {values: string[]}>;
	/** The server's text formatting when known (textile, markdown, common_mark), else undefined. */
	textFormatting?: string;
};

const field = (key: string, label: string, type: Field['type'], config: Field['config'] = {}, extra: Partial<Field> = {}): Field => ({key, label, type, is_required: false, is_unique: false, config, ...extra});
const options = (values: Named[], describe?: (value: Named) => string | undefined) => values.map(value => ({value: value.name, label: value.name, ...(describe?.(value) ? {description: describe(value)} : {})}));

/** A custom field's sift key: its name in lowercase words, `cf_` before it when it would clash or not start with a letter. */
export function customFieldKey(name: string, taken: Set<string>): string {
	const slug = name.toLowerCase().normalize('NFKD').replaceAll(/[^a-z0-9]+/g, '_').replaceAll(/^_+|_+$/g, '').slice(0, 48);
	let key = /^[a-z]/.test(slug) && !taken.has(slug) ? slug : `cf_${slug || 'field'}`;
	for (let n = 2; taken.has(key); n++) key = `cf_${slug}_${n}`;
	return key;
}

/** remote → sift key (null: keep local) from a map file: `fields: {description: null, done_ratio: progress, "cf:Severity": sev}`. */
export type RedmineFieldMap = Record<string, string | null>;

export const readRedmineMap = (path: string): RedmineFieldMap => readFieldMap(path, {tracker: 'Redmine', known: new Set([...REDMINE_SYNCED, ...REDMINE_READ_ONLY].map(entry => entry.remote)), alsoAccepts: {test: remote => remote.startsWith('cf:'), said: '"cf:NAME" for a custom field'}});

/** What a project maps to: the channel, the link's synced fields, read-only keys, custom fields by key, and what stays local. */
export type RedmineMapping = {channel: Channel; fields: SyncedField[]; readOnly: Record<string, string>; customFields: Record<string, MappedCustomField>; localOnly: string[]};

/** The channel for a project and the link's fields (a select with no values on the server is left out, as a select needs options). */
export function redmineMapping(id: string, name: string, shape: ProjectShape, map: RedmineFieldMap = {}): RedmineMapping {
	const keyFor = (remote: string, fallback: string) => (Object.hasOwn(map, remote) ? map[remote]! : fallback);
	const fields: Field[] = [field('number', 'Number', 'number', {integer: true}, {is_required: true, is_unique: true})];
	const synced: SyncedField[] = [];
	const localOnly: string[] = [];
	const choices: Record<string, Array<{value: string; label: string; description?: string}>> = {
		tracker: options(shape.trackers),
		status: options(shape.statuses, status => (status.closed ? 'closed' : 'open')),
		priority: options(shape.priorities),
		category: options(shape.categories),
		assigned_to: options(shape.members),
		fixed_version: options(shape.versions, version => version.status),
	};
	for (const entry of REDMINE_SYNCED) {
		const key = keyFor(entry.remote, entry.key);
		if (key === null) {
			localOnly.push(entry.remote);
			continue;
		}

		let made: Field;
		if (entry.remote in choices) {
			if (choices[entry.remote]!.length === 0) {
				localOnly.push(`${entry.remote} (none on the server)`);
				continue;
			}

			made = field(key, entry.label, 'select', {options: choices[entry.remote]});
		} else if (entry.remote === 'subject') {
			made = field(key, entry.label, 'text', {}, {is_required: true});
		} else if (entry.remote === 'description') {
			made = field(key, `${entry.label}${shape.textFormatting ? ` (${shape.textFormatting})` : ''}`, 'text', {long: true});
		} else if (entry.remote === 'done_ratio') {
			made = field(key, entry.label, 'number', {integer: true, min: 0, max: 100});
		} else if (entry.remote === 'estimated_hours') {
			made = field(key, entry.label, 'number', {min: 0});
		} else {
			made = field(key, entry.label, 'date');
		}

		fields.push(made);
		synced.push({key, remote: entry.remote, kind: 'scalar'});
	}

	const readOnly: Record<string, string> = {};
	for (const entry of REDMINE_READ_ONLY) {
		const key = keyFor(entry.remote, entry.key);
		if (key === null) continue;
		fields.push(field(key, entry.label, entry.type));
		readOnly[entry.remote] = key;
	}

	const customFields: Record<string, MappedCustomField> = {};
	const taken = new Set(fields.map(made => made.key));
	for (const custom of shape.customFields) {
		const type = customFieldType(custom);
		const mapped = map[`cf:${custom.name}`];
		if (type === undefined || mapped === null || ((type === 'select' || type === 'multi_select') && custom.values.length === 0)) {
			localOnly.push(`${custom.name} (${custom.multiple ? 'multiple ' : ''}${custom.format})`);
			continue;
		}

		const key = mapped ?? customFieldKey(custom.name, taken);
		taken.add(key);
		const config: Field['config'] = type === 'select' || type === 'multi_select' ? {options: custom.values.map(value => ({value, label: value}))} : custom.format === 'int' ? {integer: true} : custom.format === 'text' ? {long: true} : {};
		fields.push(field(key, custom.name, type, config));
		synced.push({key, remote: `cf:${custom.id}`, kind: type === 'multi_select' ? 'set' : 'scalar'});
		customFields[key] = {id: custom.id, name: custom.name, format: custom.format, multiple: custom.multiple};
	}

	return {channel: {id, name, fields}, fields: synced, readOnly, customFields, localOnly};
}

const nameOf = (value: unknown): string | null => (value !== null && typeof value === 'object' && typeof (value as Raw).name === 'string' ? (value as Raw).name as string : null);
const day = (value: unknown): string | null => (typeof value === 'string' && value.length >= 10 ? value.slice(0, 10) : null);

/** A custom field's text value(s) as the sift value of its format. */
export function customValue(custom: MappedCustomField, raw: unknown): unknown {
	if (custom.multiple) {
		const values = (Array.isArray(raw) ? raw : raw === null || raw === undefined ? [] : [raw]).map(String).filter(value => value !== '');
		return values.length === 0 ? null : values.sort();
	}

	if (raw === null || raw === undefined || raw === '') return null;
	const text = String(raw);
	switch (custom.format) {
		case 'int':
		case 'float': {
			const number = Number(text);
			return Number.isFinite(number) ? number : null;
		}

		case 'bool': return text === '1' ? true : text === '0' ? false : null;
		case 'date': return day(text);
		case 'string':
		case 'text': return cleanText(text);
		default: return text;
	}
}

/** A sift value as Redmine's PUT takes it for a custom field: text, or a list of texts. */
export function customWire(custom: MappedCustomField, value: unknown): string | string[] {
	if (custom.multiple) return Array.isArray(value) && value.length > 0 ? value.map(String) : [''];
	if (value === null || value === undefined) return '';
	if (custom.format === 'bool') return value === true ? '1' : '0';
	return String(value);
}

/** The link's state as the Redmine adapter keeps it. */
export type RedmineState = {
	/** Newest updated_on seen (ISO); the next pull lists from a little before it. */
	since: string | null;
	/**
	 * When the last whole pull began listing, on Redmine's clock (the Date of its first list answer,
	 * to the second): every change older than this minus the overlap was visible to that pull.
	 */
	listed_at: string | null;
	/** Issues already applied at their updated_on, inside the overlap window: id → updated_on. */
	seen: Record<string, string>;
	read_only: Record<string, string>;
	custom_fields: Record<string, MappedCustomField>;
	local_only: string[];
	/** The server's root URL and the project's identifier. */
	url: string;
	project: string;
};

export function redmineState(state: Record<string, unknown>): RedmineState {
	const object = (value: unknown) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {});
	return {
		since: typeof state.since === 'string' ? state.since : null,
		listed_at: typeof state.listed_at === 'string' ? state.listed_at : null,
		seen: object(state.seen) as Record<string, string>,
		read_only: object(state.read_only) as Record<string, string>,
		custom_fields: object(state.custom_fields) as Record<string, MappedCustomField>,
		local_only: Array.isArray(state.local_only) ? state.local_only.map(String) : [],
		url: String(state.url ?? ''),
		project: String(state.project ?? ''),
	};
}

/** An issue (GET /issues/ID.json or a list's entry) as a RemoteRecord of the link's fields. */
export function issueRecord(raw: Raw, fields: readonly SyncedField[], state: RedmineState, keyField: string): RemoteRecord | undefined {
	if (typeof raw?.id !== 'number' || typeof raw.created_on !== 'string') return undefined;
	const customById = new Map<number, MappedCustomField>(Object.values(state.custom_fields).map(custom => [custom.id, custom]));
	const customValues = new Map<number, unknown>((Array.isArray(raw.custom_fields) ? raw.custom_fields as Raw[] : []).map(entry => [Number(entry.id), entry.value]));
	const values: Record<string, unknown> = {[keyField]: raw.id};
	for (const synced of fields) values[synced.key] = remoteValue(raw, synced.remote, customById, customValues);
	const readOnly: Record<string, unknown> = {
		author: nameOf(raw.author), created_on: day(raw.created_on), updated_on: day(raw.updated_on), closed_on: day(raw.closed_on),
		url: state.url ? `${state.url}/issues/${raw.id}` : null,
	};
	for (const [remote, key] of Object.entries(state.read_only)) values[key] = readOnly[remote] ?? null;
	return {remote_id: String(raw.id), values, created_at: raw.created_on, updated_at: typeof raw.updated_on === 'string' ? raw.updated_on : raw.created_on};
}

/** One synced field's sift value in an issue. */
function remoteValue(raw: Raw, remote: string, customById: Map<number, MappedCustomField>, customValues: Map<number, unknown>): unknown {
	if (remote.startsWith('cf:')) {
		const id = Number(remote.slice(3));
		const custom = customById.get(id);
		return custom ? customValue(custom, customValues.get(id)) : null;
	}

	switch (remote) {
		case 'subject': return typeof raw.subject === 'string' ? cleanText(raw.subject) : null;
		case 'description': return typeof raw.description === 'string' && raw.description !== '' ? cleanText(raw.description) : null;
		case 'done_ratio':
		case 'estimated_hours': return typeof raw[remote] === 'number' ? raw[remote] as number : null;
		case 'start_date':
		case 'due_date': return day(raw[remote]);
		default: return nameOf(raw[remote]);
	}
}

/** A journal with notes as a read-only comment (a journal of field changes alone is not one). */
export function journalComment(raw: Raw): RemoteComment | undefined {
	if (typeof raw.notes !== 'string' || raw.notes.trim() === '') return undefined;
	return {remote_id: String(raw.id), author: nameOf(raw.user), body: cleanText(raw.notes), created_at: String(raw.created_on), updated_at: String(raw.updated_on ?? raw.created_on)};
}
