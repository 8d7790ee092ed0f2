// Rows staged in a private temporary file between the streamed passes of an import: the check
// pass writes each row as it goes, and the store then reads them back synchronously, a chunk at a
// time, inside its one transaction (SQLite's cannot wait on a stream). So a file of any size is
// imported all or nothing without being held in memory, and a refusal the store makes of item N
// is named by that row's own name (its line, its issue number). The folder's name holds the pid
// of the sift that made it, so a later sift removes the folders of one that was killed.

import {closeSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, writeSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {isProcessAlive} from '../codex/group.js';
import type {RecordRow} from './records.js';

const STAGING_PREFIX = 'sift-import-';
const OWNED = /^sift-import-(\d+)-/;

/**
 * Removes the staging folders ($TMPDIR/sift-import-PID-*) whose sift is gone: a SIGKILLed import
 * cannot remove its own. Called as sift starts, like the reaping of abandoned runs; never throws.
 * Returns the folders removed.
 */
export function removeOrphanedStaging(dir = tmpdir()): string[] {
	const removed: string[] = [];
	try {
		for (const name of readdirSync(dir)) {
			const owner = OWNED.exec(name);
			if (!owner || Number(owner[1]) === process.pid || isProcessAlive(Number(owner[1]))) continue;
			rmSync(join(dir, name), {recursive: true, force: true});
			removed.push(name);
		}
	} catch {
		// An unreadable temporary folder, or one removed meanwhile: the next start tries again.
	}

	return removed;
}

const FLUSH_AT = 1 << 20;
const READ_CHUNK = 1 << 20;

export class StagedRows {
	private readonly dir: string;
	private readonly path: string;
	private fd: number | undefined;
	private pending: string[] = [];
	private pendingLength = 0;
	count = 0;

	constructor() {
		this.dir = mkdtempSync(join(tmpdir(), `${STAGING_PREFIX}${process.pid}-`));
		this.path = join(this.dir, 'rows.jsonl');
		this.fd = openSync(this.path, 'wx', 0o600);
	}

	/** One row, as one line (JSON text never holds a raw line break). */
	write(row: RecordRow): void {
		const line = `${JSON.stringify(row)}\n`;
		this.pending.push(line);
		this.pendingLength += line.length;
		this.count++;
		if (this.pendingLength >= FLUSH_AT) this.flush();
	}

	/** Everything written is on disk; reading may start. */
	finish(): void {
		this.flush();
		if (this.fd !== undefined) closeSync(this.fd);
		this.fd = undefined;
	}

	/** The rows in the order written, read a chunk at a time. */
	* rows(): Generator<RecordRow> {
		const fd = openSync(this.path, 'r');
		const buffer = Buffer.alloc(READ_CHUNK);
		const decoder = new TextDecoder();
		let rest = '';
		try {
			for (let length = readSync(fd, buffer, 0, READ_CHUNK, null); length > 0; length = readSync(fd, buffer, 0, READ_CHUNK, null)) {
				const lines = (rest + decoder.decode(buffer.subarray(0, length), {stream: true})).split('\n');
				rest = lines.pop()!;
				for (const line of lines) yield JSON.parse(line) as RecordRow;
			}
		} finally {
			closeSync(fd);
		}
	}

	/** The name of the row at `index` (read again from the file: only wanted for a refusal). */
	at(index: number): string | undefined {
		let current = 0;
		for (const row of this.rows()) {
			if (current++ === index) return row.at;
		}

		return undefined;
	}

	remove(): void {
		if (this.fd !== undefined) closeSync(this.fd);
		this.fd = undefined;
		rmSync(this.dir, {recursive: true, force: true});
	}

	private flush(): void {
		if (this.pending.length === 0 || this.fd === undefined) return;
		writeSync(this.fd, this.pending.join(''));
		this.pending = [];
		this.pendingLength = 0;
	}
}
