// The test lanes: which test files are "unit" (pure modules: no child process, no database
// server, no pty, no HTTP server, no build output, no Ink render) and so make the fast lane,
// `npm run test:unit`. Decided from what each file and the test-kit files it imports use, so a
// new test lands in the right lane without a list to keep (vitest.config.ts reads this).

import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';

/** What puts a test file outside the fast lane, found in it or in a test file it imports. */
const NEEDS_MORE = new RegExp([
	'child_process', 'execa', 'node-pty', String.raw`\bspawn\(`, String.raw`\bfork\(`, 'node:http', 'node:worker_threads',
	// The test kit's parts that start processes or servers or need the build.
	'support/pty', 'support/cli', 'support/pg', 'codex-local', 'responses-endpoint', 'lock-holder', 'other-user', 'fake-codex',
	'describePg', 'useTestDatabase', 'postgres://', 'dist/', 'SIFT_ENTRY', '@openai/codex',
	// Renders through Ink, which tests load from the build (dist/vendor/ink).
	'ink-testing-library', "'#ink'",
].join('|'));

function testFiles(dir: string): string[] {
	return readdirSync(dir, {withFileTypes: true}).flatMap(entry => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'conformance' ? [] : testFiles(full);
		return /\.test\.tsx?$/.test(entry.name) ? [full] : [];
	});
}

/** The files under test/ a test file imports, itself included (the product's modules are judged by the test that uses them). */
function withTestImports(file: string, root: string, seen = new Set<string>()): Set<string> {
	if (seen.has(file)) return seen;
	seen.add(file);
	for (const match of readFileSync(file, 'utf8').matchAll(/from\s+'(\.[^']+)'|import\('(\.[^']+)'\)/g)) {
		const target = path.resolve(path.dirname(file), match[1] ?? match[2]!);
		if (!target.startsWith(path.join(root, 'test') + path.sep)) continue;
		const found = [target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx'), target].find(candidate => existsSync(candidate));
		if (found) withTestImports(found, root, seen);
	}

	return seen;
}

/** The fast lane's test files, relative to `root` (the checkout). */
export function unitTestFiles(root: string): string[] {
	return testFiles(path.join(root, 'test'))
		.filter(file => ![...withTestImports(file, root)].some(used => NEEDS_MORE.test(readFileSync(used, 'utf8'))))
		.map(file => path.relative(root, file).split(path.sep).join('/'))
		.sort();
}
