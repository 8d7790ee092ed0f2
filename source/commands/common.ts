// Shared by commands: the data dir, the default database, opening a store (and reaping dead runs),
// the channel, output as text or JSON.

import {existsSync, readdirSync, rmSync} from 'node:fs';
import {homedir} from 'node:os';
import {dirname, join, resolve} from 'node:path';
import {isPostgresUrl, openAsyncStore, shownLocation, StoreError, type AsyncStore, type AsyncStoreOptions, type Field} from '../../store/index.js';
import {safeJson, sanitize} from '../text/sanitize.js';
import {reapAbandonedRuns} from '../codex/reap.js';
import {isProcessAlive} from '../codex/group.js';
import {removeOrphanedStaging} from '../import/staged-rows.js';
import {LOCK_WAIT_NOTICE} from '../text/lock-wait.js';
import {mcpEndpoint, shownServerUrl} from '../config/server-url.js';
import {readTypedValue} from '../text/typed-value.js';
import {UsageError, type CommandContext} from './context.js';
import {counted} from '../text/format.js';

/** $XDG_DATA_HOME/sift, else ~/.local/share/sift. */
export function dataDir(env: NodeJS.ProcessEnv): string {
	return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'sift');
}

/** --db, else $SIFT_DB, else <data dir>/sift.db: the one default database (docs/reference.md). */
export function databasePath(context: CommandContext): string {
	const location = context.flags.db ?? (context.env.SIFT_DB || join(dataDir(context.env), 'sift.db'));
	return isPostgresUrl(location) ? location : resolve(location);
}

/** A SQLite file that is not there: commands other than demo and import never create one. */
const missingDatabase = (path: string) => new StoreError({error: 'not_found', message: `no database at ${path}; create one with \`sift demo\` or \`sift import FILE --db ${path}\``});

/** Said once, before a store made by an older sift is upgraded in place. */
export const upgradeNotice = (location: string, from: number, to: number) => `sift: upgrading ${sanitize(location)} from schema ${from} to ${to}, once (about 10 s per million items)…\n`;




function onlyChannel(channels: Array<{id: string}>): string {
	if (channels.length === 0) {
		throw new StoreError({error: 'not_found', message: 'this database has no channel yet; import one with `sift import FILE` or create the demo with `sift demo`'});
	}

	if (channels.length > 1) {
		throw new UsageError(`this database has several channels (${channels.map(channel => channel.id).join(', ')}); pick one with --channel, or set default_channel in the config file`);
	}

	return channels[0]!.id;
}


/**
/**
 * How every command opens the store: --statement-timeout, SIFT_LOCK_WAIT, and a write that meets
 * another process's lock (a long import) says why it waits, once per command, instead of failing
 * (`onLockWait` replaces that notice: the TUI says it on screen); so does a first open that
 * upgrades the file.
 */
export function storeOptions(context: CommandContext, location: string, create = false, onLockWait?: () => void): AsyncStoreOptions {
	const seconds = context.flags.statementTimeout;
	let told = false;
	const sayWaiting = () => {
		if (told) return;
		told = true;
		context.stderr.write(LOCK_WAIT_NOTICE);
	};

	return {
		create,
		...(seconds === undefined ? {} : {statementTimeoutMs: seconds * 1000}),
		onLockWait: onLockWait ?? sayWaiting,
		lockWaitMs: lockWaitOf(context.env),
		// Shown without a URL's password.
		onUpgrade: (from, to) => context.stderr.write(upgradeNotice(shownLocation(location), from, to)),
	};
}

/**
 * Opens an existing store: a postgres:// URL of a database that holds sift's tables, or a SQLite
 * file that must exist (a missing file is an error here, not a new empty store; a database
 * without sift's tables is `not_a_store`, and gains none).
 */
export async function openExistingStore(context: CommandContext, onLockWait?: () => void, tuning: Pick<AsyncStoreOptions, 'pageCacheKiB'> = {}): Promise<AsyncStore> {
	const location = databasePath(context);
	if (!isPostgresUrl(location) && !existsSync(location)) {
		throw missingDatabase(location);
	}

	return openAsyncStore(location, {...storeOptions(context, location, false, onLockWait), ...tuning});
}

/** Opens the store, creating it when there is none: only import, demo and migrate do. `onUpgrade` replaces the notice. */
export async function openOrCreateStore(context: CommandContext, onUpgrade?: (from: number, to: number) => void): Promise<AsyncStore> {
	const location = databasePath(context);
	const options = storeOptions(context, location, true);
	return openAsyncStore(location, onUpgrade ? {...options, onUpgrade} : options);
}

/** SIFT_LOCK_WAIT: how many seconds a write waits for another process's write lock (default 30). */
export function lockWaitOf(env: NodeJS.ProcessEnv): number | undefined {
	const given = env.SIFT_LOCK_WAIT;
	if (given === undefined || given === '') return undefined;
	const seconds = Number(given);
	if (!Number.isFinite(seconds) || seconds < 0 || seconds > 86_400) throw new UsageError(`SIFT_LOCK_WAIT must be a number of seconds from 0 to 86400, got ${JSON.stringify(given)}`);
	return Math.round(seconds * 1000);
}

/** --channel, else the only channel of the database. */
export async function channelOf(store: AsyncStore, context: CommandContext): Promise<string> {
	if (context.flags.channel !== undefined) {
		await store.getChannel(context.flags.channel);
		return context.flags.channel;
	}

	const channels = await store.listChannelNames();
	if (channels.length <= 1) return onlyChannel(channels);
	// Several: the config file's default_channel picks one, as it does for the TUI.
	const {configPath, loadConfig} = await import('../config/config.js');
	const file = context.flags.config ?? configPath(context.env);
	const wanted = (await loadConfig(file)).config.defaultChannel;
	if (wanted === undefined) return onlyChannel(channels);
	const found = channelNamed(channels, wanted);
	if (!found) throw new UsageError(`default_channel in ${file} names no channel of this database (${JSON.stringify(wanted).slice(0, 60)}); channels: ${channels.map(channel => channel.id).join(', ')}; pick one with --channel`);
	return found.id;
}

/** The channel a setting names: its id, else an id or name in any case. */
export function channelNamed<C extends {id: string; name: string}>(channels: C[], wanted: string): C | undefined {
	return channels.find(channel => channel.id === wanted) ?? channels.find(channel => [channel.id, channel.name].some(name => name.toLowerCase() === wanted.toLowerCase()));
}

/** Runs a command body against the store and closes it whatever happens. */
export async function withStore(context: CommandContext, body: (store: AsyncStore) => number | Promise<number>, tuning: Pick<AsyncStoreOptions, 'pageCacheKiB'> = {}): Promise<number> {
	const store = await openExistingStore(context, undefined, tuning);
	try {
		// Every start of sift closes the runs a killed sift left behind (cheap when there are none), and removes a killed import's staged rows.
		await reapAbandonedRuns(store, context.env);
		removeOrphanedStaging();
		return await body(store);
	} finally {
		await store.close();
	}
}

/** Prints JSON with --json, else the readable text. */
export function output(context: CommandContext, json: unknown, text: () => string): void {
	// The text's parts are escaped where they are built; escaping the whole again is a safety net.
	context.stdout.write(context.flags.json ? `${safeJson(json, 2)}\n` : `${sanitize(text(), {multiline: true})}\n`);
}

/**
 * `key=value` arguments. With the channel's fields, a field's value is read as the TUI reads what
 * is typed (source/text/typed-value.ts: an option's label, `friday`, `none`); a value written as
 * JSON text (`"In progress"`) is that text. Without them, or for a key of no field, the value is
 * JSON when it parses, else the string as typed.
 */
export function parseAssignments(input: string[], fields?: readonly Field[], now = new Date()): Record<string, unknown> {
	if (input.length === 0) {
		throw new UsageError('give at least one key=value');
	}

	const values: Record<string, unknown> = {};
	for (const argument of input) {
		const split = argument.indexOf('=');
		if (split <= 0) {
			throw new UsageError(`expected key=value, got ${JSON.stringify(argument)}`);
		}

		const key = argument.slice(0, split);
		const raw = argument.slice(split + 1);
		if (Object.hasOwn(values, key)) {
			throw new UsageError(`${key} is given twice`);
		}

		Object.defineProperty(values, key, {value: readAssigned(fields?.find(field => field.key === key), raw, now), enumerable: true, writable: true, configurable: true});
	}

	return values;
}

function readAssigned(field: Field | undefined, raw: string, now: Date): unknown {
	const loose = parseLoose(raw);
	if (!field || field.type === 'formula' || loose === null) return loose;
	// Quoted JSON text is exactly what the person chose, type included: no reading of it.
	if (typeof loose === 'string' && raw.trimStart().startsWith('"')) return loose;
	const typed = readTypedValue(field, typeof loose === 'string' ? loose : raw, now);
	// What the reading does not know goes to the store as typed: its refusal names every failing field at once.
	return typed.ok ? typed.value : loose;
}

/** A value as typed: JSON when it parses, else the string. */
export function parseLoose(raw: string): unknown {
	try {
		return JSON.parse(raw) as unknown;
	} catch {
		return raw;
	}
}

/** A whole-number flag or argument, refused with a usage error otherwise. */
export function wholeNumber(value: unknown, name: string, least = 0): number | undefined {
	if (value === undefined) {
		return undefined;
	}

	if (typeof value !== 'number' || !Number.isInteger(value) || value < least) {
		throw new UsageError(`${name} must be a whole number ${least} or greater`);
	}

	return value;
}

export function onlyArgument(context: CommandContext, what: string): string {
	if (context.input.length !== 1) {
		throw new UsageError(`expected exactly one ${what}`);
	}

	return context.input[0]!;
}

/** A name as it may appear in a message: quoted, cut short, escaped. */
export const shownName = (name: string) => sanitize(JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name));

/**
 * The item ITEM names: an item id, or the value of a unique field (`BUG-0042`). A name two items
 * answer to is refused, listing them, rather than guessed.
 */
export async function resolveItem(store: AsyncStore, channelId: string, name: string): Promise<string> {
	const matches = await store.findItemsNamed(channelId, name);
	const ids = [...new Set(matches.map(match => match.item_id))];
	if (ids.length === 0) {
		throw new StoreError({error: 'not_found', message: `item ${shownName(name)} does not exist in channel ${channelId}: no item has that id or that value in a unique field`});
	}

	if (ids.length > 1) {
		const candidates = matches.map(match => `${match.item_id} (${match.by === 'id' ? 'id' : `${match.by.field} = ${shownName(name)}`})`);
		throw new StoreError({error: 'invalid_argument', message: `${shownName(name)} names ${counted(ids.length, 'item')}: ${candidates.join(', ')}; name one by its id`});
	}

	return ids[0]!;
}

const BUILDING = /^(.+)\.building-(\d+)(-wal|-shm|-journal)?$/;

/**
 * Removes the half-built databases (`NAME.building-PID` and their WAL files) that a killed
 * `sift demo` left in `dir`, keeping those whose builder is still alive. Returns the removed names.
 */
export function sweepDeadBuilds(dir: string): string[] {
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return [];
	}

	const removed: string[] = [];
	for (const name of names) {
		const match = BUILDING.exec(name);
		if (!match || isProcessAlive(Number(match[2]))) continue;
		rmSync(join(dir, name), {force: true});
		removed.push(name);
	}

	return removed;
}

/** The folder of the database this command line points at, where a demo build would leave files. */
export const databaseDir = (context: CommandContext) => dirname(databasePath(context));

/** --server URL (or the TUI's `server:` setting) as the MCP endpoint, undefined without one; a usage error when it is no http(s) URL. */
export function serverEndpoint(server: string | undefined): string | undefined {
	const endpoint = server === undefined ? undefined : mcpEndpoint(server);
	if (endpoint === null) throw new UsageError(`--server must be the http(s) URL of sift serve, e.g. http://127.0.0.1:7345; got ${JSON.stringify(shownServerUrl(server ?? ''))}`);
	return endpoint;
}

/**
 * A confidence threshold flag: a number from `least` to 1 (`--min-confidence` from 0; an
 * auto-accept threshold must be above 0, given as least = Number.MIN_VALUE).
 */
export function confidenceFlag(text: string | undefined, name: string, least: number): number | undefined {
	if (text === undefined) return undefined;
	const value = Number(text);
	if (text.trim() === '' || !Number.isFinite(value) || value < least || value > 1) throw new UsageError(`${name} must be a number ${least === 0 ? 'from 0 to 1' : 'above 0 and at most 1'}, got ${JSON.stringify(text).slice(0, 40)}`);
	return value;
}
