// The package as a stranger gets it: `npm pack`, then `npm install -g TARBALL` into a temporary
// prefix with a clean environment (no npm_* variables, no node_modules/.bin on PATH, a temp HOME),
// then the installed `sift` runs. The npm cache is the machine's own (cache first, the registry
// only for what it lacks), and better-sqlite3's prebuilt binary is offered locally (see
// localPrebuild), so the install takes seconds and compiles nothing. The same tarball is then
// installed and run on each Node version sift is tested on besides the suite's own
// (TESTED_NODE_VERSIONS: the official binaries from npm, with a better-sqlite3 built for each once
// and cached; see test/support/node-versions.ts).

import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {betterSqlitePrebuilds, nodeRelease, TESTED_NODE_VERSIONS} from '../support/node-versions.js';
import {repoRoot} from '../support/pty.js';
import {tempDir} from '../support/temp.js';

const ROOT = repoRoot();
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {name: string; version: string};

/** What a clean shell has: the system PATH without any node_modules/.bin, and the TLS/proxy settings the machine needs to reach a registry. */
function cleanEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	const keep = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy', 'LANG'];
	const env: NodeJS.ProcessEnv = {};
	for (const key of keep) if (process.env[key] !== undefined) env[key] = process.env[key];
	const pathDirs = (process.env.PATH ?? '').split(path.delimiter).filter(dir => dir && !dir.includes(`${path.sep}node_modules${path.sep}`));
	return {...env, PATH: [path.dirname(process.execPath), ...pathDirs].join(path.delimiter), HOME: home, ...extra};
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, timeout = 90_000) {
	const result = spawnSync(command, args, {cwd, env, encoding: 'utf8', timeout, stdio: ['ignore', 'pipe', 'pipe']});
	return {code: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '', error: result.error};
}

/**
 * better-sqlite3 installs by downloading its prebuilt binary from GitHub, else by compiling
 * (minutes). Its installer also takes a local folder of prebuilds
 * (npm_config_better_sqlite3_local_prebuilds); this packs the binary already built for this
 * Node into that folder, named as the download is, so the install neither needs GitHub nor a compiler.
 */
function localPrebuild(dir: string): string {
	const require = createRequire(path.join(ROOT, 'package.json'));
	const moduleDir = path.dirname(require.resolve('better-sqlite3/package.json'));
	const {version} = JSON.parse(readFileSync(path.join(moduleDir, 'package.json'), 'utf8')) as {version: string};
	const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
	mkdirSync(dir, {recursive: true});
	const made = spawnSync('tar', ['czf', path.join(dir, name), '-C', moduleDir, 'build/Release/better_sqlite3.node']);
	if (made.status !== 0) throw new Error(`could not pack the better-sqlite3 prebuild: ${made.stderr}`);
	return dir;
}

/** Every file under `dir` (relative), following no links. */
function filesUnder(dir: string, prefix = ''): string[] {
	const out: string[] = [];
	for (const entry of readdirSync(dir, {withFileTypes: true})) {
		const relative = path.join(prefix, entry.name);
		if (entry.isDirectory()) out.push(...filesUnder(path.join(dir, entry.name), relative));
		else out.push(relative);
	}

	return out;
}

/** `sift --version`, `demo --no-open`, `list` and a run through the fake codex, as `sift` from PATH in `env`. */
function runsAsSift(env: NodeJS.ProcessEnv, home: string): void {
	const data = env.XDG_DATA_HOME!;
	const version = run('sift', ['--version'], env, home);
	expect(version.code, version.stderr).toBe(0);
	expect(version.stdout.trim()).toBe(manifest.version);
	const demo = run('sift', ['demo', '--no-open', '--items', '25'], env, home);
	expect(demo.code, demo.stderr).toBe(0);
	expect(demo.stdout).toContain(`demo ready in ${path.join(data, 'sift', 'sift.db')}`);
	expect(demo.stdout).toMatch(/open it with: sift$/m);
	const listed = run('sift', ['list', '--limit', '3'], env, home);
	expect(listed.code, listed.stderr).toBe(0);
	expect(listed.stdout).toContain('BUG-0025');
	// A Codex run from the installed package (the user's own codex: here the repo's stand-in), its MCP server included.
	const {id} = JSON.parse(run('sift', ['show', 'BUG-0001', '--json'], env, home).stdout) as {id: string};
	const ran = run('sift', ['run', 'Triage it', '--items', id, '--codex', path.join(ROOT, 'test', 'support', 'fake-codex.mjs'), '--json'], {...env, FAKE_CODEX_PIDFILE: path.join(data, 'pids')}, home);
	expect(ran.code, ran.stderr).toBe(0);
	expect(JSON.parse(ran.stdout)).toMatchObject({outcome: 'ok'});
}

describe('the npm package', () => {
	let work: string;
	let tarball: string;
	let prefix: string;
	let home: string;
	let installEnv: NodeJS.ProcessEnv;
	let npmCache: string;

	beforeAll(() => {
		work = tempDir('sift-package-');
		home = path.join(work, 'home');
		mkdirSync(home);
		// The machine's npm cache, so the install is cache first; the temp HOME keeps every other setting out.
		npmCache = run('npm', ['config', 'get', 'cache'], process.env, ROOT).stdout.trim();
		installEnv = cleanEnv(home, {npm_config_cache: npmCache, npm_config_better_sqlite3_local_prebuilds: localPrebuild(path.join(work, 'prebuilds'))});
		const packs = path.join(work, 'packs');
		mkdirSync(packs);
		// --ignore-scripts: `prepare` would rebuild; the suite already runs on a fresh build (npm test builds first).
		const packed = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packs], cleanEnv(home, {npm_config_cache: npmCache}), ROOT);
		expect(packed.code, packed.stderr).toBe(0);
		const [info] = JSON.parse(packed.stdout) as Array<{filename: string; files: Array<{path: string}>}>;
		tarball = path.join(packs, info!.filename);
		prefix = path.join(work, 'prefix');
		const installed = run('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], installEnv, work, 150_000);
		expect(installed.code, installed.stderr).toBe(0);
	}, 180_000);

	afterAll(() => {
		// npx keeps what it installed under the cache's _npx; drop the entries made for this test's tarball.
		const npx = path.join(npmCache ?? '', '_npx');
		if (!tarball || !existsSync(npx)) return;
		for (const entry of readdirSync(npx)) {
			const lock = path.join(npx, entry, 'package.json');
			if (existsSync(lock) && readFileSync(lock, 'utf8').includes(tarball)) rmSync(path.join(npx, entry), {recursive: true, force: true});
		}
	});

	describe.each(TESTED_NODE_VERSIONS)('on Node %s', version => {
		let nodeEnv: (data: string) => NodeJS.ProcessEnv;

		beforeAll(() => {
			const release = nodeRelease(version);
			const nodeBin = path.dirname(release.bin);
			// That Node first on PATH: npm, the install scripts, `#!/usr/bin/env node` and the fake codex all run on it.
			const nodePath = (...first: string[]) => [...first, nodeBin, ...(cleanEnv(home).PATH ?? '').split(path.delimiter)].join(path.delimiter);
			const nodePrefix = path.join(work, `prefix-${version}`);
			const installed = run('npm', ['install', '--global', '--prefix', nodePrefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], {...installEnv, PATH: nodePath(), npm_config_better_sqlite3_local_prebuilds: betterSqlitePrebuilds(release)}, work, 300_000);
			expect(installed.code, installed.stderr).toBe(0);
			nodeEnv = data => ({...userEnv(data), PATH: nodePath(path.join(nodePrefix, 'bin')), XDG_CACHE_HOME: path.join(data, 'cache')});
		}, 1_800_000);

		it('installs the tarball and runs `sift --version`, demo --no-open, list and a Codex run', () => {
			const data = tempDir(`sift-package-node${version}-`);
			const env = nodeEnv(data);
			expect(run('node', ['--version'], env, home).stdout.trim()).toBe(`v${version}`);
			runsAsSift(env, home);
			// Compiled code kept by Node's own compile cache (Node ≥ 22), not by the launcher's code cache.
			const cache = path.join(data, 'cache', 'sift');
			expect(filesUnder(path.join(cache, 'compile')).length).toBeGreaterThan(0);
			expect(readdirSync(cache).filter(name => name.startsWith('code-'))).toEqual([]);
		}, 180_000);
	});

	const installedRoot = () => path.join(prefix, 'lib', 'node_modules', ...manifest.name.split('/'));
	const userEnv = (data: string) => cleanEnv(home, {PATH: [path.join(prefix, 'bin'), path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter), XDG_DATA_HOME: data, XDG_STATE_HOME: path.join(data, 'state'), XDG_CONFIG_HOME: path.join(data, 'config')});

	it('holds the built CLI, docs and licence, and no tests, sources, maps or tarballs', () => {
		const files = filesUnder(installedRoot()).filter(file => !file.startsWith(`node_modules${path.sep}`));
		expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', path.join('dist', 'bin', 'sift.js'), path.join('dist', 'bin', 'sift.cjs'), path.join('dist', 'bin', 'watchdog.js'), path.join('docs', 'reference.md')]));
		expect(files.filter(file => /(^|\/)test\/|\.test\.|\.tgz$|\.map$|\.tsx?$/.test(file))).toEqual([]);
		// The CLI ships as its bundle alone (docs/architecture.md#start-up): not the unbundled modules tsc writes.
		expect(files.every(file => /^(dist\/bin\/|docs\/|LICENSE$|README\.md$|package\.json$)/.test(file)), files.join('\n')).toBe(true);
		// The tarball is packed from the repo, which never holds one (a second pack would embed the first).
		expect(statSync(tarball).size).toBeLessThan(5_000_000);
	});

	it('installs without the dev dependencies: no Codex CLI, no test tools, nothing the bundle holds', () => {
		const modules = path.join(installedRoot(), 'node_modules');
		const everywhere = [modules, path.join(prefix, 'lib', 'node_modules')];
		// The bundle holds Ink, React, the MCP SDK, zod, yaml, execa, marked and csv-parse; only the native SQLite driver and pg are installed.
		const bundled = ['ink', 'react', '@modelcontextprotocol/sdk', 'zod', 'yaml', 'execa', 'marked', 'csv-parse'];
		for (const dir of everywhere) {
			for (const dev of ['@openai/codex', 'vitest', 'typescript', 'esbuild', 'node-pty', 'tsx', ...bundled]) expect(existsSync(path.join(dir, dev)), `${dev} in ${dir}`).toBe(false);
		}

		for (const needed of ['better-sqlite3', 'pg']) expect(existsSync(path.join(modules, needed)), `${needed} in ${modules}`).toBe(true);
	});

	it('runs as `sift`: --version, demo --no-open (naming `sift` as the way to open it), list, a Codex run', () => {
		runsAsSift(userEnv(tempDir('sift-package-data-')), home);
	});

	it('runs through `npx --package TARBALL sift`, and the hint says so', () => {
		const data = tempDir('sift-package-npx-');
		const env = {...installEnv, XDG_DATA_HOME: data, XDG_STATE_HOME: path.join(data, 'state')};
		const help = run('npx', ['--yes', '--prefer-offline', '--package', tarball, 'sift', '--help'], env, home, 150_000);
		expect(help.code, help.stderr).toBe(0);
		expect(help.stdout).toContain('`sift help COMMAND`');
		const demo = run('npx', ['--yes', '--prefer-offline', '--package', tarball, 'sift', 'demo', '--no-open', '--items', '5'], env, home);
		expect(demo.code, demo.stderr).toBe(0);
		expect(demo.stdout).toContain(`open it with: npx --package ${tarball} sift`);
	}, 180_000);
});
