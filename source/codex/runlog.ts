// The per-run log file (start line, Codex's events, end line): writing, reading, repairing.

import {appendFileSync, closeSync, copyFileSync, constants, openSync, readFileSync, readdirSync, realpathSync, renameSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {ensurePrivateDir} from '../../store/index.js';
import type {Outcome} from './outcome.js';
import {isRecord, parseEventLine, type CodexEvent} from './stream.js';
import type {Usage} from './tracker.js';
import {PRIVATE_FILE, runsDir} from './paths.js';

export type RunStartLine = {
	sift: 'start';
	run_id: string;
	started_at: string;
	channel_id: string;
	item_ids: string[];
	instruction: string;
	model: string | null;
};

export type RunEndLine = {
	sift: 'end';
	run_id: string;
	finished_at: string;
	outcome: Outcome;
	text: string;
	error: string | null;
	usage: Usage | null;
	duration_ms: number;
	edits_applied: number;
	/** Valid edits kept as proposals (propose mode); absent in logs of older runs. */
	proposals?: number;
	rejections: number;
	followups_opened: number;
	exit_code: number | null;
	signal: string | null;
	stderr_tail: string;
};

/** A stdout line that was not a JSON object, kept verbatim inside one so the log stays valid JSONL. */
export type RunRawLine = {sift: 'raw'; line: string};

/**
 * Appends a run's log: the start line, every stdout line as received, the end line.
 * Each line is appended and flushed on its own so a crash of sift loses at most the line in flight.
 */
export class RunLogWriter {
	constructor(readonly file: string) {
		ensurePrivateDir(path.dirname(file));
	}

	/**
	 * Throws a one-line error unless the log can be created and appended to: checked before a run
	 * is recorded, so a run whose log cannot be written never starts (nor stays "unfinished").
	 */
	static assertWritable(file: string): void {
		try {
			ensurePrivateDir(path.dirname(file));
			closeSync(openSync(file, 'a', PRIVATE_FILE));
		} catch (error) {
			const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
			throw new RunLogError(`cannot write the run log ${file} (${reason}); make ${path.dirname(file)} writable, or point SIFT_STATE_DIR elsewhere`);
		}
	}

	start(line: Omit<RunStartLine, 'sift'>): void {
		this.append({sift: 'start', ...line});
	}

	/** Codex's JSON lines go in verbatim; anything else is wrapped, never dropped. */
	stdout(line: string): void {
		if (parseObject(line)) appendFileSync(this.file, line + '\n', {mode: PRIVATE_FILE});
		else this.append({sift: 'raw', line} satisfies RunRawLine);
	}

	end(line: Omit<RunEndLine, 'sift'>): void {
		this.append({sift: 'end', ...line});
	}

	private append(value: object): void {
		appendFileSync(this.file, JSON.stringify(value) + '\n', {mode: PRIVATE_FILE});
	}
}

/** A run log that cannot be written: the message names the file and the fix, so no debug hint is added. */
export class RunLogError extends Error {
	override name = 'RunLogError';
	readonly expected = true;
}

export type RunLog = {
	path: string;
	start: RunStartLine | null;
	end: RunEndLine | null;
	/** Codex's events, in order. */
	events: CodexEvent[];
	/** Set when loading dropped malformed lines: where the original was saved first. */
	backupPath: string | null;
};

/**
 * Reads a run log, repairing it: lines that are not JSON objects (a crash mid-write, damage) are
 * dropped, after the original file is copied beside it. Valid lines are never dropped.
 * With `repair: false` the bad lines are skipped and the file is left as it is (for reading only).
 */
export function loadRunLog(file: string, options: {repair?: boolean} = {}): RunLog {
	const content = readFileSync(file, 'utf8');
	const lines = content.split('\n').filter(line => line.trim() !== '');
	const valid = lines.filter(line => parseObject(line));
	const backupPath = valid.length === lines.length || options.repair === false ? null : repair(file, valid);
	const log: RunLog = {path: file, start: null, end: null, events: [], backupPath};
	for (const line of valid) addLine(log, line);
	return log;
}

function addLine(log: RunLog, line: string): void {
	const value = parseObject(line)!;
	if (value.sift === 'start' && !log.start) log.start = value as RunStartLine;
	else if (value.sift === 'end') log.end = value as RunEndLine;
	else if (value.sift === undefined) {
		const event = parseEventLine(line);
		if (event) log.events.push(event);
	}
}

function repair(file: string, valid: string[]): string {
	const backup = uniqueBackupPath(file);
	copyFileSync(file, backup, constants.COPYFILE_EXCL);
	// Write beside, then rename over: the log is never half-written, even if this process dies here.
	const temporary = `${file}.${process.pid}.tmp`;
	writeFileSync(temporary, valid.map(line => line + '\n').join(''), {mode: PRIVATE_FILE});
	renameSync(temporary, file);
	return backup;
}

function uniqueBackupPath(file: string): string {
	const stamp = new Date().toISOString().replaceAll(/[-:.]/g, '');
	return `${file}.${stamp}-${process.pid}.bak`;
}

function parseObject(line: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(line);
		return isRecord(value) ? value : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The log file a runs row names, if it is a run log of this state dir: its real path (symlinks
 * followed) is a `.jsonl` file directly inside `<state dir>/runs`. Anything else — a database
 * naming some other file — is never read or rewritten; undefined then, and when it does not exist.
 */
export function runLogInside(stateDir: string, logPath: string | null): string | undefined {
	if (!logPath) return undefined;
	try {
		const real = realpathSync(logPath);
		const dir = realpathSync(runsDir(stateDir));
		return path.dirname(real) === dir && real.endsWith('.jsonl') ? real : undefined;
	} catch {
		return undefined;
	}
}

/** Every run log in the state dir, oldest first (run ids sort by start time). */
export function listRunLogPaths(stateDir: string): string[] {
	const dir = runsDir(stateDir);
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return [];
	}
	return names.filter(name => name.endsWith('.jsonl')).sort().map(name => path.join(dir, name));
}
