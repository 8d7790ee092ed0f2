// Runs the built CLI (each run with a private data dir), a demo database made by it.

import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {createHash} from 'node:crypto';
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {siftEntry} from '../../source/codex/paths.js';
import {tempDir} from './temp.js';

/** The built command line (the bundle): tests run what users run. `npm test` builds first. */
export const SIFT_ENTRY = siftEntry();

export type CliResult = {code: number | null; stdout: string; stderr: string};

export function ensureBuilt(): void {
	if (!existsSync(SIFT_ENTRY)) {
		spawnSync('npm', ['run', 'build', '--silent'], {cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: 'inherit'});
	}
}

/** Runs `sift ARGS` to completion with a private data dir, so no test touches a real home. */
export function sift(args: string[], env: NodeJS.ProcessEnv = {}, options: {cwd?: string} = {}): CliResult {
	const result = spawnSync(process.execPath, [SIFT_ENTRY, ...args], {
		cwd: options.cwd,
		encoding: 'utf8',
		env: {...process.env, SIFT_DB: '', XDG_DATA_HOME: env.XDG_DATA_HOME ?? tempDir('sift-data-'), ...env},
		stdio: ['ignore', 'pipe', 'pipe'],
		timeout: 60_000,
	});
	return {code: result.status, stdout: result.stdout, stderr: result.stderr};
}

/**
 * Starts `sift ARGS` without blocking this process (for tests that serve something the CLI talks
 * to, such as the fake GitHub): the child, and its result once it exits (killed: code null).
 */
export function siftChild(args: string[], env: NodeJS.ProcessEnv = {}): {child: ChildProcess; done: Promise<CliResult>} {
	const child = spawn(process.execPath, [SIFT_ENTRY, ...args], {
		env: {...process.env, SIFT_DB: '', XDG_DATA_HOME: env.XDG_DATA_HOME ?? tempDir('sift-data-'), ...env},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
	child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
	const done = new Promise<CliResult>(resolve => child.on('close', code => resolve({code, stdout, stderr})));
	return {child, done};
}

/** `sift ARGS` run to its end without blocking this process. */
export async function siftAsync(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
	return siftChild(args, env).done;
}

/** Runs `sift ARGS --json` and parses what it printed. */
export function siftJson<T = any>(args: string[], env?: NodeJS.ProcessEnv): T {
	const result = sift([...args, '--json'], env);
	if (result.code !== 0) {
		throw new Error(`sift ${args.join(' ')} exited ${result.code}: ${result.stderr}${result.stdout}`);
	}

	return JSON.parse(result.stdout) as T;
}

export {tempDir} from './temp.js';

/** The sha256 of a file and its WAL companions: "byte-identical" means all of them unchanged. */
export function fileDigest(path: string): string {
	const hash = createHash('sha256');
	for (const suffix of ['', '-wal', '-shm']) {
		hash.update(suffix);
		hash.update(existsSync(path + suffix) ? readFileSync(path + suffix) : Buffer.from('absent'));
	}

	return hash.digest('hex');
}

/** A demo database of `items` items in a temp folder, made by the built CLI. */
export function demoDatabase(items = 20): string {
	const db = join(tempDir('sift-cli-'), 'demo.db');
	const result = sift(['demo', '--db', db, '--items', String(items), '--no-open']);
	if (result.code !== 0) throw new Error(`sift demo failed: ${result.stderr}`);
	return db;
}
