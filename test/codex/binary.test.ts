// Finding the codex binary; the probe's cache.

import {chmodSync, copyFileSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {resolveCodexBinary} from '../../source/codex/binary.js';
import {packageRoot} from '../../source/codex/paths.js';
import {flagsListedIn, probeCachePath, probeCodex, probeOptionalFlags} from '../../source/codex/probe.js';
import {FAKE_CODEX, tempDir} from './support.js';

function executable(dir: string, name = 'codex'): string {
	mkdirSync(dir, {recursive: true});
	const file = path.join(dir, name);
	writeFileSync(file, '#!/bin/sh\nexit 0\n');
	chmodSync(file, 0o755);
	return file;
}

describe('resolveCodexBinary', () => {
	const root = tempDir();
	const flag = executable(path.join(root, 'flag'));
	const fromEnv = executable(path.join(root, 'env'));
	const onPath = executable(path.join(root, 'bin'));
	const PATH = ['/nonexistent', path.join(root, 'bin')].join(path.delimiter);

	it('prefers --codex, then SIFT_CODEX, then PATH, then node_modules/.bin', () => {
		expect(resolveCodexBinary(flag, {SIFT_CODEX: fromEnv, PATH})).toEqual({ok: true, binary: {path: flag, source: 'flag'}});
		expect(resolveCodexBinary(undefined, {SIFT_CODEX: fromEnv, PATH})).toEqual({ok: true, binary: {path: fromEnv, source: 'SIFT_CODEX'}});
		expect(resolveCodexBinary(undefined, {PATH})).toEqual({ok: true, binary: {path: onPath, source: 'PATH'}});
		expect(resolveCodexBinary(undefined, {PATH: '/nonexistent'})).toEqual({
			ok: true,
			binary: {path: path.join(packageRoot(), 'node_modules', '.bin', 'codex'), source: 'local'},
		});
	});

	it('finds a bare name given with --codex on PATH', () => {
		const named = executable(path.join(root, 'bin'), 'codex-nightly');
		expect(resolveCodexBinary('codex-nightly', {PATH})).toEqual({ok: true, binary: {path: named, source: 'flag'}});
	});

	it('never falls back from an explicit choice that does not exist, and says how to install', () => {
		const lookup = resolveCodexBinary('/nonexistent/codex', {PATH});
		expect(lookup.ok).toBe(false);
		expect(!lookup.ok && lookup.message).toMatch(/\/nonexistent\/codex \(from --codex\).*npm install -g @openai\/codex/);
		const fromVariable = resolveCodexBinary(undefined, {SIFT_CODEX: path.join(root, 'missing'), PATH});
		expect(!fromVariable.ok && fromVariable.message).toMatch(/from SIFT_CODEX/);
	});

	it('refuses a file that is not executable', () => {
		const plain = path.join(root, 'plain-codex');
		writeFileSync(plain, '');
		expect(resolveCodexBinary(plain, {}).ok).toBe(false);
	});
});

describe('probeOptionalFlags', () => {
	it('reads whole flags from the help text', () => {
		expect(flagsListedIn('      --ignore-rules\n          Do not load')).toEqual(['--ignore-rules']);
		expect(flagsListedIn('      --ignore-rules-x\n      --ignore-user-config')).toEqual([]);
	});

	it('finds --ignore-rules in the real codex 0.171 help', async () => {
		const codex = path.join(packageRoot(), 'node_modules', '.bin', 'codex');
		expect(await probeOptionalFlags(codex, {stateDir: tempDir()})).toEqual(['--ignore-rules', '--ephemeral', '--strict-config']);
	});

	it('probes once per binary path and modification time, in memory and on disk', async () => {
		const dir = tempDir();
		const codex = path.join(dir, 'codex');
		copyFileSync(FAKE_CODEX, codex);
		const calls = path.join(dir, 'calls');
		const stateDir = path.join(dir, 'state');
		const env = {...process.env, FAKE_CODEX_CALLS: calls};
		const callCount = () => readFileSync(calls, 'utf8').trim().split('\n').length;

		const all = ['--ignore-rules', '--ephemeral', '--strict-config'];
		expect(await probeOptionalFlags(codex, {stateDir, env})).toEqual(all);
		// exec --help, --version, features list, two checks for each of two config keys, the verifying features list.
		const perProbe = 8;
		expect(callCount()).toBe(perProbe);
		expect(await probeOptionalFlags(codex, {stateDir, env})).toEqual(all);
		expect(callCount()).toBe(perProbe);
		const cached = JSON.parse(readFileSync(probeCachePath(stateDir), 'utf8')) as Record<string, {flags: string[]; tools: {version: string}}>;
		expect(cached[codex]?.flags).toEqual(all);
		expect(cached[codex]?.tools.version).toBe('codex-cli 0.171.0-fake');

		// A new binary at the same path (a changed mtime) is probed again.
		utimesSync(codex, new Date(), new Date(Date.now() + 5000));
		expect(await probeOptionalFlags(codex, {stateDir, env: {...env, FAKE_CODEX_HELP: 'old'}})).toEqual([]);
		expect(callCount()).toBe(2 * perProbe);
	});

	it('trusts the disk cache when path and mtime match', async () => {
		const dir = tempDir();
		const codex = path.join(dir, 'codex');
		copyFileSync(FAKE_CODEX, codex);
		const stateDir = path.join(dir, 'state');
		mkdirSync(stateDir, {recursive: true});
		const tools = {version: 'codex-cli 9', features: null, configKeys: [], verified: null};
		writeFileSync(probeCachePath(stateDir), JSON.stringify({[codex]: {mtimeMs: statSync(codex).mtimeMs, flags: [], tools}}));
		const calls = path.join(dir, 'calls');
		expect(await probeCodex(codex, {stateDir, env: {...process.env, FAKE_CODEX_CALLS: calls}})).toMatchObject({flags: [], tools: {version: 'codex-cli 9', shellOff: false}});
		expect(() => readFileSync(calls)).toThrow();
	});

	it('probes again an entry cached before tool switches were probed', async () => {
		const dir = tempDir();
		const codex = path.join(dir, 'codex');
		copyFileSync(FAKE_CODEX, codex);
		const stateDir = path.join(dir, 'state');
		mkdirSync(stateDir, {recursive: true});
		writeFileSync(probeCachePath(stateDir), JSON.stringify({[codex]: {mtimeMs: statSync(codex).mtimeMs, flags: []}}));
		expect((await probeCodex(codex, {stateDir})).tools.shellOff).toBe(true);
	});
});
