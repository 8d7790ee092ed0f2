/**
 * Cutting text for display without splitting a character: a cut counts code points, so a
 * surrogate pair (an emoji, say) is kept whole or left out whole, never halved into a lone
 * surrogate that would print as garbage or make invalid UTF-8.
 */

const isHighSurrogate = (unit: number) => unit >= 0xd8_00 && unit <= 0xdb_ff;
const isLowSurrogate = (unit: number) => unit >= 0xdc_00 && unit <= 0xdf_ff;

/** The UTF-16 index just past the first `count` code points of `text` (or its length). */
function indexAfterCodePoints(text: string, count: number): number {
	let index = 0;
	for (let seen = 0; seen < count && index < text.length; seen++) {
		const pair = isHighSurrogate(text.charCodeAt(index)) && isLowSurrogate(text.charCodeAt(index + 1));
		index += pair ? 2 : 1;
	}

	return index;
}

/**
 * `text` when it has at most `limit` code points; otherwise its first `limit - marker length`
 * code points followed by `marker` (an ellipsis by default), so the cut shows and the result
 * still has at most `limit` code points.
 */
export function cutCodePoints(text: string, limit: number, marker = '…'): string {
	// A code point is one or two UTF-16 units: text this short cannot be over the limit.
	if (text.length <= limit) {
		return text;
	}

	const end = indexAfterCodePoints(text, limit);
	if (end >= text.length) {
		return text;
	}

	const keep = Math.max(0, limit - [...marker].length);
	return text.slice(0, indexAfterCodePoints(text, keep)) + marker;
}

/** `a, b or c`: a list of forms as a refusal writes it. */
export const orList = (items: readonly string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`);
