// The `:` command line: every command, and every refusal naming what is allowed.

import {describe, expect, it} from 'vitest';
import {COMMANDS_HELP, parseCommand, type Command} from '../../../source/ui/model/command-line.js';
import {demoFields, fieldOf} from './demo-channel.js';
import {reduce} from '../../../source/ui/reducer.js';
import {fields as bugFields, listed} from '../overlays/fixtures.js';

const tags = fieldOf({key: 'tags', type: 'multi_select', config: {options: [{value: 'ui', label: 'UI'}, {value: 'api', label: 'API'}]}});
const done = fieldOf({key: 'done', type: 'boolean'});
const context = {fields: [...demoFields, tags, done], views: ['Inbox', 'Unassigned', 'Follow-ups', 'All', 'My queue'], now: new Date(2026, 11, 2, 12)};

const command = (line: string): Command => {
	const parsed = parseCommand(line, context);
	return 'error' in parsed ? expect.unreachable(`refused ${line}: ${parsed.error}`) : parsed;
};

const refusal = (line: string): string => {
	const parsed = parseCommand(line, context);
	return 'error' in parsed ? parsed.error : expect.unreachable(`accepted ${line}`);
};

describe('jump and quit', () => {
	it(':NAME jumps to the item of that name, with or without the colon and spaces', () => {
		expect(command(':BUG-0042')).toEqual({kind: 'jump', name: 'BUG-0042'});
		expect(command('  BUG-0042 ')).toEqual({kind: 'jump', name: 'BUG-0042'});
		expect(command(': 7k')).toEqual({kind: 'jump', name: '7k'});
	});

	it('an empty line does nothing', () => {
		expect(command(':')).toEqual({kind: 'nothing'});
		expect(command('   ')).toEqual({kind: 'nothing'});
	});

	it(':q and :quit quit, and take nothing after them', () => {
		expect(command(':q')).toEqual({kind: 'quit'});
		expect(command(':QUIT')).toEqual({kind: 'quit'});
		expect(refusal(':q now')).toBe(':q takes nothing after it');
	});

	it('two words that are no command are refused, naming the commands', () => {
		expect(refusal(':srot -due')).toBe(`unknown command "srot"; use ${COMMANDS_HELP}`);
		expect(COMMANDS_HELP).toBe(':ITEM (jump, as :BUG-0042), :sort [-]FIELD, :view NAME, :view save NAME, :set FIELD VALUE, :propose on|off, :channel NAME, :channel add-option|rename-label|retire-option|add-field|set …, :problems, :q');
	});
});

describe(':sort', () => {
	it('takes a sortable field, ascending, descending with -, + read as ascending', () => {
		expect(command(':sort -due')).toEqual({kind: 'sort', sort: '-due'});
		expect(command(':sort Severity')).toEqual({kind: 'sort', sort: 'severity'});
		expect(command(':sort +points')).toEqual({kind: 'sort', sort: 'points'});
		expect(command(':sort -id')).toEqual({kind: 'sort', sort: '-id'});
	});

	it('refuses what cannot be sorted in the query language\'s words, naming the sortable fields', () => {
		expect(refusal(':sort description')).toBe('description cannot be sorted (a long text field); sortable: id, ticket, title, status, owner, severity, points, area, due, reporter, tags, done, created, updated');
		expect(refusal(':sort colour')).toBe('colour is not a field of this channel; sortable: id, ticket, title, status, owner, severity, points, area, due, reporter, tags, done, created, updated');
		expect(command(':sort -title')).toEqual({kind: 'sort', sort: '-title'});
	});

	it('refuses no field or more than one', () => {
		const usage = ':sort takes one field: :sort FIELD (ascending) or :sort -FIELD (descending)';
		expect(refusal(':sort')).toBe(usage);
		expect(refusal(':sort due points')).toBe(usage);
	});
});

describe(':view', () => {
	it('switches to a view by name, any case, quotes allowed', () => {
		expect(command(':view unassigned')).toEqual({kind: 'view', name: 'Unassigned'});
		expect(command(':view my queue')).toEqual({kind: 'view', name: 'My queue'});
		expect(command(':view "My queue"')).toEqual({kind: 'view', name: 'My queue'});
	});

	it('refuses an unknown view or none, naming the views', () => {
		expect(refusal(':view Mine')).toBe('no view is named "Mine"; views: Inbox, Unassigned, Follow-ups, All, My queue');
		expect(refusal(':view')).toBe(':view takes a name: :view NAME (views: Inbox, Unassigned, Follow-ups, All, My queue) or :view save NAME');
	});

	it(':view save NAME saves under that name, new or not', () => {
		expect(command(':view save Sev one')).toEqual({kind: 'saveView', name: 'Sev one'});
		expect(command(':view SAVE "Inbox"')).toEqual({kind: 'saveView', name: 'Inbox'});
	});

	it(':view save refuses a missing or bad name', () => {
		expect(refusal(':view save')).toBe(':view save takes a name: :view save NAME');
		expect(refusal(':view save ""')).toBe('a view name cannot be empty');
		expect(refusal(`:view save ${'x'.repeat(41)}`)).toBe('a view name is at most 40 characters');
		expect(refusal(':view save a\u0007b')).toBe('a view name cannot hold control characters');
		expect(refusal(':view save " padded"')).toBe('a view name cannot start or end with spaces');
	});
});

describe(':set', () => {
	const set = (line: string) => {
		const parsed = command(line);
		return parsed.kind === 'set' ? {key: parsed.key, value: parsed.value} : expect.unreachable(`${line} is ${parsed.kind}`);
	};

	it('a select takes an option by value or by label, any case', () => {
		expect(set(':set owner ren')).toEqual({key: 'owner', value: 'ren'});
		expect(set(':set status In progress')).toEqual({key: 'status', value: 'in_progress'});
		expect(set(':set status "won\'t fix"')).toEqual({key: 'status', value: 'wont_fix'});
		expect(set(':set Severity S1')).toEqual({key: 'severity', value: 's1'});
	});

	it('an unknown option goes to the store as typed, which refuses it with the allowed values', () => {
		expect(set(':set owner bob')).toEqual({key: 'owner', value: 'bob'});
	});

	it('none clears; a multi_select to an empty list', () => {
		expect(set(':set owner none')).toEqual({key: 'owner', value: null});
		expect(set(':set tags NONE')).toEqual({key: 'tags', value: []});
	});

	it('a date takes relative dates, resolved to the ISO date', () => {
		expect(set(':set due friday')).toEqual({key: 'due', value: '2026-12-04'});
		expect(set(':set due next monday')).toEqual({key: 'due', value: '2026-12-07'});
		expect(set(':set due +1w')).toEqual({key: 'due', value: '2026-12-09'});
		expect(refusal(':set due someday')).toBe('due: not a date: "someday"; use YYYY-MM-DD, today, tomorrow, yesterday, +Nd, -Nd, +Nw, -Nw, a weekday (friday, fri) or next WEEKDAY');
	});

	it('a multi_select takes a comma list of values or labels, or JSON', () => {
		expect(set(':set tags UI, api')).toEqual({key: 'tags', value: ['ui', 'api']});
		expect(set(':set tags ["api"]')).toEqual({key: 'tags', value: ['api']});
	});

	it('numbers, booleans and text as the typed input reads them', () => {
		expect(set(':set points 5')).toEqual({key: 'points', value: 5});
		expect(set(':set points lots')).toEqual({key: 'points', value: 'lots'});
		expect(set(':set done true')).toEqual({key: 'done', value: true});
		expect(set(':set title Sync stalls after resume')).toEqual({key: 'title', value: 'Sync stalls after resume'});
	});

	it('refuses a missing field or value, an unknown field and a formula', () => {
		const usage = ':set takes a field and a value: :set FIELD VALUE (none clears it)';
		expect(refusal(':set')).toBe(usage);
		expect(refusal(':set owner')).toBe(usage);
		expect(refusal(':set sevrity s1')).toBe('sevrity is not a field of this channel; fields: ticket, title, description, status, owner, severity, points, area, due, reporter, tags, done');
		expect(refusal(':set age_days 3')).toBe('age_days is a formula field, computed when read, and cannot be set');
	});
});

describe(':channel', () => {
	it('reads the schema changes sift channel makes, a quoted label one word', () => {
		expect(command(':channel add-option owner sam "Sam"')).toEqual({kind: 'channel', change: {kind: 'add_option', key: 'owner', value: 'sam', label: 'Sam'}, text: 'add-option owner sam Sam'});
		expect(command(':channel add-option owner sam')).toMatchObject({change: {kind: 'add_option', key: 'owner', value: 'sam', label: undefined}});
		expect(command(':channel rename-label status wont_fix "Will not fix"')).toMatchObject({change: {kind: 'rename_label', key: 'status', value: 'wont_fix', label: 'Will not fix'}});
		expect(command(':channel retire-option status wont_fix fixed')).toMatchObject({change: {kind: 'retire_option', key: 'status', value: 'wont_fix', migrateTo: 'fixed'}});
		expect(command(':channel add-field sprint number "Sprint"')).toMatchObject({change: {kind: 'add_field', key: 'sprint', type: 'number', label: 'Sprint'}});
		expect(command(':channel set owner required')).toMatchObject({change: {kind: 'set_field', key: 'owner', required: true}});
	});

	it(':channel with one word that is not a schema change switches to the channel it names; :problems lists the config\'s problems', () => {
		expect(command(':channel tasks')).toEqual({kind: 'switchChannel', name: 'tasks'});
		expect(command(':channel "My tasks"')).toEqual({kind: 'switchChannel', name: 'My tasks'});
		expect(command('channel Bugs')).toEqual({kind: 'switchChannel', name: 'Bugs'});
		// A schema change's word alone is still the schema change, refused for its missing arguments.
		expect(refusal(':channel add-option')).toMatch(/^:channel NAME \(switch channel\) \| :channel add-option FIELD VALUE/);
		expect(refusal(':channel tasks bugs')).toMatch(/^:channel NAME \(switch channel\)/);
		expect(command(':problems')).toEqual({kind: 'problems'});
		expect(refusal(':problems now')).toBe(':problems takes nothing after it');
	});

	it('a malformed :channel is refused with its usage', () => {
		for (const line of [':channel', ':channel add-option owner', ':channel rename-label status new', ':channel set owner maybe', ':channel add-option owner sam "Sam" extra', ':channel add-option owner s"am']) {
			expect(refusal(line), line).toMatch(/^:channel NAME \(switch channel\) \| :channel add-option FIELD VALUE \["LABEL"\] \| rename-label/);
		}
	});
});

describe('refusals as the footer says them (defect 9)', () => {
	it('have no doubled or stray colon: a leading one is the command written', () => {
		const lines = [':sort description', ':sort', ':set', ':set status', ':set colour red', ':set due someday', ':view', ':view Nope', ':view save', ':q now', ':frob this', ':channel', 'sort description'];
		for (const line of lines) {
			const result = parseCommand(line, {...context, fields: bugFields, now: new Date(2026, 0, 7)});
			const {message} = reduce(listed(), {type: 'commandParsed', result}).state;
			expect(message?.tone, line).toBe('error');
			expect(message?.text, line).not.toMatch(/::/);
			expect(message?.text, line).toMatch(/^(?!:)|^:(sort|set|view|q|channel)\b/);
		}

		expect(reduce(listed(), {type: 'commandParsed', result: parseCommand(':sort description', {...context, fields: bugFields})}).state.message?.text).toMatch(/^description cannot be sorted/);
	});
});
