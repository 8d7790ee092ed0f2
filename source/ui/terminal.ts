import {writeSync} from 'node:fs';

/** xterm's alternate screen with the cursor saved (1049): what the TUI draws leaves no trace behind. */
export const ENTER_ALT_SCREEN = '\u001B[?1049h';
export const LEAVE_ALT_SCREEN = '\u001B[?1049l';
const SHOW_CURSOR = '\u001B[?25h';

type Terminal = {stdout: NodeJS.WriteStream; stdin: NodeJS.ReadStream};

let entered: Terminal | null = null;

/** Written at once: on the way out of a crash or a signal the event loop may not turn again. */
function writeNow(stream: NodeJS.WriteStream, text: string): void {
	try {
		const {fd} = stream as {fd?: unknown};
		if (typeof fd === 'number') writeSync(fd, text);
		else stream.write(text);
	} catch {
		// The terminal may already be gone (SIGHUP): nothing left to restore.
	}
}

/**
 * Switches a terminal to its alternate screen, and arranges that every way out restores it:
 * the caller on quit, process exit, and an uncaught error (restored before Node prints it, so
 * the error lands on the normal screen where it stays readable).
 */
export function enterAltScreen(terminal: Terminal = {stdout: process.stdout, stdin: process.stdin}): void {
	if (entered || !terminal.stdout.isTTY) return;
	entered = terminal;
	writeNow(terminal.stdout, ENTER_ALT_SCREEN);
	process.on('exit', restoreTerminal);
	process.on('uncaughtExceptionMonitor', restoreTerminal);
}

/**
 * Leaves the alternate screen, shows the cursor and ends raw mode. Idempotent and synchronous:
 * every exit path (quit, Ctrl+C, an error, a signal handler) may call it, in any order.
 */
export function restoreTerminal(): void {
	const terminal = entered;
	if (!terminal) return;
	entered = null;
	process.off('exit', restoreTerminal);
	process.off('uncaughtExceptionMonitor', restoreTerminal);
	writeNow(terminal.stdout, SHOW_CURSOR + LEAVE_ALT_SCREEN);
	try {
		if (terminal.stdin.isTTY) terminal.stdin.setRawMode(false);
	} catch {}
}
