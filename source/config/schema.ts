/**
 * The settings of `config.yaml` (docs/reference.md#config-file): their types, defaults and the
 * rules a view's name keeps, and the shape of the config as loaded. Nothing here loads zod or
 * yaml: the TUI's first frame needs the defaults, and the file's own checks (config-file.ts)
 * load only when there is a file (docs/architecture.md#start-up).
 */

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
	/** A proposal at least this sure (0 < x ≤ 1) is accepted on arrival (docs/review.md#auto-accept); never by default. */
	auto_accept_above?: number;
	/** The cursor moves on to the next row after an edit of one row (default true). */
	advance_after_edit?: boolean;
	/**
	 * Tracker sync (docs/sync.md): the file holding the GitHub token (mode 0600), when no variable or
	 * gh gives one, and the Redmine key's (redmine_key_file); `live`: `sift serve` and the TUI keep their linked channels in step, polling every
	 * `interval` (a duration, default 60s) as `sift sync --watch` does.
	 */
	sync?: {github_token_file?: string; redmine_key_file?: string; live?: boolean; interval?: string};
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

/** A view's `query` as written: query text, or a map of `where` and `sort`. */
export type ViewQuery = string | {where?: string; sort?: string};

/** The keys a view takes, for the refusal of one it does not. */
export const VIEW_KEYS = ['name', 'query', 'columns'] as const;

/** A view as written, as one query text: `where` then `sort:` as a term. */
export function viewQueryText(query: ViewQuery): string {
	if (typeof query === 'string') return query;
	return [query.where ?? '', query.sort === undefined ? '' : `sort:${query.sort}`].filter(part => part !== '').join(' ');
}

/** Every top-level key but `views`, `channels` and `hotkeys` (whose entries are checked one by one); config-file.ts has a check for each. */
export const SETTING_KEYS = ['default_channel', 'default_view', 'instruction', 'model', 'timeout', 'theme', 'advance_after_edit', 'server', 'agent_mode', 'auto_accept_above', 'sync'] as const;

export type SettingKey = typeof SETTING_KEYS[number];

export const CONFIG_KEYS = ['views', 'channels', 'hotkeys', ...SETTING_KEYS] as const;

/** The keys of one channel's entry under `channels:`. */
export const CHANNEL_KEYS = ['views', 'default_view'] as const;

/** A place in the file: keys and list indexes, from the top. */
export type Segment = string | number;

export type LoadedConfig = {
	path: string;
	config: SiftConfig;
	/** One line each, safe to show: what was ignored and why. */
	problems: string[];
	/** The file's top-level views by lowercased name → their index in its list (a default view is not there). */
	fileViews: ReadonlyMap<string, number>;
	/** Each channel's views (`channels.ID.views`) by lowercased name → their index in that list. */
	channelViews: ReadonlyMap<string, ReadonlyMap<string, number>>;
	/** Formats a problem at a place in the file: `config.yaml line 7: views[2].query: …`. */
	problemAt(at: Segment[], message: string): string;
};

/** `views[2].query: ` for a path, '' at the top. */
export function place(at: Segment[]): string {
	if (at.length === 0) return '';
	return `${at.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : `${index === 0 ? '' : '.'}${segment}`)).join('')}: `;
}

/** Puts `view` in place of the one with its name (any case), else at the end. */
export function setView(views: View[], view: View): void {
	const index = views.findIndex(other => other.name.toLowerCase() === view.name.toLowerCase());
	if (index >= 0) views[index] = view;
	else views.push(view);
}
