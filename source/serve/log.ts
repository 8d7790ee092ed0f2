// The JSON Lines log of `sift serve`: any text (a notice, console output, a stack) becomes one JSON
// object.

import {Writable} from 'node:stream';

/**
 * The log of `sift serve` is JSON Lines: one object a line, so that a log shipper never meets a
 * line it cannot parse (docs/team-mode.md#logs). Text that was not written as JSON (a notice, a
 * stack trace) becomes one object with the text, line breaks and all, in `message`.
 */

/** One log line (without its newline): `at` first, then the fields. */
export function logLine(fields: Record<string, unknown>): string {
	return JSON.stringify({at: new Date().toISOString(), ...fields});
}

/** Text as it came, as one JSON line: kept when it already is one JSON object, else wrapped. */
export function asLogLine(text: string, level = 'info'): string {
	const trimmed = text.replace(/\n+$/, '');
	if (/^\{.*\}$/.test(trimmed) && !trimmed.includes('\n')) {
		try {
			const parsed = JSON.parse(trimmed) as unknown;
			if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return trimmed;
		} catch {}
	}

	return logLine({level, message: trimmed});
}

/** A stream whose every write reaches `target` as one JSON line. */
export function jsonLinesStream(target: {write: (text: string) => unknown}, level = 'info'): Writable {
	return new Writable({
		write(chunk: Buffer | string, _encoding, done) {
			target.write(`${asLogLine(String(chunk), level)}\n`);
			done();
		},
	});
}

/**
 * Sends console output to `write` as JSON lines until the returned function is called: a
 * library that prints (a warning, an error with its stack) must not break the log.
 */
export function captureConsole(write: (line: string) => void): () => void {
	const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
	const saved = methods.map(name => console[name]);
	for (const name of methods) {
		console[name] = (...args: unknown[]) => write(asLogLine(args.map(arg => (arg instanceof Error ? arg.stack ?? arg.message : typeof arg === 'string' ? arg : safeString(arg))).join(' '), name === 'log' ? 'info' : name));
	}

	return () => methods.forEach((name, index) => (console[name] = saved[index]!));
}

function safeString(value: unknown): string {
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}
