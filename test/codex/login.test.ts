// The login check and its cache.

import {readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {checkLogin, LOGIN_CACHE_MS, loginRequired, preflightLogin} from '../../source/codex/login.js';
import {packageRoot} from '../../source/codex/paths.js';
import {FAKE_CODEX, tempDir} from './support.js';

const calls = (file: string) => {
	try {
		return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).length;
	} catch {
		return 0;
	}
};

describe('the login check', () => {
	it('reads the real Codex CLI: a fresh home is logged out, and the line that says so is the detail (not a warning before it)', async () => {
		const codex = path.join(packageRoot(), 'node_modules', '.bin', 'codex');
		const home = tempDir('sift-codex-home-');
		const check = await checkLogin(codex, {env: {...process.env, CODEX_HOME: home}});
		expect(check).toMatchObject({state: 'logged_out', detail: 'Not logged in'});
		// The advice works as typed: `codex login` only where `codex` on PATH is this binary.
		const onPath = process.env.PATH!.split(path.delimiter).some(dir => path.join(dir, 'codex') === codex);
		expect(check.command).toBe(onPath ? 'codex login' : `${codex} login`);
		const elsewhere = await checkLogin(codex, {env: {...process.env, CODEX_HOME: home, PATH: path.dirname(process.execPath)}});
		expect(elsewhere.command).toBe(`${codex} login`);
	});

	it('preflight: remembers "logged in" for a minute, never "logged out"', async () => {
		const stateDir = tempDir();
		const file = path.join(stateDir, 'calls');
		const env = {...process.env, FAKE_CODEX_CALLS: file, CODEX_HOME: stateDir};
		const out = await preflightLogin(FAKE_CODEX, {env: {...env, FAKE_CODEX_LOGGED_IN: '0'}, stateDir, now: 1_000_000});
		expect(out.state).toBe('logged_out');
		expect((await preflightLogin(FAKE_CODEX, {env, stateDir, now: 1_000_001})).state).toBe('logged_in');
		expect(calls(file)).toBe(2);
		expect((await preflightLogin(FAKE_CODEX, {env, stateDir, now: 1_000_001 + LOGIN_CACHE_MS - 1})).state).toBe('logged_in');
		expect(calls(file)).toBe(2);
		await preflightLogin(FAKE_CODEX, {env, stateDir, now: 1_000_001 + LOGIN_CACHE_MS});
		expect(calls(file)).toBe(3);
	});

	it('is needed for the default OpenAI provider only', () => {
		expect(loginRequired()).toBe(true);
		expect(loginRequired(['model_reasoning_effort="low"'])).toBe(true);
		expect(loginRequired(['model_provider="openai"'])).toBe(true);
		expect(loginRequired(['model_provider="local"'])).toBe(false);
		expect(loginRequired(['model_provider="local"', 'model_provider="openai"'])).toBe(true);
	});
});
