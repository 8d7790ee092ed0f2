// Field hotkeys: the demo's defaults, overrides from the config file, and every refused override.

import {describe, expect, it} from 'vitest';
import {fieldForKey, listKeys, resolveHotkeys, takesDefaultHotkey} from '../../../source/ui/model/hotkeys.js';
import {LIST_KEYS} from '../../../source/config/key-table.js';
import {demoField, demoFields, fieldOf} from './demo-channel.js';

const DEMO_DEFAULTS = {status: 's', owner: 'o', severity: 'v', points: 'p', area: 'a', due: 'd'};

describe('defaults', () => {
	it('the demo channel: s status, o owner, v severity, p points, a area, d due', () => {
		expect(resolveHotkeys(demoFields)).toEqual({hotkeys: DEMO_DEFAULTS, problems: []});
	});

	it('every default is free on the list and no letter is given twice', () => {
		const {hotkeys} = resolveHotkeys(demoFields);
		const list = listKeys();
		for (const letter of Object.values(hotkeys)) expect(list.has(letter)).toBe(false);
		expect(new Set(Object.values(hotkeys)).size).toBe(Object.keys(hotkeys).length);
	});

	it('text, long text, email, formula, json and relation fields get none by default', () => {
		expect(demoFields.filter(field => !takesDefaultHotkey(field)).map(field => field.key)).toEqual(['ticket', 'title', 'description', 'reporter', 'age_days']);
		expect(takesDefaultHotkey(fieldOf({key: 'meta', type: 'json'}))).toBe(false);
		expect(takesDefaultHotkey(fieldOf({key: 'done', type: 'boolean'}))).toBe(true);
	});

	it('a field whose letters are all taken gets none', () => {
		const fields = [fieldOf({key: 'ok', type: 'boolean'}), fieldOf({key: 'ko', type: 'boolean'}), fieldOf({key: 'ook', type: 'boolean'})];
		expect(resolveHotkeys(fields).hotkeys).toEqual({ok: 'o'});
	});

	it('follows the key table: a letter the list takes is skipped', () => {
		const globals = listKeys([...Object.values(LIST_KEYS), {keys: ['s'], label: 's', description: 'something new'}]);
		expect(resolveHotkeys(demoFields, {}, globals).hotkeys).toMatchObject({status: 't', severity: 'v'});
	});

	it('listKeys reads only the list scope', () => {
		const list = listKeys();
		expect(list.get('e')).toBe('edit a field of the row');
		expect(list.has('y')).toBe(false);
		expect(list.has('t')).toBe(false);
	});
});

describe('overrides', () => {
	it('an override wins, and defaults go around it', () => {
		const {hotkeys, problems} = resolveHotkeys(demoFields, {owner: 's', title: 'T'});
		expect(problems).toEqual([]);
		expect(hotkeys).toEqual({owner: 's', title: 'T', status: 't', severity: 'v', points: 'p', area: 'a', due: 'd'});
		expect(fieldForKey(hotkeys, 's')).toBe('owner');
		expect(fieldForKey(hotkeys, 'T')).toBe('title');
		expect(fieldForKey(hotkeys, 'z')).toBeUndefined();
	});

	it('none or null turns a field off', () => {
		// The freed s goes to the next field that wants it.
		expect(resolveHotkeys(demoFields, {status: 'none', due: null}).hotkeys).toEqual({owner: 'o', severity: 's', points: 'p', area: 'a'});
		expect(resolveHotkeys(demoFields, {status: 'None'}).hotkeys).not.toHaveProperty('status');
	});

	it('refuses an unknown field, naming the fields', () => {
		const {hotkeys, problems} = resolveHotkeys(demoFields, {sevrity: 'x'});
		expect(problems).toEqual([{field: 'sevrity', message: '"sevrity" is not a field of this channel; fields: ticket, title, description, status, owner, severity, points, area, due, reporter'}]);
		expect(hotkeys).toEqual(DEMO_DEFAULTS);
	});

	it('refuses a formula field', () => {
		expect(resolveHotkeys(demoFields, {age_days: 'y'}).problems).toEqual([{field: 'age_days', message: 'age_days is a formula field, computed when read, and cannot be edited'}]);
	});

	it('refuses anything but one letter, and the field keeps its default', () => {
		for (const letter of ['ss', '', '1', ':', 'é']) {
			const {hotkeys, problems} = resolveHotkeys(demoFields, {status: letter});
			expect(problems).toEqual([{field: 'status', message: `a hotkey is one letter (a–z, A–Z) or none, got ${JSON.stringify(letter)}`}]);
			expect(hotkeys.status).toBe('s');
		}
	});

	it('refuses a letter the list already uses, saying what it does there', () => {
		expect(resolveHotkeys(demoFields, {status: 'e'}).problems).toEqual([{field: 'status', message: 'e is already the list\'s key to edit a field of the row'}]);
		expect(resolveHotkeys(demoFields, {owner: 'G'}).problems).toEqual([{field: 'owner', message: 'G is already the list\'s key to the oldest record'}]);
	});

	it('refuses a letter given to two fields: the first keeps it', () => {
		const {hotkeys, problems} = resolveHotkeys(demoFields, {owner: 'w', area: 'w'});
		expect(problems).toEqual([{field: 'area', message: 'w is already the hotkey of owner'}]);
		expect(hotkeys).toMatchObject({owner: 'w', area: 'a'});
	});

	it('works on a field the demo lacks', () => {
		expect(resolveHotkeys([demoField('status'), fieldOf({key: 'done', type: 'boolean'})], {done: 'D'}).hotkeys).toEqual({done: 'D', status: 's'});
	});
});
