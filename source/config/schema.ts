/**
 * The settings of `config.yaml` (docs/reference.md#config-file) as zod schemas, one per key, so
 * a wrong key falls back to its default alone and the rest of the file still applies.
 */

import {z} from 'zod';
import {mcpEndpoint} from '../serve/endpoint.js';

/** A saved query shown as a tab: query language text (docs/reference.md#query-language), `sort:` included. */
export type View = {name: string; query: string};

export type Theme = 'default' | 'mono';

export type SiftConfig = {
	/** The tabs, in order: the default views, then the file's (a file view named like a default replaces it). */
	views: View[];
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
	/** The cursor moves on to the next row after an edit of one row (default true). */
	advance_after_edit?: boolean;
};

/** The views every channel starts with, in the query language; one a channel cannot run is left out. */
export const DEFAULT_VIEWS: readonly View[] = [
	{name: 'Inbox', query: 'status:new'},
	{name: 'Unassigned', query: 'owner:none -status:fixed,wont_fix sort:severity'},
	{name: 'Follow-ups', query: 'has:followup'},
	{name: 'All', query: ''},
];

export const DEFAULT_CONFIG: SiftConfig = {views: [...DEFAULT_VIEWS], hotkeys: {}, theme: 'default'};

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

export const viewSchema = z.strictObject({name: viewName, query: viewQuery});

/** A view as written, as one query text: `where` then `sort:` as a term. */
export function viewQueryText(query: z.infer<typeof viewQuery>): string {
	if (typeof query === 'string') return query;
	return [query.where ?? '', query.sort === undefined ? '' : `sort:${query.sort}`].filter(part => part !== '').join(' ');
}

/** One hotkey as written: its letter is checked against the channel and the keys later (source/ui/model/hotkeys.ts). */
export const hotkeySchema = z.union([z.string(), z.null()], {error: 'must be one letter, or none'});

/** Every top-level key but `views` and `hotkeys` (whose entries are checked one by one). */
export const settingSchemas = {
	instruction: text('text').min(1, {error: 'must not be empty'}),
	model: text('a model name').regex(/^\S+$/, {error: 'must be a model name without spaces'}),
	timeout: z.number({error: 'must be a number of seconds'}).int({error: 'must be a whole number of seconds'}).min(1, {error: 'must be 1 second or more'}).max(86_400, {error: 'must be at most 86400 seconds (a day)'}),
	theme: z.enum(['default', 'mono'], {error: 'must be default or mono'}),
	advance_after_edit: z.boolean({error: 'must be true or false'}),
	server: text('the http(s) URL of sift serve').refine(url => mcpEndpoint(url) !== null, {error: 'must be the http(s) URL of sift serve, e.g. http://127.0.0.1:7345'}),
} as const;

export const CONFIG_KEYS = ['views', 'hotkeys', ...Object.keys(settingSchemas)] as const;
