// Channel import on a real file: bad schemas and bad items are refused with a message that names
// the problem, and leave the database exactly as it was.

import {join} from 'node:path';
import {afterAll, beforeEach, describe, expect, it} from 'vitest';
import {bugsChannel, generateBugItems} from '../../demo-data/generate.js';
import {FIELD_TYPES, openStore, type Store} from '../../store/index.js';
import {cleanTempDirs, expectGapFree, human, kitChannel, refusal, snapshot, tempDir} from './helpers.js';

afterAll(() => cleanTempDirs());

const field = (overrides: Record<string, unknown>) => ({key: 'f', label: 'F', type: 'text', is_required: false, is_unique: false, config: {}, ...overrides});
const channelWith = (...fields: unknown[]) => ({id: 'bad', name: 'Bad', fields});

describe('import refusals leave the database unchanged', () => {
	let store: Store;

	beforeEach(() => {
		store = openStore(join(tempDir(), 'import.db'), {create: true});
		store.importChannel({channel: kitChannel, items: [{values: {title: 'kept'}}]});
	});

	const refusedImport = (channel: unknown, items: Iterable<unknown> = []) => {
		const before = snapshot(store);
		const body = refusal(() => store.importChannel({channel, items}));
		expect(snapshot(store)).toEqual(before);
		expect(store.listChannels().map(summary => summary.id)).toEqual(['kit']);
		return body;
	};

	it('an unknown field type', () => {
		expect(refusedImport(channelWith(field({type: 'texty'})))).toEqual({error: 'invalid_schema', message: `field f has an unknown type "texty"; known types: ${FIELD_TYPES.join(', ')}`});
	});

	it('a duplicate key', () => {
		expect(refusedImport(channelWith(field({}), field({label: 'Again'})))).toEqual({error: 'invalid_schema', message: 'fields[1].key "f" is used twice'});
	});

	it('options without value or label, or a value twice', () => {
		const select = (options: unknown) => channelWith(field({type: 'select', config: {options}}));
		expect(refusedImport(select([{label: 'New'}]))).toEqual({error: 'invalid_schema', message: 'field f: config.options[0] needs a non-empty string value'});
		expect(refusedImport(select([{value: 'new', label: 'New'}, {value: 'old'}]))).toEqual({error: 'invalid_schema', message: 'field f: config.options[1] ("old") needs a non-empty string label'});
		expect(refusedImport(select([{value: 'new', label: 'New'}, {value: 'new', label: 'Again'}]))).toEqual({error: 'invalid_schema', message: 'field f: config.options has the value "new" twice'});
		expect(refusedImport(select([]))).toEqual({error: 'invalid_schema', message: 'field f: config.options must be a non-empty array of {value, label}'});
		expect(refusedImport(channelWith(field({type: 'multi_select', config: {}})))).toEqual({error: 'invalid_schema', message: 'field f: config.options must be a non-empty array of {value, label}'});
	});

	it('a bad formula, or one that reaches for something it may not read', () => {
		const formula = (expression: unknown, ...more: unknown[]) => channelWith(field({type: 'formula', config: {expression}}), ...more);
		expect(refusedImport(formula('days_between(created_at'))).toEqual({error: 'invalid_schema', message: 'field f: config.expression is not a valid formula: expected ")" at the end'});
		expect(refusedImport(formula('process.exit(1)'))).toEqual({error: 'invalid_schema', message: 'field f: config.expression is not a valid formula: unexpected character "." at position 8'});
		expect(refusedImport(formula('eval(1)'))).toEqual({error: 'invalid_schema', message: 'field f: config.expression is not a valid formula: unknown function eval()'});
		expect(refusedImport(formula(''))).toEqual({error: 'invalid_schema', message: 'field f: config.expression is not a valid formula: the expression is empty'});
		expect(refusedImport(formula(42))).toMatchObject({error: 'invalid_schema'});
		expect(refusedImport(formula('constructor + 1'))).toEqual({error: 'invalid_schema', message: 'field f: the formula reads "constructor", which is not created_at or a number, currency, percentage, rating or date field'});
		expect(refusedImport(formula('title * 2', field({key: 'title', type: 'text'})))).toEqual({error: 'invalid_schema', message: 'field f: the formula reads "title", which is not created_at or a number, currency, percentage, rating or date field'});
		expect(refusedImport(formula('round(1, 2)'))).toEqual({error: 'invalid_schema', message: 'field f: config.expression is not a valid formula: round() takes 1 argument(s), got 2'});
		expect(refusedImport(formula(`${'('.repeat(40)}1${')'.repeat(40)}`))).toEqual({error: 'invalid_schema', message: 'field f: config.expression is not a valid formula: nested deeper than 32 levels'});
	});

	it('__proto__ / constructor keys and other malformed schemas', () => {
		expect(refusedImport(channelWith(field({key: '__proto__'})))).toEqual({error: 'invalid_schema', message: 'fields[0].key must be a lowercase identifier (a-z, 0-9, _) and not a reserved name, got "__proto__"'});
		expect(refusedImport(channelWith(field({key: 'constructor'})))).toEqual({error: 'invalid_schema', message: 'fields[0].key must be a lowercase identifier (a-z, 0-9, _) and not a reserved name, got "constructor"'});
		expect(refusedImport(JSON.parse('{"id": "bad", "name": "Bad", "fields": [{"key": "f", "label": "F", "type": "text", "config": {"__proto__": {"max_length": 1}}}]}'))).toEqual({error: 'invalid_schema', message: 'field f: unknown config entry "__proto__"'});
		expect(refusedImport('bugs')).toEqual({error: 'invalid_schema', message: 'channel must be an object with id, name and fields'});
		expect(refusedImport({id: 'Bad Id', name: 'x', fields: [field({})]})).toMatchObject({error: 'invalid_schema', message: 'channel.id must be a slug (lowercase letters, digits, - and _), got "Bad Id"'});
		expect(refusedImport(channelWith())).toEqual({error: 'invalid_schema', message: 'channel.fields must be an array of 1 to 200 fields'});
		expect(refusedImport(channelWith(field({config: {max_length: 0}})))).toEqual({error: 'invalid_schema', message: 'field f: config.max_length must be an integer from 1 to 1048576'});
		expect(refusedImport(channelWith(field({type: 'number', config: {min: 5, max: 1}})))).toEqual({error: 'invalid_schema', message: 'field f: config.min (5) is greater than config.max (1)'});
		expect(refusedImport(channelWith(field({type: 'relation', config: {channel_id: 'ghost'}})))).toEqual({error: 'invalid_schema', message: 'field f relates to channel "ghost", which does not exist'});
	});

	it('config entries are checked per field type, naming the field and the entry', () => {
		expect(refusedImport(channelWith(field({config: {long: 'yes'}})))).toEqual({error: 'invalid_schema', message: 'field f: config.long must be true or false'});
		expect(refusedImport(channelWith(field({config: {options: [{value: 'a', label: 'A'}]}})))).toEqual({error: 'invalid_schema', message: 'field f: config.options does not apply to a text field (it takes max_length, long)'});
		expect(refusedImport(channelWith(field({type: 'date', config: {max_length: 3}})))).toEqual({error: 'invalid_schema', message: 'field f: config.max_length does not apply to a date field (it takes no config)'});
		expect(refusedImport(channelWith(field({type: 'number', config: {long: true}})))).toEqual({error: 'invalid_schema', message: 'field f: config.long does not apply to a number field (it takes min, max, integer)'});
		expect(refusedImport(channelWith(field({type: 'select', config: {options: [{value: 'a', label: 'A'}], channel_id: 'kit'}})))).toEqual({error: 'invalid_schema', message: 'field f: config.channel_id does not apply to a select field (it takes options)'});
	});

	it('a channel id that already exists', () => {
		expect(refusedImport(kitChannel, [{values: {title: 'again'}}])).toEqual({error: 'invalid_import', message: 'channel "kit" already exists in this database'});
	});

	it('malformed items', () => {
		const good = channelWith(field({key: 'title', is_required: true}));
		expect(refusedImport(good, ['title'])).toEqual({error: 'invalid_import', message: 'items[0] must be an object with a "values" object'});
		expect(refusedImport(good, [{title: 'x'}])).toEqual({error: 'invalid_import', message: 'items[0] must be an object with a "values" object'});
		expect(refusedImport(good, [{values: {title: 'x'}, owner: 'it_0000000001'}])).toEqual({error: 'invalid_import', message: 'items[0] has an unknown key "owner"; items take "values", "created_at", "updated_at", "version" and "id"'});
		expect(refusedImport(good, [{values: {title: 'x'}, created_at: 'yesterday'}])).toEqual({error: 'invalid_import', message: 'items[0].created_at must be an ISO 8601 date (YYYY-MM-DD) or date-time with Z or an offset (2026-01-31T09:30:00Z), got "yesterday"'});
		expect(refusedImport(good, [JSON.parse('{"values": {"title": "x"}, "__proto__": {"values": 1}}')])).toEqual({error: 'invalid_import', message: 'items[0] has an unknown key "__proto__"; items take "values", "created_at", "updated_at", "version" and "id"'});
		expect(refusedImport(good, [{values: JSON.parse('{"title": "x", "constructor": 1}')}])).toEqual({error: 'invalid_import', message: 'items[0]: values.constructor is not a field of this channel'});
	});

	it('a bad item in the middle: nothing imported, and the same channel imports cleanly afterwards', () => {
		const items = [...generateBugItems({count: 10, seed: 4, now: new Date('2025-06-01T00:00:00Z')})];
		const bad = structuredClone(items);
		bad[5]!.values.status = 'New';
		expect(refusedImport(bugsChannel, bad)).toEqual({error: 'invalid_import', message: 'items[5]: values.status must be one of the option values, got "New"'});
		const dup = structuredClone(items);
		dup[7]!.values.ticket = dup[2]!.values.ticket;
		expect(refusedImport(bugsChannel, dup)).toMatchObject({error: 'invalid_import', message: expect.stringMatching(/^items\[7\]: values\.ticket must be unique, but item it_\w+ already has "BUG-0003"$/) as string});
		const result = store.importChannel({channel: bugsChannel, items});
		expect(result.items_created).toBe(10);
		expect(expectGapFree(store, 'bugs')).toBe(10);
	});

	it('an items iterable that throws part way: nothing imported', () => {
		function* exploding() {
			yield {values: {title: 'one'}};
			yield {values: {title: 'two'}};
			throw new Error('disk on fire');
		}

		const before = snapshot(store);
		expect(() => store.importChannel({channel: {...kitChannel, id: 'kit2'}, items: exploding()})).toThrow('disk on fire');
		expect(snapshot(store)).toEqual(before);
		expect(refusal(() => store.getChannel('kit2'))).toEqual({error: 'not_found', message: 'channel "kit2" does not exist'});
	});
});

describe('import', () => {
	it('streams a generator of demo items in one transaction, with import events', () => {
		const store = openStore(join(tempDir(), 'bugs.db'), {create: true});
		const result = store.importChannel({channel: bugsChannel, items: generateBugItems({count: 500, seed: 9})});
		expect(result.items_created).toBe(500);
		expect(store.listChannels()).toEqual([{id: 'bugs', name: 'Bugs', item_count: 500, latest_sequence: 500}]);
		expect(store.pollEvents('bugs', {limit: 1}).events[0]).toMatchObject({type: 'item.created', actor: {kind: 'import'}, version: 1});
		expect(store.getChannel('bugs')).toEqual(result.channel);
		// A canonical schema: defaults filled in.
		expect(result.channel.fields.every(entry => typeof entry.is_required === 'boolean' && typeof entry.config === 'object')).toBe(true);
		const created = store.createItem('bugs', {ticket: 'BUG-9999', title: 'new one'}, human);
		expect(created.sequence).toBe(501);
	});
});
