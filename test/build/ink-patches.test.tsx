// The patches the Ink bundle is built with (source/vendor/ink/patches/README.md): each still applies to the installed
// package, a stale one stops the build by name, and the patched Ink (the built bundle, dist/) draws
// exactly the frames Ink's own code draws, frame after frame, so its caches change no output.

import {cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import React from 'react';
import {describe, expect, it} from 'vitest';
import {repoRoot} from '../support/pty.js';

type Hunk = {start: number; old: string[]; new: string[]};
type FileDiff = {file: string; hunks: Hunk[]};
type PatchFiles = {parseDiff: (text: string, source: string) => FileDiff[]; applyHunks: (text: string, hunks: Hunk[], what: string) => string};
type InkModule = typeof import('ink');

const ROOT = repoRoot();
const load = async <T,>(file: string) => import(pathToFileURL(path.join(ROOT, file)).href) as Promise<T>;

type PatchList = {listPatches: (dir: string) => Array<{pkg: string; file: string}>};

async function patches(): Promise<Array<{pkg: string; source: string}>> {
	const {listPatches} = await load<PatchList>('source/vendor/ink/patch-files.mjs');
	return listPatches(path.join(ROOT, 'source/vendor/ink/patches')).map(({pkg, file}) => ({pkg, source: `source/vendor/ink/patches/${file}`}));
}

/** The installed file a patch is for (yoga-layout is Ink's dependency, wherever npm put it). */
function installed(pkg: string, file: string): string {
	for (const base of [path.join(ROOT, 'node_modules'), path.join(ROOT, 'node_modules', 'ink', 'node_modules')]) {
		try {
			return readFileSync(path.join(base, pkg, file), 'utf8');
		} catch {}
	}

	throw new Error(`${pkg}/${file} is not installed`);
}

describe('the patches of the Ink bundle', () => {
	it('each applies to the installed package and changes it', async () => {
		const {parseDiff, applyHunks} = await load<PatchFiles>('source/vendor/ink/patch-files.mjs');
		const all = await patches();
		// A scoped package's patches are found in its scope's folder.
		expect(all.map(patch => patch.pkg)).toEqual(expect.arrayContaining(['ink', 'yoga-layout', '@alcalzone/ansi-tokenize']));
		// A file's patches apply in name order, each to the file as the ones before it left it.
		const patched = new Map<string, string>();
		for (const {pkg, source} of all) {
			for (const diff of parseDiff(readFileSync(path.join(ROOT, source), 'utf8'), source)) {
				const key = `${pkg}/${diff.file}`;
				const before = patched.get(key) ?? installed(pkg, diff.file);
				const after = applyHunks(before, diff.hunks, source);
				expect(after).not.toBe(before);
				patched.set(key, after);
			}
		}
	});

	it('stops on a hunk that no longer matches, naming the patch', async () => {
		const {parseDiff, applyHunks} = await load<PatchFiles>('source/vendor/ink/patch-files.mjs');
		const source = 'source/vendor/ink/patches/ink/output-row-cache.patch';
		const [diff] = parseDiff(readFileSync(path.join(ROOT, source), 'utf8'), source);
		const changed = installed('ink', diff!.file).replace('caches = new OutputCaches();', 'caches = new OtherCaches();');
		expect(() => applyHunks(changed, diff!.hunks, source)).toThrow(/output-row-cache\.patch: the hunk at line \d+ does not match the installed file/);
	});

	it('refuses a hunk cut short', async () => {
		const {parseDiff} = await load<PatchFiles>('source/vendor/ink/patch-files.mjs');
		expect(() => parseDiff('--- a/x.js\n+++ b/x.js\n@@ -1,3 +1,3 @@\n a\n-b\n', 'cut.patch')).toThrow(/cut\.patch: the last hunk is cut short/);
	});
});

describe('the tests run the Ink that ships', () => {
	it('the app\'s #ink and ink-testing-library\'s ink are the patched build, not the published package', async () => {
		const built = await load<InkModule>('dist/vendor/ink/development/ink.js');
		const published = await import('ink');
		const app = await import('#ink');
		expect(app.render).toBe(built.render);
		expect(app.render).not.toBe(published.render);
		// ink-testing-library renders with the build too: a component reading the build's stdout context sees its stdout.
		const {render} = await import('ink-testing-library');
		let seen: unknown;
		const Probe = () => {
			seen = built.useStdout().stdout;
			return <built.Text>probe</built.Text>;
		};
		const rendered = render(<Probe/>);
		expect(rendered.lastFrame()).toBe('probe');
		expect(seen).toBe(rendered.stdout);
		rendered.unmount();
	});
});

describe('the patched Ink draws the frames Ink draws', () => {
	/** Frames that share rows with one another (so the second and later come from the caches), with colour, wide characters, overlap and clipping. */
	function frames(ink: InkModule): React.ReactElement[] {
		const {Box, Text} = ink;
		const list = (cursor: number, width: number) => (
			<Box flexDirection="column" width={width}>
				<Text bold>sift Bugs · row {cursor + 1}</Text>
				{['Login form ignores retries', '日本語のタイトル 🐛 wide', 'Crash log: \u001B[31mFATAL\u001B[39m raw', 'Sync stalls behind a corporate proxy with a long tail that is cut'].map((title, index) => (
					<Box key={title}>
						<Text inverse={index === cursor} color={index % 2 === 0 ? 'green' : undefined} wrap="truncate-end">{`BUG-000${index}  ${title}`}</Text>
					</Box>
				))}
				<Box height={2} overflow="hidden" borderStyle="round"><Text>{'clipped\nlines\nbelow'}</Text></Box>
				<Box position="absolute" marginLeft={10}><Text color="red">over</Text></Box>
				{/* Rows of one fragment away from the left edge, wide characters among them, trailing spaces styled and plain. */}
				<Box paddingLeft={3}><Text color="cyan">{`  padded 日本 ✓ ${cursor}  `}</Text></Box>
				<Box marginLeft={5}><Text backgroundColor="blue">{'background, trailing   '}</Text><Text>{'   '}</Text></Box>
				<Box marginLeft={width - 4}><Text inverse>{'端'.repeat(cursor + 1)}</Text></Box>
			</Box>
		);
		return [list(0, 40), list(1, 40), list(0, 40), list(2, 30), list(3, 40), list(1, 40)];
	}

	it('every frame is the same string', async () => {
		const saved = process.env.FORCE_COLOR;
		process.env.FORCE_COLOR = '3';
		try {
			// The development bundle: vitest runs React's development build, which that bundle is built for.
			const patched = await load<InkModule>('dist/vendor/ink/development/ink.js');
			const own = await import('ink');
			const drawn = frames(patched).map(frame => patched.renderToString(frame, {columns: 60}));
			const expected = frames(own).map(frame => own.renderToString(frame, {columns: 60}));
			expect(drawn).toEqual(expected);
			expect(drawn.join('')).toContain('\u001B[');
		} finally {
			if (saved === undefined) delete process.env.FORCE_COLOR;
			else process.env.FORCE_COLOR = saved;
		}
	});
});

type Tokenizer = {
	tokenize: (text: string) => unknown[];
	styledCharsFromTokens: (tokens: unknown[]) => Array<{value: string; styles: unknown[]}>;
	styledCharsToString: (chars: Array<{value: string; styles: unknown[]}>) => string;
};

/** ansi-tokenize with its patch applied: the package's files copied beside the repository's node_modules (so its own imports resolve), styledChars.js patched. */
async function patchedTokenizer(): Promise<{tokenizer: Tokenizer; remove: () => void}> {
	const {parseDiff, applyHunks} = await load<PatchFiles>('source/vendor/ink/patch-files.mjs');
	const source = 'source/vendor/ink/patches/@alcalzone/ansi-tokenize/shared-styles.patch';
	const [diff] = parseDiff(readFileSync(path.join(ROOT, source), 'utf8'), source);
	const installedDir = path.join(ROOT, 'node_modules/@alcalzone/ansi-tokenize');
	const copy = mkdtempSync(path.join(ROOT, 'dist', 'patched-ansi-tokenize-'));
	mkdirSync(path.join(copy, 'build'));
	writeFileSync(path.join(copy, 'package.json'), readFileSync(path.join(installedDir, 'package.json')));
	// The source maps too: the test runner reads them beside each module.
	for (const file of readdirSync(path.join(installedDir, 'build')).filter(name => name.endsWith('.js') || name.endsWith('.js.map'))) {
		const text = readFileSync(path.join(installedDir, 'build', file), 'utf8');
		writeFileSync(path.join(copy, 'build', file), `build/${file}` === diff!.file ? applyHunks(text, diff!.hunks, source) : text);
	}

	const tokenizer = await import(pathToFileURL(path.join(copy, 'build', 'index.js')).href) as Tokenizer;
	return {tokenizer, remove: () => rmSync(copy, {recursive: true, force: true})};
}

/** Lines as Ink's rows have them: runs of text in colours (16, 256 and 24-bit), weights, inverse, resets, compound codes, links, wide and combining characters, emoji. */
function styledLines(count: number): string[] {
	let seed = 7;
	const random = (below: number) => {
		seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
		return seed % below;
	};

	const codes = ['\u001B[1m', '\u001B[22m', '\u001B[2m', '\u001B[3m', '\u001B[23m', '\u001B[4m', '\u001B[24m', '\u001B[7m', '\u001B[27m', '\u001B[31m', '\u001B[36m', '\u001B[90m', '\u001B[39m', '\u001B[44m', '\u001B[49m',
		'\u001B[38;5;208m', '\u001B[48;5;22m', '\u001B[38;2;10;200;30m', '\u001B[0m', '\u001B[1;31m', '\u001B[22;39m', '\u001B]8;;https://example.com/x\u0007', '\u001B]8;;\u0007'];
	const texts = ['BUG-0042 ', 'Login form ignores retries', '日本語のタイトル', ' 🐛 ', '👩‍💻', '🇯🇵', '❤️', 'e\u0301', '  ', '·', 'x', 'Crash: FATAL', '한국어', '~'];
	return Array.from({length: count}, () => {
		let line = '';
		for (let part = random(12) + 1; part > 0; part--) line += random(3) === 0 ? texts[random(texts.length)]! : codes[random(codes.length)]! + texts[random(texts.length)]!;
		return line;
	});
}

describe('the patched ansi-tokenize', () => {
	it('turns styled lines into the same characters and the same strings as the published package, byte for byte', async () => {
		const {tokenizer: patched, remove} = await patchedTokenizer();
		try {
			const own = await import('@alcalzone/ansi-tokenize') as unknown as Tokenizer;
			const lines = styledLines(3000);
			const build = (tokenizer: Tokenizer) => lines.map(line => tokenizer.styledCharsFromTokens(tokenizer.tokenize(line)));
			const [patchedChars, ownChars] = [build(patched), build(own)];
			expect(patchedChars).toEqual(ownChars);
			expect(patchedChars.map(chars => patched.styledCharsToString(chars))).toEqual(ownChars.map(chars => own.styledCharsToString(chars)));
			// Rows as Ink builds them: characters of several lines side by side, and blank cells between.
			const blank = {type: 'char', value: ' ', fullWidth: false, styles: []};
			const rows = ownChars.slice(0, -1).map((chars, index) => [...chars, blank, blank, ...ownChars[index + 1]!]);
			expect(rows.map(row => patched.styledCharsToString(row))).toEqual(rows.map(row => own.styledCharsToString(row)));
			expect(lines.join('')).toContain('\u001B[38;2;');
		} finally {
			remove();
		}
	});
});

/** A package with every patch of its own applied: its files copied beside the repository's node_modules (so its imports resolve), the patched ones patched. */
async function patchedPackage<T>(pkg: string, entry: string): Promise<{module: T; remove: () => void}> {
	const {parseDiff, applyHunks} = await load<PatchFiles>('source/vendor/ink/patch-files.mjs');
	const copy = mkdtempSync(path.join(ROOT, 'dist', `patched-${pkg.replace('/', '-')}-`));
	cpSync(path.join(ROOT, 'node_modules', pkg), copy, {recursive: true});
	for (const {source} of (await patches()).filter(patch => patch.pkg === pkg)) {
		for (const diff of parseDiff(readFileSync(path.join(ROOT, source), 'utf8'), source)) {
			const file = path.join(copy, diff.file);
			writeFileSync(file, applyHunks(readFileSync(file, 'utf8'), diff.hunks, source));
		}
	}

	return {module: await import(pathToFileURL(path.join(copy, entry)).href) as T, remove: () => rmSync(copy, {recursive: true, force: true})};
}

/** Intl.Segmenter, counting the segmenters made while `work` runs. */
async function segmentersMade(work: () => Promise<void>): Promise<number> {
	const intl = Intl as {Segmenter: typeof Intl.Segmenter};
	const Original = intl.Segmenter;
	let made = 0;
	intl.Segmenter = class extends Original {
		constructor(...args: ConstructorParameters<typeof Original>) {
			super(...args);
			made++;
		}
	};
	try {
		await work();
	} finally {
		intl.Segmenter = Original;
	}

	return made;
}

/** Text of every kind the width and grapheme rules treat apart: plain letters and symbols, marks, joiners, jamo, emoji, flags, controls and escapes. */
function mixedTexts(count: number): string[] {
	let seed = 11;
	const random = (below: number) => {
		seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
		return seed % below;
	};

	const parts = ['a', 'Z', ' ', '~', '·', '│', '─', '…', '→', '★', '⚑', '✓', 'é', 'Ω', 'Ж', '日', '本', 'カ', 'ｱ', '한', '\u1100', '\u1161', '\u11A8', '\u0301', '\u200D', '\uFE0F', '\u20E3', '\u00AD', '\u200B',
		'👍', '🏽', '❤', '👩', '💻', '🇯', '🇵', '©', '#', '\t', '\r', '\n', '\u0007', '\u001B[31m', '\u001B[39m', '\u001B]8;;https://example.com\u0007', '\u009B1m', 'ก', 'ำ', '\uD800'];
	return Array.from({length: count}, () => Array.from({length: random(14)}, () => parts[random(parts.length)]!).join(''));
}

/** Every code point of the Basic Multilingual Plane, alone. */
const everyBmpCodePoint = () => Array.from({length: 0x1_00_00}, (_, codePoint) => String.fromCharCode(codePoint));

type StringWidth = {default: (text: string, options?: {ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean}) => number};

describe('the Unicode patches: no segmenter or emoji class for plain text, and the same answers', () => {
	it('string-width measures every code point of the BMP, and mixed text, as the published package does', async () => {
		const {module: patched, remove} = await patchedPackage<StringWidth>('string-width', 'index.js');
		try {
			const own = await import('string-width') as StringWidth;
			const texts = [...everyBmpCodePoint(), ...mixedTexts(5000)];
			for (const options of [{}, {ambiguousIsNarrow: false}, {countAnsiEscapeCodes: true}]) {
				const differing = texts.filter(text => patched.default(text, options) !== own.default(text, options));
				expect(differing.map(text => [...text].map(character => character.codePointAt(0)!.toString(16)))).toEqual([]);
			}
		} finally {
			remove();
		}
	});

	it('string-width makes no segmenter until a text needs one: not for ASCII, Latin, box drawing, CJK or Hangul syllables', async () => {
		let patched: {module: StringWidth; remove: () => void} | undefined;
		try {
			const plain = await segmentersMade(async () => {
				patched = await patchedPackage<StringWidth>('string-width', 'index.js');
				expect(['BUG-0042 Login', 'sift Bugs 1,000 items · row 1 │ 0 follow-ups', 'héllo wörld', '日本語のタイトル', '한국어', '→ ★ ✓ ⚑'].map(text => patched!.module.default(text))).toEqual([14, 44, 11, 16, 6, 7]);
			});
			expect(plain).toBe(0);
			expect(await segmentersMade(async () => {
				expect(patched!.module.default('👩‍💻 e\u0301')).toBe(4);
			})).toBe(1);
		} finally {
			patched?.remove();
		}
	});

	it('ansi-tokenize gives the published package\'s tokens for every code point of the BMP and for mixed text, and makes no segmenter for plain rows', async () => {
		let patched: {module: Tokenizer; remove: () => void} | undefined;
		try {
			const made = await segmentersMade(async () => {
				patched = await patchedPackage<Tokenizer>('@alcalzone/ansi-tokenize', 'build/index.js');
				patched.module.tokenize('\u001B[7m  BUG-0042 Login · 日本語 │ 한국어\u001B[27m');
			});
			expect(made).toBe(0);
			const own = await import('@alcalzone/ansi-tokenize') as unknown as Tokenizer;
			const texts = [...everyBmpCodePoint().map(character => `a${character}b`), ...mixedTexts(5000), ...styledLines(500)];
			const differing = texts.filter(text => JSON.stringify(patched!.module.tokenize(text)) !== JSON.stringify(own.tokenize(text)));
			expect(differing).toEqual([]);
		} finally {
			patched?.remove();
		}
	});

	it('slice-ansi slices every code point of the BMP and mixed text as the published package does, with no segmenter for plain text', async () => {
		type SliceAnsi = {default: (text: string, start: number, end?: number) => string};
		let patched: {module: SliceAnsi; remove: () => void} | undefined;
		try {
			expect(await segmentersMade(async () => {
				patched = await patchedPackage<SliceAnsi>('slice-ansi', 'index.js');
				expect(patched.module.default('\u001B[31mBUG-0042 Login · 日本語 │ 한국어\u001B[39m', 2, 20)).toContain('G-0042 Login');
			})).toBe(0);
			const own = await import('slice-ansi') as SliceAnsi;
			const texts = [...everyBmpCodePoint().map(character => `ab${character}cd`), ...mixedTexts(3000), ...styledLines(300)];
			for (const [start, end] of [[1, 6], [0, 3], [2, undefined]] as const) {
				expect(texts.filter(text => patched!.module.default(text, start, end) !== own.default(text, start, end))).toEqual([]);
			}
		} finally {
			patched?.remove();
		}
	});
});
