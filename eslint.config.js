// ESLint (flat config), `npm run lint`: JavaScript's and typescript-eslint's recommended rules on every
// source file of the tree, without type information (a type-aware run costs another full compile;
// `npm run typecheck` is that). The changes below keep the rules that catch mistakes and turn off
// the ones that would only flag what the tree does on purpose.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What Node gives a script (the .mjs helpers are plain JavaScript, so no-undef applies to them). */
const NODE_GLOBALS = Object.fromEntries([
	'process', 'console', 'Buffer', 'URL', 'URLSearchParams', 'fetch', 'performance', 'AbortController', 'AbortSignal',
	'TextEncoder', 'TextDecoder', 'structuredClone', 'queueMicrotask', 'setTimeout', 'clearTimeout', 'setInterval',
	'clearInterval', 'setImmediate', 'clearImmediate',
].map(name => [name, 'readonly']));

export default tseslint.config(
	{ignores: ['dist/**', 'tmp/**', 'coverage/**', '**/node_modules/**', 'test/conformance/**']},
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		languageOptions: {globals: NODE_GLOBALS},
		linterOptions: {reportUnusedDisableDirectives: 'error'},
		rules: {
			// Terminal text is sanitised by matching control characters: that is the point of those patterns.
			'no-control-regex': 'off',
			// `catch {}` where a failure changes nothing (best-effort cleanup, a parse attempt) is deliberate.
			'no-empty': ['error', {allowEmptyCatch: true}],
			// `const {secret: _secret, ...rest} = row` leaves fields out; `_name` marks a parameter kept for its position.
			'@typescript-eslint/no-unused-vars': ['error', {
				argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true,
			}],
			// A timer read by its own callback before the assignment cannot be const.
			'prefer-const': ['error', {ignoreReadBeforeAssign: true}],
		},
	},
	{
		// Tests read the CLI's JSON output and poke at objects as `any` on purpose; the product code may not.
		files: ['test/**'],
		rules: {'@typescript-eslint/no-explicit-any': 'off'},
	},
);
