// Where sift finds the Redmine API key, in order: REDMINE_API_KEY, else the file the config names
// (`sync: {redmine_key_file: PATH}`), readable by its owner alone (mode 0600). The key never goes
// on a command line, into a message or into the store: what is reported is where it came from.

import {secretFromFile, TokenError} from '../secret-file.js';

export type FoundKey = {key: string; source: 'REDMINE_API_KEY' | 'key file'; file?: string};

export function findRedmineKey(env: NodeJS.ProcessEnv, keyFile: string | undefined): FoundKey {
	const value = env.REDMINE_API_KEY?.trim();
	if (value) return {key: value, source: 'REDMINE_API_KEY'};
	if (keyFile) return {key: secretFromFile(keyFile, 'Redmine API key', 'sync.redmine_key_file'), source: 'key file', file: keyFile};
	throw new TokenError('no Redmine API key: set REDMINE_API_KEY, or name a file (mode 0600) as sync.redmine_key_file in the config (the key is under "My account" → "API access key" in Redmine)');
}
