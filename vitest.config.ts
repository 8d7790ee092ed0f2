import {defineConfig} from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.{ts,tsx}'],
		exclude: ['dist/**', 'node_modules/**'],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		// Several suites spawn real processes (sqlite writers, codex, a pty); two cores.
		maxWorkers: 2,
	},
});
