// The login check (`codex login status`), cached, used by `sift doctor` and before each run.

import {readFileSync, renameSync, statSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {ensurePrivateDir} from '../../store/index.js';
import {loginCommand} from './binary.js';
import {buildLoginStatusCommand} from './command.js';
import {isAuthFailure} from './outcome.js';
import {runQuick} from './quick.js';
import {PRIVATE_FILE} from './paths.js';

export type LoginCheck = {
	/** `unknown`: the check itself did not work (no answer, could not start, an unexpected failure). */
	state: 'logged_in' | 'logged_out' | 'unknown';
	/** What Codex said, one line. */
	detail: string;
	/** The command that logs this binary in, as the person can type it. */
	command: string;
};

export type LoginOptions = {env: NodeJS.ProcessEnv; keepApiEnv?: boolean; timeoutMs?: number; signal?: AbortSignal};

/**
 * Asks `codex login status` (exit 0 when logged in; "Not logged in" and exit 1 when not) in the
 * environment a run gets, API variables dropped unless kept: `sift doctor` and the preflight
 * before every run both ask through here.
 */
export async function checkLogin(binary: string, options: LoginOptions): Promise<LoginCheck> {
	const command = buildLoginStatusCommand({env: options.env, keepApiEnv: options.keepApiEnv});
	const result = await runQuick(binary, command.args, {env: command.env, timeoutMs: options.timeoutMs, signal: options.signal});
	// Codex may print warnings first (e.g. about its home folder): the line about the login is the one to show.
	const lines = `${result.stderr}\n${result.stdout}`.split('\n').map(line => line.trim()).filter(Boolean);
	const text = lines.find(line => /logged|log in|login|unauthori[sz]ed|\b401\b/i.test(line)) ?? lines[0] ?? '';
	const advice = loginCommand(binary, options.env);
	if (result.exitCode === 0) return {state: 'logged_in', detail: text || 'logged in', command: advice};
	if (result.startError) return {state: 'unknown', detail: result.startError, command: advice};
	if (result.timedOut) return {state: 'unknown', detail: 'no answer within the deadline', command: advice};
	const refused = result.exitCode !== undefined && (/not logged in|logged out/i.test(text) || isAuthFailure(text));
	return {state: refused ? 'logged_out' : 'unknown', detail: text || `exit code ${result.exitCode ?? 'none'}`, command: advice};
}

/** How long a successful login check is trusted before a run asks again. */
export const LOGIN_CACHE_MS = 60_000;
/** The preflight never holds a run up longer than this; without an answer the run goes ahead. */
const PREFLIGHT_TIMEOUT_MS = 5000;

type CacheEntry = {mtimeMs: number; checkedAt: number};

/**
 * The check before a run, cached for a minute (in memory and in the state dir, so consecutive
 * `sift run`s do not each pay for it). Only "logged in" is remembered: after `codex login` the
 * next run must not be refused from a stale answer.
 */
export async function preflightLogin(binary: string, options: LoginOptions & {stateDir: string; now?: number}): Promise<LoginCheck> {
	const now = options.now ?? Date.now();
	// Another CODEX_HOME is another login; kept API variables can log in on their own.
	const key = [binary, options.env.CODEX_HOME ?? '', options.keepApiEnv ? 'keep' : 'scrub'].join('\0');
	const mtimeMs = modifiedAt(binary);
	const cached = readCache(options.stateDir)[key];
	if (cached && cached.mtimeMs === mtimeMs && now - cached.checkedAt >= 0 && now - cached.checkedAt < LOGIN_CACHE_MS) {
		return {state: 'logged_in', detail: 'logged in (checked within the last minute)', command: loginCommand(binary, options.env)};
	}

	const check = await checkLogin(binary, {...options, timeoutMs: options.timeoutMs ?? PREFLIGHT_TIMEOUT_MS});
	if (check.state === 'logged_in') remember(options.stateDir, key, {mtimeMs, checkedAt: now});
	return check;
}

export function loginCachePath(stateDir: string): string {
	return path.join(stateDir, 'codex-login.json');
}

function modifiedAt(file: string): number {
	try {
		return statSync(file).mtimeMs;
	} catch {
		return -1;
	}
}

const memory: Record<string, CacheEntry> = {};

function readCache(stateDir: string): Record<string, CacheEntry> {
	try {
		const parsed: unknown = JSON.parse(readFileSync(loginCachePath(stateDir), 'utf8'));
		return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? {...(parsed as Record<string, CacheEntry>), ...memory} : {...memory};
	} catch {
		return {...memory};
	}
}

function remember(stateDir: string, key: string, entry: CacheEntry): void {
	memory[key] = entry;
	const file = loginCachePath(stateDir);
	try {
		ensurePrivateDir(stateDir);
		const temporary = `${file}.${process.pid}.tmp`;
		writeFileSync(temporary, JSON.stringify({...readCache(stateDir), [key]: entry}) + '\n', {mode: PRIVATE_FILE});
		renameSync(temporary, file);
	} catch {
		// The disk cache only saves a process start; the memory entry still serves this process.
	}
}

/**
 * Whether a run needs Codex's own login. With `--codex-config model_provider=...` the run talks to
 * another provider (its own key, a local endpoint), where `codex login status` says nothing about
 * whether the run can work: only the default OpenAI provider is checked. (The user's config file
 * is ignored by runs, so the overrides are the whole story.)
 */
export function loginRequired(codexConfig: readonly string[] = []): boolean {
	const provider = codexConfig.filter(pair => /^\s*model_provider\s*=/.test(pair)).at(-1);
	if (provider === undefined) return true;
	return /^\s*model_provider\s*=\s*["']?openai["']?\s*$/.test(provider);
}
