/**
 * Untrusted text (record values, agent output) is made inert before it reaches a terminal:
 * escape sequences, C0/C1 controls and bidi overrides become visible escapes such as `\x1b`
 * or `\u202e`, so a title can neither recolour the screen, retitle the window, write the
 * clipboard, hyperlink, nor reorder the text around it.
 */

// C0 controls (but tab and newline, handled by the caller's choice), DEL, C1 controls, and
// the bidi embedding/override/isolate marks.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_WITH_LINES = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const visible = (character: string) => {
	const code = character.codePointAt(0)!;
	return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** Escapes every control and bidi character; keeps newlines and tabs when `multiline`. */
export function sanitize(text: string, options: {multiline?: boolean} = {}): string {
	return text.replace(options.multiline ? UNSAFE : UNSAFE_WITH_LINES, visible);
}

/** A value of any type as one safe line of text. */
export function sanitizeValue(value: unknown): string {
	if (value === null || value === undefined) {
		return '';
	}

	return sanitize(typeof value === 'string' ? value : JSON.stringify(value) ?? String(value));
}

const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/** JSON whose text is safe on a terminal: what JSON.stringify leaves raw is written as \uXXXX. */
export function safeJson(value: unknown, indent?: number): string {
	return JSON.stringify(value, null, indent).replace(UNSAFE_IN_JSON, character => `\\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}
