import path from 'node:path';
import {defineConfig} from 'vitest/config';
import {unitTestFiles} from './test/support/lanes.js';

const root = import.meta.dirname;
// The fast lane (`npm run test:unit`): the pure modules' tests (test/support/lanes.ts decides which).
const unit = unitTestFiles(root);

export default defineConfig({
	// The built app loads Ink from a single-file bundle (package.json "imports", for start-up time);
	// tests load the package itself, the same instance ink-testing-library renders with.
	resolve: {alias: {'#ink': 'ink'}},
	test: {
		exclude: ['dist/**', '**/node_modules/**'],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		// Several suites spawn real processes (sqlite writers, codex, a pty); two cores.
		maxWorkers: 2,
		// The built CLI's code cache (source/launch.ts) for the processes tests start: in the checkout,
		// not the home folder; kept between runs, as a user's is.
		env: {SIFT_CODE_CACHE: path.resolve(root, 'tmp', 'code-cache')},
		// Two lanes, run side by side by `npm test` (`vitest run`); `--project unit` runs the fast one alone.
		projects: [
			{extends: true, test: {name: 'unit', include: unit}},
			{extends: true, test: {name: 'system', include: ['test/**/*.test.{ts,tsx}'], exclude: ['dist/**', '**/node_modules/**', ...unit]}},
		],
	},
});
