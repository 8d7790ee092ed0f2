// `npm start` a second time, from a fresh clone, to the TUI's first frame (docs: the second start
// must not rebuild). Steps, each timed:
//   install-time build   `npm run prepare` in the clone (what `npm install` runs), if the clone has one
//   first npm start      creates the demo database, then the first frame
//   second npm start     the figure that matters: spawn → first frame, nothing to rebuild
// SIFT_BENCH_REF=<commit> measures another commit (e.g. the one before the change) the same way.
// benchVersionStart: `sift --version` (the built dist/bin) on the suite's Node and on each tested
// Node (TESTED_NODE_VERSIONS), without a cache, through the code-cache launcher, and through
// Node's own module.enableCompileCache() where Node has it; medians of warm runs.

import {execFileSync, spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {launch, repoRoot} from '../support/pty.js';
import {close, COLS, firstFrame, ROWS} from './pty-bench.js';
import {printTable, type Row} from './support.js';
import {nodeRelease, TESTED_NODE_VERSIONS} from '../support/node-versions.js';

const NPM_CLI = path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');

function freshClone(ref: string | undefined): string {
	const dir = mkdtempSync(path.join(tmpdir(), 'sift-bench-start-'));
	execFileSync('git', ['clone', '--quiet', '--no-hardlinks', repoRoot(), dir]);
	if (ref) execFileSync('git', ['-C', dir, 'checkout', '--quiet', ref]);
	// The dependencies as installed here: the bench measures sift's start, not npm's download.
	symlinkSync(realpathSync(path.join(repoRoot(), 'node_modules')), path.join(dir, 'node_modules'));
	return dir;
}

/** `npm start` in a pseudo-terminal until the first frame; then q, and the time it took. */
async function timedStart(cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
	const started = performance.now();
	const app = launch({entry: NPM_CLI, args: ['start', '--silent'], cwd, env, cols: COLS, rows: ROWS});
	try {
		await app.waitFor(firstFrame, 180_000);
		return app.lastOutputAt - started;
	} finally {
		await close(app);
	}
}

export async function benchStart(): Promise<void> {
	if (!existsSync(NPM_CLI)) {
		console.log(`\nnpm start: skipped, npm not found at ${NPM_CLI}`);
		return;
	}

	const ref = process.env.SIFT_BENCH_REF || undefined;
	const clone = freshClone(ref);
	const data = mkdtempSync(path.join(tmpdir(), 'sift-bench-data-'));
	const env = {XDG_DATA_HOME: data, SIFT_DB: ''};
	try {
		const rows: Row[] = [];
		const scripts = (JSON.parse(readFileSync(path.join(clone, 'package.json'), 'utf8')) as {scripts: Record<string, string>}).scripts;
		if (scripts.prepare) {
			const started = performance.now();
			const built = spawnSync(process.execPath, [NPM_CLI, 'run', 'prepare', '--silent'], {cwd: clone, stdio: 'ignore'});
			if (built.status !== 0) throw new Error('npm run prepare failed in the clone');
			rows.push({step: 'install-time build (npm run prepare)', ms: Math.round(performance.now() - started)});
		}

		rows.push({step: 'first npm start (creates the demo)', ms: Math.round(await timedStart(clone, env))});
		rows.push({step: 'second npm start → first frame', ms: Math.round(await timedStart(clone, env))});
		printTable(`npm start from a fresh clone of ${ref ?? 'HEAD'} (target: second start ≤ 3000 ms)`, rows);
	} finally {
		rmSync(clone, {recursive: true, force: true});
		rmSync(data, {recursive: true, force: true});
	}
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Median wall time of `runs` spawns of `node args…` (after one unmeasured run that fills any cache). */
function timedRuns(node: string, args: string[], env: NodeJS.ProcessEnv, runs: number): number {
	const once = () => {
		const started = performance.now();
		const result = spawnSync(node, args, {env: {...process.env, ...env}, stdio: ['ignore', 'pipe', 'pipe']});
		if (result.status !== 0) throw new Error(`${node} ${args.join(' ')} failed: ${String(result.stderr)}`);
		return performance.now() - started;
	};

	once();
	return median(Array.from({length: runs}, once));
}

export async function benchVersionStart(runs = 15): Promise<void> {
	const bin = path.join(repoRoot(), 'dist', 'bin');
	const work = mkdtempSync(path.join(tmpdir(), 'sift-bench-version-'));
	// The other way to start: Node's own compile cache (Node ≥ 22.1) over the same CommonJS bundle.
	const compileCacheLauncher = path.join(bin, `.bench-compile-cache-${process.pid}.mjs`);
	writeFileSync(compileCacheLauncher, `import module, {createRequire} from 'node:module';\nmodule.enableCompileCache(process.env.BENCH_COMPILE_CACHE);\ncreateRequire(import.meta.url)('./sift.cjs');\n`);
	try {
		const nodes = [{version: `${process.versions.node} (the suite's)`, bin: process.execPath}, ...TESTED_NODE_VERSIONS.map(version => ({version, bin: nodeRelease(version).bin}))];
		const rows: Row[] = [];
		for (const [index, node] of nodes.entries()) {
			const cacheDir = (name: string) => path.join(work, `${index}-${name}`);
			const none = timedRuns(node.bin, [path.join(bin, 'sift.js'), '--version'], {SIFT_CODE_CACHE: 'off'}, runs);
			const launcher = timedRuns(node.bin, [path.join(bin, 'sift.js'), '--version'], {SIFT_CODE_CACHE: cacheDir('launcher')}, runs);
			const hasCompileCache = spawnSync(node.bin, ['-p', 'typeof require("node:module").enableCompileCache'], {encoding: 'utf8'}).stdout.trim() === 'function';
			const compileCache = hasCompileCache ? timedRuns(node.bin, [compileCacheLauncher, '--version'], {BENCH_COMPILE_CACHE: cacheDir('compile')}, runs) : undefined;
			rows.push({node: node.version, 'no cache ms': Math.round(none), 'code-cache launcher ms': Math.round(launcher), 'enableCompileCache ms': compileCache === undefined ? 'n/a' : Math.round(compileCache), 'compile cache / launcher': compileCache === undefined ? '' : `${(compileCache / launcher).toFixed(2)}×`});
		}

		printTable(`sift --version start-up, median of ${runs} warm runs each`, rows);
	} finally {
		rmSync(compileCacheLauncher, {force: true});
		rmSync(work, {recursive: true, force: true});
	}
}

// Run alone: node dist/test/bench/start.js [--version-only]
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
	await benchVersionStart();
	if (!process.argv.includes('--version-only')) await benchStart();
}
