// The patches the Ink bundle is built with (source/vendor/ink/patches/README.md): each still applies to the installed
// package, a stale one stops the build by name, and the patched Ink (the built bundle, dist/) draws
// exactly the frames Ink's own code draws, frame after frame, so its caches change no output.

import {readdirSync, readFileSync} from 'node:fs';
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

function patches(): Array<{pkg: string; source: string}> {
	const dir = path.join(ROOT, 'source/vendor/ink/patches');
	return readdirSync(dir, {withFileTypes: true}).filter(entry => entry.isDirectory()).flatMap(pkg =>
		readdirSync(path.join(dir, pkg.name)).filter(name => name.endsWith('.patch')).map(name => ({pkg: pkg.name, source: `source/vendor/ink/patches/${pkg.name}/${name}`})));
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
		expect(patches().length).toBeGreaterThan(0);
		for (const {pkg, source} of patches()) {
			for (const diff of parseDiff(readFileSync(path.join(ROOT, source), 'utf8'), source)) {
				const original = installed(pkg, diff.file);
				expect(applyHunks(original, diff.hunks, source)).not.toBe(original);
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
