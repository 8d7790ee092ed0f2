// An incremental JSON scanner; errors name the file and byte offset; a leading BOM is skipped (the
// mark from `clean-text.ts`)

import {closeSync, openSync, readSync} from 'node:fs';
import {findDuplicateKey} from './duplicate-keys.js';
import {BYTE_ORDER_MARK_BYTES} from './clean-text.js';

/** A problem reading an import file; the message names the file and the byte offset. */
export class ImportFileError extends Error {
	override name = 'ImportFileError';
}

const CHUNK = 1 << 20;
const [SPACE, TAB, LF, CR] = [0x20, 0x09, 0x0a, 0x0d];
const [QUOTE, BACKSLASH, COMMA, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET] = [0x22, 0x5c, 0x2c, 0x7b, 0x7d, 0x5b, 0x5d];


const isSpace = (byte: number) => byte === SPACE || byte === TAB || byte === LF || byte === CR;

/**
 * Walks a JSON file a chunk at a time, synchronously, splitting it into values that JSON.parse
 * then reads; so a huge import streams into one SQLite transaction without being held in memory.
 * It works on bytes: in UTF-8 no byte of a multi-byte character looks like JSON punctuation.
 */
export class JsonScanner {
	private readonly buffer = Buffer.alloc(CHUNK);
	/** File offset of buffer[0]. */
	private start = 0;
	private index = 0;
	private length = 0;
	private readonly fd: number;
	private readonly decoder = new TextDecoder('utf-8', {fatal: true});

	constructor(readonly path: string) {
		this.fd = openSync(path, 'r');
	}

	close(): void {
		closeSync(this.fd);
	}

	get position(): number {
		return this.start + this.index;
	}

	seek(position: number): void {
		this.start = position;
		this.index = 0;
		this.length = 0;
	}

	fail(message: string): never {
		throw new ImportFileError(`${this.path}: ${message} (at byte ${this.position})`);
	}

	/** The next non-space byte as a character, not consumed; undefined at the end of the file. */
	peek(): string | undefined {
		for (;;) {
			if (this.index >= this.length && !this.refill()) {
				return undefined;
			}

			const byte = this.buffer[this.index]!;
			if (!isSpace(byte)) {
				return String.fromCharCode(byte);
			}

			this.index++;
		}
	}

	expect(character: string): void {
		const found = this.peek();
		if (found !== character) {
			this.fail(`expected ${JSON.stringify(character)} but found ${found === undefined ? 'the end of the file' : JSON.stringify(found)}`);
		}

		this.index++;
	}

	accept(character: string): boolean {
		if (this.peek() !== character) {
			return false;
		}

		this.index++;
		return true;
	}

	/** True when the file starts with a UTF-8 byte order mark, which JSON does not allow. */
	startsWithByteOrderMark(): boolean {
		const head = Buffer.alloc(BYTE_ORDER_MARK_BYTES.length);
		return readSync(this.fd, head, 0, head.length, 0) === head.length && head.equals(BYTE_ORDER_MARK_BYTES);
	}

	/** Starts reading after a UTF-8 byte order mark, if the file has one (editors on Windows add it). */
	skipByteOrderMark(): void {
		if (this.startsWithByteOrderMark()) {
			this.seek(BYTE_ORDER_MARK_BYTES.length);
		}
	}

	/** The next complete value, parsed; `what` names it in errors. A key twice in one object is refused. */
	value(what: string): unknown {
		const text = this.take(true)!;
		let value: unknown;
		try {
			value = JSON.parse(text) as unknown;
		} catch (error) {
			this.fail(`${what} is not valid JSON: ${(error as Error).message}`);
		}

		const duplicate = findDuplicateKey(text, value);
		if (duplicate !== undefined) {
			this.fail(`${what} has the key ${JSON.stringify(duplicate)} twice in one object`);
		}

		return value;
	}

	/** Passes over the next value without keeping it. */
	skip(): void {
		this.take(false);
	}

	private take(keep: boolean): string | undefined {
		if (this.peek() === undefined) {
			this.fail('expected a value but the file ended');
		}

		const pieces: Buffer[] = [];
		const first = this.buffer[this.index]!;
		const literal = first !== OPEN_BRACE && first !== OPEN_BRACKET && first !== QUOTE;
		let from = this.index;
		let depth = 0;
		let inString = false;
		let escaped = false;
		for (;;) {
			if (this.index >= this.length) {
				if (keep) {
					pieces.push(Buffer.from(this.buffer.subarray(from, this.length)));
				}

				from = 0;
				if (!this.refill()) {
					if (literal) {
						break;
					}

					this.fail('the file ends inside a value');
				}

				continue;
			}

			const byte = this.buffer[this.index]!;
			if (literal && (byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || isSpace(byte))) {
				break;
			}

			this.index++;
			if (escaped) {
				escaped = false;
			} else if (inString) {
				escaped = byte === BACKSLASH;
				inString = byte !== QUOTE;
			} else if (byte === QUOTE) {
				inString = true;
			} else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
				depth++;
			} else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
				depth--;
			}

			if (!literal && !inString && depth === 0) {
				break;
			}
		}

		if (!keep) {
			return undefined;
		}

		pieces.push(Buffer.from(this.buffer.subarray(from, this.index)));
		try {
			return this.decoder.decode(Buffer.concat(pieces));
		} catch {
			this.fail('the file is not valid UTF-8');
		}
	}

	private refill(): boolean {
		this.start += this.length;
		this.index = 0;
		this.length = readSync(this.fd, this.buffer, 0, CHUNK, this.start);
		return this.length > 0;
	}
}
