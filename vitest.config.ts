import path from 'node:path';
import {defineConfig} from 'vitest/config';

export default defineConfig({
	// The built app loads Ink from a single-file bundle (package.json "imports", for start-up time);
	// tests load the package itself, the same instance ink-testing-library renders with.
	resolve: {alias: {'#ink': 'ink'}},
	test: {
		include: ['test/**/*.test.{ts,tsx}'],
		exclude: ['dist/**', '**/node_modules/**'],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		// Several suites spawn real processes (sqlite writers, codex, a pty); two cores.
		maxWorkers: 2,
		// The built CLI's code cache (source/launch.ts) for the processes tests start: in the checkout,
		// not the home folder; kept between runs, as a user's is.
		env: {SIFT_CODE_CACHE: path.resolve(import.meta.dirname, 'tmp', 'code-cache')},
	},
});
