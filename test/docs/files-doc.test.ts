// docs/files.md is generated (`npm run docs:files`, source/build/file-docs.mjs) from each source
// file's opening comment: it must be what the generator writes now, and every file must have one.

import {readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {repoRoot} from '../support/pty.js';

type FileDocs = {filesDoc: () => string; openingComment: (text: string) => string | undefined; FILES_DOC: string};
const ROOT = repoRoot();
const load = async () => import(path.join(ROOT, 'source', 'build', 'file-docs.mjs')) as Promise<FileDocs>;

/** Files tolerated without an opening comment until the TUI's restructuring (source/ui) lands with them. */
const UNTIL_UI_RESTRUCTURE = /^source\/ui\//;

describe('docs/files.md', () => {
	it('is up to date (run `npm run docs:files` after changing a file\'s opening comment or adding a file)', async () => {
		const {filesDoc, FILES_DOC} = await load();
		expect(readFileSync(FILES_DOC, 'utf8')).toBe(filesDoc());
	});

	it('describes every file by its own opening comment', async () => {
		const {filesDoc} = await load();
		const undescribed = [...filesDoc().matchAll(/^\| \[`[^`]+`\]\(\.\.\/([^)]+)\) \| \*\(no opening comment\)\* \|$/gm)].map(match => match[1]!);
		expect(undescribed.filter(file => !UNTIL_UI_RESTRUCTURE.test(file))).toEqual([]);
	});

	it('reads the comments files open with: line comments, a block comment, after a #! line', async () => {
		const {openingComment} = await load();
		expect(openingComment('// One.\n// Two.\n\n// Not this.\nimport x from \'y\';')).toBe('One. Two.');
		expect(openingComment('#!/usr/bin/env node\n// The launcher.\n')).toBe('The launcher.');
		expect(openingComment('/**\n * A block.\n * Still it.\n *\n * Not this.\n */')).toBe('A block. Still it.');
		expect(openingComment('import x from \'y\';\n// Too late.')).toBeUndefined();
	});
});
