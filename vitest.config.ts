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
	},
});
