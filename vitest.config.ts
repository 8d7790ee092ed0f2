import path from 'node:path';
import {defineConfig} from 'vitest/config';
import {unitTestFiles} from './test/support/lanes.js';

const root = import.meta.dirname;
// The fast lane (`npm run test:unit`): the pure modules' tests (test/support/lanes.ts decides which).
const unit = unitTestFiles(root);
const BUILT_INK = path.join(root, 'dist', 'vendor', 'ink', 'ink.js');

export default defineConfig({
	// Tests run the Ink that ships: the patched build (dist/vendor/ink, `npm run build:ink`), which the
	// app's `#ink` imports reach through package.json "imports". ink-testing-library renders with the
	// same instance (a second Ink would bring its own React contexts); the published package stays
	// for test/build/ink-patches.test.tsx, which compares the two.
	plugins: [{
		name: 'sift-shipped-ink',
		enforce: 'pre',
		resolveId(source, importer) {
			return source === 'ink' && importer?.includes('/node_modules/ink-testing-library/') ? BUILT_INK : null;
		},
	}],
	test: {
		// Loaded through vite, so its `ink` import reaches the plugin above.
		server: {deps: {inline: ['ink-testing-library']}},
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
