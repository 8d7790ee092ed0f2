/**
 * The config file, `$XDG_CONFIG_HOME/sift/config.yaml` (else `~/.config/sift/config.yaml`;
 * docs/reference.md#config-file): views (each channel's, and the older list for every channel),
 * the default channel and view, field hotkeys, the run's instruction, model and timeout, and the
 * theme. Loading never stops sift: what is wrong falls back to its default, and each
 * problem names its line and key, such as
 *   config.yaml line 7: views[2].query: sevrity is not a field of this channel; known: …
 * `saveView` rewrites the file through the YAML document, so comments and layout stay.
 */

import {readFileSync, statSync} from 'node:fs';
import {homedir} from 'node:os';
import path from 'node:path';
import {isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node} from 'yaml';
import type {z} from 'zod';
import {isRefusal, parseQuery, type Field} from '../../store/index.js';
import {sanitize} from '../text/sanitize.js';
import {resolveHotkeys, type Hotkeys} from './hotkeys.js';
import {writePrivateFileAtomically} from './atomic-file.js';
import {CHANNEL_KEYS, CONFIG_KEYS, DEFAULT_CONFIG, DEFAULT_VIEW_STAND_INS, hotkeySchema, settingSchemas, VIEW_KEYS, viewNameProblem, viewQueryText, viewSchema, type SiftConfig, type View} from './schema.js';

/** A config file larger than this is not read (it is a few lines by nature). */
export const CONFIG_MAX_BYTES = 256 * 1024;

/** Where the config file is: $XDG_CONFIG_HOME/sift/config.yaml, else ~/.config/sift/config.yaml. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
	// A relative XDG_CONFIG_HOME is ignored, as the XDG base directory rules say.
	const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME || homedir(), '.config');
	return path.join(base, 'sift', 'config.yaml');
}

type Segment = string | number;

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

/** The defaults, as if the file at `file` were missing (with `problems` said about it). */
export function defaultConfig(file = configPath(), problems: string[] = []): LoadedConfig {
	const label = path.basename(file);
	return {path: file, config: structuredClone(DEFAULT_CONFIG), problems: problems.map(problem => sanitize(problem)), fileViews: new Map(), channelViews: new Map(), problemAt: (at, message) => sanitize(`${label}: ${place(at)}${message}`)};
}

/** Reads the config file; a missing file is the defaults, with no problems. */
export function loadConfig(file = configPath()): LoadedConfig {
	const label = path.basename(file);
	const fallback = (problems: string[]) => defaultConfig(file, problems);
	const read = readConfigText(file, label);
	if ('absent' in read || 'problem' in read) {
		return fallback('problem' in read ? [`${read.problem}; using the defaults`] : []);
	}

	const {text} = read;
	const parsed = readDocument(text, label);
	if ('problems' in parsed) {
		return fallback(parsed.problems.map(problem => `${problem}; using the defaults for the whole file`));
	}

	return new Reader(file, label, parsed.document, parsed.lines).read();
}

/** The file's text; absent when there is no file (or the path runs through a file); else why it cannot be read. */
function readConfigText(file: string, label: string): {text: string} | {absent: true} | {problem: string} {
	try {
		if (statSync(file).size > CONFIG_MAX_BYTES) {
			return {problem: `${label} is larger than ${CONFIG_MAX_BYTES / 1024} KiB`};
		}

		return {text: readFileSync(file, 'utf8')};
	} catch (error) {
		const {code, message} = error as NodeJS.ErrnoException;
		return code === 'ENOENT' || code === 'ENOTDIR' ? {absent: true} : {problem: `${label} cannot be read (${message})`};
	}
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

/** `views[2].query: ` for a path, '' at the top. */
function place(at: Segment[]): string {
	if (at.length === 0) return '';
	return `${at.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : `${index === 0 ? '' : '.'}${segment}`)).join('')}: `;
}

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

/** Puts `view` in place of the one with its name (any case), else at the end. */
function setView(views: View[], view: View): void {
	const index = views.findIndex(other => other.name.toLowerCase() === view.name.toLowerCase());
	if (index >= 0) views[index] = view;
	else views.push(view);
}

/** What the config means for one channel: its tabs, the view it opens on, and its field hotkeys. */
export type ChannelSettings = {views: View[]; hotkeys: Hotkeys; problems: string[]; defaultView?: string};

/** A channel as the config sees it: its id (the key under `channels:`) and its fields. */
export type ChannelOfConfig = {id: string; fields: Field[]};

/**
 * The file's top-level views (the older form) that no channel of a database can run: the TUI
 * leaves such a view out quietly on every channel (it may be another channel's), so only a check
 * over all the channels (`sift doctor`) can tell a typo. One problem each, with the first
 * channel's reason.
 */
export function viewsNoChannelRuns(loaded: LoadedConfig, channels: ReadonlyArray<{id: string; fields: Field[]}>, now = new Date()): string[] {
	if (channels.length === 0) return [];
	const problems: string[] = [];
	for (const view of loaded.config.views) {
		const index = loaded.fileViews.get(view.name.toLowerCase());
		if (index === undefined) continue;
		const reasons = channels.map(channel => {
			const parsed = parseQuery(view.query, {fields: channel.fields}, {now});
			return isRefusal(parsed) ? `${parsed.message} (channel ${channel.id})` : undefined;
		});
		if (reasons.every(reason => reason !== undefined)) problems.push(loaded.problemAt(['views', index, 'query'], `${reasons[0]!}; no channel of this database can run it`));
	}

	return problems;
}

/**
 * Checks the views and the hotkeys against a channel's fields. The tabs are the default views,
 * then the top-level views, then the channel's own (each replacing one of its name). A view of
 * the channel's own that it refuses is left out with a problem; a top-level view it refuses is
 * left out quietly (the older form holds every channel's views: it is another channel's); a
 * default view it cannot run gives way to its first stand-in that runs (schema.ts). A refused
 * hotkey keeps its default. Given only fields, no channel's own settings apply.
 */
export function settingsForChannel(loaded: LoadedConfig, channel: Field[] | ChannelOfConfig, now = new Date()): ChannelSettings {
	const {id, fields} = Array.isArray(channel) ? {id: undefined, fields: channel} : channel;
	const problems: string[] = [];
	const refusal = (query: string) => {
		const parsed = parseQuery(query, {fields}, {now});
		return isRefusal(parsed) ? parsed.message : undefined;
	};

	const views: View[] = [];
	for (const view of loaded.config.views) {
		if (refusal(view.query) === undefined) views.push(withColumns(view, fields));
		else if (!loaded.fileViews.has(view.name.toLowerCase())) standIn(view, views, refusal);
	}

	const own = id === undefined || !Object.hasOwn(loaded.config.channels, id) ? undefined : loaded.config.channels[id]!;
	const indexes = id === undefined ? undefined : loaded.channelViews.get(id);
	for (const view of own?.views ?? []) {
		const at: Segment[] = ['channels', id!, 'views', indexes?.get(view.name.toLowerCase()) ?? 0];
		const refused = refusal(view.query);
		if (refused !== undefined) {
			problems.push(loaded.problemAt([...at, 'query'], `${refused}; view left out`));
			continue;
		}

		const unknown = (view.columns ?? []).filter(key => !fields.some(field => field.key === key.toLowerCase()));
		if (unknown.length > 0) problems.push(loaded.problemAt([...at, 'columns'], `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a field' : 'are not fields'} of this channel; known: ${fields.map(field => field.key).join(', ')}; left out of the columns`));
		setView(views, withColumns(view, fields));
	}

	const defaultView = openingView(loaded, own?.defaultView, id, views, problems);
	const resolved = resolveHotkeys(fields, loaded.config.hotkeys);
	for (const problem of resolved.problems) problems.push(loaded.problemAt(['hotkeys', problem.field], `${problem.message}; using the default`));
	return {views, hotkeys: resolved.hotkeys, problems, defaultView};
}

/** A default view's first stand-in that the channel runs and whose name is free, put in its place. */
function standIn(view: View, views: View[], refusal: (query: string) => string | undefined): void {
	const choice = (DEFAULT_VIEW_STAND_INS[view.name] ?? []).find(other => refusal(other.query) === undefined && !views.some(taken => taken.name.toLowerCase() === other.name.toLowerCase()));
	if (choice) views.push({...choice});
}

/** The view with only the columns the channel has, by their keys; none left is no choice of columns. */
function withColumns(view: View, fields: Field[]): View {
	if (view.columns === undefined) return view;
	const keys = view.columns.map(key => key.toLowerCase()).filter(key => fields.some(field => field.key === key));
	return keys.length > 0 ? {...view, columns: [...new Set(keys)]} : {name: view.name, query: view.query};
}

/**
 * The name of the view the channel opens on: its own `default_view`, else the top-level one. One
 * of the channel's own that names none of its views is a problem; a top-level one is only when
 * it names no view anywhere in the file (it may be another channel's).
 */
function openingView(loaded: LoadedConfig, own: string | undefined, id: string | undefined, views: View[], problems: string[]): string | undefined {
	const wanted = own ?? loaded.config.defaultView;
	if (wanted === undefined) return undefined;
	const found = views.find(view => view.name.toLowerCase() === wanted.toLowerCase());
	if (found) return found.name;
	const names = views.map(view => view.name).join(', ');
	if (own !== undefined) {
		problems.push(loaded.problemAt(['channels', id!, 'default_view'], `no view of this channel is named "${wanted}"; views: ${names}; not used`));
	} else if (!anyViewNamed(loaded, wanted)) {
		problems.push(loaded.problemAt(['default_view'], `no view is named "${wanted}"; views: ${names}; not used`));
	}

	return undefined;
}

/** Whether any view the file could give a channel (a default, a stand-in, a top-level or a channel's own) has this name. */
function anyViewNamed(loaded: LoadedConfig, name: string): boolean {
	const folded = name.toLowerCase();
	const all = [...loaded.config.views, ...Object.values(DEFAULT_VIEW_STAND_INS).flat(), ...Object.values(loaded.config.channels).flatMap(channel => channel.views)];
	return all.some(view => view.name.toLowerCase() === folded);
}

export type SaveResult = {ok: true; path: string} | {ok: false; message: string};

/**
 * Saves a view in the config file: the view of that name (any case) gets the new query, else it
 * is added at the end of the list. With a channel the list is that channel's
 * (`channels.ID.views`), so the view is not offered to channels that cannot run it; a top-level
 * `views` list (the older form) is still read and left as it is. The rest of the file, comments
 * included, stays as it was. A file with an error is left alone (the refusal says where), so
 * nothing the person wrote is lost.
 */
export function saveView(name: string, query: string, file = configPath(), channelId?: string): SaveResult {
	const label = path.basename(file);
	const bad = viewNameProblem(name);
	if (bad) {
		return {ok: false, message: `cannot save the view: ${bad}`};
	}

	const read = readConfigText(file, label);
	if ('problem' in read) {
		return {ok: false, message: sanitize(`cannot save the view: ${read.problem}`)};
	}

	// No file yet: it is written new (or the write says why it cannot be).
	const text = 'text' in read ? read.text : '';
	const parsed = readDocument(text, label);
	if ('problems' in parsed) {
		return {ok: false, message: sanitize(`cannot save the view until ${label} is fixed: ${parsed.problems[0]!}`)};
	}

	const {document} = parsed;
	if (!isEmpty(document.contents) && !isMap(document.contents)) {
		return {ok: false, message: `cannot save the view: ${label} is not a map of settings`};
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
		else if (!isMap(node)) return {ok: false, message: sanitize(`cannot save the view: ${key === 'channels' ? 'channels' : where} in ${label} is not a map`)};
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
		return {ok: false, message: sanitize(`cannot save the view: ${at.join('.')} in ${label} is not a list`)};
	}

	try {
		writePrivateFileAtomically(file, document.toString());
	} catch (error) {
		return {ok: false, message: sanitize(`cannot save the view: ${label} cannot be written (${(error as Error).message})`)};
	}

	return {ok: true, path: file};
}
