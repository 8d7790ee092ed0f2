// Where run logs and caches live (`$SIFT_STATE_DIR`, else the XDG state dir); the package's own
// folder, found by its npm name `@sift-triage/sift`.

import {existsSync, readFileSync} from 'node:fs';
import {homedir} from 'node:os';
import path from 'node:path';
import {randomBytes} from 'node:crypto';
import {fileURLToPath} from 'node:url';

/**
 * The state dir's files (run logs hold the agent's whole conversation about the records, caches
 * name the codex in use) are private like the database: 0600, in folders made 0700.
 */
export const PRIVATE_FILE = 0o600;

/** Where sift keeps run logs and caches: $SIFT_STATE_DIR, else $XDG_STATE_HOME/sift, else ~/.local/state/sift. */
export function resolveStateDir(env: NodeJS.ProcessEnv = process.env): string {
	if (env.SIFT_STATE_DIR) return path.resolve(env.SIFT_STATE_DIR);
	if (env.XDG_STATE_HOME) return path.join(path.resolve(env.XDG_STATE_HOME), 'sift');
	return path.join(homedir(), '.local', 'state', 'sift');
}

export function runsDir(stateDir: string): string {
	return path.join(stateDir, 'runs');
}

export function runLogPath(stateDir: string, runId: string): string {
	return path.join(runsDir(stateDir), `${runId}.jsonl`);
}

/** The empty folder a run's Codex starts in, so no stray AGENTS.md or project rules leak in. */
export function runWorkDir(stateDir: string, runId: string): string {
	return path.join(stateDir, 'work', runId);
}

/** `run-20250102T030405123Z-k3x9q1`: sorts by start time; the suffix keeps same-millisecond runs apart. */
export function newRunId(now: Date = new Date()): string {
	const stamp = now.toISOString().replaceAll(/[-:.]/g, '');
	return `run-${stamp}-${randomBytes(4).toString('hex').slice(0, 6)}`;
}

let cachedRoot: string | undefined;

/**
 * The sift package folder. Found by walking up from this module because it runs both from
 * source/ (tests, via vitest) and from dist/source/ (the built CLI), at different depths.
 */
export function packageRoot(): string {
	if (cachedRoot) return cachedRoot;
	let dir = path.dirname(fileURLToPath(import.meta.url));
	for (;;) {
		if (isSiftPackage(path.join(dir, 'package.json'))) return (cachedRoot = dir);
		const parent = path.dirname(dir);
		if (parent === dir) throw new Error('sift: cannot find its own package.json above ' + fileURLToPath(import.meta.url));
		dir = parent;
	}
}

/** The npm name sift is published under (the bare name `sift` is another project's). */
export const PACKAGE_NAME = '@sift-triage/sift';

function isSiftPackage(file: string): boolean {
	if (!existsSync(file)) return false;
	try {
		return (JSON.parse(readFileSync(file, 'utf8')) as {name?: unknown}).name === PACKAGE_NAME;
	} catch {
		return false;
	}
}

/**
 * The built CLI: the bundle `npm run build` writes (docs/architecture.md#start-up). The installed
 * `sift` runs it, and so does Codex for the MCP server (`node <entry> mcp ...`).
 */
export function siftEntry(): string {
	return path.join(packageRoot(), 'dist', 'bin', 'sift.js');
}

/** The built watchdog script, bundled beside the CLI (tests that run the runner from source still use the build). */
export function watchdogScript(): string {
	return path.join(packageRoot(), 'dist', 'bin', 'watchdog.js');
}
