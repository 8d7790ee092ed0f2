// The command that starts this sift again, named in hints: `sift`, `npx --package …`, `npm run sift
// --` or `node ENTRY`.

import {realpathSync} from 'node:fs';
import path from 'node:path';
import {searchPath} from '../codex/binary.js';
import {PACKAGE_NAME} from '../codex/paths.js';

/**
 * The command that starts this sift again, for hints such as "open it with: …". Judged from how
 * the process was started, most specific first: npx / npm exec runs the entry from npm's `_npx`
 * cache (npm_command=exec), so the hint repeats the package; `npm run sift` names its script; a
 * `sift` on PATH that is this very file is just `sift`; anything else is `node ENTRY`.
 */
export function invocation(env: NodeJS.ProcessEnv, entry = process.argv[1] ?? '', cwd = process.cwd()): string {
	const real = realOrSelf(entry);
	if (env.npm_command === 'exec' && real.includes(`${path.sep}_npx${path.sep}`)) {
		const requested = (env.npm_config_package ?? '').split('\n').find(Boolean);
		return `npx --package ${shellWord(requested ?? PACKAGE_NAME)} sift`;
	}

	if (env.npm_lifecycle_event === 'sift') return 'npm run sift --';
	const onPath = searchPath('sift', env.PATH ?? '');
	if (onPath && realOrSelf(onPath) === real) return 'sift';
	const relative = path.relative(cwd, entry);
	return `node ${shellWord(relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : entry)}`;
}

function realOrSelf(file: string): string {
	try {
		return realpathSync(file);
	} catch {
		return path.resolve(file);
	}
}

/** A word a POSIX shell reads back as itself: plain when safe, else single-quoted. */
export function shellWord(word: string): string {
	return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll('\'', '\'\\\'\'')}'`;
}
