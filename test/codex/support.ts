// Shared runner test helpers: the fake codex's path, and the kit's temp dirs and process checks
// under the names these tests use.

import {fileURLToPath} from 'node:url';
import {tempDir as kitTempDir} from '../support/temp.js';

export const FAKE_CODEX = fileURLToPath(new URL('../support/fake-codex.mjs', import.meta.url));

/** A temp dir (test/support/temp.ts: removed after the test file). */
export const tempDir = (prefix = 'sift-codex-') => kitTempDir(prefix);

export {isAlive, liveGroupMembers, readPids} from '../support/processes.js';
