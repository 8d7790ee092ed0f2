// Where sift finds the GitHub token, in order: GITHUB_TOKEN, GH_TOKEN, `gh auth token` when the
// GitHub CLI is installed and logged in, else the file the config names (`sync: {github_token_file:
// PATH}`), which must be readable by its owner alone (mode 0600). The token never goes on a command
// line, into a message or into the store: what is reported is where it came from.

import {execFile} from 'node:child_process';
import {secretFilePath, secretFromFile, TokenError} from '../secret-file.js';

export {TokenError};

export type TokenSource = 'GITHUB_TOKEN' | 'GH_TOKEN' | 'gh auth token' | 'token file';
export type FoundToken = {token: string; source: TokenSource; file?: string};

/** The token printed by `gh auth token`, or undefined when gh is missing, logged out or slow. */
async function ghToken(env: NodeJS.ProcessEnv): Promise<string | undefined> {
	return new Promise(resolve => {
		// No shell, nothing but the subcommand on its line; its output is read, never shown.
		const child = execFile('gh', ['auth', 'token'], {env, timeout: 5000, windowsHide: true}, (error, stdout) => {
			const token = String(stdout ?? '').trim();
			resolve(error || token === '' ? undefined : token);
		});
		child.stdin?.end();
	});
}

/** The config's sync.github_token_file as a path. */
export const tokenFilePath = secretFilePath;

/** The token from a file that only its owner may read; refused, naming the file, otherwise. */
export const tokenFromFile = (file: string): string => secretFromFile(file, 'GitHub token', 'sync.github_token_file');

/** The token and where it came from; a TokenError saying how to give one when there is none. */
export async function findGithubToken(env: NodeJS.ProcessEnv, tokenFile: string | undefined): Promise<FoundToken> {
	for (const name of ['GITHUB_TOKEN', 'GH_TOKEN'] as const) {
		const value = env[name]?.trim();
		if (value) return {token: value, source: name};
	}

	const fromGh = env.SIFT_NO_GH === '1' ? undefined : await ghToken(env);
	if (fromGh) return {token: fromGh, source: 'gh auth token'};
	if (tokenFile) return {token: tokenFromFile(tokenFile), source: 'token file', file: tokenFile};
	throw new TokenError('no GitHub token: set GITHUB_TOKEN or GH_TOKEN, log in with `gh auth login`, or name a file (mode 0600) as sync.github_token_file in the config');
}
