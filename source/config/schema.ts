/**
 * The settings of `config.yaml` (docs/reference.md#config-file) as zod schemas, one per key, so
 * a wrong key falls back to its default alone and the rest of the file still applies.
 */

import {z} from 'zod';
import {mcpEndpoint} from './server-url.js';

/**
 * A saved query shown as a tab: query language text (docs/reference.md#query-language), `sort:`
 * included; `columns`, when given, are the field keys the list shows for it, in order.
 */
export type View = {name: string; query: string; columns?: string[]};

/** What the config file says for one channel (`channels.ID`): its own views and the view it opens on. */
export type ChannelConfig = {views: View[]; defaultView?: string};

export type Theme = 'default' | 'mono';

export type SiftConfig = {
	/**
	 * The tabs of every channel, in order: the default views, then the file's top-level `views` (the
	 * older form, still read; a file view named like a default replaces it).
	 */
	views: View[];
	/** Each channel's own views and default view, by channel id (`channels:`; the form `:view save` writes). */
	channels: Record<string, ChannelConfig>;
	/** The channel the TUI opens on when `--channel` is not given. */
	defaultChannel?: string;
	/** The view the TUI opens on, unless the channel names its own. */
	defaultView?: string;
	/** Field key → one letter, or null to turn a field's default hotkey off. */
	hotkeys: Record<string, string | null>;
	/** The instruction a Codex run from the TUI starts with. */
	instruction?: string;
	/** The model Codex runs with. */
	model?: string;
	/** A run's deadline in seconds. */
	timeout?: number;
	/** `sift serve`'s URL: Codex runs from the TUI reach the store through it (docs/team-mode.md). */
	server?: string;
	/** `mono` draws without colors, as NO_COLOR does. */
	theme: Theme;
	/** propose: runs started from the TUI propose their edits for review (docs/review.md); default apply. */
	agent_mode?: 'propose' | 'apply';
	/** The cursor moves on to the next row after an edit of one row (default true). */
	advance_after_edit?: boolean;
};

/** The views every channel starts with, in the query language; one a channel cannot run is left out. */
export const DEFAULT_VIEWS: readonly View[] = [
	{name: 'Inbox', query: 'status:new'},
	{name: 'Unassigned', query: 'owner:none -status:fixed,wont_fix sort:severity'},
	{name: 'Follow-ups', query: 'has:followup'},
	{name: 'All', query: ''},
	{name: 'Review', query: 'has:proposal'},
];

/**
 * What stands in for a default view a channel cannot run, in order: the first the channel can
 * run takes its place (a channel without `owner` gets Open rather than no Unassigned tab).
 */
export const DEFAULT_VIEW_STAND_INS: Readonly<Record<string, readonly View[]>> = {
	Inbox: [{name: 'New this week', query: 'created:>=-7d'}],
	Unassigned: [
		{name: 'Unassigned', query: 'owner:none -status:fixed,wont_fix'},
		{name: 'Unassigned', query: 'owner:none'},
		{name: 'Open', query: '-status:fixed,wont_fix sort:severity'},
		{name: 'Open', query: '-status:fixed,wont_fix'},
		{name: 'Recently changed', query: 'sort:-updated'},
	],
};

export const DEFAULT_CONFIG: SiftConfig = {views: [...DEFAULT_VIEWS], channels: {}, hotkeys: {}, theme: 'default'};

export const VIEW_NAME_MAX = 40;

/** Why `name` cannot name a view, or undefined when it can. */
export function viewNameProblem(name: string): string | undefined {
	if (name.trim() === '') return 'a view name cannot be empty';
	if (name.trim() !== name) return 'a view name cannot start or end with spaces';
	if ([...name].length > VIEW_NAME_MAX) return `a view name is at most ${VIEW_NAME_MAX} characters`;
	if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'a view name cannot hold control characters';
	return undefined;
}

const text = (what: string) => z.string({error: `must be ${what}`});

const viewName = text('text').superRefine((name, context) => {
	const problem = viewNameProblem(name);
	if (problem) context.addIssue({code: 'custom', message: problem});
});

const viewQuery = z.union([
	text('query text'),
	z.strictObject({where: text('query text').optional(), sort: text('a field key or -key').optional()}),
], {error: 'must be query text (status:new sort:-due), or a map of where and sort'});

const columns = z.array(text('a field key'), {error: 'must be a list of field keys'}).min(1, {error: 'must name at least one field'});

export const viewSchema = z.strictObject({name: viewName, query: viewQuery, columns: columns.optional()});

/** The keys a view takes, for the refusal of one it does not. */
export const VIEW_KEYS = ['name', 'query', 'columns'] as const;

/** A view as written, as one query text: `where` then `sort:` as a term. */
export function viewQueryText(query: z.infer<typeof viewQuery>): string {
	if (typeof query === 'string') return query;
	return [query.where ?? '', query.sort === undefined ? '' : `sort:${query.sort}`].filter(part => part !== '').join(' ');
}

/** One hotkey as written: its letter is checked against the channel and the keys later (source/ui/model/hotkeys.ts). */
export const hotkeySchema = z.union([z.string(), z.null()], {error: 'must be one letter, or none'});

/** Every top-level key but `views`, `channels` and `hotkeys` (whose entries are checked one by one). */
export const settingSchemas = {
	default_channel: text('a channel id').min(1, {error: 'must not be empty'}),
	default_view: viewName,
	instruction: text('text').min(1, {error: 'must not be empty'}),
	model: text('a model name').regex(/^\S+$/, {error: 'must be a model name without spaces'}),
	timeout: z.number({error: 'must be a number of seconds'}).int({error: 'must be a whole number of seconds'}).min(1, {error: 'must be 1 second or more'}).max(86_400, {error: 'must be at most 86400 seconds (a day)'}),
	theme: z.enum(['default', 'mono'], {error: 'must be default or mono'}),
	advance_after_edit: z.boolean({error: 'must be true or false'}),
	server: text('the http(s) URL of sift serve').refine(url => mcpEndpoint(url) !== null, {error: 'must be the http(s) URL of sift serve, e.g. http://127.0.0.1:7345'}),
	agent_mode: z.enum(['propose', 'apply'], {error: 'must be propose or apply'}),
} as const;

export const CONFIG_KEYS = ['views', 'channels', 'hotkeys', ...Object.keys(settingSchemas)] as const;

/** The keys of one channel's entry under `channels:`. */
export const CHANNEL_KEYS = ['views', 'default_view'] as const;
