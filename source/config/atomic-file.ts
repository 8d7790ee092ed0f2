import {closeSync, fchmodSync, fsyncSync, openSync, realpathSync, renameSync, rmSync, writeSync} from 'node:fs';
import path from 'node:path';
import {randomBytes} from 'node:crypto';
import {ensurePrivateDir} from '../../store/index.js';

const PRIVATE_FILE = 0o600;

/**
 * Replaces `file` with `text` so that a reader (or a crash) sees the old file or the new one,
 * never half of one: written beside it, flushed, then renamed over it. The file ends up 0600
 * whatever the umask; missing folders are made 0700. A symlink (a dotfiles checkout) is followed,
 * so the link stays and its target is replaced.
 */
export function writePrivateFileAtomically(file: string, text: string): void {
	let target = path.resolve(file);
	try {
		target = realpathSync(target);
	} catch {
		// Not there yet: written where asked.
	}

	ensurePrivateDir(path.dirname(target));
	const temporary = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
	const fd = openSync(temporary, 'wx', PRIVATE_FILE);
	try {
		try {
			fchmodSync(fd, PRIVATE_FILE);
			writeSync(fd, text);
			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}

		renameSync(temporary, target);
	} catch (error) {
		rmSync(temporary, {force: true});
		throw error;
	}
}
