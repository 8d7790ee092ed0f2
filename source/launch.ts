// The built `sift` (dist/bin/sift.js): runs the CLI bundle (dist/bin/sift.cjs, the whole CLI as one
// CommonJS file) from compiled code kept between runs. Compiling was about a fifth of the TUI's
// start. On Node 22 and later, Node's own compile cache (module.enableCompileCache) keeps it: as fast
// as our own here or faster (test/bench/start.ts). Node 20 keeps no compiled code, so there the bundle
// is compiled as a script with the V8 code cache of an earlier run, which skips the parse and the
// first compile of every function that run used (docs/architecture.md#start-up). Only Node's own
// modules here: this file is loaded cold.

import {mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} from 'node:fs';
import nodeModule, {createRequire} from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/** The cache is written once per process, this long after the start (or at a clean exit before that). */
const KEEP_AFTER_MS = 2000;

const PREFIX = 'code-';

/**
 * The folder compiled code is kept in: `SIFT_CODE_CACHE` (a folder, or `off` for none), else the
 * XDG cache home's `sift` folder (`~/.cache/sift` without XDG_CACHE_HOME).
 */
export function codeCacheDir(env: NodeJS.ProcessEnv, home: string): string | undefined {
	const chosen = env.SIFT_CODE_CACHE;
	if (chosen === 'off') return undefined;
	if (chosen) return path.resolve(chosen);
	const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : home ? path.join(home, '.cache') : undefined;
	return base ? path.join(base, 'sift') : undefined;
}

/**
 * The part of a run that decides which functions it compiles: the subcommand (`sift list …`), help
 * or the version, or the TUI (`sift`, `sift --db FILE`). Each keeps a cache of its own, so a
 * `sift --version` run first does not leave the TUI a cache without its screens.
 */
export function commandKey(argv: readonly string[]): string {
	const first = argv[0];
	if (first !== undefined && /^[a-z]{1,20}$/.test(first)) return first;
	return argv.some(arg => ['--help', '-h', '--version'].includes(arg)) ? 'help' : 'tui';
}

/**
 * The cache file of one bundle (by the hash of its contents: V8 checks a cache against the source's
 * length only), one command, one Node and one CPU architecture (V8 refuses another's cache).
 */
export function codeCacheFile(dir: string, bundleHash: string, argv: readonly string[]): string {
	return path.join(dir, `${PREFIX}${bundleHash}-${commandKey(argv)}-node${process.versions.node}-${process.arch}.bin`);
}

/**
 * V8 runs a cache's bytecode as it finds it, so only a cache no one else could have written is
 * read: the file and its folder owned by this user and writable by no one else.
 */
export function trustedCache(file: string): boolean {
	const uid = process.getuid?.();
	if (uid === undefined) return false;
	return [file, path.dirname(file)].every(each => {
		const stats = statSync(each);
		return stats.uid === uid && (stats.mode & 0o022) === 0;
	});
}

function readCache(file: string | undefined): Buffer | undefined {
	if (!file) return undefined;
	try {
		return trustedCache(file) ? readFileSync(file) : undefined;
	} catch {
		return undefined;
	}
}

/** Writes the cache whole or not at all (a rename), private to the user; drops other bundles' caches. */
export function keepCache(file: string, data: Buffer, bundleHash: string): void {
	const dir = path.dirname(file);
	const partial = `${file}.${process.pid}.partial`;
	try {
		mkdirSync(dir, {recursive: true, mode: 0o700});
		writeFileSync(partial, data, {mode: 0o600});
		renameSync(partial, file);
		for (const name of readdirSync(dir)) {
			if (name.startsWith(PREFIX) && !name.startsWith(`${PREFIX}${bundleHash}-`)) rmSync(path.join(dir, name), {force: true});
		}
	} catch {
		// A cache that cannot be written (a read-only home, a full disk) only costs the next start its compile.
		try {
			rmSync(partial, {force: true});
		} catch {
			// No partial file was made (its folder is not one).
		}
	}
}

/** Node's compile cache (Node ≥ 22.1); absent on Node 20. */
const enableCompileCache = (nodeModule as unknown as {enableCompileCache?: (dir: string) => unknown}).enableCompileCache;

/** The folder Node's compile cache is kept in, made private; undefined when it cannot be or is not ours alone. */
export function compileCacheDir(dir: string): string | undefined {
	const folder = path.join(dir, 'compile');
	try {
		mkdirSync(folder, {recursive: true, mode: 0o700});
		// V8 runs cached code as it finds it, as with the code cache: only a folder no one else can write.
		return trustedCache(folder) ? folder : undefined;
	} catch {
		return undefined;
	}
}

export type LaunchOptions = {bundle: string; bundleHash: string; argv: readonly string[]; env: NodeJS.ProcessEnv; home: string};

/** Runs the bundle as Node runs a CommonJS module, compiled from a cache when there is a usable one. */
export function launch({bundle, bundleHash, argv, env, home}: LaunchOptions): void {
	const dir = codeCacheDir(env, home);
	const compiled = dir !== undefined && enableCompileCache !== undefined ? compileCacheDir(dir) : undefined;
	if (compiled !== undefined) {
		enableCompileCache!(compiled);
		createRequire(bundle)(bundle);
		return;
	}

	const file = dir === undefined ? undefined : codeCacheFile(dir, bundleHash, argv);
	const cachedData = readCache(file);
	// The bundle is ASCII (esbuild escapes the rest), so latin1 reads it without decoding UTF-8.
	const source = readFileSync(bundle, 'latin1');
	const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {filename: bundle, cachedData});
	if (file !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
		let kept = false;
		const keep = () => {
			if (kept) return;
			kept = true;
			keepCache(file, script.createCachedData(), bundleHash);
		};

		// After the start's work (the TUI's first frame), or at a clean exit of a shorter command.
		setTimeout(keep, KEEP_AFTER_MS).unref();
		process.once('exit', code => {
			if (code === 0) keep();
		});
	}

	const module = {exports: {}};
	const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
	run(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
}
