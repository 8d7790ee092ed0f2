// Running a child as another user (nobody) when the tests run as root, who may write anything: the
// way to check what sift does with a store this user can read but not write.

import {chmodSync, statSync} from 'node:fs';
import {dirname, resolve} from 'node:path';

const NOBODY = 65_534;

/** The command run as nobody when the tests run as root; as it is otherwise. */
export function asOtherUser(command: string[]): string[] {
	return process.getuid?.() === 0 ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', ...command] : command;
}

/**
 * Lets the other user reach files under `dir` (the checkout, for node_modules and the sources): adds
 * search permission (not listing) for others on every ancestor that lacks it — a checkout cloned
 * into a private temporary folder (0700) has one. Not undone: suites run in parallel and share it.
 */
export function letOtherUserReach(dir: string): void {
	if (process.getuid?.() !== 0) return;
	for (let path = resolve(dir); ; path = dirname(path)) {
		const mode = statSync(path).mode & 0o7777;
		if ((mode & 0o001) === 0) chmodSync(path, mode | 0o001);
		if (dirname(path) === path) break;
	}
}
