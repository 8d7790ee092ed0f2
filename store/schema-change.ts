// Schema changes, a person's power (the agent's tools have none): planned here as pure functions
// for both backends, then applied by store/sqlite/schema-change.ts or store/postgres/schema-change.ts
// in one transaction that re-checks every item, rewrites the channel's indexes and appends a
// `channel.updated` event. changeChannel is the one order of the steps, written once.

import type {AsyncStore} from './contract.js';
import {invalidArgument, quote, StoreError} from './errors.js';
import {FIELD_TYPE_TABLE} from './fields/index.js';
import {valueShapeProblem} from './fields/shape.js';
import {isPlainObject} from './fields/spec.js';
import {items} from './page-stream.js';
import {checkChannel} from './schema.js';
import {missingRelationTarget} from './write-rules.js';
import type {IndexDefinition} from './query/sql.js';
import type {Actor, Changes, Channel, Field, FieldConfig, SelectOption, Values} from './types.js';

export type {SchemaChange, SchemaChangeResult} from './types.js';
import type {SchemaChange, SchemaChangeResult} from './types.js';

/** A planned change: the new channel, what changed (the event's changes), and what the items must pass. */
export type SchemaPlan = {
	channel: Channel;
	changes: Changes;
	/** The field whose stored values the change may make invalid: every item is checked against it. */
	check?: Field;
	/** retire-option --migrate-to: items holding `from` are edited to hold `to` first. */
	migrate?: {key: string; from: string; to: string; list: boolean};
	/** What a refusal says the offending items hold. */
	offence: string;
};

/** How many offending items a refusal names. */
export const NAMED_OFFENDERS = 5;

const bad = (message: string) => new StoreError({error: 'invalid_schema', message});

function fieldOf(channel: Channel, key: string): Field {
	const field = channel.fields.find(candidate => candidate.key === key);
	if (!field) throw bad(`${quote(key)} is not a field of channel ${channel.id}; fields: ${channel.fields.map(candidate => candidate.key).join(', ')}`);
	return field;
}

function choiceField(channel: Channel, key: string): Field {
	const field = fieldOf(channel, key);
	if (field.type !== 'select' && field.type !== 'multi_select') throw bad(`field ${key} is a ${field.type} field; options belong to select and multi_select fields`);
	return field;
}

function optionOf(field: Field, value: string): SelectOption {
	const option = field.config.options!.find(candidate => candidate.value === value);
	if (!option) throw bad(`${quote(value)} is not an option of ${field.key}; options: ${field.config.options!.map(candidate => candidate.value).join(', ')}`);
	return option;
}

/** The channel with `key`'s field replaced; checkChannel then checks the whole of it as an import would. */
function withField(channel: Channel, field: Field): Channel {
	return checkChannel({...channel, fields: channel.fields.map(candidate => (candidate.key === field.key ? field : candidate))});
}

const changed = (key: string, from: Field | null, to: Field): Changes => ({[key]: {from, to}});

/** The config `set --config` gives: entries replaced, a null entry removed. */
function mergedConfig(config: FieldConfig, patch: unknown): FieldConfig {
	if (!isPlainObject(patch)) throw invalidArgument(`--config must be a JSON object, got ${quote(patch)}`);
	const merged: Record<string, unknown> = {...config};
	for (const [name, value] of Object.entries(patch)) {
		if (value === null) delete merged[name];
		else merged[name] = value;
	}

	return merged as FieldConfig;
}

/** Plans a change against the channel as it is: the new channel, checked, or a refusal naming what is wrong. */
export function planSchemaChange(channel: Channel, change: SchemaChange): SchemaPlan {
	switch (change.kind) {
		case 'add_field': {
			if (channel.fields.some(field => field.key === change.key)) throw bad(`field ${change.key} already exists in channel ${channel.id}`);
			const raw = {key: change.key, label: change.label ?? change.key, type: change.type, is_required: change.required ?? false, is_unique: false, config: change.config ?? {}};
			const next = checkChannel({...channel, fields: [...channel.fields, raw]});
			const field = next.fields.at(-1)!;
			// A required field no item holds yet: refused while the channel has items (checked like any other change).
			return {channel: next, changes: changed(field.key, null, field), check: field.is_required ? field : undefined, offence: `would have no ${field.key} (add it optional, fill it, then: sift channel set ${field.key} --required)`};
		}

		case 'add_option': {
			const field = choiceField(channel, change.key);
			if (field.config.options!.some(option => option.value === change.value)) throw bad(`${quote(change.value)} is already an option of ${field.key}`);
			const option: SelectOption = {value: change.value, label: change.label ?? change.value, ...(change.color === undefined ? {} : {color: change.color})};
			const next = withField(channel, {...field, config: {...field.config, options: [...field.config.options!, option]}});
			return {channel: next, changes: changed(field.key, field, fieldOf(next, field.key)), offence: ''};
		}

		case 'rename_label': {
			const field = choiceField(channel, change.key);
			optionOf(field, change.value);
			const options = field.config.options!.map(option => (option.value === change.value ? {...option, label: change.label} : option));
			const next = withField(channel, {...field, config: {...field.config, options}});
			return {channel: next, changes: changed(field.key, field, fieldOf(next, field.key)), offence: ''};
		}

		case 'retire_option': {
			const field = choiceField(channel, change.key);
			optionOf(field, change.value);
			if (change.migrateTo !== undefined) {
				if (change.migrateTo === change.value) throw bad(`--migrate-to must name another option than ${quote(change.value)}`);
				optionOf(field, change.migrateTo);
			}

			const options = field.config.options!.filter(option => option.value !== change.value);
			const next = withField(channel, {...field, config: {...field.config, options}});
			const after = fieldOf(next, field.key);
			const migrate = change.migrateTo === undefined ? undefined : {key: field.key, from: change.value, to: change.migrateTo, list: field.type === 'multi_select'};
			return {channel: next, changes: changed(field.key, field, after), check: after, migrate, offence: `${field.type === 'select' ? 'hold' : 'list'} ${field.key} ${quote(change.value)}`};
		}

		case 'set_field': {
			const field = fieldOf(channel, change.key);
			if (change.required === undefined && change.config === undefined) throw invalidArgument('set needs --required, --optional or --config');
			const config = change.config === undefined ? field.config : mergedConfig(field.config, change.config);
			if (field.type === 'relation' && config.channel_id !== field.config.channel_id) throw bad(`field ${field.key}: a relation's channel_id cannot change (its values name items of ${field.config.channel_id})`);
			const next = withField(channel, {...field, is_required: change.required ?? field.is_required, config});
			const after = fieldOf(next, field.key);
			return {channel: next, changes: changed(field.key, field, after), check: after.type === 'formula' ? undefined : after, offence: `${after.is_required && !field.is_required ? 'have no value or ' : ''}hold a value the new ${field.key} refuses`};
		}
	}
}

/**
 * Whether a stored value (undefined: none) is refused by the planned field. Relations are not
 * looked up: a change never moves a relation's target, so its values stay what they were.
 */
export function offends(field: Field, value: unknown): boolean {
	if (value === undefined || value === null) return field.is_required;
	if (valueShapeProblem(value)) return true;
	if (field.type === 'relation') return false;
	return FIELD_TYPE_TABLE[field.type].validate(value, field, {relationExists: () => true}) !== undefined;
}

/** The key an item is named by in a refusal: the first unique text field (BUG-0042), else its id. */
export const nameKeyOf = (channel: Channel) => channel.fields.find(field => field.is_unique && field.type === 'text')?.key;

/** Counts offenders as a backend reads them, keeping the first few names. */
export class Offenders {
	count = 0;
	readonly names: string[] = [];

	constructor(private readonly field: Field) {}

	see(value: unknown, name: string): void {
		if (offends(this.field, value)) {
			this.count++;
			if (this.names.length < NAMED_OFFENDERS) this.names.push(name);
		}
	}

	/** The refusal when any item offends: `3 items hold status "wontfix": BUG-0001, BUG-0007, …`. */
	check(plan: SchemaPlan): void {
		if (this.count === 0) return;
		const names = `${this.names.join(', ')}${this.count > this.names.length ? ', …' : ''}`;
		const retiring = plan.offence.startsWith('hold ') || plan.offence.startsWith('list ');
		const hint = retiring && plan.migrate === undefined ? '; give --migrate-to VALUE to move them' : '';
		throw new StoreError({
			error: 'schema_change_refused',
			message: `${this.count} item${this.count === 1 ? '' : 's'} ${plan.offence}: ${names}${hint}`,
			key: this.field.key,
			count: this.count,
			items: this.names,
		});
	}
}

/** The channel's indexes to drop (their definition changed, or they went) and to create, by name and SQL. */
export function indexChanges(before: IndexDefinition[], after: IndexDefinition[]): {drop: string[]; create: IndexDefinition[]} {
	const old = new Map(before.map(index => [index.name, index.sql]));
	const wanted = new Map(after.map(index => [index.name, index.sql]));
	const drop = before.filter(index => wanted.get(index.name) !== index.sql).map(index => index.name);
	return {drop, create: after.filter(index => old.get(index.name) !== index.sql)};
}

/** The event a change appends: not about one item (item_id '', version 0), each changed field from and to its definition. */
export const channelUpdatedEvent = (plan: SchemaPlan, actor: Actor, at: string) => ({type: 'channel.updated' as const, item_id: '', version: 0, actor, changes: plan.changes, at});

/** The refusal when the channel changed between planning and applying. */
export const schemaMoved = (channelId: string) => new StoreError({error: 'invalid_argument', message: `the schema of channel ${channelId} changed while this change was being made; run it again`});

/** What a backend does in its one transaction: the channel still as planned, every item re-checked, then written, indexed and evented. */
export type SchemaIo = {
	apply(before: Channel, plan: SchemaPlan, actor: Actor): Promise<number>;
};

/** The edit that moves one item off a retired option. */
function migratedValues(migrate: NonNullable<SchemaPlan['migrate']>, values: Values): Values {
	const held = values[migrate.key];
	if (!migrate.list) return {[migrate.key]: migrate.to};
	const list = (held as string[]).map(entry => (entry === migrate.from ? migrate.to : entry));
	return {[migrate.key]: [...new Set(list)]};
}

/**
 * A schema change, start to end: planned against the channel as it is; with --migrate-to, each item
 * holding the retired option is first edited (a versioned edit with its event, at the version read);
 * then the backend's transaction re-checks every item (one changed meanwhile refuses the change),
 * writes the new schema, its indexes and a channel.updated event. Migrated items keep their new
 * value if the change is then refused: each is valid under the old schema and the new.
 */
export async function changeChannel(store: AsyncStore, io: SchemaIo, channelId: string, change: SchemaChange, actor: Actor = {kind: 'human'}): Promise<SchemaChangeResult> {
	const before = await store.getChannel(channelId);
	const plan = planSchemaChange(before, change);
	const target = change.kind === 'add_field' ? plan.channel.fields.at(-1)!.config.channel_id : undefined;
	if (target !== undefined && target !== channelId && !(await store.listChannelNames()).some(channel => channel.id === target)) {
		throw missingRelationTarget(change.key, target);
	}

	let migrated = 0;
	if (plan.migrate) {
		const {key, from} = plan.migrate;
		for await (const item of items(store, channelId, {where: `${key}:${JSON.stringify(from)}`})) {
			await store.editItem({channelId, itemId: item.id, values: migratedValues(plan.migrate, item.values), actor, expectedVersion: item.version});
			migrated++;
		}
	}

	const sequence = await io.apply(before, plan, actor);
	return {channel: plan.channel, sequence, migrated};
}
