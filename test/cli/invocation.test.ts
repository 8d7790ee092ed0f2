// The command a hint names (`sift`, `npx --package …`, `npm run sift --`, `node ENTRY`) from how
// sift was started.

import {chmodSync, mkdirSync, symlinkSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {invocation, shellWord} from '../../source/commands/invocation.js';
import {tempDir} from '../support/temp.js';

/** An entry file, and a bin dir whose `sift` links to it (as npm install -g makes it). */
function installed() {
	const root = tempDir('sift-invocation-');
	const entry = path.join(root, 'lib', 'cli.js');
	mkdirSync(path.dirname(entry), {recursive: true});
	writeFileSync(entry, '#!/usr/bin/env node\n');
	chmodSync(entry, 0o755);
	const bin = path.join(root, 'bin');
	mkdirSync(bin);
	symlinkSync(entry, path.join(bin, 'sift'));
	return {root, entry, bin};
}

describe('the command a hint names', () => {
	it('is `sift` when the sift on PATH is this very file', () => {
		const {entry, bin} = installed();
		expect(invocation({PATH: `/nowhere${path.delimiter}${bin}`}, entry, '/elsewhere')).toBe('sift');
	});

	it('is `node ENTRY` when the sift on PATH is another one, or none', () => {
		const mine = installed();
		const other = installed();
		expect(invocation({PATH: other.bin}, mine.entry, '/elsewhere')).toBe(`node ${mine.entry}`);
		expect(invocation({PATH: ''}, mine.entry, mine.root)).toBe(`node ${path.join('lib', 'cli.js')}`);
	});

	it('repeats the package for npx, from npx\'s own cache only', () => {
		const root = tempDir('sift-invocation-npx-');
		const entry = path.join(root, '_npx', 'abc', 'node_modules', '@sift-triage', 'sift', 'dist', 'source', 'cli.js');
		expect(invocation({npm_command: 'exec', npm_config_package: '/tmp/my dir/sift.tgz'}, entry, '/elsewhere')).toBe(`npx --package '/tmp/my dir/sift.tgz' sift`);
		expect(invocation({npm_command: 'exec'}, entry, '/elsewhere')).toBe('npx --package @sift-triage/sift sift');
		// A test runner started by npx that runs the repo's build is not "sift through npx".
		const {entry: repoEntry} = installed();
		expect(invocation({npm_command: 'exec', npm_config_package: 'vitest', PATH: ''}, repoEntry, '/elsewhere')).toBe(`node ${repoEntry}`);
	});

	it('names the npm script for `npm run sift`, not for other scripts', () => {
		const {entry} = installed();
		expect(invocation({npm_lifecycle_event: 'sift', PATH: ''}, entry, '/elsewhere')).toBe('npm run sift --');
		expect(invocation({npm_lifecycle_event: 'test', PATH: ''}, entry, '/elsewhere')).toBe(`node ${entry}`);
	});

	it('quotes words a shell would split', () => {
		expect(shellWord('@a/b-1.0.tgz')).toBe('@a/b-1.0.tgz');
		expect(shellWord('it\'s here')).toBe(`'it'\\''s here'`);
	});
});
