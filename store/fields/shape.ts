/**
 * Checks every written value must pass whatever its field type, before anything serialises it:
 * nesting is bounded (JSON.stringify overflows the stack a few thousand levels down, and SQLite's
 * JSON functions refuse a document deeper than 1000), and every number is finite (JSON has no
 * Infinity: 1e309 would be stored as null).
 */

/** Arrays and objects nested inside one field's value; the MCP tools state the same bound. */
export const MAX_VALUE_NESTING = 16;

export type ShapeProblem = {
	/** The text after `values.<key> `. */
	message: string;
	/** Too deep to serialise safely: refused before anything else looks at the value. */
	tooDeep: boolean;
};

const tooDeep: ShapeProblem = {message: `is nested too deeply: at most ${MAX_VALUE_NESTING} levels of arrays and objects`, tooDeep: true};
const notFinite = (number: number, inside: boolean): ShapeProblem => ({
	message: inside ? `must hold only finite numbers, got ${String(number)} inside it (a number too large for JSON)` : `must be a finite number, got ${String(number)}`,
	tooDeep: false,
});

/** Why a value is refused whatever its field type, found without recursion. */
export function valueShapeProblem(value: unknown): ShapeProblem | undefined {
	if (typeof value === 'number') {
		return Number.isFinite(value) ? undefined : notFinite(value, false);
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

		for (const child of Array.isArray(node) ? node : Object.values(node)) {
			if (typeof child === 'number' && !Number.isFinite(child)) {
				return notFinite(child, true);
			}

			if (typeof child === 'object' && child !== null) {
				stack.push([child as object, depth + 1]);
			}
		}
	}

	return undefined;
}
