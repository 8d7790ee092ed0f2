/**
 * Checks every written value must pass whatever its field type, before anything serialises it:
 * nesting is bounded (JSON.stringify overflows the stack a few thousand levels down, and SQLite's
 * JSON functions refuse a document deeper than 1000), every number is finite (JSON has no
 * Infinity: 1e309 would be stored as null), and every string, object keys included, is text both
 * backends keep: PostgreSQL's jsonb holds neither a NUL character nor a lone UTF-16 surrogate,
 * which SQLite would store, so both refuse them alike.
 */

/** Arrays and objects nested inside one field's value; the MCP tools state the same bound. */
export const MAX_VALUE_NESTING = 16;

export type ShapeProblem = {
	/** The text after `values.<key> `. */
	message: string;
	/**
	 * Too deep to serialise safely, or text no store can keep: refused before anything else looks
	 * at the value, so neither a write nor a follow-up ever holds it.
	 */
	refusedFirst: boolean;
};

const tooDeep: ShapeProblem = {message: `is nested too deeply: at most ${MAX_VALUE_NESTING} levels of arrays and objects`, refusedFirst: true};
const hasNul: ShapeProblem = {message: 'must not contain the NUL character (U+0000), which the store cannot keep', refusedFirst: true};
const loneSurrogate: ShapeProblem = {message: 'must be well-formed Unicode: it holds a lone UTF-16 surrogate', refusedFirst: true};

/** With the u flag a surrogate pair is one code point, so only a lone surrogate is in category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why a string is not text both backends keep, if it is not. */
export function textProblem(text: string): ShapeProblem | undefined {
	if (text.includes('\u0000')) {
		return hasNul;
	}

	return LONE_SURROGATE.test(text) ? loneSurrogate : undefined;
}
const notFinite = (number: number, inside: boolean): ShapeProblem => ({
	message: inside ? `must hold only finite numbers, got ${String(number)} inside it (a number too large for JSON)` : `must be a finite number, got ${String(number)}`,
	refusedFirst: false,
});

/** Why a value is refused whatever its field type, found without recursion. */
export function valueShapeProblem(value: unknown): ShapeProblem | undefined {
	if (typeof value === 'number') {
		return Number.isFinite(value) ? undefined : notFinite(value, false);
	}

	if (typeof value === 'string') {
		return textProblem(value);
	}

	if (typeof value !== 'object' || value === null) {
		return undefined;
	}

	const stack: Array<[object, number]> = [[value, 1]];
	while (stack.length > 0) {
		const [node, depth] = stack.pop()!;
		if (depth > MAX_VALUE_NESTING) {
			return tooDeep;
		}

		const array = Array.isArray(node);
		for (const key of array ? [] : Object.keys(node)) {
			const problem = textProblem(key);
			if (problem) {
				return problem;
			}
		}

		for (const child of array ? node : Object.values(node)) {
			if (typeof child === 'number' && !Number.isFinite(child)) {
				return notFinite(child, true);
			}

			const problem = typeof child === 'string' ? textProblem(child) : undefined;
			if (problem) {
				return problem;
			}

			if (typeof child === 'object' && child !== null) {
				stack.push([child as object, depth + 1]);
			}
		}
	}

	return undefined;
}
