// Replaces a file whole (written beside it, flushed, renamed over it), 0600, following a symlink;
// `openAtomicStream` does the same for output written piece by piece (`sift export --out`)

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
	const stream = openAtomicStream(file);
	stream.writeNow(text);
	stream.commitNow();
}

/** A file written piece by piece that appears whole or not at all: `commit` renames it into place, `abort` removes it. */
export type AtomicStream = {write(chunk: string): Promise<void>; commit(): Promise<void>; abort(): void};

/** An AtomicStream onto a file, which can also be written and committed synchronously (a config save). */
export type AtomicFile = AtomicStream & {writeNow(chunk: string): void; commitNow(): void};

/**
 * The atomic writer itself, for output too large to hold as well as for one string: the pieces go to a 0600 file beside
 * `file` (folders made 0700), flushed and renamed over `file` on commit. Until then `file` is as it
 * was; abort (or a crash) leaves at most the temporary file, never a half-written `file`.
 */
export function openAtomicStream(file: string): AtomicFile {
	let target = path.resolve(file);
	try {
		target = realpathSync(target);
	} catch {
		// Not there yet: written where asked.
	}

	ensurePrivateDir(path.dirname(target));
	const temporary = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
	let fd: number | undefined = openSync(temporary, 'wx', PRIVATE_FILE);
	fchmodSync(fd, PRIVATE_FILE);
	// Pieces are gathered to about 1 MiB before each write: few system calls, flat memory.
	let pending: string[] = [];
	let pendingLength = 0;
	const flush = () => {
		if (pendingLength > 0 && fd !== undefined) writeSync(fd, pending.join(''));
		pending = [];
		pendingLength = 0;
	};

	const close = () => {
		if (fd !== undefined) closeSync(fd);
		fd = undefined;
	};

	const writeNow = (chunk: string) => {
		pending.push(chunk);
		pendingLength += chunk.length;
		if (pendingLength >= 1 << 20) flush();
	};

	const abort = () => {
		try {
			close();
		} finally {
			rmSync(temporary, {force: true});
		}
	};

	const commitNow = () => {
		try {
			flush();
			fsyncSync(fd!);
			close();
			renameSync(temporary, target);
		} catch (error) {
			abort();
			throw error;
		}
	};

	return {
		async write(chunk) {
			writeNow(chunk);
		},
		async commit() {
			commitNow();
		},
		abort,
		writeNow,
		commitNow,
	};
}
