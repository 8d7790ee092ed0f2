// Spawns a child in its own process group with stdin closed, hands over stdout lines, keeps a
// stderr tail.

import type {Readable} from 'node:stream';
import {execa} from 'execa';
import {terminateGroup, trackGroup, untrackGroup, within} from './group.js';
import {startWatchdog} from './watchdog.js';
import {LineSplitter} from './stream.js';

/** The tail of stderr kept for messages; the rest is read and dropped so the child never blocks on a full pipe. */
export const STDERR_TAIL_BYTES = 4000;

export type ChildOptions = {
	binary: string;
	args: string[];
	env: NodeJS.ProcessEnv;
	cwd: string;
	/** Epoch milliseconds after which the run is stopped. */
	deadlineAt: number;
	signal: AbortSignal;
	/** How long the child gets between SIGTERM and SIGKILL. */
	killGraceMs: number;
	/** How long stdout may stay open after the child exited (a grandchild can hold it forever). */
	drainGraceMs: number;
	onLine: (line: string) => void;
	/** Told the group id as soon as the child runs, before its first line. */
	onSpawn?: (group: number) => void;
};

export type ChildExit = {
	stoppedBy: 'deadline' | 'cancel' | null;
	exitCode: number | null;
	signal: string | null;
	stderrTail: string;
	pid: number | undefined;
	/** Set when the process could not be started at all (ENOENT, EACCES, ...). */
	startError: NodeJS.ErrnoException | null;
};

type Exit = {code: number | null; signal: NodeJS.Signals | null};

/**
 * Runs the child in its own process group with stdin closed, hands each stdout line to onLine as
 * it arrives, and returns once the child is gone and its whole group has been killed.
 * The reader loop watches the deadline and cancellation itself rather than waiting for EOF.
 */
export async function superviseChild(options: ChildOptions): Promise<ChildExit> {
	const child = execa(options.binary, options.args, {
		cwd: options.cwd,
		env: options.env,
		extendEnv: false,
		stdin: 'ignore',
		buffer: false,
		reject: false,
		detached: true,
	});
	// execa's promise waits for stdio to close, which a grandchild can postpone forever; we watch 'exit' instead.
	void child.catch(() => undefined);
	const exited = new Promise<Exit>(resolve => child.once('exit', (code, signal) => resolve({code, signal})));
	const started = new Promise<NodeJS.ErrnoException | null>(resolve => {
		child.once('spawn', () => resolve(null));
		child.once('error', error => resolve(error as NodeJS.ErrnoException));
	});
	const stderr = new ByteTail(STDERR_TAIL_BYTES);
	child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
	const stderrClosed = closed(child.stderr!);
	const lines = new LineQueue(child.stdout!);

	const startError = await started;
	if (startError || child.pid === undefined) {
		return {stoppedBy: null, exitCode: null, signal: null, stderrTail: '', pid: undefined, startError: startError ?? new Error('no pid')};
	}
	const group = child.pid;
	trackGroup(group);
	const stopWatchdog = startWatchdog(group);
	const watch = new Watch(options, exited);
	try {
		options.onSpawn?.(group);
		await readUntilDone(lines, watch, options.onLine);
	} finally {
		// Also when onLine throws (the run log cannot be written): the run's processes still go.
		await terminateGroup(group, exited, options.killGraceMs);
		await within(stderrClosed, options.drainGraceMs);
		watch.dispose();
		untrackGroup(group);
		stopWatchdog();
		child.stdout!.destroy();
		child.stderr!.destroy();
	}
	const exit = await exited;
	return {stoppedBy: watch.stoppedBy, exitCode: exit.code, signal: exit.signal, stderrTail: stderr.text(), pid: group, startError: null};
}

async function readUntilDone(lines: LineQueue, watch: Watch, onLine: (line: string) => void): Promise<void> {
	for (;;) {
		if (watch.check()) return;
		const line = lines.take();
		if (line === EOF) break;
		if (line !== undefined) onLine(line);
		else if (watch.drained) return;
		else await Promise.race([lines.ready(), watch.wakeup()]);
	}
	// stdout is closed; the child may still be finishing.
	while (!watch.exited && !watch.check()) await watch.wakeup();
}

/** The run's clock and stop conditions, checked by the reader loop; its timers only wake the loop up. */
class Watch {
	stoppedBy: ChildExit['stoppedBy'] = null;
	exited = false;
	/** The child exited and stdout had drainGraceMs to deliver the rest. */
	drained = false;
	private wake: () => void = () => undefined;
	private readonly timers: NodeJS.Timeout[] = [];
	private readonly onAbort = () => this.wake();

	constructor(private readonly options: ChildOptions, exited: Promise<unknown>) {
		this.armDeadline();
		options.signal.addEventListener('abort', this.onAbort);
		void exited.then(() => {
			this.exited = true;
			this.wake();
			this.timers.push(setTimeout(() => {
				this.drained = true;
				this.wake();
			}, options.drainGraceMs));
		});
	}

	/** setTimeout waits at most 2^31-1 ms, so a longer deadline is reached in several hops. */
	private armDeadline(): void {
		const remaining = this.options.deadlineAt - Date.now();
		this.timers.push(setTimeout(() => (remaining > MAX_TIMER_MS ? this.armDeadline() : this.wake()), Math.min(MAX_TIMER_MS, Math.max(0, remaining))));
	}

	/** True once sift must stop the run: cancelled, or past the deadline. */
	check(): boolean {
		if (this.stoppedBy) return true;
		if (this.options.signal.aborted) this.stoppedBy = 'cancel';
		else if (Date.now() >= this.options.deadlineAt) this.stoppedBy = 'deadline';
		return this.stoppedBy !== null;
	}

	wakeup(): Promise<void> {
		return new Promise(resolve => {
			this.wake = resolve;
		});
	}

	dispose(): void {
		for (const timer of this.timers) clearTimeout(timer);
		this.options.signal.removeEventListener('abort', this.onAbort);
	}
}

const MAX_TIMER_MS = 2 ** 31 - 1;

const EOF = Symbol('eof');

/** stdout as a queue of lines the reader loop takes from at its own pace. */
class LineQueue {
	private readonly lines: string[] = [];
	private ended = false;
	private notify: () => void = () => undefined;

	constructor(stream: Readable) {
		const splitter = new LineSplitter();
		stream.on('data', (chunk: Buffer) => this.add(splitter.push(chunk)));
		const end = () => {
			if (this.ended) return;
			this.add(splitter.flush());
			this.ended = true;
			this.notify();
		};
		stream.once('end', end);
		stream.once('close', end);
		stream.once('error', end);
	}

	/** The next line, EOF once the stream ended and every line was taken, or undefined for "none yet". */
	take(): string | typeof EOF | undefined {
		if (this.lines.length > 0) return this.lines.shift()!;
		return this.ended ? EOF : undefined;
	}

	ready(): Promise<void> {
		return new Promise(resolve => {
			this.notify = resolve;
		});
	}

	private add(lines: string[]): void {
		if (lines.length === 0) return;
		this.lines.push(...lines);
		this.notify();
	}
}

/** The last `limit` bytes written, decoded without a broken character at the front. */
class ByteTail {
	private buffer = Buffer.alloc(0);

	constructor(private readonly limit: number) {}

	push(chunk: Buffer): void {
		const joined = Buffer.concat([this.buffer, chunk]);
		this.buffer = joined.length > this.limit ? joined.subarray(joined.length - this.limit) : joined;
	}

	text(): string {
		let start = 0;
		while (start < this.buffer.length && (this.buffer[start]! & 0xc0) === 0x80) start++;
		return this.buffer.subarray(start).toString('utf8');
	}
}

function closed(stream: Readable): Promise<void> {
	return new Promise(resolve => {
		stream.once('close', resolve);
		stream.once('end', resolve);
		stream.once('error', () => resolve());
	});
}
