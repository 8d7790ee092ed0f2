/** Terminal cell widths (wide CJK and emoji take two cells), for padding and truncation in the TUI and the command line's tables. */

/**
 * Unicode's format characters (Cf) and default-ignorables: zero-width spaces and joiners, soft
 * hyphen, word joiner, BOM, variation selectors, Hangul fillers, tags. Ink measures them as no
 * cells; sanitize() shows them as marks, so only those inside an emoji get here.
 */
function isInvisible(code: number): boolean {
	if (code < 0x2000) {
		return code === 0xad || code === 0x34f || (code >= 0x600 && code <= 0x605) || code === 0x61c || code === 0x6dd || code === 0x70f
			|| code === 0x890 || code === 0x891 || code === 0x8e2 || code === 0x115f || code === 0x1160 || code === 0x17b4 || code === 0x17b5
			|| (code >= 0x180b && code <= 0x180f);
	}

	return (code >= 0x200b && code <= 0x200f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2060 && code <= 0x206f) || code === 0x3164
		|| (code >= 0xfe00 && code <= 0xfe0f) || code === 0xfeff || code === 0xffa0 || (code >= 0xfff0 && code <= 0xfffb)
		|| code === 0x110bd || code === 0x110cd || (code >= 0x13430 && code <= 0x1343f) || (code >= 0x1bca0 && code <= 0x1bca3)
		|| (code >= 0x1d173 && code <= 0x1d17a) || (code >= 0xe0000 && code <= 0xe0fff);
}

/** The cells one code point takes: 0 (combining, joiners, format characters), 2 (wide: CJK, most emoji) or 1. */
export function codeWidth(code: number): number {
	if (code < 0x7f) {
		return code === 0 ? 0 : 1;
	}

	if ((code >= 0x0300 && code <= 0x036f) || (code >= 0x1ab0 && code <= 0x1aff) || (code >= 0x20d0 && code <= 0x20ff) || isInvisible(code)) {
		return 0;
	}

	if (
		(code >= 0x1100 && code <= 0x115f)
		|| (code >= 0x2e80 && code <= 0x303e)
		|| (code >= 0x3041 && code <= 0x33ff)
		|| (code >= 0x3400 && code <= 0x4dbf)
		|| (code >= 0x4e00 && code <= 0x9fff)
		|| (code >= 0xa000 && code <= 0xa4cf)
		|| (code >= 0xac00 && code <= 0xd7a3)
		|| (code >= 0xf900 && code <= 0xfaff)
		|| (code >= 0xfe30 && code <= 0xfe4f)
		|| (code >= 0xff00 && code <= 0xff60)
		|| (code >= 0xffe0 && code <= 0xffe6)
		|| (code >= 0x1f300 && code <= 0x1f64f)
		|| (code >= 0x1f680 && code <= 0x1f6ff)
		|| (code >= 0x1f900 && code <= 0x1f9ff)
		|| (code >= 0x1fa70 && code <= 0x1faff)
		|| (code >= 0x20000 && code <= 0x3fffd)
	) {
		return 2;
	}

	return 1;
}

const ASCII = /^[\u0020-\u007e]*$/;

export function cellWidth(text: string): number {
	if (ASCII.test(text)) {
		return text.length;
	}

	let width = 0;
	for (const character of text) {
		width += codeWidth(character.codePointAt(0)!);
	}

	return width;
}

/**
 * Cuts text to at most `width` cells, ending in `marker` when something was cut (an empty marker
 * cuts at the edge). The list uses
 * the ASCII `~` (as tig does): a line of printable ASCII takes Ink's fast measuring path, which
 * keeps a keypress to its frame markedly faster on a screen full of cut titles.
 */
export function truncate(text: string, width: number, marker = '…'): string {
	if (width <= 0) {
		return '';
	}

	const room = width - cellWidth(marker);
	if (ASCII.test(text)) {
		return text.length <= width ? text : `${text.slice(0, room)}${marker}`;
	}

	if (cellWidth(text) <= width) {
		return text;
	}

	let used = 0;
	let out = '';
	for (const character of text) {
		const w = codeWidth(character.codePointAt(0)!);
		if (used + w > room) {
			break;
		}

		out += character;
		used += w;
	}

	return `${out}${marker}`;
}

/** Truncates, then pads with spaces to exactly `width` cells. */
export function fit(text: string, width: number, marker = '…'): string {
	const cut = truncate(text, width, marker);
	const pad = width - cellWidth(cut);
	return pad > 0 ? cut + ' '.repeat(pad) : cut;
}
