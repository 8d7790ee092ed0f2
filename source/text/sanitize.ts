/**
 * Record values, agent text and step results are untrusted: before any of it reaches Ink, every
 * control character is replaced by something visible and inert.
 * - ESC becomes `␛`, so `ESC[31m` shows as `␛[31m` and an OSC title set as `␛]0;pwned␇`;
 * - the other C0 controls and DEL become their control pictures (`␇`, `␈`, `␡`, …);
 * - C1 controls (U+0080–U+009F, e.g. the one-byte CSI U+009B) become `\x9b`;
 * - bidi embeddings, overrides, isolates and marks, and the line/paragraph separators, become
 *   `\u202e` and the like, so text cannot reorder what follows it.
 * Newlines survive only in multi-line text (descriptions, answers); tabs become two spaces.
 */

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

function visible(character: string, multiline: boolean): string {
	const code = character.charCodeAt(0);
	if (code === 0x0a) {
		return multiline ? '\n' : '␊';
	}

	if (code === 0x09) {
		return '  ';
	}

	if (code === 0x1b) {
		return '␛';
	}

	if (code < 0x20) {
		return String.fromCharCode(0x2400 + code);
	}

	if (code === 0x7f) {
		return '␡';
	}

	if (code <= 0x9f) {
		return `\\x${code.toString(16)}`;
	}

	return `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Makes untrusted text inert and visible. Fast path: clean text is returned as is. */
export function sanitize(text: string, options: {multiline?: boolean} = {}): string {
	if (!UNSAFE.test(text)) {
		return text;
	}

	const multiline = options.multiline ?? false;
	const normalized = multiline ? text.replaceAll('\r\n', '\n') : text;
	return normalized.replace(UNSAFE_ALL, character => visible(character, multiline));
}

/** Any value as safe text: strings as they are (escaped), everything else as compact JSON. */
export function sanitizeValue(value: unknown, options: {multiline?: boolean} = {}): string {
	if (value === null || value === undefined) {
		return '';
	}

	if (typeof value === 'string') {
		return sanitize(value, options);
	}

	let text: string;
	try {
		text = JSON.stringify(value) ?? String(value);
	} catch {
		text = String(value);
	}

	return sanitize(text, options);
}

/** True when the text holds nothing that sanitize() would change. */
export const isClean = (text: string) => !UNSAFE.test(text);

const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/** JSON whose text is safe on a terminal: what JSON.stringify leaves raw is written as \uXXXX. */
export function safeJson(value: unknown, indent?: number): string {
	return JSON.stringify(value, null, indent).replace(UNSAFE_IN_JSON, character => `\\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}
