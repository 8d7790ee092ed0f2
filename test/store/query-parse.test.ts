// The query language parser on its own: every operator, and every refusal naming its term.

import {describe, expect, it} from 'vitest';
import {parseQuery} from '../../store/query/parse.js';
import type {Query, QueryRefusal} from '../../store/query/types.js';
import type {Field} from '../../store/index.js';
import {kitChannel, STATUS_ALLOWED} from './helpers.js';

const channel = kitChannel as unknown as {fields: Field[]};
// Midday local time: "today" is 2026-01-15 wherever the tests run.
const now = new Date(2026, 0, 15, 12, 0, 0);

function parsed(text: string): Query {
	const result = parseQuery(text, channel, {now});
	if ('error' in result) {
		return expect.unreachable(`refused ${text}: ${result.message}`);
	}

	return result;
}

function refused(text: string): QueryRefusal {
	const result = parseQuery(text, channel, {now});
	if (!('error' in result)) {
		return expect.unreachable(`accepted ${text}`);
	}

	return result;
}

const terms = (text: string) => parsed(text).terms;
const QUERYABLE = kitChannel.fields.filter(field => field.type !== 'formula').map(field => field.key);

describe('terms', () => {
	it('an empty query matches everything, newest first', () => {
		expect(parsed('')).toEqual({terms: [], sort: {key: 'id', descending: true}});
		expect(parsed('   ')).toEqual({terms: [], sort: {key: 'id', descending: true}});
	});

	it('field:value on a select takes the option value or its label, ignoring case', () => {
		for (const text of ['status:in_progress', 'status:IN_PROGRESS', 'status:"In progress"', 'status:"in PROGRESS"']) {
			expect(terms(text), text).toEqual([{kind: 'any_of', key: 'status', values: ['in_progress'], negated: false}]);
		}

		expect(terms('status:"won\'t fix"')).toEqual([{kind: 'any_of', key: 'status', values: ['wont_fix'], negated: false}]);
		expect(terms('status:NEW,"won\'t fix",in_progress')).toEqual([{kind: 'any_of', key: 'status', values: ['new', 'wont_fix', 'in_progress'], negated: false}]);
		expect(terms('title:"a, b",c')).toEqual([{kind: 'contains', key: 'title', needles: ['a, b', 'c'], negated: false}]);
	});

	it('field:a,b is any of; -field:value is not; several terms all hold', () => {
		expect(terms('status:new,wont_fix')).toEqual([{kind: 'any_of', key: 'status', values: ['new', 'wont_fix'], negated: false}]);
		expect(terms('-status:new done:true tags:ui,API')).toEqual([
			{kind: 'any_of', key: 'status', values: ['new'], negated: true},
			{kind: 'any_of', key: 'done', values: [true], negated: false},
			{kind: 'any_of', key: 'tags', values: ['ui', 'api'], negated: false},
		]);
	});

	it('field:none is empty, for any stored field', () => {
		for (const key of ['status', 'tags', 'due', 'points', 'title', 'meta', 'attachment', 'parent']) {
			expect(terms(`${key}:none`)).toEqual([{kind: 'none', key, negated: false}]);
		}

		expect(terms('-status:NONE')).toEqual([{kind: 'none', key: 'status', negated: true}]);
	});

	it('comparisons and ranges on numbers, currency, percentage, rating and dates', () => {
		expect(terms('points:>5')).toEqual([{kind: 'compare', key: 'points', op: '>', value: 5, negated: false}]);
		expect(terms('price:>=9.5 pct:<50 stars:<=2')).toEqual([
			{kind: 'compare', key: 'price', op: '>=', value: 9.5, negated: false},
			{kind: 'compare', key: 'pct', op: '<', value: 50, negated: false},
			{kind: 'compare', key: 'stars', op: '<=', value: 2, negated: false},
		]);
		expect(terms('ratio:-1.5..2')).toEqual([{kind: 'range', key: 'ratio', low: -1.5, high: 2, negated: false}]);
		expect(terms('stars:1..3')).toEqual([{kind: 'range', key: 'stars', low: 1, high: 3, negated: false}]);
		expect(terms('due:<=2026-12-07')).toEqual([{kind: 'compare', key: 'due', op: '<=', value: '2026-12-07', negated: false}]);
		expect(terms('due:2026-01-01..2026-02-01')).toEqual([{kind: 'range', key: 'due', low: '2026-01-01', high: '2026-02-01', negated: false}]);
		expect(terms('points:3,5')).toEqual([{kind: 'any_of', key: 'points', values: [3, 5], negated: false}]);
		expect(terms('due:2026-03-01')).toEqual([{kind: 'any_of', key: 'due', values: ['2026-03-01'], negated: false}]);
	});

	it('relative dates count from now: today, tomorrow, yesterday, +Nd, +Nw, -Nd, -Nw', () => {
		const cases: Array<[string, string]> = [
			['due:<today', '2026-01-15'], ['due:tomorrow', '2026-01-16'], ['due:yesterday', '2026-01-14'],
			['due:<+7d', '2026-01-22'], ['due:>-2w', '2026-01-01'], ['due:-20d', '2025-12-26'], ['due:+3w', '2026-02-05'], ['due:TODAY', '2026-01-15'],
		];
		for (const [text, day] of cases) {
			const [term] = terms(text) as Array<{value?: string; values?: string[]}>;
			expect(term!.value ?? term!.values![0], text).toBe(day);
		}

		expect(terms('due:today..+1w')).toEqual([{kind: 'range', key: 'due', low: '2026-01-15', high: '2026-01-22', negated: false}]);
		// Across a month and a year end.
		expect((parseQuery('due:+17d', channel, {now: new Date(2026, 11, 20, 12)}) as Query).terms[0]).toMatchObject({values: ['2027-01-06']});
	});

	it('has:followup, bare words, quoted phrases, and text fields by substring', () => {
		expect(terms('has:followup -has:followups')).toEqual([{kind: 'has_followup', negated: false}, {kind: 'has_followup', negated: true}]);
		expect(terms('Crash "two  Words" -noise')).toEqual([
			{kind: 'words', needle: 'crash', negated: false},
			{kind: 'words', needle: 'two  words', negated: false},
			{kind: 'words', needle: 'noise', negated: true},
		]);
		expect(terms('title:"Sync Stalls" reporter:dana,Lee')).toEqual([
			{kind: 'contains', key: 'title', needles: ['sync stalls'], negated: false},
			{kind: 'contains', key: 'reporter', needles: ['dana', 'lee'], negated: false},
		]);
		// A quoted value is literal: no list, no operator, no "none".
		expect(terms('title:"a,b" summary:"none" title:">5"')).toEqual([
			{kind: 'contains', key: 'title', needles: ['a,b'], negated: false},
			{kind: 'contains', key: 'summary', needles: ['none'], negated: false},
			{kind: 'contains', key: 'title', needles: ['>5'], negated: false},
		]);
		expect(terms('parent:it_0000000001')).toEqual([{kind: 'any_of', key: 'parent', values: ['it_0000000001'], negated: false}]);
		expect(terms('done:FALSE')).toEqual([{kind: 'any_of', key: 'done', values: [false], negated: false}]);
	});

	it('sort:field and sort:-field, on selects, booleans, numbers, dates, unique text and id', () => {
		expect(parsed('sort:due status:new').sort).toEqual({key: 'due', descending: false});
		expect(parsed('sort:-status').sort).toEqual({key: 'status', descending: true});
		for (const key of ['id', 'points', 'price', 'pct', 'stars', 'done', 'code']) {
			expect(parsed(`sort:-${key}`).sort).toEqual({key, descending: true});
		}

		expect(parsed('sort:-status').terms).toEqual([]);
	});
});

describe('refusals name the term, what is wrong, and what is allowed', () => {
	it('an unknown field lists the known ones', () => {
		expect(refused('stauts:new')).toEqual({error: 'bad_query', term: 'stauts:new', message: `stauts is not a field of this channel; known: ${[...QUERYABLE, 'created', 'updated', 'has', 'sort'].join(', ')}`, known: [...QUERYABLE, 'created', 'updated', 'has', 'sort']});
		expect(refused('status:new -__proto__:x')).toMatchObject({term: '-__proto__:x', message: expect.stringMatching(/^__proto__ is not a field of this channel/) as string});
		expect(refused('age_days:>3')).toMatchObject({term: 'age_days:>3', message: expect.stringMatching(/^age_days is a formula field, computed when read, and cannot be queried; known: /) as string});
	});

	it('a bad select value lists the allowed values with labels', () => {
		expect(refused('status:new,done')).toEqual({
			error: 'bad_query',
			term: 'status:new,done',
			message: '"done" is not an option of status; allowed: new (New), in_progress (In progress), wont_fix (Won\'t fix)',
			allowed: STATUS_ALLOWED,
		});
		expect(refused('tags:web')).toMatchObject({term: 'tags:web', allowed: [{value: 'ui', label: 'UI'}, {value: 'api', label: 'API'}]});
	});

	it('bad values for numbers, dates and booleans', () => {
		expect(refused('points:>many')).toEqual({error: 'bad_query', term: 'points:>many', message: 'points is a number field: use a number, got "many"'});
		expect(refused('price:1..x')).toMatchObject({message: 'price is a currency field: use a number, got "x"'});
		expect(refused('due:<friday')).toEqual({error: 'bad_query', term: 'due:<friday', message: 'due is a date field: use YYYY-MM-DD, today, tomorrow, yesterday, +Nd, -Nd, +Nw or -Nw, got "friday"'});
		expect(refused('due:2026-02-30')).toMatchObject({term: 'due:2026-02-30', message: expect.stringMatching(/got "2026-02-30"$/) as string});
		expect(refused('due:+7m')).toMatchObject({term: 'due:+7m'});
		expect(refused('done:yes')).toEqual({error: 'bad_query', term: 'done:yes', message: 'done is a boolean field: use true, false or none, got "yes"'});
	});

	it('operators where they do not apply, and values a field cannot be tested with', () => {
		expect(refused('status:>new')).toEqual({error: 'bad_query', term: 'status:>new', message: 'status is a select field; comparisons and ranges work on number, currency, percentage, rating and date fields'});
		expect(refused('title:a..b')).toMatchObject({message: expect.stringMatching(/^title is a text field; comparisons/) as string});
		expect(refused('meta:x')).toEqual({error: 'bad_query', term: 'meta:x', message: 'meta is a json field; it can only be tested with meta:none'});
		expect(refused('attachment:a.pdf')).toMatchObject({message: 'attachment is a file field; it can only be tested with attachment:none'});
	});

	it('malformed terms: no value, empty list entries, unclosed quotes, a lone dash', () => {
		expect(refused('status:')).toEqual({error: 'bad_query', term: 'status:', message: 'status: needs a value after "status:"'});
		expect(refused('status:new,,wont_fix')).toEqual({error: 'bad_query', term: 'status:new,,wont_fix', message: 'status has an empty value in its list'});
		expect(refused('title:"open ended')).toEqual({error: 'bad_query', term: 'title:"open ended', message: 'title:"open ended has a quote that is not closed'});
		expect(refused('""')).toEqual({error: 'bad_query', term: '""', message: '"" is empty'});
		expect(refused('has:bugs')).toEqual({error: 'bad_query', term: 'has:bugs', message: 'has: takes followup or proposal, got "bugs"', known: ['followup', 'proposal']});
	});

	it('sorts: unknown or unsortable fields list the sortable ones; one sort term only', () => {
		const sortable = ['id', 'title', 'code', 'summary', 'points', 'ratio', 'due', 'done', 'reporter', 'phone', 'site', 'status', 'tags', 'price', 'pct', 'stars', 'created', 'updated'];
		expect(refused('sort:colour')).toEqual({error: 'bad_query', term: 'sort:colour', message: `colour is not a field of this channel; sortable: ${sortable.join(', ')}`, known: sortable});
		expect(refused('sort:-notes')).toMatchObject({term: 'sort:-notes', message: `notes cannot be sorted (a long text field); sortable: ${sortable.join(', ')}`});
		expect(refused('sort:meta')).toMatchObject({message: expect.stringMatching(/^meta cannot be sorted \(a json field\)/) as string});
		expect(parseQuery('sort:-title', channel)).toMatchObject({sort: {key: 'title', descending: true}});
		expect(parseQuery('sort:tags', channel)).toMatchObject({sort: {key: 'tags', descending: false}});
		expect(refused('sort:due sort:-points')).toEqual({error: 'bad_query', term: 'sort:-points', message: 'a query takes one sort term'});
		expect(refused('-sort:due')).toEqual({error: 'bad_query', term: '-sort:due', message: 'a sort term cannot be negated; write sort:-field for descending order'});
		// An object's own machinery is no metadata name.
		expect(refused('sort:__proto__')).toMatchObject({term: 'sort:__proto__', message: expect.stringMatching(/^__proto__ is not a field of this channel; sortable: /) as string});
		expect(refused('constructor:>2026-01-01')).toMatchObject({message: expect.stringMatching(/^constructor is not a field of this channel; known: /) as string});
	});
});
