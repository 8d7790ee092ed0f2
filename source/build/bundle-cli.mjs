// `npm run build:cli` (part of `npm run build`): bundles the compiled CLI (dist/source/cli.js, what
// tsc wrote) into dist/bin/sift.js and its chunks, and the run watchdog into dist/bin/watchdog.js.
// Why: Node 20 loads each ES module with its own resolve, stat, read and compile, and the TUI's start
// loaded about 175 of sift's own; bundled, it loads about 30 chunks (docs/architecture.md#start-up).
// Every subcommand still loads on demand: each dynamic import() becomes a chunk of its own.
// Packages stay in node_modules (React must be the one the vendored Ink imports), and so does the
// vendored Ink (`#ink`, already a bundle of its own).

import {rmSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = path.join(root, 'dist', 'bin');

// Chunks of an earlier build would linger beside the new ones (their names are content hashes).
rmSync(out, {recursive: true, force: true});
await build({
	entryPoints: {sift: 'dist/source/cli.js', watchdog: 'dist/source/codex/watchdog-process.js'},
	absWorkingDir: root,
	bundle: true,
	splitting: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	outdir: out,
	entryNames: '[name]',
	chunkNames: 'chunks/[name]-[hash]',
	packages: 'external',
	external: ['#ink'],
	// Less to read and parse at every start; names are kept, so errors and stack traces still name their functions.
	minifyWhitespace: true,
	minifySyntax: true,
	keepNames: true,
	logLevel: 'warning',
});
