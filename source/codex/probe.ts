import {readFileSync, statSync, writeFileSync, renameSync} from 'node:fs';
import path from 'node:path';
import {ensurePrivateDir} from '../../store/index.js';
import {PRIVATE_FILE} from './paths.js';
import {runQuick} from './quick.js';

/** Flags sift uses only when this codex's `exec --help` lists them. */
export const OPTIONAL_FLAGS = ['--ignore-rules'] as const;
export type OptionalFlag = (typeof OPTIONAL_FLAGS)[number];

type CacheEntry = {mtimeMs: number; flags: OptionalFlag[]};
type CacheFile = Record<string, CacheEntry>;

const memory = new Map<string, CacheEntry>();

export function probeCachePath(stateDir: string): string {
	return path.join(stateDir, 'codex-probe.json');
}

/**
 * The optional flags `binary` supports. Cached per binary path and modification time, in memory
 * and on disk, because `codex exec --help` costs a process start on every run otherwise.
 */
export async function probeOptionalFlags(
	binary: string,
	options: {stateDir: string; env?: NodeJS.ProcessEnv; signal?: AbortSignal},
): Promise<OptionalFlag[]> {
	const mtimeMs = statSync(binary).mtimeMs;
	const cached = memory.get(binary) ?? readCache(options.stateDir)[binary];
	if (cached && cached.mtimeMs === mtimeMs) {
		memory.set(binary, cached);
		return cached.flags;
	}
	const help = await runQuick(binary, ['exec', '--help'], {env: options.env, signal: options.signal});
	const flags = flagsListedIn(help.stdout);
	// A failed probe proves nothing about the binary, so it is not remembered.
	if (help.exitCode === 0) remember(options.stateDir, binary, {mtimeMs, flags});
	return flags;
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
