// The pseudo-terminal harness (the built app, or another program), screen read back through a
// headless xterm; waits for a screen (`waitFor`) or for output written at exit (`waitForOutput`),
// with deadlines.

import path from 'node:path';
import {fileURLToPath} from 'node:url';
import xterm from '@xterm/headless';
import * as pty from 'node-pty';
import {waitUntil} from './wait.js';

const {Terminal} = xterm;

/** The repository root (this file runs from test/support or dist/test/support). */
export function repoRoot(): string {
	let dir = path.dirname(fileURLToPath(import.meta.url));
	while (!dir.endsWith(`${path.sep}test${path.sep}support`) && dir !== path.dirname(dir)) dir = path.dirname(dir);
	const up = path.resolve(dir, '..', '..');
	return path.basename(up) === 'dist' ? path.dirname(up) : up;
}

/** The built CLI the app runs from (the bundle `npm run build` writes). */
export const CLI = () => path.join(repoRoot(), 'dist', 'bin', 'sift.js');

export type Keys = {
	up: string; down: string; left: string; right: string; enter: string; escape: string; tab: string;
	pageDown: string; pageUp: string; home: string; end: string; backspace: string; ctrlC: string; space: string;
};

export const KEYS: Keys = {
	up: '\u001b[A', down: '\u001b[B', right: '\u001b[C', left: '\u001b[D', enter: '\r', escape: '\u001b', tab: '\t',
	pageDown: '\u001b[6~', pageUp: '\u001b[5~', home: '\u001b[H', end: '\u001b[F', backspace: '\u007f', ctrlC: '\u0003', space: ' ',
};

export type LaunchOptions = {
	args: string[];
	env?: NodeJS.ProcessEnv;
	cols?: number;
	rows?: number;
	cwd?: string;
	/** Flags for node itself (e.g. --cpu-prof). */
	nodeArgs?: string[];
	/** Another script instead of the CLI (for harness tests). */
	entry?: string;
	/** Another program instead of node (e.g. another terminal app a bench compares with): run with `args` alone. */
	program?: string;
};

/**
 * The built app in a real pseudo-terminal, its output fed to a headless xterm so tests read the
 * screen as a person sees it (escape sequences interpreted, not as raw bytes).
 */
const BEGIN_FRAME = '\u001B[?2026h';
const END_FRAME = '\u001B[?2026l';

/** The list row that starts with `name` (a pane beside the list may mention it too). */
export const rowOf = (screen: string, name: string) => screen.split('\n').find(line => line.slice(0, 20).includes(name)) ?? '';

export class PtyApp {
	readonly term: InstanceType<typeof Terminal>;
	readonly proc: pty.IPty;
	/** Every byte the app wrote, for asserting what reached the terminal. */
	raw = '';
	exitCode: number | null = null;
	readonly exited: Promise<number>;
	private writes = Promise.resolve();
	private readonly listeners = new Set<() => void>();
	/** Time of the last output chunk applied to the screen. */
	lastOutputAt = 0;

	constructor(options: LaunchOptions) {
		const cols = options.cols ?? 120;
		const rows = options.rows ?? 36;
		this.term = new Terminal({cols, rows, allowProposedApi: true});
		const [file, args] = options.program ? [options.program, options.args] : [process.execPath, [...(options.nodeArgs ?? []), options.entry ?? CLI(), ...options.args]];
		this.proc = pty.spawn(file, args, {
			name: 'xterm-256color',
			cols,
			rows,
			cwd: options.cwd ?? repoRoot(),
			env: {...process.env, FORCE_COLOR: '1', ...options.env} as Record<string, string>,
		});
		this.proc.onData(data => {
			this.raw += data;
			this.writes = this.writes.then(() => new Promise<void>(resolve => {
				this.term.write(data, () => {
					this.lastOutputAt = performance.now();
					this.trackFrame(data);
					resolve();
					for (const listener of this.listeners) listener();
				});
			}));
		});
		this.exited = new Promise(resolve => {
			this.proc.onExit(({exitCode}) => {
				this.exitCode = exitCode;
				resolve(exitCode);
				for (const listener of this.listeners) listener();
			});
		});
	}

	/**
	 * Ink wraps each frame in a synchronized update (ESC[?2026h … ESC[?2026l). While one is open
	 * the screen is half drawn, so waitFor() does not judge it.
	 */
	private frameOpen = false;

	private trackFrame(data: string): void {
		const opened = data.lastIndexOf(BEGIN_FRAME);
		const closed = data.lastIndexOf(END_FRAME);
		if (opened !== closed) this.frameOpen = opened > closed;
	}

	get pid(): number {
		return this.proc.pid;
	}

	/** The screen as lines of text (trailing spaces trimmed). */
	lines(): string[] {
		const buffer = this.term.buffer.active;
		const out: string[] = [];
		for (let y = 0; y < this.term.rows; y++) {
			out.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
		}

		return out;
	}

	screen(): string {
		return this.lines().join('\n');
	}

	/** Writes keys; each string is sent as one chunk. */
	press(...keys: string[]): void {
		for (const key of keys) this.proc.write(key);
	}

	type(text: string): void {
		this.proc.write(text);
	}

	resize(cols: number, rows: number): void {
		this.proc.resize(cols, rows);
		this.term.resize(cols, rows);
	}

	/** Waits until the screen satisfies the predicate (checked on every output and every 50 ms). */
	async waitFor(predicate: string | RegExp | ((screen: string) => boolean), timeoutMs = 10_000, what?: string): Promise<string> {
		const test = typeof predicate === 'function' ? predicate : (screen: string) => (typeof predicate === 'string' ? screen.includes(predicate) : predicate.test(screen));
		const started = performance.now();
		return new Promise((resolve, reject) => {
			let timer: NodeJS.Timeout | undefined;
			const check = () => {
				const screen = this.screen();
				if (!this.frameOpen && test(screen)) {
					finish();
					resolve(screen);
					return true;
				}

				if (performance.now() - started > timeoutMs) {
					finish();
					reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what ?? String(predicate)}; screen:\n${screen}`));
					return true;
				}

				return false;
			};

			const listener = () => {
				check();
			};

			const finish = () => {
				this.listeners.delete(listener);
				clearInterval(timer);
			};

			if (check()) return;
			this.listeners.add(listener);
			timer = setInterval(check, 50);
		});
	}

	/** Waits until every byte the app wrote so far (`raw`, drawn or not) satisfies the predicate: for what is written as the app exits. */
	async waitForOutput(predicate: (raw: string) => boolean, what: string, timeoutMs = 10_000): Promise<void> {
		await waitUntil(() => predicate(this.raw), what, {timeoutMs}).catch((error: Error) => {
			throw new Error(`${error.message}; output so far:\n${JSON.stringify(this.raw.slice(-2000))}`);
		});
		// The screen has caught up with the bytes: every chunk received so far is drawn.
		await this.writes;
	}

	/** Sends keys and measures until the screen satisfies the predicate: ms from the write to that frame. */
	async timeKeys(keys: string, predicate: (screen: string) => boolean, timeoutMs = 10_000): Promise<number> {
		const start = performance.now();
		this.proc.write(keys);
		await this.waitFor(predicate, timeoutMs);
		return this.lastOutputAt > start ? this.lastOutputAt - start : performance.now() - start;
	}

	/** The exit code, or 'still running' when the app has not exited within the deadline. */
	async exitWithin(timeoutMs: number): Promise<number | 'still running'> {
		let timer: NodeJS.Timeout | undefined;
		const late = new Promise<'still running'>(resolve => {
			timer = setTimeout(resolve, timeoutMs, 'still running'); // the caller's deadline: exiting within it is what is asked
		});
		try {
			return await Promise.race([this.exited, late]);
		} finally {
			clearTimeout(timer);
		}
	}

	/** Quits with `q` (answering a question with `y` if one comes), else kills. */
	async quit(timeoutMs = 5000): Promise<number | null> {
		if (this.exitCode !== null) return this.exitCode;
		this.press('q');
		const timer = setTimeout(() => { // a deadline: an app that does not quit is killed, not waited on
			try {
				this.proc.kill('SIGKILL');
			} catch {}
		}, timeoutMs);
		await this.exited;
		clearTimeout(timer);
		return this.exitCode;
	}

	kill(): void {
		if (this.exitCode === null) {
			try {
				this.proc.kill('SIGKILL');
			} catch {}
		}
	}
}

export function launch(options: LaunchOptions): PtyApp {
	return new PtyApp(options);
}

/** Whether a process is still running (support/processes.ts). */
export {isAlive as alive} from './processes.js';
