/**
 * config.yaml read and written as YAML (docs/reference.md#config-file): each setting checked by
 * its own zod schema, so a wrong key falls back to its default alone and the rest of the file
 * still applies, and each problem names its line and key; a view saved through the YAML
 * document, so comments and layout stay. Loaded only when there is a file to read or a view to
 * save (config.ts): yaml and zod cost the TUI's first frame tens of milliseconds
 * (docs/architecture.md#start-up).
 */

import {isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node} from 'yaml';
import {z} from 'zod';
import {sanitize} from '../text/sanitize.js';
import {CHANNEL_KEYS, CONFIG_KEYS, DEFAULT_CONFIG, place, setView, VIEW_KEYS, viewNameProblem, viewQueryText, type LoadedConfig, type Segment, type SettingKey, type SiftConfig, type View} from './schema.js';
import {mcpEndpoint} from './server-url.js';

const text = (what: string) => z.string({error: `must be ${what}`});

/** A duration as written in the config (30s, 5m, 1h, 500ms), in ms. */
export function durationMs(given: string): number {
	const match = /^(\d+)(ms|s|m|h)$/.exec(given.trim());
	return match ? Number(match[1]) * {ms: 1, s: 1000, m: 60_000, h: 3_600_000}[match[2] as 'ms' | 's' | 'm' | 'h'] : Number.NaN;
}

const viewName = text('text').superRefine((name, context) => {
	const problem = viewNameProblem(name);
	if (problem) context.addIssue({code: 'custom', message: problem});
});

const viewQuery = z.union([
	text('query text'),
	z.strictObject({where: text('query text').optional(), sort: text('a field key or -key').optional()}),
], {error: 'must be query text (status:new sort:-due), or a map of where and sort'});

const columns = z.array(text('a field key'), {error: 'must be a list of field keys'}).min(1, {error: 'must name at least one field'});

const viewSchema = z.strictObject({name: viewName, query: viewQuery, columns: columns.optional()});

/** One hotkey as written: its letter is checked against the channel and the keys later (source/ui/model/hotkeys.ts). */
const hotkeySchema = z.union([z.string(), z.null()], {error: 'must be one letter, or none'});

/** A check for each of SETTING_KEYS (schema.ts), no more and no fewer. */
const settingSchemas = {
	default_channel: text('a channel id').min(1, {error: 'must not be empty'}),
	default_view: viewName,
	instruction: text('text').min(1, {error: 'must not be empty'}),
	model: text('a model name').regex(/^\S+$/, {error: 'must be a model name without spaces'}),
	timeout: z.number({error: 'must be a number of seconds'}).int({error: 'must be a whole number of seconds'}).min(1, {error: 'must be 1 second or more'}).max(86_400, {error: 'must be at most 86400 seconds (a day)'}),
	theme: z.enum(['default', 'mono'], {error: 'must be default or mono'}),
	advance_after_edit: z.boolean({error: 'must be true or false'}),
	server: text('the http(s) URL of sift serve').refine(url => mcpEndpoint(url) !== null, {error: 'must be the http(s) URL of sift serve, e.g. http://127.0.0.1:7345'}),
	agent_mode: z.enum(['propose', 'apply'], {error: 'must be propose or apply'}),
	auto_accept_above: z.number({error: 'must be a number above 0 and at most 1'}).gt(0, {error: 'must be a number above 0 and at most 1'}).max(1, {error: 'must be a number above 0 and at most 1'}),
	sync: z.strictObject({
		github_token_file: text('a file path').min(1, {error: 'must not be empty'}).optional(),
		redmine_key_file: text('a file path').min(1, {error: 'must not be empty'}).optional(),
		live: z.boolean({error: 'must be true or false'}).optional(),
		interval: text('a duration such as 30s, 5m or 1h').regex(/^\d+(ms|s|m|h)$/, {error: 'must be a duration such as 30s, 5m or 1h'}).refine(given => durationMs(given) >= 100, {error: 'must be 100ms or more'}).optional(),
	}, {error: 'must be a map (github_token_file, redmine_key_file, live, interval)'}),
} as const satisfies Record<SettingKey, z.ZodType>;

/** The config as `text` (the file's contents) says, with its problems; or the YAML errors that make it unreadable. */
export function readConfigFile(file: string, label: string, text: string): LoadedConfig | {syntaxProblems: string[]} {
	const parsed = readDocument(text, label);
	if ('problems' in parsed) return {syntaxProblems: parsed.problems};
	return new Reader(file, label, parsed.document, parsed.lines).read();
}

type ParsedFile = {document: Document; lines: LineCounter} | {problems: string[]};

function readDocument(text: string, label: string): ParsedFile {
	const lines = new LineCounter();
	const document = parseDocument(text, {lineCounter: lines, prettyErrors: false, uniqueKeys: true});
	if (document.errors.length > 0) {
		return {problems: document.errors.map(error => `${label} line ${lines.linePos(error.pos[0]).line}: ${firstLine(error.message)}`)};
	}

	return {document, lines};
}

const firstLine = (text: string) => text.split('\n')[0]!.trim();

/** An empty file, or one of comments only: no settings, all defaults. */
const isEmpty = (contents: Document['contents']) => contents === null || (isScalar(contents) && (contents.value === null || contents.value === ''));

const keyList = (keys: readonly string[]) => keys.join(', ');

/** The settings whose key in the file is not their name in SiftConfig. */
const SETTING_FIELDS = {default_channel: 'defaultChannel', default_view: 'defaultView'} as const;

class Reader {
	private readonly problems: string[] = [];
	private readonly config: SiftConfig = structuredClone(DEFAULT_CONFIG);
	private readonly fileViews = new Map<string, number>();
	private readonly channelViews = new Map<string, Map<string, number>>();

	constructor(private readonly file: string, private readonly label: string, private readonly document: Document, private readonly lines: LineCounter) {}

	read(): LoadedConfig {
		const {contents} = this.document;
		const problemAt = (at: Segment[], message: string) => this.format(at, message);
		if (isEmpty(contents)) {
			return this.result(problemAt);
		}

		if (!isMap(contents)) {
			this.problems.push(this.format([], `should be a map of settings (keys: ${keyList(CONFIG_KEYS)}); using the defaults`));
			return this.result(problemAt);
		}

		let values: Record<string, unknown>;
		try {
			values = this.document.toJS() as Record<string, unknown>;
		} catch (error) {
			// Too many aliases (a "billion laughs" file), for one.
			this.problems.push(this.format([], `${firstLine((error as Error).message)}; using the defaults`));
			return this.result(problemAt);
		}

		for (const [key, value] of Object.entries(values)) {
			if (key === 'views') this.views(value);
			else if (key === 'channels') this.channels(value);
			else if (key === 'hotkeys') this.hotkeys(value);
			else if (Object.hasOwn(settingSchemas, key)) this.setting(key as keyof typeof settingSchemas, value);
			else this.problems.push(this.format([key], `unknown key '${key}' (keys: ${keyList(CONFIG_KEYS)}); ignored`, true));
		}

		return this.result(problemAt);
	}

	private result(problemAt: LoadedConfig['problemAt']): LoadedConfig {
		return {path: this.file, config: this.config, problems: this.problems, fileViews: this.fileViews, channelViews: this.channelViews, problemAt};
	}

	/** A problem at a place in the file, with its line; `atKey` points at the key rather than its value. */
	private format(at: Segment[], message: string, atKey = false): string {
		const line = this.lineOf(at, atKey);
		return sanitize(`${this.label}${line === undefined ? '' : ` line ${line}`}: ${place(atKey ? at.slice(0, -1) : at)}${message}`);
	}

	private lineOf(at: Segment[], atKey: boolean): number | undefined {
		let node: unknown = this.document.contents;
		let offset = (node as Node | null)?.range?.[0];
		for (const [index, segment] of at.entries()) {
			const last = index === at.length - 1;
			if (isMap(node)) {
				const pair = node.items.find(item => isScalar(item.key) && String(item.key.value) === String(segment));
				if (!pair) break;
				const keyOffset = (pair.key as Node).range?.[0];
				node = pair.value;
				offset = (last && atKey) || !(node as Node | null)?.range ? keyOffset : (node as Node).range![0];
			} else if (isSeq(node) && typeof segment === 'number' && node.items[segment] !== undefined) {
				node = node.items[segment];
				offset = (node as Node).range?.[0] ?? offset;
			} else {
				break;
			}
		}

		return offset === undefined ? undefined : this.lines.linePos(offset).line;
	}

	/** Each zod issue as a problem at its path under `at`. */
	private issues(at: Segment[], value: unknown, error: z.ZodError, outcome: string): void {
		for (const issue of error.issues) {
			const where = [...at, ...issue.path.map(segment => (typeof segment === 'symbol' ? String(segment) : segment))];
			if (issue.code === 'unrecognized_keys') {
				const known = issue.path.length === 0 && at.includes('views') ? VIEW_KEYS.join(', ') : 'where, sort';
				for (const key of issue.keys) this.problems.push(this.format([...where, key], `unknown key '${key}' (keys: ${known}); ${outcome}`, true));
			} else {
				const missing = where.length > at.length && valueAt(value, issue.path as Segment[]) === undefined;
				this.problems.push(missing ? this.format(where, `${String(where.at(-1))} is missing; ${outcome}`, true) : this.format(where, `${issue.message}; ${outcome}`));
			}
		}
	}

	private setting(key: keyof typeof settingSchemas, value: unknown): void {
		const parsed = settingSchemas[key].safeParse(value);
		const field = SETTING_FIELDS[key as keyof typeof SETTING_FIELDS] ?? key;
		if (parsed.success) {
			(this.config as Record<string, unknown>)[field] = parsed.data;
		} else {
			const fallback = (DEFAULT_CONFIG as Record<string, unknown>)[field];
			this.issues([key], value, parsed.error, fallback === undefined ? 'not set' : `using ${JSON.stringify(fallback)}`);
		}
	}

	/** The top-level `views`: the older form, a list every channel gets. */
	private views(value: unknown): void {
		this.viewList(['views'], value, this.config.views, this.fileViews, 'using the default views');
	}

	/** A list of views at `at`, each put into `into` (by name) and its index kept in `indexes`. */
	private viewList(at: Segment[], value: unknown, into: View[], indexes: Map<string, number>, outcome: string): void {
		if (!Array.isArray(value)) {
			this.problems.push(this.format(at, `must be a list of views, each with a name and a query; ${outcome}`));
			return;
		}

		const seen = new Map<string, number>();
		for (const [index, entry] of value.entries()) {
			const parsed = viewSchema.safeParse(entry);
			if (!parsed.success) {
				this.issues([...at, index], entry, parsed.error, 'view left out');
				continue;
			}

			const name = parsed.data.name;
			const folded = name.toLowerCase();
			if (seen.has(folded)) {
				this.problems.push(this.format([...at, index, 'name'], `'${name}' is already the name of ${place([...at, seen.get(folded)!]).slice(0, -2)}; view left out`));
				continue;
			}

			seen.set(folded, index);
			indexes.set(folded, index);
			const view: View = {name, query: viewQueryText(parsed.data.query)};
			if (parsed.data.columns) view.columns = parsed.data.columns;
			setView(into, view);
		}
	}

	/** `channels`: channel id → its own views and default view (the form `:view save` writes). */
	private channels(value: unknown): void {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) {
			this.problems.push(this.format(['channels'], 'must be a map of channel id to its settings (views, default_view); ignored'));
			return;
		}

		for (const [id, entry] of Object.entries(value)) {
			if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
				this.problems.push(this.format(['channels', id], `must be a map of settings (keys: ${keyList(CHANNEL_KEYS)}); ignored`));
				continue;
			}

			const channel: {views: View[]; defaultView?: string} = {views: []};
			const indexes = new Map<string, number>();
			for (const [key, setting] of Object.entries(entry as Record<string, unknown>)) {
				if (key === 'views') {
					this.viewList(['channels', id, 'views'], setting, channel.views, indexes, 'ignored');
				} else if (key === 'default_view') {
					const parsed = settingSchemas.default_view.safeParse(setting);
					if (parsed.success) channel.defaultView = parsed.data;
					else this.issues(['channels', id, 'default_view'], setting, parsed.error, 'not set');
				} else {
					this.problems.push(this.format(['channels', id, key], `unknown key '${key}' (keys: ${keyList(CHANNEL_KEYS)}); ignored`, true));
				}
			}

			// Defined, not assigned: a channel id such as __proto__ stays a key.
			Object.defineProperty(this.config.channels, id, {value: channel, enumerable: true, writable: true, configurable: true});
			this.channelViews.set(id, indexes);
		}
	}

	private hotkeys(value: unknown): void {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) {
			this.problems.push(this.format(['hotkeys'], 'must be a map of field key to one letter (status: s); using the default hotkeys'));
			return;
		}

		for (const [key, letter] of Object.entries(value)) {
			const parsed = hotkeySchema.safeParse(letter);
			// Defined, not assigned: a key named __proto__ stays a key.
			if (parsed.success) Object.defineProperty(this.config.hotkeys, key, {value: parsed.data, enumerable: true, writable: true, configurable: true});
			else this.issues(['hotkeys', key], letter, parsed.error, 'using the default');
		}
	}
}

function valueAt(value: unknown, at: Segment[]): unknown {
	let current = value;
	for (const segment of at) {
		if (typeof current !== 'object' || current === null) return undefined;
		current = (current as Record<string, unknown>)[segment];
	}

	return current;
}

/**
 * The file's new text with the view saved in it (config.ts#saveView says where), or why it
 * cannot be saved. `text` is the file's contents ('' for no file yet).
 */
export function textWithView(text: string, label: string, name: string, query: string, channelId?: string): {text: string} | {message: string} {
	const parsed = readDocument(text, label);
	if ('problems' in parsed) {
		return {message: sanitize(`cannot save the view until ${label} is fixed: ${parsed.problems[0]!}`)};
	}

	const {document} = parsed;
	if (!isEmpty(document.contents) && !isMap(document.contents)) {
		return {message: `cannot save the view: ${label} is not a map of settings`};
	}

	if (!isMap(document.contents)) {
		document.contents = document.createNode({});
	}

	const at = channelId === undefined ? ['views'] : ['channels', channelId, 'views'];
	const where = channelId === undefined ? 'views' : `channels.${channelId}`;
	for (const [index, key] of at.slice(0, -1).entries()) {
		const parent = at.slice(0, index + 1);
		const node = document.getIn(parent, true);
		if (node === undefined || (isScalar(node) && node.value === null)) document.setIn(parent, document.createNode({}));
		else if (!isMap(node)) return {message: sanitize(`cannot save the view: ${key === 'channels' ? 'channels' : where} in ${label} is not a map`)};
	}

	const views = document.getIn(at, true);
	const entry = document.createNode({name, query});
	if (views === undefined || (isScalar(views) && views.value === null)) {
		document.setIn(at, document.createNode([{name, query}]));
	} else if (isSeq(views)) {
		const existing = views.items.find(item => isMap(item) && typeof item.get('name') === 'string' && String(item.get('name')).toLowerCase() === name.toLowerCase());
		if (isMap(existing)) existing.set('query', query);
		else views.add(entry);
	} else {
		return {message: sanitize(`cannot save the view: ${at.join('.')} in ${label} is not a list`)};
	}

	return {text: document.toString()};
}
