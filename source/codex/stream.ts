// Splits Codex's `--json` output into lines and parses them.

import {StringDecoder} from 'node:string_decoder';

/** One parsed line of `codex exec --json`: an object with a string `type`; nothing else is assumed. */
export type CodexEvent = {type: string; [key: string]: unknown};

/** Splits a byte stream into lines; UTF-8 sequences cut across chunks are kept whole. */
export class LineSplitter {
	private readonly decoder = new StringDecoder('utf8');
	private pending = '';

	/** The complete lines in this chunk (without their newline or a trailing CR). */
	push(chunk: Buffer | string): string[] {
		this.pending += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
		const parts = this.pending.split('\n');
		this.pending = parts.pop()!;
		return parts.map(stripCarriageReturn);
	}

	/** Whatever is left when the stream ends: an unterminated last line, if any. */
	flush(): string[] {
		const rest = this.pending + this.decoder.end();
		this.pending = '';
		return rest ? [stripCarriageReturn(rest)] : [];
	}
}

function stripCarriageReturn(line: string): string {
	return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** The event on this line, or undefined for anything that is not a JSON object with a string `type`. */
export function parseEventLine(line: string): CodexEvent | undefined {
	const trimmed = line.trim();
	if (!trimmed.startsWith('{')) return undefined;
	try {
		const value: unknown = JSON.parse(trimmed);
		return isRecord(value) && typeof value.type === 'string' ? (value as CodexEvent) : undefined;
	} catch {
		return undefined;
	}
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
