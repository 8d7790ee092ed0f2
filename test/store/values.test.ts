// Values that JSON or SQLite cannot hold faithfully: deep nesting, numbers past the double range,
// timestamps Date.parse would guess at, and text cut in the middle of a surrogate pair. Each is
// refused with a validation_failed message naming the field, and a refused write leaves the file byte-identical.

import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {cutCodePoints, MAX_VALUE_NESTING, openStore, PREVIEW_TEXT_LENGTH, type Store} from '../../store/index.js';
import {quote} from '../../store/errors.js';
import {agent, cleanTempDirs, human, kitChannel, refusedUnchanged, tempDir} from './helpers.js';

afterAll(() => cleanTempDirs());

const hasLoneSurrogate = (text: string) => /\p{Cs}/u.test(text);

const nested = (depth: number, inner: unknown = 1): unknown => {
	let value: unknown = inner;
	for (let level = 0; level < depth; level++) {
		value = [value];
	}

	return value;
};

function kitFile(): {store: Store; path: string; id: string} {
	const path = join(tempDir(), 'values.db');
	const store = openStore(path, {create: true});
	store.importChannel({channel: kitChannel, items: [{values: {title: 'kept'}}]});
	const id = store.listPage('kit').items[0]!.id;
	return {store, path, id};
}

describe('import created_at is a real ISO 8601 timestamp, stored normalised', () => {
	const importWith = (createdAt: unknown) => {
		const {store, path} = kitFile();
		const result = refusedUnchanged(path, () => store.importChannel({channel: {...kitChannel, id: 'more'}, items: [{values: {title: 'x'}, created_at: createdAt}]}));
		store.close();
		return result;
	};

	it.each(['(2026-01-01) 2026-03-04', '2026-01-01 (comment)', '2026-02-30', '2026-13-01', '1', '2026', 'March 4, 2026', '2026-03-04T10:00:00', '2026-03-04 10:00Z', '2026-03-04T24:00Z', '2026-03-04T10:00+25:00', 12, '2025-02-29'])('refuses %j', createdAt => {
		expect(importWith(createdAt)).toEqual({error: 'invalid_import', message: `items[0].created_at must be an ISO 8601 date (YYYY-MM-DD) or date-time with Z or an offset (2026-01-31T09:30:00Z), got ${JSON.stringify(createdAt)}`});
	});

	it('stores accepted timestamps in toISOString form', () => {
		const store = openStore(join(tempDir(), 'ts.db'), {create: true});
		const given = ['2024-02-29', '2026-03-04T10:00Z', '2026-03-04T10:00:05.5+02:00', '2026-03-04T10:00:05.123456-01:30', '0050-06-01'];
		store.importChannel({channel: kitChannel, items: given.map(created_at => ({values: {title: 'x'}, created_at}))});
		const stored = (store.db.prepare('SELECT created_at FROM items ORDER BY seq').all() as Array<{created_at: string}>).map(row => row.created_at);
		// Ids (seq) follow created_at.
		expect(stored).toEqual(['0050-06-01T00:00:00.000Z', '2024-02-29T00:00:00.000Z', '2026-03-04T08:00:05.500Z', '2026-03-04T10:00:00.000Z', '2026-03-04T11:30:05.123Z']);
		store.close();
	});
});

describe(`values nest at most ${MAX_VALUE_NESTING} levels, on every write path`, () => {
	const deepMessage = `values.meta is nested too deeply: at most ${MAX_VALUE_NESTING} levels of arrays and objects`;

	it.each([MAX_VALUE_NESTING + 1, 1001, 5000, 200_000])('an edit or create %i levels deep is refused in the rejection shape', depth => {
		const {store, path, id} = kitFile();
		const expected = {error: 'validation_failed', fields: [{key: 'meta', message: deepMessage}]};
		expect(refusedUnchanged(path, () => store.editItem({channelId: 'kit', itemId: id, values: {meta: nested(depth)}, actor: human}))).toEqual(expected);
		expect(refusedUnchanged(path, () => store.editItem({channelId: 'kit', itemId: id, values: {meta: nested(depth)}, actor: agent(), idempotencyKey: 'k'}))).toEqual(expected);
		expect(refusedUnchanged(path, () => store.createItem('kit', {title: 'x', meta: nested(depth)}, human))).toEqual(expected);
		store.close();
	});

	it.each([MAX_VALUE_NESTING + 1, 1001, 5000])('an import item %i levels deep is refused naming the item', depth => {
		const {store, path} = kitFile();
		expect(refusedUnchanged(path, () => store.importChannel({channel: {...kitChannel, id: 'more'}, items: [{values: {title: 'a'}}, {values: {title: 'b', meta: {a: nested(depth - 1)}}}]})))
			.toEqual({error: 'invalid_import', message: `items[1]: ${deepMessage}`});
		store.close();
	});

	it(`exactly ${MAX_VALUE_NESTING} levels is stored and read back`, () => {
		const {store, id} = kitFile();
		expect(store.editItem({channelId: 'kit', itemId: id, values: {meta: nested(MAX_VALUE_NESTING)}, actor: human}).item.values.meta).toEqual(nested(MAX_VALUE_NESTING));
		expect(store.readItem('kit', id).values.meta).toEqual(nested(MAX_VALUE_NESTING));
		store.close();
	});
});

describe('numbers JSON cannot hold are refused, showing what was written', () => {
	it('Infinity (1e309 parsed) in number, json and other fields; all failing fields reported', () => {
		const {store, path, id} = kitFile();
		const values = {points: JSON.parse('1e309') as number, meta: JSON.parse('{"a": [1, -1e309]}') as unknown, ratio: Number.NaN, pct: Number.NEGATIVE_INFINITY};
		expect(refusedUnchanged(path, () => store.editItem({channelId: 'kit', itemId: id, values, actor: human}))).toEqual({error: 'validation_failed', fields: [
			{key: 'points', message: 'values.points must be a finite number, got Infinity'},
			{key: 'meta', message: 'values.meta must hold only finite numbers, got -Infinity inside it (a number too large for JSON)'},
			{key: 'ratio', message: 'values.ratio must be a finite number, got NaN'},
			{key: 'pct', message: 'values.pct must be a finite number, got -Infinity'},
		]});
		expect(refusedUnchanged(path, () => store.importChannel({channel: {...kitChannel, id: 'more'}, items: [{values: {title: 'x', meta: Number.POSITIVE_INFINITY}}]})))
			.toEqual({error: 'invalid_import', message: 'items[0]: values.meta must be a finite number, got Infinity'});
		store.close();
	});

	it('arguments that overflow are shown as written too', () => {
		const {store, path, id} = kitFile();
		expect(refusedUnchanged(path, () => store.editItem({channelId: 'kit', itemId: id, values: {title: 'x'}, actor: human, expectedVersion: Number.POSITIVE_INFINITY})))
			.toEqual({error: 'invalid_argument', message: 'expected_version must be a whole number 1 or greater, got Infinity'});
		expect(refusedUnchanged(path, () => store.pollEvents('kit', {afterSequence: Number.POSITIVE_INFINITY})))
			.toEqual({error: 'invalid_argument', message: 'after_sequence must be a whole number 0 or greater, got Infinity'});
		store.close();
	});

	it('quote() shows a non-finite number as written, not as null', () => {
		expect(quote(Number.POSITIVE_INFINITY)).toBe('Infinity');
		expect(quote(nested(100_000))).toBe('[...]');
	});

	it('a formula that overflows is null in every form, not Infinity in one and null in another', () => {
		const store = openStore(join(tempDir(), 'formula.db'), {create: true});
		const huge = `1${'0'.repeat(400)}`;
		store.importChannel({channel: {id: 'f', name: 'F', fields: [
			{key: 'n', label: 'N', type: 'number'},
			{key: 'literal', label: 'Literal', type: 'formula', config: {expression: huge}},
			{key: 'big', label: 'Big', type: 'formula', config: {expression: `${huge} + n`}},
			{key: 'times', label: 'Times', type: 'formula', config: {expression: 'n * n * n'}},
		]}, items: [{values: {n: 1e200}}]});
		const item = store.listPage('f').items[0]!;
		// A preview leaves empty values out; the full read shows them as null.
		expect(item.preview).toEqual({n: 1e200});
		expect(store.readItem('f', item.id).values).toEqual({n: 1e200, literal: null, big: null, times: null});
		store.close();
	});
});

describe('cuts never split a surrogate pair', () => {
	it('cutCodePoints counts code points and keeps pairs whole', () => {
		expect(cutCodePoints('ab😀cd', 3)).toBe('ab…');
		expect(cutCodePoints('a😀😀😀', 3)).toBe('a😀…');
		expect(cutCodePoints('😀😀😀', 3)).toBe('😀😀😀');
		expect(cutCodePoints('short', 10)).toBe('short');
		expect(cutCodePoints('abcdef', 4, '...')).toBe('a...');
	});

	it('a text preview of emoji is cut on a code point boundary with no lone surrogate', () => {
		const {store, id} = kitFile();
		const summary = `${'x'.repeat(PREVIEW_TEXT_LENGTH - 2)}${'😀'.repeat(10)}`;
		store.editItem({channelId: 'kit', itemId: id, values: {summary}, actor: human});
		const preview = store.listPage('kit').items[0]!.preview.summary as string;
		expect(hasLoneSurrogate(preview)).toBe(false);
		expect([...preview]).toHaveLength(PREVIEW_TEXT_LENGTH);
		expect(preview).toBe(`${'x'.repeat(PREVIEW_TEXT_LENGTH - 2)}😀…`);
		store.close();
	});

	it('quoted values in messages are cut whole too', () => {
		const {store, path, id} = kitFile();
		const body = refusedUnchanged(path, () => store.editItem({channelId: 'kit', itemId: id, values: {status: `${'a'.repeat(75)}😀😀😀😀`}, actor: human})) as {fields: Array<{message: string}>};
		expect(hasLoneSurrogate(body.fields[0]!.message)).toBe(false);
		expect(body.fields[0]!.message).toContain(`got "${'a'.repeat(75)}😀...`);
		store.close();
	});
});
