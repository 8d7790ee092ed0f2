/**
 * Record values, agent text and step results are untrusted: before any of it reaches Ink, every
 * control character is replaced by something visible and inert.
 * - ESC becomes `␛`, so `ESC[31m` shows as `␛[31m` and an OSC title set as `␛]0;pwned␇`;
 * - the other C0 controls and DEL become their control pictures (`␇`, `␈`, `␡`, …);
 * - C1 controls (U+0080–U+009F, e.g. the one-byte CSI U+009B) become `\x9b`;
 * - bidi embeddings, overrides, isolates and marks, and the line/paragraph separators, become
 *   `\u202e` and the like, so text cannot reorder what follows it;
 * - invisible format characters (Unicode Cf and the default-ignorables: zero-width space and
 *   joiners, word joiner, soft hyphen, BOM, variation selectors, tags) become `\u200b`,
 *   `\u{e0041}` and the like, so nothing hides between visible letters and no two parts of the
 *   program count a line's cells differently. Only where they build an emoji (a joiner between
 *   pictographs, a variation selector after an emoji, the tags of a subdivision flag) do they stay.
 * Newlines survive only in multi-line text (descriptions, answers); tabs become two spaces.
 */

const CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const INVISIBLE = '\\p{Cf}\\p{Default_Ignorable_Code_Point}';
const UNSAFE = new RegExp(`[${CONTROLS}${INVISIBLE}]`, 'u');

// Emoji that hold format characters, kept whole: ZWJ sequences (with skin tones and VS16 on their
// parts), subdivision flags (black flag, tags, cancel tag) and an emoji or keycap base with its
// variation selector.
const PICTOGRAPH = '\\p{Extended_Pictographic}(?:\\uFE0F|[\\u{1F3FB}-\\u{1F3FF}])?';
const EMOJI = `${PICTOGRAPH}(?:\\u200D${PICTOGRAPH})+|\\u{1F3F4}[\\u{E0020}-\\u{E007E}]+\\u{E007F}|\\p{Emoji}[\\uFE0E\\uFE0F]`;
const UNSAFE_ALL = new RegExp(`(${EMOJI})|[${CONTROLS}${INVISIBLE}]`, 'gu');

function visible(character: string, multiline: boolean): string {
	const code = character.codePointAt(0)!;
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

	return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

const escapeUnsafe = (text: string, multiline: boolean) => text.replace(UNSAFE_ALL, (character: string, emoji: string | undefined) => emoji ?? visible(character, multiline));

/** Makes untrusted text inert and visible. Fast path: clean text is returned as is. */
export function sanitize(text: string, options: {multiline?: boolean} = {}): string {
	if (!UNSAFE.test(text)) {
		return text;
	}

	const multiline = options.multiline ?? false;
	const normalized = multiline ? text.replaceAll('\r\n', '\n') : text;
	return escapeUnsafe(normalized, multiline);
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
export const isClean = (text: string) => !UNSAFE.test(text) || escapeUnsafe(text, false) === text;

const UNSAFE_IN_JSON = new RegExp(`(${EMOJI})|[\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069\\u2028\\u2029${INVISIBLE}]`, 'gu');

/** `\uXXXX` for each UTF-16 unit (a tag character takes two), as JSON writes escapes. */
function jsonEscape(character: string): string {
	let out = '';
	for (let index = 0; index < character.length; index++) out += `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`;
	return out;
}

/** JSON whose text is safe on a terminal: what JSON.stringify leaves raw is written as \uXXXX. */
export function safeJson(value: unknown, indent?: number): string {
	return JSON.stringify(value, null, indent).replace(UNSAFE_IN_JSON, (character: string, emoji: string | undefined) => emoji ?? jsonEscape(character));
}
