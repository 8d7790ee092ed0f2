// docs/architecture.md's file map stays true: every file under the mapped folders has a row, and
// every row names a file that exists. A row's path is relative to the folder its section names
// (a heading such as `#### source/codex/ …`, or a paragraph opening with `` `store/sqlite/` — ``).

import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {repoRoot} from '../support/pty.js';

const ROOT = repoRoot();
const MAPPED = ['source', 'store', 'test', 'demo-data', 'docs', '.ci'];

/** The paths the map's tables name, each resolved against its section's folder. */
export function mappedPaths(markdown: string): string[] {
	let folder = '';
	const paths: string[] = [];
	for (const line of markdown.split('\n')) {
		const heading = /^#{2,4} (?:`)?([\w.-]+(?:\/[\w.-]+)*\/)/.exec(line) ?? /^`([\w.-]+(?:\/[\w.-]+)*\/)` —/.exec(line);
		if (heading) {
			folder = heading[1]!;
			continue;
		}

		if (/^#{2,4} /.test(line)) folder = '';
		const cell = /^\| ([^|]+) \|/.exec(line)?.[1];
		if (!cell || !folder && !/^`/.test(cell)) continue;
		for (const [, name] of cell.matchAll(/`([^`]+)`/g)) {
			if (name === 'file') continue;
			paths.push(name!.startsWith(folder) ? name! : path.posix.join(folder, name!));
		}
	}

	return paths;
}

function filesUnder(relative: string): string[] {
	const out: string[] = [];
	for (const entry of readdirSync(path.join(ROOT, relative), {withFileTypes: true})) {
		const child = path.posix.join(relative, entry.name);
		// Installed packages are not the project's files (test/conformance has a package of its own).
		if (entry.isDirectory() && entry.name === 'node_modules') continue;
		if (entry.isDirectory()) out.push(...filesUnder(child));
		else if (entry.isFile()) out.push(child);
	}

	return out;
}

describe('the file map in docs/architecture.md', () => {
	const markdown = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
	const map = markdown.slice(markdown.indexOf('## File map'));
	const listed = mappedPaths(map);

	it('reads the map (a sanity check on the parser)', () => {
		expect(listed).toEqual(expect.arrayContaining(['README.md', 'source/cli.tsx', 'source/codex/runner.ts', 'store/sqlite/store.ts', 'test/support/pty.ts']));
	});

	it('names every file under the mapped folders', () => {
		const files = MAPPED.flatMap(folder => filesUnder(folder));
		expect(files.filter(file => !listed.includes(file))).toEqual([]);
	});

	it('names only files that exist, each once', () => {
		expect(listed.filter(file => !existsSync(path.join(ROOT, file)))).toEqual([]);
		expect(listed.filter((file, index) => listed.indexOf(file) !== index)).toEqual([]);
	});
});
