// Dates typed into a date field: the query language's forms, weekday names, and the refusal.

import {describe, expect, it} from 'vitest';
import {DATE_INPUT_FORMS, resolveDateInput} from '../../../source/text/typed-value.js';
import {orList} from '../../../store/index.js';

// Midday local time on Wednesday 2026-12-02, so "today" is that day wherever the tests run.
const wednesday = new Date(2026, 11, 2, 12, 0, 0);
const friday = new Date(2026, 11, 4, 12, 0, 0);
const sunday = new Date(2026, 11, 6, 12, 0, 0);

const date = (text: string, now = wednesday) => {
	const result = resolveDateInput(text, now);
	return result.ok ? result.date : expect.unreachable(`refused ${text}: ${result.message}`);
};

const refusal = (text: string) => {
	const result = resolveDateInput(text, wednesday);
	return result.ok ? expect.unreachable(`accepted ${text} as ${result.date}`) : result.message;
};

describe('resolveDateInput', () => {
	it('reads the query language forms through the shared code, any case, spaces around ignored', () => {
		expect(date('today')).toBe('2026-12-02');
		expect(date('Tomorrow')).toBe('2026-12-03');
		expect(date('yesterday')).toBe('2026-12-01');
		expect(date('+3d')).toBe('2026-12-05');
		expect(date('-1w')).toBe('2026-11-25');
		expect(date('+4w')).toBe('2026-12-30');
		expect(date(' 2027-02-28 ')).toBe('2027-02-28');
	});

	it('a weekday is the first such day after today, one to seven days ahead', () => {
		expect(date('friday')).toBe('2026-12-04');
		expect(date('FRI')).toBe('2026-12-04');
		expect(date('thursday')).toBe('2026-12-03');
		expect(date('tuesday')).toBe('2026-12-08');
		expect(date('wednesday')).toBe('2026-12-09');
		expect(date('friday', friday)).toBe('2026-12-11');
		expect(date('mon', sunday)).toBe('2026-12-07');
	});

	it('next WEEKDAY is that day of next week (weeks start on Monday)', () => {
		expect(date('next monday')).toBe('2026-12-07');
		expect(date('next friday')).toBe('2026-12-11');
		expect(date('next  Sun')).toBe('2026-12-13');
		expect(date('next monday', sunday)).toBe('2026-12-07');
		expect(date('next sunday', sunday)).toBe('2026-12-13');
	});

	it('crosses months and years by the calendar', () => {
		expect(date('+30d')).toBe('2027-01-01');
		expect(date('friday', new Date(2026, 11, 30, 12))).toBe('2027-01-01');
	});

	it('refuses anything else, naming every form it takes', () => {
		const forms = 'use YYYY-MM-DD, today, tomorrow, yesterday, +Nd, -Nd, +Nw, -Nw, a weekday (friday, fri) or next WEEKDAY';
		expect(refusal('someday')).toBe(`not a date: "someday"; ${forms}`);
		expect(refusal('')).toBe(`not a date: nothing; ${forms}`);
		expect(refusal('   ')).toBe(`not a date: nothing; ${forms}`);
		expect(refusal('2026-02-30')).toContain('"2026-02-30"');
		expect(refusal('fr')).toContain('"fr"');
		expect(refusal('frid')).toContain('"frid"');
		expect(refusal('next')).toContain('"next"');
		expect(refusal('next week')).toContain('"next week"');
		expect(refusal('last friday')).toContain('"last friday"');
		expect(refusal('next +1d')).toContain('"next +1d"');
		expect(refusal('today tomorrow')).toContain('"today tomorrow"');
		expect(DATE_INPUT_FORMS).toHaveLength(10);
	});

	it('lists forms as a refusal writes them', () => {
		expect(orList([])).toBe('');
		expect(orList(['a'])).toBe('a');
		expect(orList(['a', 'b'])).toBe('a or b');
		expect(orList(['a', 'b', 'c'])).toBe('a, b or c');
	});

	it('escapes what it quotes back', () => {
		expect(refusal('\u001b[31m')).toContain('"\\u001b[31m"');
		expect(refusal('\u001b[31m')).not.toContain('\u001b');
	});
});
