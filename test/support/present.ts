/**
 * A value a suite's hooks make (in beforeAll or beforeEach) and drop after: read outside that span
 * it throws, saying where it is made, instead of handing a test `undefined`.
 */
export function present<T>(value: T | undefined, madeWhere: string): T {
	if (value === undefined) throw new Error(madeWhere);
	return value;
}
