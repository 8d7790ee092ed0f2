// `sift doctor`: one OK/WARN/FAIL line per check of the Codex set-up, the store (`--db`, a file or
// a URL) and the config file (one line per problem), each failure with its fix.

import {INSTALL_HINT, resolveCodexBinary, type CodexBinary} from '../codex/binary.js';
import {checkLogin, loginRequired, type LoginCheck} from '../codex/login.js';
import {loginHint} from '../codex/outcome.js';
import {resolveStateDir} from '../codex/paths.js';
import {OPTIONAL_FLAGS, probeCodex} from '../codex/probe.js';
import {describeFamily, REMAINING_TOOLS, shellRefusal, type AgentToolPlan} from '../codex/agent-tools.js';
import {SIFT_TOOLS} from '../codex/command.js';
import {runQuick, type QuickResult} from '../codex/quick.js';
import {existsSync} from 'node:fs';
import type {SyncLink} from '../../store/sync/types.js';
import {connectionPool, type TrackerConnection} from '../sync/trackers.js';
import {isDatabaseReadableByOthers, isPostgresUrl, openAsyncStore, shownLocation, StoreError, type AsyncStore, type Channel} from '../../store/index.js';
import {configPath, configProblems, loadConfig} from '../config/config.js';
import {counted} from '../text/format.js';
import {sanitize} from '../text/sanitize.js';
import {databaseDir, databasePath, output, storeOptions, sweepDeadBuilds} from './common.js';
import type {Command, CommandContext} from './context.js';

/** A warning is shown (WARN) but does not fail the doctor. */
export type Check = {name: string; ok: boolean; warn?: boolean; detail: string; fix: string | null};

const SOURCES: Record<CodexBinary['source'], string> = {flag: '--codex', SIFT_CODEX: 'SIFT_CODEX', PATH: 'PATH', local: 'node_modules/.bin'};

/** `sift doctor`: one OK/WARN/FAIL line per check of the Codex set-up, the store and the config file, each failure with its fix. */
const doctor: Command = async context => {
	const database = await databaseChecks(context);
	const checks = [...await runChecks(context), ...database.checks, ...await syncChecks(context), ...await configChecks(context.flags.config ?? configPath(context.env), database.channels)];
	const ok = checks.every(check => check.ok);
	output(context, {ok, checks}, () => checks.map(line).join('\n'));
	return ok ? 0 : 1;
};

export default doctor;

async function runChecks(context: CommandContext): Promise<Check[]> {
	const lookup = resolveCodexBinary(context.flags.codex, context.env);
	if (!lookup.ok) {
		const skipped = (name: string): Check => ({name, ok: false, detail: 'not checked without a codex binary', fix: null});
		return [{name: 'codex found', ok: false, detail: lookup.reason, fix: INSTALL_HINT}, skipped('codex version'), skipped('codex login'), skipped('optional flags'), skipped('agent tools')];
	}
	const binary = lookup.binary.path;
	const [version, login, probe] = await Promise.all([
		runQuick(binary, ['--version'], {env: context.env}),
		// The very check a run makes before it starts (same command, same scrubbed environment).
		loginRequired(context.flags.codexConfig) ? checkLogin(binary, {env: context.env, keepApiEnv: context.flags.keepApiEnv}) : undefined,
		probeCodex(binary, {stateDir: resolveStateDir(context.env), env: context.env}),
	]);
	const {flags} = probe;
	const missing = OPTIONAL_FLAGS.filter(flag => !flags.includes(flag));
	return [
		{name: 'codex found', ok: true, detail: `${binary} (from ${SOURCES[lookup.binary.source]})`, fix: null},
		versionCheck(version),
		loginCheck(login),
		{
			name: 'optional flags',
			ok: missing.length === 0,
			detail: missing.length === 0 ? flags.join(', ') : `missing ${missing.join(', ')}`,
			fix: missing.length === 0 ? null : 'upgrade Codex with `npm install -g @openai/codex` (runs still work, but without these: user rules files load, sessions are kept, a mistyped --codex-config is ignored)',
		},
		...agentToolChecks(probe.tools, context.flags.allowAgentShell === true),
	];
}

/**
 * What a run's agent would be offered: sift's tools, what was turned off, what this binary has no
 * switch for. A shell left on fails the doctor as it refuses a run (unless --allow-agent-shell).
 */
function agentToolChecks(plan: AgentToolPlan, allowShell: boolean): Check[] {
	const named = (state: 'off' | 'on') => plan.families.filter(family => family.state === state).map(describeFamily);
	const on = named('on');
	const shellOn = !plan.shellOff;
	return [
		{name: 'agent tools', ok: true, detail: `sift's ${SIFT_TOOLS.join(', ')}; also, with no switch but unable to reach outside the run: ${REMAINING_TOOLS.map(tool => tool.tools).join('; ')}`, fix: null},
		{name: 'agent tools turned off', ok: true, detail: named('off').join('; ') || 'none', fix: null},
		{
			name: 'agent tools that could not be turned off',
			ok: !shellOn || allowShell,
			warn: on.length > 0 && (!shellOn || allowShell),
			detail: on.length === 0 ? 'none' : on.join('; '),
			fix: shellOn ? (allowShell ? null : shellRefusal(plan)) : (on.length > 0 ? 'upgrade Codex with `npm install -g @openai/codex`' : null),
		},
	];
}

/**
 * The database's own health, whichever store --db, $SIFT_DB or the default names: the half-built
 * files a killed `sift demo` left are removed, a file other users can read is a warning (records are
 * private), and the store is opened as every command opens it. A default database that is not there
 * says nothing (there is nothing to check yet); one that was asked for by name is a failure.
 * Returns the channels it holds, for the config check.
 */
async function databaseChecks(context: CommandContext): Promise<{checks: Check[]; channels: Channel[]}> {
	const location = databasePath(context);
	if (isPostgresUrl(location)) return postgresCheck(context, location);
	const removed = sweepDeadBuilds(databaseDir(context));
	const named = context.flags.db !== undefined || Boolean(context.env.SIFT_DB);
	if (!existsSync(location)) {
		return {checks: named ? [{name: 'database', ok: false, detail: `no database at ${location}`, fix: `create one with \`sift demo --db ${location}\` or \`sift import FILE --db ${location}\``}] : [], channels: []};
	}

	const opened = await openForCheck(context, location);
	if ('failure' in opened) return {checks: [{name: 'database', ok: false, detail: opened.failure, fix: 'give --db the path of a sift database'}], channels: []};
	const swept = removed.length > 0 ? `; removed ${counted(removed.length, 'half-built demo file')}` : '';
	const detail = `${location}${swept} (${counted(opened.channels.length, 'channel')})`;
	if (isDatabaseReadableByOthers(location)) {
		return {checks: [{name: 'database', ok: true, warn: true, detail: `${detail} can be read by other users`, fix: `chmod 600 ${location}`}], channels: opened.channels};
	}

	return {checks: [{name: 'database', ok: true, detail: `${detail}, private`, fix: null}], channels: opened.channels};
}

/**
 * Tracker sync, when a channel is linked: where each tracker's token or key comes from (never the
 * secret itself) and whether each linked repository or project answers with it. Nothing is said when nothing is linked.
 */
async function syncChecks(context: CommandContext): Promise<Check[]> {
	const location = databasePath(context);
	if (!isPostgresUrl(location) && !existsSync(location)) return [];
	let links: SyncLink[];
	try {
		const store = await openAsyncStore(location, storeOptions(context, location));
		try {
			links = await store.sync.links();
		} finally {
			await store.close();
		}
	} catch {
		return [];
	}

	if (links.length === 0) return [];
	const connect = connectionPool({env: context.env, config: context.flags.config});
	const checks: Check[] = [];
	const credentials = new Set<string>();
	for (const link of links) {
		let connection: TrackerConnection;
		try {
			connection = await connect(link);
		} catch (error) {
			const name = `${link.tracker} ${link.tracker === 'github' ? 'token' : 'key'}`;
			if (!credentials.has(name)) checks.push({name, ok: false, detail: sanitize((error as Error).message), fix: 'see docs/sync.md#set-up'});
			credentials.add(name);
			continue;
		}

		if (!credentials.has(connection.credential)) checks.push({name: `${link.tracker} ${link.tracker === 'github' ? 'token' : 'key'}`, ok: true, detail: `from ${connection.credential.replace(/^.*? from /, '')}`, fix: null});
		credentials.add(connection.credential);
		try {
			checks.push({name: `sync ${link.channel_id}`, ok: true, detail: sanitize(await connection.check(link)), fix: null});
		} catch (error) {
			checks.push({name: `sync ${link.channel_id}`, ok: false, detail: sanitize((error as Error).message), fix: link.tracker === 'github' ? 'check the repository\'s name and the token\'s rights (docs/sync.md)' : 'check the server\'s URL, the project and the key\'s rights (docs/sync.md)'});
		}
	}

	return checks;
}

/** Opens the store (no create) and reads its channels; why not, as one line, when it cannot. */
async function openForCheck(context: CommandContext, location: string): Promise<{channels: Channel[]} | {failure: string; error: unknown}> {
	let store: AsyncStore;
	try {
		store = await openAsyncStore(location, storeOptions(context, location));
	} catch (error) {
		return {failure: error instanceof StoreError ? error.message : String(error), error};
	}

	try {
		const channels: Channel[] = [];
		for (const {id} of await store.listChannelNames()) channels.push(await store.getChannel(id));
		return {channels};
	} catch (error) {
		return {failure: error instanceof StoreError ? error.message : String(error), error};
	} finally {
		await store.close();
	}
}

async function postgresCheck(context: CommandContext, url: string): Promise<{checks: Check[]; channels: Channel[]}> {
	const opened = await openForCheck(context, url);
	if (!('failure' in opened)) {
		return {checks: [{name: 'database', ok: true, detail: `${shownLocation(url)} (PostgreSQL, reachable, ${counted(opened.channels.length, 'channel')})`, fix: null}], channels: opened.channels};
	}

	// Reached, but no store yet: not a fault of the set-up (doctor creates nothing).
	if (opened.error instanceof StoreError && opened.error.code === 'not_a_store') {
		return {checks: [{name: 'database', ok: true, warn: true, detail: `${shownLocation(url)} (PostgreSQL, reachable; ${opened.failure})`, fix: `create the store with \`sift migrate --db ${shownLocation(url)}\`, \`sift demo\` or \`sift import FILE\``}], channels: []};
	}

	return {checks: [{name: 'database', ok: false, detail: opened.failure, fix: 'check the URL, that the server runs and that the database exists; a password goes in PGPASSWORD, ~/.pgpass or the URL'}], channels: []};
}

/**
 * The config file (--config, else the default path), as the TUI reads it: every problem on a line
 * of its own, naming its line and key, including what only a channel of this database refuses
 * (a view's query, a hotkey). A problem is a warning: sift still starts, on the defaults.
 */
export async function configChecks(file: string, channels: Channel[]): Promise<Check[]> {
	const problems = configProblems(await loadConfig(file), channels);
	if (problems.length === 0) {
		return [{name: 'config', ok: true, detail: existsSync(file) ? `${file}, no problems` : `no file at ${file}; the defaults`, fix: null}];
	}

	return problems.map(problem => ({name: 'config', ok: true, warn: true, detail: problem, fix: null}));
}

function versionCheck(result: QuickResult): Check {
	const text = firstLine(result.stdout) || firstLine(result.stderr);
	if (result.exitCode === 0 && text) return {name: 'codex version', ok: true, detail: text, fix: null};
	return {name: 'codex version', ok: false, detail: failureDetail(result, text), fix: `the binary does not run; reinstall it. ${INSTALL_HINT}`};
}

function loginCheck(login: LoginCheck | undefined): Check {
	if (!login) return {name: 'codex login', ok: true, detail: 'not needed: --codex-config picks another model provider', fix: null};
	if (login.state === 'logged_in') return {name: 'codex login', ok: true, detail: login.detail, fix: null};
	return {name: 'codex login', ok: false, detail: login.detail, fix: loginHint(login.command)};
}

function failureDetail(result: QuickResult, text: string): string {
	if (result.startError) return result.startError;
	if (result.timedOut) return 'no answer within the probe deadline';
	return text || `exit code ${result.exitCode ?? 'none'}`;
}

function firstLine(text: string): string {
	return text.trim().split('\n', 1)[0]!.trim();
}

function line(check: Check): string {
	const mark = check.warn ? 'WARN' : (check.ok ? 'OK  ' : 'FAIL');
	return `${mark} ${check.name}: ${sanitize(check.detail)}${check.fix ? ` — fix: ${sanitize(check.fix)}` : ''}`;
}
