/**
 * The `:` command line: what a line means, or a refusal naming what is allowed. Pure: the
 * channel's fields, the view names and the day relative dates count from are given.
 *
 *   :BUG-0042            jump to the item with that name (an id or a unique field's value)
 *   :sort -due           order the list (sort:±field of the query language)
 *   :view Unassigned     switch to a view          :view save NAME   save the current query as one
 *   :set owner ren       set a field on the marked rows, or on the row
 *   :channel add-option owner sam "Sam"   change the schema, as `sift channel` does (store.changeChannel)
 *   :channel tasks       switch to the channel with that id or name
 *   :problems            list what the config file has wrong
 *   :q  :quit            quit
 */

import {isRefusal, parseQuery, type Field, type SchemaChange} from '../../../store/index.js';
import {viewNameProblem} from '../../config/schema.js';
import {readTypedValue} from '../../text/typed-value.js';

export type Command =
	| {kind: 'nothing'}
	| {kind: 'jump'; name: string}
	/** `field` or `-field`. */
	| {kind: 'sort'; sort: string}
	| {kind: 'view'; name: string}
	| {kind: 'saveView'; name: string}
	/** `value` is what the store is sent: an option value, a date, a number, or null for none. */
	| {kind: 'set'; key: string; value: unknown}
	/** A schema change, as `sift channel` makes it. */
	| {kind: 'channel'; change: SchemaChange; text: string}
	/** `:channel NAME`: open the channel of that id or name. */
	| {kind: 'switchChannel'; name: string}
	/** `:problems`: the config file's problems, one a line. */
	| {kind: 'problems'}
	| {kind: 'quit'}
	/** `:propose on|off`: runs started from the screen propose their edits, or write them (docs/review.md). */
	| {kind: 'propose'; on: boolean};

/** Said as it is: a refusal that needs its command names it (`:set takes …`), never behind another `:`. */
export type CommandRefusal = {error: string};

export type CommandContext = {
	fields: Field[];
	/** The views' names, as the tabs show them. */
	views: string[];
	now: Date;
};

export const COMMANDS_HELP = ':ITEM (jump, as :BUG-0042), :sort [-]FIELD, :view NAME, :view save NAME, :set FIELD VALUE, :propose on|off, :channel NAME, :channel add-option|rename-label|retire-option|add-field|set …, :problems, :q';

const refuse = (error: string): CommandRefusal => ({error});

/** Splits off the first word: `["view", "save Mine"]`. */
function head(text: string): [string, string] {
	const match = /^(\S+)\s*(.*)$/s.exec(text);
	return match ? [match[1]!, match[2]!.trim()] : ['', ''];
}

/** Text as written, without a pair of double quotes around all of it. */
const unquote = (text: string) => (text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text);

/** What a command line says, with or without its leading `:`. */
export function parseCommand(line: string, context: CommandContext): Command | CommandRefusal {
	const text = line.trim().replace(/^:\s*/, '');
	if (text === '') {
		return {kind: 'nothing'};
	}

	const [word, rest] = head(text);
	switch (word.toLowerCase()) {
		case 'q':
		case 'quit': {
			return rest === '' ? {kind: 'quit'} : refuse(`:${word} takes nothing after it`);
		}

		case 'sort': {
			return sortCommand(rest, context);
		}

		case 'view': {
			return viewCommand(rest, context);
		}

		case 'set': {
			return setCommand(rest, context);
		}

		case 'channel': {
			return channelCommand(rest);
		}

		case 'problems': {
			return rest === '' ? {kind: 'problems'} : refuse(`:${word} takes nothing after it`);
		}

		case 'propose': {
			const state = rest.toLowerCase();
			return state === 'on' || state === 'off' ? {kind: 'propose', on: state === 'on'} : refuse(`:propose takes on or off, got "${rest}"`);
		}

		default: {
			if (rest !== '') {
				return refuse(`unknown command "${word}"; use ${COMMANDS_HELP}`);
			}

			return {kind: 'jump', name: word};
		}
	}
}

function sortCommand(rest: string, {fields, now}: CommandContext): Command | CommandRefusal {
	if (rest === '' || /\s/.test(rest)) {
		return refuse(':sort takes one field: :sort FIELD (ascending) or :sort -FIELD (descending)');
	}

	// `+due` reads as ascending, as sort:±field is written in the issue and the docs.
	const sort = rest.replace(/^\+/, '').toLowerCase();
	const parsed = parseQuery(`sort:${sort}`, {fields}, {now});
	return isRefusal(parsed) ? refuse(parsed.message) : {kind: 'sort', sort};
}

function viewCommand(rest: string, {views}: CommandContext): Command | CommandRefusal {
	const [word, name] = head(rest);
	if (word.toLowerCase() === 'save') {
		const saved = unquote(name);
		if (name === '') return refuse(':view save takes a name: :view save NAME');
		const problem = viewNameProblem(saved);
		return problem ? refuse(problem) : {kind: 'saveView', name: saved};
	}

	const wanted = unquote(rest);
	if (wanted === '') {
		return refuse(`:view takes a name: :view NAME (views: ${views.join(', ')}) or :view save NAME`);
	}

	const found = views.find(view => view.toLowerCase() === wanted.toLowerCase());
	return found === undefined ? refuse(`no view is named "${wanted}"; views: ${views.join(', ')}`) : {kind: 'view', name: found};
}

function setCommand(rest: string, {fields, now}: CommandContext): Command | CommandRefusal {
	const [key, written] = head(rest);
	const editable = fields.filter(field => field.type !== 'formula');
	if (key === '' || written === '') {
		return refuse(':set takes a field and a value: :set FIELD VALUE (none clears it)');
	}

	const field = fields.find(candidate => candidate.key === key.toLowerCase());
	if (!field) {
		return refuse(`${key} is not a field of this channel; fields: ${editable.map(other => other.key).join(', ')}`);
	}

	if (field.type === 'formula') {
		return refuse(`${field.key} is a formula field, computed when read, and cannot be set`);
	}

	// `none` as written (unquoted) clears; the rest is the one value reading the command line's
	// `sift edit` uses too (source/text/typed-value.ts): options by value or label, dates read, and
	// anything else to the store as typed, which refuses it naming the allowed values.
	if (written.toLowerCase() === 'none') {
		return {kind: 'set', key: field.key, value: field.type === 'multi_select' ? [] : null};
	}

	const typed = readTypedValue(field, unquote(written), now);
	return typed.ok ? {kind: 'set', key: field.key, value: typed.value} : refuse(typed.message);
}

const CHANNEL_USAGE = ':channel NAME (switch channel) | :channel add-option FIELD VALUE ["LABEL"] | rename-label FIELD VALUE "LABEL" | retire-option FIELD VALUE [MIGRATE_TO] | add-field KEY TYPE ["LABEL"] | set FIELD required|optional';

/** Words, a double-quoted run being one word (`sam "Sam Lee"` is two). */
function words(text: string): string[] | undefined {
	const found: string[] = [];
	const pattern = /"([^"]*)"|(\S+)/g;
	for (const match of text.matchAll(pattern)) {
		if (match[2]?.includes('"')) return undefined;
		found.push(match[1] ?? match[2]!);
	}

	return found;
}

/** The words after `:channel` that start a schema change; any other single word names a channel. */
const SCHEMA_CHANGES = ['add-option', 'rename-label', 'retire-option', 'add-field', 'set'];

/** `:channel …`: a channel to switch to, or the schema change `sift channel` would make, its arguments positional. */
function channelCommand(rest: string): Command | CommandRefusal {
	const parts = words(rest);
	if (!parts || parts.length === 0) return refuse(CHANNEL_USAGE);
	const [sub, ...args] = parts as [string, ...string[]];
	// One word that is not a schema change's names a channel to switch to.
	if (args.length === 0 && !SCHEMA_CHANGES.includes(sub.toLowerCase())) return {kind: 'switchChannel', name: sub};
	const count = (least: number, most: number) => args.length >= least && args.length <= most;
	const change = ((): SchemaChange | undefined => {
		switch (sub.toLowerCase()) {
			case 'add-option': { return count(2, 3) ? {kind: 'add_option', key: args[0]!, value: args[1]!, label: args[2]} : undefined; }
			case 'rename-label': { return count(3, 3) ? {kind: 'rename_label', key: args[0]!, value: args[1]!, label: args[2]!} : undefined; }
			case 'retire-option': { return count(2, 3) ? {kind: 'retire_option', key: args[0]!, value: args[1]!, migrateTo: args[2]} : undefined; }
			case 'add-field': { return count(2, 3) ? {kind: 'add_field', key: args[0]!, type: args[1]!, label: args[2]} : undefined; }
			case 'set': {
				const state = args[1]?.toLowerCase();
				return count(2, 2) && (state === 'required' || state === 'optional') ? {kind: 'set_field', key: args[0]!, required: state === 'required'} : undefined;
			}

			default: { return undefined; }
		}
	})();
	return change ? {kind: 'channel', change, text: `${sub} ${args.join(' ')}`} : refuse(CHANNEL_USAGE);
}
