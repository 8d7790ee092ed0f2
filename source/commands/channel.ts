// `sift channel show / add-field / add-option / rename-label / retire-option / set`: a person's
// schema changes through `store.changeChannel`.

import type {Channel, Field, SchemaChange} from '../../store/index.js';
import {sanitize} from '../text/sanitize.js';
import {channelOf, output, withStore} from './common.js';
import {UsageError, type Command, type CommandContext} from './context.js';
import {counted} from '../text/format.js';

const SUBCOMMANDS: Record<string, {arguments: string[]; flags: string[]}> = {
	show: {arguments: [], flags: []},
	'add-field': {arguments: ['KEY', 'TYPE'], flags: ['label', 'option', 'fieldConfig', 'required']},
	'add-option': {arguments: ['FIELD', 'VALUE'], flags: ['label', 'color']},
	'rename-label': {arguments: ['FIELD', 'VALUE', 'LABEL'], flags: []},
	'retire-option': {arguments: ['FIELD', 'VALUE'], flags: ['migrateTo']},
	set: {arguments: ['FIELD'], flags: ['required', 'fieldConfig']},
};

const FLAG_NAMES: Record<string, string> = {label: '--label', color: '--color', option: '--option', fieldConfig: '--config', required: '--required / --optional', migrateTo: '--migrate-to'};

function configOf(context: CommandContext): unknown {
	const text = context.flags.fieldConfig;
	if (text === undefined) return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		throw new UsageError(`--config must be JSON, e.g. '{"max_length": 200}', got ${JSON.stringify(text).slice(0, 60)}`);
	}
}

const CHOICE_TYPES = new Set(['select', 'multi_select']);
const OPTIONS_FORMAT = '--option high:High --option low:Low (VALUE[:LABEL], repeated), or --config \'{"options": [{"value": "high", "label": "High"}, {"value": "low", "label": "Low"}]}\'';

/** add-field's config: --config's object with the --option list as its options (a select needs one or the other). */
function addFieldConfig(context: CommandContext, type: string): unknown {
	const config = configOf(context);
	const given = context.flags.option ?? [];
	if (given.length > 0 && !CHOICE_TYPES.has(type)) throw new UsageError(`--option is for a select or multi_select field, not ${JSON.stringify(type).slice(0, 40)}`);
	if (given.length === 0) {
		const hasOptions = typeof config === 'object' && config !== null && 'options' in config;
		if (CHOICE_TYPES.has(type) && !hasOptions) throw new UsageError(`a ${type} field needs its options: ${OPTIONS_FORMAT}`);
		return config;
	}

	if (typeof config === 'object' && config !== null && 'options' in config) throw new UsageError('give the options either as --option or in --config, not both');
	const options = given.map(option => {
		const colon = option.indexOf(':');
		const value = colon === -1 ? option : option.slice(0, colon);
		const label = colon === -1 ? value : option.slice(colon + 1);
		if (value === '' || label === '') throw new UsageError(`--option must be VALUE or VALUE:LABEL, got ${JSON.stringify(option).slice(0, 60)}`);
		return {value, label};
	});
	return {...(typeof config === 'object' && config !== null ? config : {}), options};
}

/** The change the command line asks for, its arguments and flags checked against the subcommand. */
export function changeOf(context: CommandContext): {sub: string; change?: SchemaChange} {
	const [sub, ...rest] = context.input;
	const spec = sub === undefined ? undefined : SUBCOMMANDS[sub];
	if (!spec) {
		throw new UsageError(`channel takes one of ${Object.keys(SUBCOMMANDS).join(', ')}${sub === undefined ? '' : `, got ${JSON.stringify(sub).slice(0, 40)}`}`);
	}

	if (rest.length !== spec.arguments.length) {
		throw new UsageError(`channel ${sub} takes ${spec.arguments.length === 0 ? 'no arguments' : spec.arguments.join(' ')}, got ${rest.length} argument${rest.length === 1 ? '' : 's'}`);
	}

	const flags = context.flags as Record<string, unknown>;
	// A repeatable flag starts as an empty list: given means at least one.
	const given = (value: unknown) => (Array.isArray(value) ? value.length > 0 : value !== undefined);
	const stray = Object.keys(FLAG_NAMES).find(key => given(flags[key]) && !spec.flags.includes(key));
	if (stray) throw new UsageError(`channel ${sub} does not take ${FLAG_NAMES[stray]}`);
	const [a = '', b = '', c = ''] = rest;
	const {label, color, migrateTo, required} = context.flags;
	switch (sub) {
		case 'add-field': { return {sub, change: {kind: 'add_field', key: a, type: b, label, config: addFieldConfig(context, b), required}}; }
		case 'add-option': { return {sub, change: {kind: 'add_option', key: a, value: b, label, color}}; }
		case 'rename-label': { return {sub, change: {kind: 'rename_label', key: a, value: b, label: c}}; }
		case 'retire-option': { return {sub, change: {kind: 'retire_option', key: a, value: b, migrateTo}}; }
		case 'set': { return {sub, change: {kind: 'set_field', key: a, required, config: configOf(context)}}; }
		default: { return {sub}; }
	}
}

/** One field as `channel show` lists it. */
function fieldLine(field: Field): string {
	const flags = [field.is_required ? 'required' : '', field.is_unique ? 'unique' : ''].filter(Boolean).join(', ');
	const {options, ...rest} = field.config;
	const config = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : '';
	const head = `  ${field.key.padEnd(16)} ${field.type.padEnd(12)} ${sanitize(JSON.stringify(field.label))}${flags ? ` (${flags})` : ''}${sanitize(config)}`;
	const optionLines = (options ?? []).map(option => `      ${sanitize(option.value)}  ${sanitize(JSON.stringify(option.label))}${option.color ? `  ${sanitize(option.color)}` : ''}`);
	return [head, ...optionLines].join('\n');
}

const showText = (channel: Channel) => [`channel ${channel.id} (${sanitize(channel.name)}): ${counted(channel.fields.length, 'field')}`, ...channel.fields.map(field => fieldLine(field))].join('\n');

/**
 * `sift channel show | add-field | add-option | rename-label | retire-option | set`: the schema, and
 * a person's changes to it (the agent's tools cannot change a schema). Each change is one
 * transaction that re-checks every item and appends a channel.updated event.
 */
const command: Command = async context => {
	const {sub, change} = changeOf(context);
	return withStore(context, async store => {
		const channelId = await channelOf(store, context);
		if (!change) {
			const channel = await store.getChannel(channelId);
			output(context, channel, () => showText(channel));
			return 0;
		}

		const result = await store.changeChannel(channelId, change, {kind: 'human'});
		const field = result.channel.fields.find(candidate => candidate.key === change.key)!;
		output(context, {ok: true, channel_id: channelId, sequence: result.sequence, migrated: result.migrated, field},
			() => `${sub}: channel ${channelId} field ${field.key} changed (event ${result.sequence})${result.migrated > 0 ? `; ${counted(result.migrated, 'item')} moved to ${sanitize(JSON.stringify(change.kind === 'retire_option' ? change.migrateTo : ''))}` : ''}\n${fieldLine(field)}`);
		return 0;
	});
};

export default command;
