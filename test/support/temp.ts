// Temp dirs for tests: every dir made here is removed when the test file ends (an afterAll hook,
// registered when a test file imports this module) or, outside vitest, when the process exits.

import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll} from 'vitest';

const made: string[] = [];
process.once('exit', removeTempDirs);
try {
	afterAll(removeTempDirs);
} catch {
	// Not collecting a vitest file (a bench imports this): the exit hook stands.
}

/** A fresh directory under the system temp dir, removed after this test file (or process). */
export function tempDir(prefix = 'sift-test-'): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	made.push(dir);

	return dir;
}

/** Removes every dir tempDir() made so far; safe to call again. */
export function removeTempDirs(): void {
	for (const dir of made.splice(0)) rmSync(dir, {recursive: true, force: true});
}
