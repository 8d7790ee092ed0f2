// A tracker's secret (a GitHub token, a Redmine API key) read from a file the config names: only
// its owner may read it (mode 0600), it holds the secret alone on one line, and a refusal names
// the file and the setting, never the secret. Shared by every tracker's key lookup.

import {readFileSync, statSync} from 'node:fs';
import {homedir} from 'node:os';
import path from 'node:path';

export class TokenError extends Error {
	override name = 'TokenError';
	readonly expected = true;
	readonly fatal = true;
}

/** A config setting's file path: `~/` is the home folder, a relative path is read from the config's folder. */
export function secretFilePath(configFile: string, given: string | undefined): string | undefined {
	if (given === undefined) return undefined;
	return given.startsWith('~/') ? path.join(homedir(), given.slice(2)) : path.resolve(path.dirname(configFile), given);
}

/** The secret in `file` (what: "GitHub token"; setting: "sync.github_token_file"); refused, naming the file, when others may read it. */
export function secretFromFile(file: string, what: string, setting: string): string {
	let mode: number;
	try {
		mode = statSync(file).mode;
	} catch (error) {
		throw new TokenError(`the ${what} file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); fix ${setting} in the config`);
	}

	if ((mode & 0o077) !== 0) {
		throw new TokenError(`the ${what} file ${file} may be read by others (mode ${(mode & 0o777).toString(8).padStart(4, '0')}); make it private: chmod 600 ${file}`);
	}

	const secret = readFileSync(file, 'utf8').trim();
	if (secret === '' || /\s/.test(secret)) throw new TokenError(`the ${what} file ${file} must hold the ${what.split(' ').pop()} alone, on one line`);
	return secret;
}
