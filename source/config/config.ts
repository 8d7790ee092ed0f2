/**
 * The config file, `$XDG_CONFIG_HOME/sift/config.yaml` (else `~/.config/sift/config.yaml`;
 * docs/reference.md#config-file): views (each channel's, and the older list for every channel),
 * the default channel and view, field hotkeys, the run's instruction, model and timeout, and the
 * theme. Loading never stops sift: what is wrong falls back to its default, and each
 * problem names its line and key, such as
 *   config.yaml line 7: views[2].query: sevrity is not a field of this channel; known: …
 * The YAML and its checks are config-file.ts, loaded only when there is a file: without one the
 * TUI starts on the defaults without loading yaml or zod (docs/architecture.md#start-up).
 * `saveView` rewrites the file through the YAML document, so comments and layout stay.
 */

import {closeSync, constants, fstatSync, openSync, readSync, type Stats} from 'node:fs';
import {homedir} from 'node:os';
import path from 'node:path';
import {isRefusal, parseQuery, type Field} from '../../store/index.js';
import {sanitize} from '../text/sanitize.js';
import {resolveHotkeys, type Hotkeys} from './hotkeys.js';
import {writePrivateFileAtomically} from './atomic-file.js';
import {DEFAULT_CONFIG, DEFAULT_VIEW_STAND_INS, place, setView, viewNameProblem, type LoadedConfig, type Segment, type View} from './schema.js';

export type {LoadedConfig} from './schema.js';

/** A config file larger than this is not read (it is a few lines by nature). */
export const CONFIG_MAX_BYTES = 256 * 1024;

/** Where the config file is: $XDG_CONFIG_HOME/sift/config.yaml, else ~/.config/sift/config.yaml. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
	// A relative XDG_CONFIG_HOME is ignored, as the XDG base directory rules say.
	const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME || homedir(), '.config');
	return path.join(base, 'sift', 'config.yaml');
}

/** The defaults, as if the file at `file` were missing (with `problems` said about it). */
export function defaultConfig(file = configPath(), problems: string[] = []): LoadedConfig {
	const label = path.basename(file);
	return {path: file, config: structuredClone(DEFAULT_CONFIG), problems: problems.map(problem => sanitize(problem)), fileViews: new Map(), channelViews: new Map(), problemAt: (at, message) => sanitize(`${label}: ${place(at)}${message}`)};
}

/** Reads the config file; a missing file is the defaults, with no problems (and loads no YAML reader). */
export async function loadConfig(file = configPath()): Promise<LoadedConfig> {
	const label = path.basename(file);
	const fallback = (problems: string[]) => defaultConfig(file, problems);
	const read = readConfigText(file, label);
	if ('absent' in read || 'problem' in read) {
		return fallback('problem' in read ? [`${read.problem}; using the defaults`] : []);
	}

	const {readConfigFile} = await import('./config-file.js');
	const loaded = readConfigFile(file, label, read.text);
	return 'syntaxProblems' in loaded ? fallback(loaded.syntaxProblems.map(problem => `${problem}; using the defaults for the whole file`)) : loaded;
}

/** What a path that is no regular file is, for the refusal. */
function kindOf(stats: Stats): string {
	if (stats.isDirectory()) return 'a directory';
	if (stats.isFIFO()) return 'a named pipe';
	if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
	if (stats.isSocket()) return 'a socket';
	return 'no regular file';
}

/**
 * The file's text; absent when there is no file (or the path runs through a file); else why it
 * cannot be read. Only a regular file is read, and at most CONFIG_MAX_BYTES of it: the file is
 * opened without blocking (a named pipe would wait for a writer forever) and checked on its open
 * descriptor, so a device such as /dev/zero is refused before a byte is read, and a file that
 * grows between the check and the read is still cut off at the bound.
 */
function readConfigText(file: string, label: string): {text: string} | {absent: true} | {problem: string} {
	let fd: number;
	try {
		fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
	} catch (error) {
		const {code, message} = error as NodeJS.ErrnoException;
		return code === 'ENOENT' || code === 'ENOTDIR' ? {absent: true} : {problem: `${label} cannot be read (${message})`};
	}

	try {
		const stats = fstatSync(fd);
		if (!stats.isFile()) {
			return {problem: `${label} is ${kindOf(stats)}, not a regular file`};
		}

		const tooLarge = {problem: `${label} is larger than ${CONFIG_MAX_BYTES / 1024} KiB`};
		if (stats.size > CONFIG_MAX_BYTES) return tooLarge;
		const buffer = Buffer.alloc(CONFIG_MAX_BYTES + 1);
		let length = 0;
		for (let read = -1; read !== 0 && length < buffer.length;) {
			read = readSync(fd, buffer, length, buffer.length - length, null);
			length += read;
		}

		return length > CONFIG_MAX_BYTES ? tooLarge : {text: buffer.toString('utf8', 0, length)};
	} catch (error) {
		return {problem: `${label} cannot be read (${(error as Error).message})`};
	} finally {
		closeSync(fd);
	}
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
 * Every problem of the config file against a database's channels: the file's own, each channel's
 * (its views, columns, default view and hotkeys, naming the channel), and the top-level views no
 * channel can run. The one check behind both `sift doctor` and the TUI's `:problems`.
 */
export function configProblems(loaded: LoadedConfig, channels: readonly ChannelOfConfig[], now = new Date()): string[] {
	return [...new Set([...knownConfigProblems(loaded, channels, now), ...viewsNoChannelRuns(loaded, channels, now)])];
}

/**
 * The problems `channels` show when they may not be all of the database's: the file's own and
 * each channel's, but not the top-level views no channel runs (one not read yet may run them).
 * The TUI's first frame says these; the rest follow once the other channels are read.
 */
export function knownConfigProblems(loaded: LoadedConfig, channels: readonly ChannelOfConfig[], now = new Date()): string[] {
	const problems = new Set(loaded.problems);
	for (const channel of channels) {
		for (const problem of settingsForChannel(loaded, channel, now).problems) problems.add(`${problem} (channel ${channel.id})`);
	}

	return [...problems];
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
export async function saveView(name: string, query: string, file = configPath(), channelId?: string): Promise<SaveResult> {
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
	const {textWithView} = await import('./config-file.js');
	const written = textWithView(text, label, name, query, channelId);
	if ('message' in written) return {ok: false, message: written.message};
	try {
		writePrivateFileAtomically(file, written.text);
	} catch (error) {
		return {ok: false, message: sanitize(`cannot save the view: ${label} cannot be written (${(error as Error).message})`)};
	}

	return {ok: true, path: file};
}
