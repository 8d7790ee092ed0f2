/** How much of an oversized line is kept from each end: enough to find its JSON-RPC id. */
export const LINE_EDGE_BYTES = 512;

/** One newline-delimited line, or what is left of one that exceeded the limit. */
export type Line =
	| {kind: 'line'; text: string}
	| {kind: 'oversized'; bytes: number; head: string; tail: string};

/**
 * Splits a byte stream into lines of at most `maxBytes` bytes (without the newline). A longer
 * line is never held in memory: past the limit only its first and last bytes are kept, and it
 * comes out as one `oversized` line when its newline arrives, so the stream stays in step.
 */
export class LineReader {
	private chunks: Buffer[] = [];
	private length = 0;
	private overflow: {bytes: number; head: Buffer; tail: Buffer} | undefined;

	constructor(readonly maxBytes: number) {}

	/** Feeds bytes; returns the lines they complete, in order. */
	push(chunk: Buffer): Line[] {
		const lines: Line[] = [];
		let start = 0;
		for (;;) {
			const newline = chunk.indexOf(0x0a, start);
			this.take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
			if (newline === -1) {
				return lines;
			}

			lines.push(this.finish());
			start = newline + 1;
		}
	}

	private take(part: Buffer): void {
		if (part.length === 0) {
			return;
		}

		if (this.overflow) {
			this.overflow.bytes += part.length;
			this.overflow.tail = lastBytes(Buffer.concat([this.overflow.tail, part]));
			return;
		}

		if (this.length + part.length <= this.maxBytes) {
			this.chunks.push(part);
			this.length += part.length;
			return;
		}

		const joined = Buffer.concat([...this.chunks, part]);
		this.overflow = {bytes: joined.length, head: Buffer.from(joined.subarray(0, LINE_EDGE_BYTES)), tail: lastBytes(joined)};
		this.chunks = [];
		this.length = 0;
	}

	private finish(): Line {
		const {overflow} = this;
		const text = overflow ? '' : Buffer.concat(this.chunks, this.length).toString('utf8');
		this.chunks = [];
		this.length = 0;
		this.overflow = undefined;
		if (overflow) {
			return {kind: 'oversized', bytes: overflow.bytes, head: overflow.head.toString('utf8'), tail: overflow.tail.toString('utf8')};
		}

		return {kind: 'line', text: text.endsWith('\r') ? text.slice(0, -1) : text};
	}
}

/** A copy, so the kept edge does not pin the (large) buffer it was cut from. */
const lastBytes = (buffer: Buffer) => Buffer.from(buffer.subarray(Math.max(0, buffer.length - LINE_EDGE_BYTES)));
