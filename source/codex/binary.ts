// Finds the codex binary: `--codex`, `$SIFT_CODEX`, `codex` on PATH, `node_modules/.bin/codex`.

import {accessSync, constants, realpathSync, statSync} from 'node:fs';
import path from 'node:path';
import {packageRoot} from './paths.js';

export type CodexBinary = {
	path: string;
	/** Which rule found it, for `sift doctor`. */
	source: 'flag' | 'SIFT_CODEX' | 'PATH' | 'local';
};

/** On failure, `reason` says what was looked for; `message` adds how to install. */
export type BinaryLookup = {ok: true; binary: CodexBinary} | {ok: false; reason: string; message: string};

export const INSTALL_HINT = 'Install it with `npm install -g @openai/codex`, or pass --codex PATH (or set SIFT_CODEX).';

/** Lookup order (docs/reference.md#codex-runs): --codex PATH, else $SIFT_CODEX, else `codex` on PATH, else node_modules/.bin/codex. */
export function resolveCodexBinary(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): BinaryLookup {
	if (explicit) return named(explicit, 'flag', '--codex', env);
	if (env.SIFT_CODEX) return named(env.SIFT_CODEX, 'SIFT_CODEX', 'SIFT_CODEX', env);
	const onPath = searchPath('codex', env.PATH ?? '');
	if (onPath) return {ok: true, binary: {path: onPath, source: 'PATH'}};
	const local = path.join(packageRoot(), 'node_modules', '.bin', 'codex');
	if (isExecutableFile(local)) return {ok: true, binary: {path: local, source: 'local'}};
	return missing(`Codex CLI not found: no \`codex\` on PATH and none in ${local}.`);
}

/** A path the user named must exist; we never fall back silently from an explicit choice. */
function named(file: string, source: CodexBinary['source'], origin: string, env: NodeJS.ProcessEnv): BinaryLookup {
	const resolved = file.includes(path.sep) ? path.resolve(file) : searchPath(file, env.PATH ?? '');
	if (resolved && isExecutableFile(resolved)) return {ok: true, binary: {path: resolved, source}};
	return missing(`Codex CLI not found at ${file} (from ${origin}), or it is not executable.`);
}

function missing(reason: string): BinaryLookup {
	return {ok: false, reason, message: `${reason} ${INSTALL_HINT}`};
}

/**
 * The login command as the person can type it: `codex login` when `codex` on PATH is the binary
 * in use, else the binary's own path (quoted for a shell if it needs to be).
 */
export function loginCommand(binary: string, env: NodeJS.ProcessEnv = process.env): string {
	const onPath = searchPath('codex', env.PATH ?? '');
	if (onPath && sameFile(onPath, binary)) return 'codex login';
	return `${shellWord(binary)} login`;
}

function sameFile(a: string, b: string): boolean {
	try {
		return realpathSync(a) === realpathSync(b);
	} catch {
		return path.resolve(a) === path.resolve(b);
	}
}

function shellWord(word: string): string {
	return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

export function searchPath(name: string, searchPathValue: string): string | undefined {
	for (const dir of searchPathValue.split(path.delimiter)) {
		if (!dir) continue;
		const candidate = path.join(dir, name);
		if (isExecutableFile(candidate)) return candidate;
	}
	return undefined;
}

function isExecutableFile(file: string): boolean {
	try {
		accessSync(file, constants.X_OK);
		return statSync(file).isFile();
	} catch {
		return false;
	}
}
