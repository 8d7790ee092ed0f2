// The launcher's code cache (source/launch.ts): where it lives, what a cache file is for, and that
// the built CLI writes it once, uses it, survives a damaged or unwritable one, and drops older
// bundles' caches; none of which changes what a command prints.

import {chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {codeCacheDir, codeCacheFile, commandKey, trustedCache} from '../../source/launch.js';
import {demoDatabase, sift, tempDir} from '../support/cli.js';

const cacheFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter(name => name.startsWith('code-')) : []);

describe('where compiled code is kept', () => {
	it('is SIFT_CODE_CACHE, else the XDG cache home, else ~/.cache; `off` keeps none', () => {
		expect(codeCacheDir({SIFT_CODE_CACHE: '/var/tmp/mine'}, '/home/ana')).toBe('/var/tmp/mine');
		expect(codeCacheDir({SIFT_CODE_CACHE: 'off', XDG_CACHE_HOME: '/x'}, '/home/ana')).toBeUndefined();
		expect(codeCacheDir({XDG_CACHE_HOME: '/x/cache'}, '/home/ana')).toBe('/x/cache/sift');
		// XDG: a relative XDG_CACHE_HOME is invalid and ignored.
		expect(codeCacheDir({XDG_CACHE_HOME: 'relative'}, '/home/ana')).toBe('/home/ana/.cache/sift');
		expect(codeCacheDir({}, '')).toBeUndefined();
	});

	it('keeps one file per bundle, command, Node and CPU', () => {
		expect(commandKey([])).toBe('tui');
		expect(commandKey(['--db', 'x.db'])).toBe('tui');
		expect(commandKey(['list', '--db', 'x.db'])).toBe('list');
		expect(commandKey(['--version'])).toBe('help');
		expect(commandKey(['-h'])).toBe('help');
		const file = path.basename(codeCacheFile('/c', 'abc123', ['mcp', '--db', 'x']));
		expect(file).toBe(`code-abc123-mcp-node${process.versions.node}-${process.arch}.bin`);
		expect(codeCacheFile('/c', 'abc123', ['list'])).not.toBe(codeCacheFile('/c', 'def456', ['list']));
	});
});

describe('the built CLI with a code cache', () => {
	const db = demoDatabase(12);
	const list = (cache: string) => sift(['list', '--db', db, '--limit', '5'], {SIFT_CODE_CACHE: cache});
	const plain = sift(['list', '--db', db, '--limit', '5'], {SIFT_CODE_CACHE: 'off'});

	it('writes the cache at the first clean run, private to the user, and uses it after', () => {
		const cache = path.join(tempDir('sift-code-cache-'), 'nested', 'sift');
		expect(list(cache)).toEqual(plain);
		const [file] = cacheFiles(cache);
		expect(file).toMatch(/^code-[0-9a-f]{16}-list-node/);
		const written = statSync(path.join(cache, file!));
		expect(written.mode & 0o777).toBe(0o600);
		expect(statSync(cache).mode & 0o777).toBe(0o700);
		expect(written.size).toBeGreaterThan(10_000);
		// Accepted by V8, so not written again: the same file, untouched.
		expect(list(cache)).toEqual(plain);
		const after = statSync(path.join(cache, file!));
		expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
	});

	it('writes nothing with SIFT_CODE_CACHE=off, or for a run that failed', () => {
		const cache = tempDir('sift-code-cache-');
		expect(plain.code).toBe(0);
		expect(cacheFiles(cache)).toEqual([]);
		const failed = sift(['list', '--db', path.join(cache, 'missing.db')], {SIFT_CODE_CACHE: cache});
		expect(failed.code).toBe(1);
		expect(cacheFiles(cache)).toEqual([]);
	});

	it('replaces a damaged cache, printing the same', () => {
		const cache = tempDir('sift-code-cache-');
		list(cache);
		const [file] = cacheFiles(cache);
		const damaged = path.join(cache, file!);
		writeFileSync(damaged, Buffer.alloc(4096, 7));
		expect(list(cache)).toEqual(plain);
		// V8 refused the bytes, so the run compiled from source and wrote a good cache in their place.
		expect(readFileSync(damaged).subarray(0, 64).equals(Buffer.alloc(64, 7))).toBe(false);
		expect(statSync(damaged).size).toBeGreaterThan(10_000);
	});

	it('runs as before where the cache cannot be written', () => {
		const parent = tempDir('sift-code-cache-');
		// A file where the folder would be.
		const blocked = path.join(parent, 'sift');
		writeFileSync(blocked, 'not a folder');
		expect(list(blocked)).toEqual(plain);
		expect(readFileSync(blocked, 'utf8')).toBe('not a folder');
	});

	it('reads no cache another user could have written: one in a folder or file others may write is compiled over', () => {
		const cache = tempDir('sift-code-cache-');
		list(cache);
		const [file] = cacheFiles(cache);
		const kept = path.join(cache, file!);
		expect(trustedCache(kept)).toBe(true);
		chmodSync(kept, 0o622);
		expect(trustedCache(kept)).toBe(false);
		chmodSync(kept, 0o600);
		chmodSync(cache, 0o777);
		expect(trustedCache(kept)).toBe(false);
		const before = statSync(kept);
		expect(list(cache)).toEqual(plain);
		// Not read, so written anew (a rename: another inode).
		expect(statSync(kept).ino).not.toBe(before.ino);
		chmodSync(cache, 0o700);
	});

	it('drops the caches of other bundles when it writes its own', () => {
		const cache = tempDir('sift-code-cache-');
		const stale = path.join(cache, `code-0000000000000000-list-node${process.versions.node}-${process.arch}.bin`);
		writeFileSync(stale, 'an older build');
		const unrelated = path.join(cache, 'notes.txt');
		writeFileSync(unrelated, 'kept');
		list(cache);
		expect(existsSync(stale)).toBe(false);
		expect(existsSync(unrelated)).toBe(true);
		expect(cacheFiles(cache)).toHaveLength(1);
	});
});
