// The field picker as pure functions: opening on the current value, digits, type-to-jump, none, multiple choice.

import {describe, expect, it} from 'vitest';
import {choosePicker, eraseInPicker, isPickable, movePicker, openPicker, pickerEntries, togglePicker, typeInPicker, type PickerState} from '../../../source/ui/model/picker.js';
import {demoField, fieldOf} from './demo-channel.js';

const status = demoField('status');
const severity = demoField('severity');
const tags = fieldOf({key: 'tags', type: 'multi_select', config: {options: [{value: 'ui', label: 'UI'}, {value: 'api', label: 'API'}, {value: 'db', label: 'Database'}]}});
const done = fieldOf({key: 'done', type: 'boolean'});
const required = fieldOf({key: 'kind', type: 'select', is_required: true, config: {options: [{value: 'bug', label: 'Bug'}, {value: 'feature', label: 'Feature'}]}});
const only = fieldOf({key: 'only', type: 'select', is_required: true, config: {options: [{value: 'x', label: 'X'}]}});

/** Types each character in turn, returning the last step. */
function type(state: PickerState, text: string) {
	let step: ReturnType<typeof typeInPicker> = {state};
	for (const character of text) step = typeInPicker(step.state, character);
	return step;
}

const labelAt = (state: PickerState) => state.entries[state.cursor]!.label;

describe('entries', () => {
	it('lists options with value and label in schema order, "none" last for an optional field', () => {
		expect(pickerEntries(status)).toEqual([
			{value: 'new', label: 'New', none: false},
			{value: 'triaged', label: 'Triaged', none: false},
			{value: 'in_progress', label: 'In progress', none: false},
			{value: 'fixed', label: 'Fixed', none: false},
			{value: 'wont_fix', label: "Won't fix", none: false},
			{value: null, label: 'none', none: true},
		]);
	});

	it('a required field has no "none"; a boolean offers Yes and No', () => {
		expect(pickerEntries(required).map(entry => entry.value)).toEqual(['bug', 'feature']);
		expect(pickerEntries(done)).toEqual([{value: true, label: 'Yes', none: false}, {value: false, label: 'No', none: false}, {value: null, label: 'none', none: true}]);
	});

	it('only select, multi_select and boolean fields are picked', () => {
		expect([status, tags, done].every(isPickable)).toBe(true);
		expect(isPickable(demoField('due'))).toBe(false);
		expect(() => pickerEntries(demoField('points'))).toThrow('points is a number field; a picker takes select, multi_select and boolean fields');
	});
});

describe('opening', () => {
	it('opens on the current value', () => {
		expect(openPicker(status, 'fixed')).toEqual({key: 'status', multiple: false, entries: pickerEntries(status), cursor: 3, typed: '', checked: []});
		expect(openPicker(done, false).cursor).toBe(1);
	});

	it('opens on "none" when the field is empty, on the first entry when it is required or holds an unknown value', () => {
		expect(labelAt(openPicker(status, null))).toBe('none');
		expect(labelAt(openPicker(status, undefined))).toBe('none');
		expect(openPicker(required, undefined).cursor).toBe(0);
		expect(openPicker(status, 'gone').cursor).toBe(0);
	});

	it('a multiple choice opens with its values checked, on the first of them', () => {
		const state = openPicker(tags, ['db', 'ui', 'unknown']);
		expect(state.checked).toEqual(['ui', 'db']);
		expect(state.cursor).toBe(0);
		expect(openPicker(tags, ['db']).cursor).toBe(2);
		expect(openPicker(tags, null)).toMatchObject({checked: [], cursor: 3});
	});
});

describe('moving and choosing', () => {
	it('moves with wrap-around both ways and forgets what was typed', () => {
		const state = type(openPicker(status, 'new'), 'tr').state;
		expect(state.typed).toBe('tr');
		expect(movePicker(state, 1)).toMatchObject({cursor: 2, typed: ''});
		expect(movePicker(openPicker(status, 'new'), -1).cursor).toBe(5);
		expect(movePicker(openPicker(status, null), 1).cursor).toBe(0);
		expect(movePicker(openPicker(status, 'new'), 13).cursor).toBe(1);
	});

	it('choosing writes the entry under the cursor; "none" writes null', () => {
		expect(choosePicker(openPicker(status, 'triaged'))).toEqual({value: 'triaged'});
		expect(choosePicker(openPicker(status, null))).toEqual({value: null});
		expect(choosePicker(openPicker(done, true))).toEqual({value: true});
	});
});

describe('digits', () => {
	it('1–9 pick the nth entry at once: s 2 sets status to its second option', () => {
		const step = typeInPicker(openPicker(status, 'new'), '2');
		expect(step.chosen).toEqual({value: 'triaged'});
		expect(step.state.cursor).toBe(1);
		expect(typeInPicker(openPicker(status, 'new'), '6').chosen).toEqual({value: null});
	});

	it('a number past the end is refused, naming the numbers that pick', () => {
		const state = openPicker(status, 'new');
		expect(typeInPicker(state, '7')).toEqual({state, notice: 'no choice 7; pick with 1–6'});
		const single = openPicker(only, 'x');
		expect(typeInPicker(single, '2')).toEqual({state: single, notice: 'no choice 2; pick with 1'});
	});

	it('after a typed prefix a digit is part of the prefix: "s3" jumps to S3 Minor without choosing', () => {
		const step = type(openPicker(severity, null), 's3');
		expect(step.chosen).toBeUndefined();
		expect(labelAt(step.state)).toBe('S3 Minor');
	});

	it('on a multiple choice a digit toggles that entry and chooses nothing', () => {
		const step = typeInPicker(openPicker(tags, ['ui']), '2');
		expect(step.chosen).toBeUndefined();
		expect(step.state).toMatchObject({cursor: 1, checked: ['ui', 'api']});
		expect(typeInPicker(step.state, '1').state.checked).toEqual(['api']);
	});
});

describe('typing to jump', () => {
	it('jumps to the first label starting with the typed prefix, any case', () => {
		const opened = openPicker(status, 'new');
		expect(labelAt(type(opened, 'F').state)).toBe('Fixed');
		expect(labelAt(type(opened, 'in').state)).toBe('In progress');
		expect(labelAt(type(opened, 'w').state)).toBe("Won't fix");
		expect(type(opened, 'tri').state.typed).toBe('tri');
	});

	it('matches a label before a value, and a value when no label matches', () => {
		// "s" starts no status label, but the value "s1" of severity's first label "S1 Critical" too: label wins.
		expect(labelAt(type(openPicker(severity, null), 's2').state)).toBe('S2 Major');
		// "wont" is no label's start ("Won't fix"), but it is the value wont_fix's.
		expect(labelAt(type(openPicker(status, 'new'), 'wont_').state)).toBe("Won't fix");
		expect(labelAt(type(openPicker(done, null), 'fa').state)).toBe('No');
	});

	it('"none" is reached by typing it', () => {
		const step = type(openPicker(status, 'new'), 'no');
		expect(labelAt(step.state)).toBe('none');
		expect(choosePicker(step.state)).toEqual({value: null});
	});

	it('a character that breaks the prefix starts a new one', () => {
		const step = type(openPicker(status, 'new'), 'fn');
		expect(step.state.typed).toBe('n');
		expect(labelAt(step.state)).toBe('New');
	});

	it('a character that matches nothing is refused and changes nothing', () => {
		const state = openPicker(status, 'triaged');
		expect(typeInPicker(state, 'z')).toEqual({state, notice: 'no choice starts with "z"; type the start of a label or value, or 1–6 to pick by number'});
		const typed = type(state, 'fi').state;
		expect(typeInPicker(typed, 'q')).toEqual({state: typed, notice: 'no choice starts with "fiq"; type the start of a label or value, or 1–6 to pick by number'});
	});

	it('backspace shortens the prefix and goes where the rest points; emptied, the cursor stays', () => {
		const typed = type(openPicker(status, 'new'), 'tr').state;
		expect(eraseInPicker(typed)).toMatchObject({typed: 't', cursor: 1});
		const fixed = type(openPicker(status, 'new'), 'fi').state;
		expect(eraseInPicker(eraseInPicker(fixed))).toMatchObject({typed: '', cursor: 3});
		expect(eraseInPicker(openPicker(status, 'new'))).toMatchObject({typed: '', cursor: 0});
	});
});

describe('multiple choice', () => {
	it('toggles entries, keeps option order and commits the checked set', () => {
		let state = openPicker(tags, []);
		expect(labelAt(state)).toBe('none');
		state = togglePicker(movePicker(state, -1));
		state = togglePicker(movePicker(state, -2));
		expect(state.checked).toEqual(['ui', 'db']);
		expect(choosePicker(state)).toEqual({value: ['ui', 'db']});
		expect(togglePicker(state).checked).toEqual(['db']);
	});

	it('"none" clears every check', () => {
		const state = movePicker(openPicker(tags, ['ui', 'api']), -1);
		expect(labelAt(state)).toBe('none');
		expect(choosePicker(togglePicker(state))).toEqual({value: []});
	});

	it('toggling a single choice does nothing', () => {
		const state = openPicker(status, 'new');
		expect(togglePicker(state)).toBe(state);
	});
});
