// `npm run build:cli` (the last step of `npm run build`): the CLI as users run it, in dist/bin.
// - sift.cjs: the whole CLI compiled by tsc (dist/source/cli.js) and every package it uses but the
//   native driver and pg, as one CommonJS file. Ink comes from the patched build that
//   `npm run build:ink` made before (dist/vendor/ink/production), the one the tests run too, so
//   the patches (source/vendor/ink/patches) are applied once, by that build.
//   CommonJS because a script, unlike an ES module on Node 20, can be compiled from a code cache.
// - sift.js: the launcher (source/launch.ts), which runs sift.cjs through that cache; the bundle's
//   content hash is written into it, so a cache is only ever used with the bundle it was made from.
// - watchdog.js: the run watchdog (source/codex/watchdog-process.ts), a process of its own.
// Subcommands still load on demand: esbuild keeps each module's body in a function of its own,
// run the first time something imports it (docs/architecture.md#start-up).

import {createHash} from 'node:crypto';
import {chmodSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = path.join(root, 'dist', 'bin');
const common = {absWorkingDir: root, bundle: true, platform: 'node', target: 'node20', logLevel: 'warning', minifyWhitespace: true, minifySyntax: true, keepNames: true};

rmSync(out, {recursive: true, force: true});

await build({
	...common,
	entryPoints: ['dist/source/cli.js'],
	outfile: path.join(out, 'sift.cjs'),
	format: 'cjs',
	// The native SQLite driver loads its binary relative to its package; pg requires an optional
	// native module of its own. React devtools are never loaded (the no-devtools patch).
	external: ['better-sqlite3', 'pg', 'react-devtools-core'],
	// The app's modules import Ink as `#ink`: the patched build, React's production one (below).
	alias: {'#ink': './dist/vendor/ink/production/ink.js'},
	// Every module of the bundle sees the bundle's own URL (package.json is found from it).
	// React's production build, always: development checks cost every frame, and the development
	// reconciler alone was a fifth of the bundle. (The unbundled tsc output follows NODE_ENV.)
	define: {'import.meta.url': '__siftBundleUrl', 'process.env.NODE_ENV': '"production"'},
	banner: {js: 'var __siftBundleUrl = require("node:url").pathToFileURL(__filename).href;'},
	// import() of a bundled module becomes a lazy require; a script has no ES module loader to call.
	supported: {'dynamic-import': false},
});
// The launcher wraps the bundle in a function, where the entry's `#!` line would not parse.
const bundleFile = path.join(out, 'sift.cjs');
const bundled = readFileSync(bundleFile, 'latin1').replace(/^#!.*\n/, '');
writeFileSync(bundleFile, bundled, {encoding: 'latin1', mode: 0o644});
if (!/^[\x00-\x7f]*$/.test(bundled)) throw new Error('dist/bin/sift.cjs is not ASCII: the launcher reads it as latin1');

const bundleHash = createHash('sha256').update(bundled, 'latin1').digest('hex').slice(0, 16);
await build({
	...common,
	stdin: {
		contents: [
			'import {homedir} from \'node:os\';',
			'import {fileURLToPath} from \'node:url\';',
			'import {launch} from \'./dist/source/launch.js\';',
			`launch({bundle: fileURLToPath(new URL('./sift.cjs', import.meta.url)), bundleHash: ${JSON.stringify(bundleHash)}, argv: process.argv.slice(2), env: process.env, home: homedir()});`,
		].join('\n'),
		resolveDir: root,
		sourcefile: 'sift.js',
	},
	outfile: path.join(out, 'sift.js'),
	format: 'esm',
	banner: {js: '#!/usr/bin/env node'},
});

await build({...common, entryPoints: ['dist/source/codex/watchdog-process.js'], outfile: path.join(out, 'watchdog.js'), format: 'esm', packages: 'external'});
chmodSync(path.join(out, 'sift.js'), 0o755);
