// What this codex supports: optional flags (`exec --help`), version, features and config keys
// (`features list`, checked with every switch), cached by binary path and mtime.

import {mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, renameSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {ensurePrivateDir} from '../../store/index.js';
import {PRIVATE_FILE} from './paths.js';
import {runQuick, type QuickResult} from './quick.js';
import {parseFeatureList, planAgentTools, switchesToTry, TOOL_FAMILIES, type AgentToolPlan, type ToolProbeFacts} from './agent-tools.js';

/**
 * Flags sift uses only when this codex's `exec --help` lists them: `--ephemeral` keeps record
 * text out of $CODEX_HOME/sessions, `--strict-config` refuses a mistyped --codex-config key.
 */
export const OPTIONAL_FLAGS = ['--ignore-rules', '--ephemeral', '--strict-config'] as const;
export type OptionalFlag = (typeof OPTIONAL_FLAGS)[number];

/** What one binary said about itself: its optional flags and its tool switches. */
export type CodexProbe = {flags: OptionalFlag[]; tools: AgentToolPlan};

type CacheEntry = {mtimeMs: number; flags: OptionalFlag[]; tools?: ToolProbeFacts};
type CacheFile = Record<string, CacheEntry>;

const memory = new Map<string, CacheEntry>();

export function probeCachePath(stateDir: string): string {
	return path.join(stateDir, 'codex-probe.json');
}

/**
 * What `binary` supports: its optional flags and the switches that turn its built-in tools off.
 * Cached per binary path and modification time, in memory and on disk, because the probe costs
 * several process starts (`exec --help`, `--version`, `features list` and its checks).
 */
export async function probeCodex(
	binary: string,
	options: {stateDir: string; env?: NodeJS.ProcessEnv; signal?: AbortSignal},
): Promise<CodexProbe> {
	const mtimeMs = statSync(binary).mtimeMs;
	const cached = memory.get(binary) ?? readCache(options.stateDir)[binary];
	// An entry from before tool switches were probed is probed again.
	if (cached && cached.mtimeMs === mtimeMs && cached.tools) {
		memory.set(binary, cached);
		return {flags: cached.flags, tools: planAgentTools(cached.tools)};
	}
	// An empty CODEX_HOME of its own: a run ignores the user's config.toml (--ignore-user-config),
	// so a broken or surprising one must not change what the probe finds either.
	const home = mkdtempSync(path.join(tmpdir(), 'sift-codex-probe-'));
	const env = {...(options.env ?? process.env), CODEX_HOME: home};
	const quick = (args: string[]) => runQuick(binary, args, {env, signal: options.signal});
	let help: QuickResult;
	let tools: Awaited<ReturnType<typeof probeToolFacts>>;
	try {
		[help, tools] = await Promise.all([quick(['exec', '--help']), probeToolFacts(quick)]);
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
	const flags = flagsListedIn(help.stdout);
	// A failed probe proves nothing about the binary, so it is not remembered.
	if (help.exitCode === 0 && tools.conclusive) remember(options.stateDir, binary, {mtimeMs, flags, tools: tools.facts});
	return {flags, tools: planAgentTools(tools.facts)};
}

/** The optional flags `binary` supports (see probeCodex). */
export async function probeOptionalFlags(
	binary: string,
	options: {stateDir: string; env?: NodeJS.ProcessEnv; signal?: AbortSignal},
): Promise<OptionalFlag[]> {
	return (await probeCodex(binary, options)).flags;
}

type Quick = (args: string[]) => Promise<QuickResult>;

/**
 * Asks the binary: its version; its feature list; for each config switch, whether it refuses a
 * wrongly typed value (so the key is known) and takes the off value; then the feature list again
 * with every chosen switch, which shows what they really turn off.
 * Inconclusive when a process could not start or was killed: such an answer is not cached.
 */
async function probeToolFacts(quick: Quick): Promise<{facts: ToolProbeFacts; conclusive: boolean}> {
	const configs = TOOL_FAMILIES.flatMap(family => (family.config ? [family.config] : []));
	const [version, list, ...configAnswers] = await Promise.all([
		quick(['--version']),
		quick(['features', 'list']),
		...configs.flatMap(config => [quick(['features', 'list', '-c', `${config.key}=${config.wrongType}`]), quick(['features', 'list', '-c', `${config.key}=${config.off}`])]),
	]);
	const features = list.exitCode === 0 ? parseFeatureList(list.stdout) : null;
	const configKeys = configs.filter((_, index) => configAnswers[2 * index]!.exitCode !== 0 && configAnswers[(2 * index) + 1]!.exitCode === 0).map(config => config.key);
	const switches = switchesToTry(features, configKeys);
	const check = features === null ? undefined : await quick(['features', 'list', ...switches.flatMap(pair => ['-c', pair])]);
	const verified = check?.exitCode === 0 ? parseFeatureList(check.stdout) : null;
	const answers = [version, list, ...configAnswers, ...(check ? [check] : [])];
	const versionText = version.exitCode === 0 ? version.stdout.trim().split('\n', 1)[0]!.trim() || null : null;
	return {
		facts: {version: versionText, features: features && features.length > 0 ? features : null, configKeys, verified},
		conclusive: answers.every(answer => answer.exitCode !== undefined && !answer.timedOut && !answer.startError),
	};
}

/** Pure: which optional flags a help text lists, as whole words (`--ignore-rules`, not `--ignore-rules-x`). */
export function flagsListedIn(helpText: string): OptionalFlag[] {
	return OPTIONAL_FLAGS.filter(flag => new RegExp(`(^|[\\s,])${flag}(?![\\w-])`, 'm').test(helpText));
}

function readCache(stateDir: string): CacheFile {
	try {
		const parsed: unknown = JSON.parse(readFileSync(probeCachePath(stateDir), 'utf8'));
		return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as CacheFile) : {};
	} catch {
		return {};
	}
}

function remember(stateDir: string, binary: string, entry: CacheEntry): void {
	memory.set(binary, entry);
	const file = probeCachePath(stateDir);
	try {
		ensurePrivateDir(stateDir);
		// Write then rename, so a concurrent reader never sees half a file.
		const temporary = `${file}.${process.pid}.tmp`;
		writeFileSync(temporary, JSON.stringify({...readCache(stateDir), [binary]: entry}, null, '\t') + '\n', {mode: PRIVATE_FILE});
		renameSync(temporary, file);
	} catch {
		// The disk cache is an optimisation; the in-memory entry still serves this process.
	}
}
