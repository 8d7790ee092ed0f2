// Unified diffs applied to installed package files, strictly: every hunk must match the file where
// it says, or the build stops (an upgraded package needs its patch redone, never half applied).
// Used by build-ink.mjs and source/build/bundle-cli.mjs; tested by test/build/ink-patches.test.ts.

import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';

/**
 * The file diffs of a unified diff: the patched file (relative to its package) and its hunks, each
 * as long as its @@ line says. Text outside the hunks (a description on top, as in a mailed patch)
 * is not part of the change.
 */
export function parseDiff(text, source) {
	const lines = text.split('\n');
	if (lines.at(-1) === '') lines.pop();
	const files = [];
	let file;
	let hunk;
	for (const [index, line] of lines.entries()) {
		const where = `${source}:${index + 1}`;
		if (hunk && (hunk.oldLeft > 0 || hunk.newLeft > 0)) {
			if (line === '\\ No newline at end of file') continue;
			// An empty line is an empty context line whose leading space an editor trimmed.
			const [mark, body] = line === '' ? [' ', ''] : [line[0], line.slice(1)];
			if (mark !== ' ' && mark !== '-' && mark !== '+') throw new Error(`${where}: the hunk ends early (not a unified diff line: ${line.slice(0, 60)})`);
			if (mark !== '+') {
				hunk.old.push(body);
				hunk.oldLeft--;
			}

			if (mark !== '-') {
				hunk.new.push(body);
				hunk.newLeft--;
			}

			if (hunk.oldLeft < 0 || hunk.newLeft < 0) throw new Error(`${where}: the hunk is longer than its @@ line says`);
			continue;
		}

		if (line === '\\ No newline at end of file') continue;
		if (line.startsWith('+++ ')) {
			file = {file: line.slice(4).split('\t')[0].replace(/^b\//, ''), hunks: []};
			files.push(file);
			continue;
		}

		const header = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
		if (header) {
			if (!file) throw new Error(`${where}: a hunk before any +++ line`);
			hunk = {start: Number(header[1]), old: [], new: [], oldLeft: Number(header[2] ?? 1), newLeft: Number(header[3] ?? 1)};
			file.hunks.push(hunk);
		}

		// Anything else between hunks (the description, ---, diff and index lines) carries no change.
	}

	if (hunk && (hunk.oldLeft > 0 || hunk.newLeft > 0)) throw new Error(`${source}: the last hunk is cut short`);
	if (files.length === 0) throw new Error(`${source}: no file diff in it`);
	return files;
}

/** Applies hunks to text; each must match exactly where it says, so a changed package stops the build. */
export function applyHunks(text, hunks, what) {
	const lines = text.split('\n');
	let shift = 0;
	for (const hunk of hunks) {
		const at = hunk.start - 1 + shift;
		const found = lines.slice(at, at + hunk.old.length);
		if (found.length !== hunk.old.length || found.some((line, index) => line !== hunk.old[index])) {
			throw new Error(`${what}: the hunk at line ${hunk.start} does not match the installed file (was the package upgraded? update or drop the patch)`);
		}

		lines.splice(at, hunk.old.length, ...hunk.new);
		shift += hunk.new.length - hunk.old.length;
	}

	return lines.join('\n');
}

/**
 * The patches in `dir`, one folder per package (`dir/<package>/*.patch`; a scoped package in its
 * scope's folder, `dir/@scope/<package>/*.patch`): each as its package's name and its file's path
 * relative to `dir`.
 */
export function listPatches(dir) {
	const packages = [];
	for (const entry of readdirSync(dir, {withFileTypes: true}).filter(each => each.isDirectory())) {
		if (!entry.name.startsWith('@')) packages.push(entry.name);
		else packages.push(...readdirSync(path.join(dir, entry.name), {withFileTypes: true}).filter(each => each.isDirectory()).map(each => `${entry.name}/${each.name}`));
	}

	return packages.flatMap(pkg => readdirSync(path.join(dir, pkg)).filter(name => name.endsWith('.patch')).sort().map(name => ({pkg, file: `${pkg}/${name}`})));
}

/** Every patch under `dir` (listPatches): its package, its source (for messages) and its file diffs, in name order. */
export function readPatches(dir, sourceDir) {
	const patches = [];
	for (const {pkg, file} of listPatches(dir)) {
		const source = `${sourceDir}/${file}`;
		for (const diff of parseDiff(readFileSync(path.join(dir, file), 'utf8'), source)) patches.push({pkg, source, ...diff});
	}

	return patches;
}

/**
 * An esbuild plugin that serves the patched contents of the patched files (every patch of a file, in
 * name order), adding each patch it applied to `applied`.
 */
export function patchPlugin(patches, applied) {
	return {
		name: 'sift-patches',
		setup(builder) {
			builder.onLoad({filter: /node_modules/}, args => {
				const normalized = args.path.split(path.sep).join('/');
				const mine = patches.filter(candidate => normalized.endsWith(`/node_modules/${candidate.pkg}/${candidate.file}`));
				if (mine.length === 0) return undefined;
				let contents = readFileSync(args.path, 'utf8');
				for (const patch of mine) {
					contents = applyHunks(contents, patch.hunks, `${patch.source} (${patch.file})`);
					applied.add(patch);
				}

				return {contents, loader: 'js', resolveDir: path.dirname(args.path)};
			});
		},
	};
}

/** Stops a build whose patches did not all apply (their file is no longer in the bundle). */
export function checkAllApplied(patches, applied) {
	const unused = patches.filter(patch => !applied.has(patch));
	if (unused.length > 0) throw new Error(`patches not applied (their file is no longer in the bundle): ${unused.map(patch => `${patch.source} (${patch.file})`).join(', ')}`);
}
