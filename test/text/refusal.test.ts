// A store refusal in words (source/text/refusal.ts): the same wording as one line (the CLI) and as
// lines (the TUI), values and field names escaped in both.

import {describe, expect, it} from 'vitest';
import type {StoreErrorBody} from '../../store/index.js';
import {describeRefusal} from '../../source/text/refusal.js';

const invalid: StoreErrorBody = {error: 'validation_failed', fields: [
	{key: 'status', message: 'status is not one of the options', allowed: [{value: 'new', label: 'New'}]},
	{key: 'points', message: 'points is above the maximum', max: 8},
]};
const conflict: StoreErrorBody = {error: 'version_conflict', message: 'the item changed since version 3', current_version: 4, changed_since: {'ti\u001B[2Jtle': {from: 'a', to: 'b\u0007'}}};

describe('describeRefusal', () => {
	it('words a validation refusal as one line and as lines, with what is allowed', () => {
		expect(describeRefusal(invalid, 'line')).toBe('refused: status is not one of the options (allowed: new (New)); points is above the maximum (allowed: … to 8)');
		expect(describeRefusal(invalid)).toBe('refused:\n  status is not one of the options\n    allowed: new (New)\n  points is above the maximum\n    allowed: … to 8');
	});

	it('words a version conflict with what changed, escaping field names and values in both layouts', () => {
		const line = describeRefusal(conflict, 'line');
		const lines = describeRefusal(conflict, 'lines');
		expect(line).toBe('the item changed since version 3; changed since: ti␛[2Jtle: a → b␇');
		expect(lines).toBe('the item changed since version 3\nchanged since:\n  ti␛[2Jtle: a → b␇');
		for (const text of [line, lines]) expect(text).not.toMatch(/[\u0000-\u0009\u000B-\u001F]/);
	});

	it('names the term of a bad query', () => {
		const body = {error: 'bad_query', message: 'unknown field', term: 'colour:red'} as unknown as StoreErrorBody;
		expect(describeRefusal(body, 'line')).toBe('bad query term "colour:red": unknown field');
	});
});
