// Field types and validation (docs/reference.md#field-types) on a real file: each of the 16 field types accepts its values exactly as
// given and refuses everything else with the documented message shape.

import {afterAll, beforeEach, describe, expect, it} from 'vitest';
import {FIELD_TYPES, type FieldProblem, type Store} from '../../store/index.js';
import {cleanTempDirs, human, KIT_WRITABLE, kitChannel, kitStore, refusal, snapshot, STATUS_ALLOWED} from './helpers.js';

const TAGS_ALLOWED = [{value: 'ui', label: 'UI'}, {value: 'api', label: 'API'}];
const BIG_JSON = {blob: 'x'.repeat(70_000)};
const BIG_JSON_BYTES = Buffer.byteLength(JSON.stringify(BIG_JSON));

type Case = {key: string; type: string; accepts: unknown[]; refuses: Array<[unknown, Omit<FieldProblem, 'key'>]>};

/** One row per field type of the kit channel; `refuses` gives the exact problem expected. */
const cases: Case[] = [
	{key: 'title', type: 'text', accepts: ['Crash on start', ' padded ', 'x'.repeat(20)], refuses: [
		[42, {message: 'values.title must be a string, got 42'}],
		['x'.repeat(21), {message: 'values.title must be at most 20 characters, got 21', max: 20}],
		[null, {message: 'values.title is required and cannot be cleared'}],
	]},
	{key: 'points', type: 'number', accepts: [0, 13, 5], refuses: [
		[14, {message: 'values.points must be between 0 and 13, got 14', min: 0, max: 13}],
		[-1, {message: 'values.points must be between 0 and 13, got -1', min: 0, max: 13}],
		[13.5, {message: 'values.points must be an integer, got 13.5'}],
		['5', {message: 'values.points must be a number, got "5"'}],
		['20 points', {message: 'values.points must be a number, got "20 points"'}],
	]},
	{key: 'ratio', type: 'number', accepts: [0.333, -5e10, 7], refuses: [
		[true, {message: 'values.ratio must be a number, got true'}],
		[[1], {message: 'values.ratio must be a number, got [1]'}],
	]},
	{key: 'due', type: 'date', accepts: ['2024-02-29', '1999-12-31'], refuses: [
		['Friday', {message: 'values.due must be a date as YYYY-MM-DD, got "Friday"; sift edit/add and the TUI also read today, +3d or friday'}],
		['2023-02-29', {message: 'values.due must be a date as YYYY-MM-DD, got "2023-02-29"; sift edit/add and the TUI also read today, +3d or friday'}],
		['2024-2-3', {message: 'values.due must be a date as YYYY-MM-DD, got "2024-2-3"; sift edit/add and the TUI also read today, +3d or friday'}],
		['2024-02-29T00:00:00Z', {message: 'values.due must be a date as YYYY-MM-DD, got "2024-02-29T00:00:00Z"; sift edit/add and the TUI also read today, +3d or friday'}],
		[20_240_229, {message: 'values.due must be a date as YYYY-MM-DD, got 20240229; sift edit/add and the TUI also read today, +3d or friday'}],
	]},
	{key: 'done', type: 'boolean', accepts: [true, false], refuses: [
		['true', {message: 'values.done must be true or false, got "true"'}],
		[1, {message: 'values.done must be true or false, got 1'}],
		[0, {message: 'values.done must be true or false, got 0'}],
	]},
	{key: 'reporter', type: 'email', accepts: ['a.b@example.com', 'x+tag@mail.example.co.uk'], refuses: [
		['a@b', {message: 'values.reporter must be an email address like name@example.com, got "a@b"'}],
		['a b@example.com', {message: 'values.reporter must be an email address like name@example.com, got "a b@example.com"'}],
		['a@@example.com', {message: 'values.reporter must be an email address like name@example.com, got "a@@example.com"'}],
		[' a@example.com', {message: 'values.reporter must be an email address like name@example.com, got " a@example.com"'}],
	]},
	{key: 'phone', type: 'phone', accepts: ['+1 (555) 123-4567', '0123456', '555.123.4567'], refuses: [
		['12345', {message: 'values.phone must have 7 to 15 digits, got 5 in "12345"'}],
		['1234567890123456', {message: 'values.phone must have 7 to 15 digits, got 16 in "1234567890123456"'}],
		['call 555-1234', {message: 'values.phone must be a phone number of digits, spaces and + - ( ) ., got "call 555-1234"'}],
		[5_551_234_567, {message: 'values.phone must be a phone number of digits, spaces and + - ( ) ., got 5551234567'}],
	]},
	{key: 'site', type: 'url', accepts: ['https://example.com/x?y=1', 'http://localhost:8080/'], refuses: [
		['ftp://example.com', {message: 'values.site must be an absolute http: or https: URL, got "ftp://example.com"'}],
		['example.com', {message: 'values.site must be an absolute http: or https: URL, got "example.com"'}],
		['javascript:alert(1)', {message: 'values.site must be an absolute http: or https: URL, got "javascript:alert(1)"'}],
		[' https://example.com', {message: 'values.site must be an absolute http: or https: URL, got " https://example.com"'}],
	]},
	{key: 'status', type: 'select', accepts: ['new', 'wont_fix', null], refuses: [
		['New', {message: 'values.status must be one of the option values, got "New"', allowed: STATUS_ALLOWED}],
		[' new', {message: 'values.status must be one of the option values, got " new"', allowed: STATUS_ALLOWED}],
		['In progress', {message: 'values.status must be one of the option values, got "In progress"', allowed: STATUS_ALLOWED}],
		["Won't fix", {message: 'values.status must be one of the option values, got "Won\'t fix"', allowed: STATUS_ALLOWED}],
		['NEW', {message: 'values.status must be one of the option values, got "NEW"', allowed: STATUS_ALLOWED}],
		[3, {message: 'values.status must be one of the option values, got 3', allowed: STATUS_ALLOWED}],
	]},
	{key: 'tags', type: 'multi_select', accepts: [[], ['ui', 'api'], ['api']], refuses: [
		['ui', {message: 'values.tags must be an array of option values, got "ui"', allowed: TAGS_ALLOWED}],
		[['UI'], {message: 'values.tags must be one of the option values, got "UI"', allowed: TAGS_ALLOWED}],
		[['ui', 5, 'x'], {message: 'values.tags must be one of the option values, got 5, "x"', allowed: TAGS_ALLOWED}],
		[['ui', 'ui'], {message: 'values.tags must list each option value once, got ["ui","ui"]', allowed: TAGS_ALLOWED}],
	]},
	{key: 'price', type: 'currency', accepts: [0, 19.99, 1000, 0.1], refuses: [
		[1.234, {message: 'values.price must have at most 2 decimals, got 1.234'}],
		[1000.01, {message: 'values.price must be between 0 and 1000, got 1000.01', min: 0, max: 1000}],
		[-1, {message: 'values.price must be between 0 and 1000, got -1', min: 0, max: 1000}],
		['19.99', {message: 'values.price must be a number, got "19.99"'}],
	]},
	{key: 'pct', type: 'percentage', accepts: [0, 100, 55.5], refuses: [
		[101, {message: 'values.pct must be between 0 and 100, got 101', min: 0, max: 100}],
		[-0.1, {message: 'values.pct must be between 0 and 100, got -0.1', min: 0, max: 100}],
		['50%', {message: 'values.pct must be a number, got "50%"'}],
	]},
	{key: 'stars', type: 'rating', accepts: [1, 5, 3], refuses: [
		[0, {message: 'values.stars must be between 1 and 5, got 0', min: 1, max: 5}],
		[6, {message: 'values.stars must be between 1 and 5, got 6', min: 1, max: 5}],
		[4.5, {message: 'values.stars must be a whole number of stars from 1 to 5, got 4.5', min: 1, max: 5}],
		['5', {message: 'values.stars must be a whole number of stars from 1 to 5, got "5"', min: 1, max: 5}],
	]},
	{key: 'parent', type: 'relation', accepts: ['<existing>'], refuses: [
		['it_zzzzzzzzzz', {message: 'values.parent must be the id of an existing item in channel kit, got "it_zzzzzzzzzz"'}],
		[5, {message: 'values.parent must be the id of an existing item in channel kit, got 5'}],
	]},
	{key: 'attachment', type: 'file', accepts: [{name: 'a.png', url: 'https://files.example/a.png'}], refuses: [
		[{name: 'a.png'}, {message: 'values.attachment must be {name, url} with an http(s) url, got {"name":"a.png"}'}],
		[{name: 'a', url: 'ftp://x.example/a'}, {message: 'values.attachment must be {name, url} with an http(s) url, got {"name":"a","url":"ftp://x.example/a"}'}],
		[{name: 'a', url: 'https://x.example/a', size: 3}, {message: 'values.attachment must be {name, url} with an http(s) url, got {"name":"a","url":"https://x.example/a","size":3}'}],
		['a.png', {message: 'values.attachment must be {name, url} with an http(s) url, got "a.png"'}],
	]},
	{key: 'meta', type: 'json', accepts: [{a: [1, 2, {b: null}]}, 'text', 0, [], false], refuses: [
		[BIG_JSON, {message: `values.meta must be at most 65536 bytes as JSON, got ${BIG_JSON_BYTES}`, max: 65_536}],
	]},
	{key: 'age_days', type: 'formula', accepts: [], refuses: [
		[5, {message: 'values.age_days is a formula field and is computed, not written'}],
		[null, {message: 'values.age_days is a formula field and is computed, not written'}],
	]},
];

describe('field types', () => {
	let store: Store;
	let itemId: string;
	let otherId: string;

	beforeEach(() => {
		store = kitStore();
		otherId = store.createItem('kit', {title: 'other'}, human).item.id;
		itemId = store.createItem('kit', {title: 'target', points: 3, status: 'in_progress', price: 5}, human).item.id;
	});

	afterAll(() => cleanTempDirs());

	it('the cases cover all 16 types', () => {
		expect(new Set(cases.map(entry => entry.type))).toEqual(new Set(FIELD_TYPES));
		for (const entry of cases) {
			expect(kitChannel.fields.find(field => field.key === entry.key)?.type).toBe(entry.type);
		}
	});

	for (const entry of cases) {
		if (entry.accepts.length > 0) {
			it(`${entry.type}: accepts ${entry.accepts.map(value => JSON.stringify(value)).join(', ')} and stores them exactly`, () => {
				for (const raw of entry.accepts) {
					const value = raw === '<existing>' ? otherId : raw;
					const result = store.editItem({channelId: 'kit', itemId, values: {[entry.key]: value}, actor: human});
					expect(result.item.values[entry.key]).toStrictEqual(value);
					expect(store.readItem('kit', itemId).values[entry.key]).toStrictEqual(value);
				}
			});
		}

		it(`${entry.type}: refuses ${entry.refuses.map(([value]) => JSON.stringify(value)?.slice(0, 30)).join(', ')} and changes nothing`, () => {
			for (const [value, expected] of entry.refuses) {
				const before = snapshot(store);
				const body = refusal(() => store.editItem({channelId: 'kit', itemId, values: {[entry.key]: value}, actor: human}));
				expect(body).toEqual({error: 'validation_failed', fields: [{key: entry.key, ...expected}]});
				expect(snapshot(store)).toEqual(before);
			}
		});
	}

	it('reports every failing field at once, in the order given, and keeps the good ones out too', () => {
		const body = refusal(() => store.editItem({channelId: 'kit', itemId, actor: human, values: {
			status: 'In progress', title: 'fine', points: 20, due: 'Friday', age_days: 3, colour: 'red',
		}}));
		expect(body).toEqual({error: 'validation_failed', fields: [
			{key: 'status', message: 'values.status must be one of the option values, got "In progress"', allowed: STATUS_ALLOWED},
			{key: 'points', message: 'values.points must be between 0 and 13, got 20', min: 0, max: 13},
			{key: 'due', message: 'values.due must be a date as YYYY-MM-DD, got "Friday"; sift edit/add and the TUI also read today, +3d or friday'},
			{key: 'age_days', message: 'values.age_days is a formula field and is computed, not written'},
			{key: 'colour', message: 'values.colour is not a field of this channel', known: KIT_WRITABLE},
		]});
		expect(store.readItem('kit', itemId).values.title).toBe('target');
	});

	it('unknown keys list the known (writable) keys', () => {
		const body = refusal(() => store.editItem({channelId: 'kit', itemId, values: {colour: 'red'}, actor: human}));
		expect(body).toEqual({error: 'validation_failed', fields: [{key: 'colour', message: 'values.colour is not a field of this channel', known: KIT_WRITABLE}]});
		expect(KIT_WRITABLE).not.toContain('age_days');
	});

	it('never converts a label, trims a string or clamps a number', () => {
		for (const [values, key] of [[{status: 'New'}, 'status'], [{status: ' new'}, 'status'], [{status: 'new '}, 'status'], [{points: 13.5}, 'points'], [{points: 14}, 'points'], [{price: 1000.5}, 'price'], [{stars: 7}, 'stars']] as const) {
			const body = refusal(() => store.editItem({channelId: 'kit', itemId, values, actor: human}));
			expect(body.error).toBe('validation_failed');
			expect(body.error === 'validation_failed' && body.fields.map(field => field.key)).toEqual([key]);
		}

		const item = store.readItem('kit', itemId);
		expect(item.version).toBe(1);
		expect(item.values).toMatchObject({status: 'in_progress', points: 3, price: 5, stars: null});
		// Accepted strings keep their spaces.
		store.editItem({channelId: 'kit', itemId, values: {title: '  spaced  '}, actor: human});
		expect(store.readItem('kit', itemId).values.title).toBe('  spaced  ');
	});

	it('required: left out on create, or cleared with null on edit', () => {
		expect(refusal(() => store.createItem('kit', {code: 'X-1'}, human))).toEqual({error: 'validation_failed', fields: [{key: 'title', message: 'values.title is required'}]});
		expect(refusal(() => store.createItem('kit', {}, human))).toEqual({error: 'validation_failed', fields: [{key: 'title', message: 'values.title is required'}]});
		expect(refusal(() => store.editItem({channelId: 'kit', itemId, values: {title: null}, actor: human}))).toEqual({
			error: 'validation_failed', fields: [{key: 'title', message: 'values.title is required and cannot be cleared'}],
		});
	});

	it('null clears a field that is not required', () => {
		const result = store.editItem({channelId: 'kit', itemId, values: {points: null, status: null}, actor: human});
		expect(result.item.values).toMatchObject({points: null, status: null, double_points: null});
		const stored = JSON.parse((store.db.prepare('SELECT data FROM items WHERE id = ?').get(itemId) as {data: string}).data) as Record<string, unknown>;
		expect(Object.keys(stored)).not.toContain('points');
	});

	it('an empty values object is refused on edit', () => {
		const before = snapshot(store);
		expect(refusal(() => store.editItem({channelId: 'kit', itemId, values: {}, actor: human}))).toEqual({
			error: 'validation_failed', fields: [{key: 'values', message: 'values must set at least one field, got {}'}],
		});
		expect(snapshot(store)).toEqual(before);
	});

	it('unique: names the item that holds the value; the holder itself may keep it', () => {
		store.editItem({channelId: 'kit', itemId: otherId, values: {code: 'A-1'}, actor: human});
		const before = snapshot(store);
		expect(refusal(() => store.editItem({channelId: 'kit', itemId, values: {code: 'A-1'}, actor: human}))).toEqual({
			error: 'validation_failed',
			fields: [{key: 'code', message: `values.code must be unique, but item ${otherId} already has "A-1"`, item_id: otherId}],
		});
		expect(refusal(() => store.createItem('kit', {title: 'third', code: 'A-1'}, human))).toMatchObject({fields: [{key: 'code', item_id: otherId}]});
		expect(snapshot(store)).toEqual(before);
		// Not normalized: a different case is a different value.
		expect(store.editItem({channelId: 'kit', itemId, values: {code: 'a-1'}, actor: human}).item.values.code).toBe('a-1');
		// Writing the value an item already holds is no clash with itself.
		expect(store.editItem({channelId: 'kit', itemId: otherId, values: {code: 'A-1', title: 'other 2'}, actor: human}).item.version).toBe(3);
		// Once the holder is gone the value is free.
		store.deleteItem('kit', otherId, human);
		expect(store.editItem({channelId: 'kit', itemId, values: {code: 'A-1'}, actor: human}).item.values.code).toBe('A-1');
	});

	it('the message for a huge wrong value stays short', () => {
		const huge = 'x'.repeat(500_000);
		// Text takes up to 1 MiB, so its huge wrong value is one past that.
		for (const values of [{status: huge}, {due: huge}, {points: huge}, {summary: 'x'.repeat(1024 * 1024 + 1)}]) {
			const body = refusal(() => store.editItem({channelId: 'kit', itemId, values, actor: human}));
			expect(body.error).toBe('validation_failed');
			const message = body.error === 'validation_failed' ? body.fields[0]!.message : '';
			expect(message.length).toBeLessThan(200);
		}
	});
});
