/** How many items one Codex run of a fan-out gets, unless --batch says otherwise. */
export const DEFAULT_BATCH_SIZE = 10;
export const MAX_BATCH_SIZE = 500;
/** How many Codex runs of a fan-out go at once, unless --parallel says otherwise. */
export const DEFAULT_PARALLEL = 2;
/** Each run is a Codex process with its own MCP server: more than this swamps a laptop. */
export const MAX_PARALLEL = 8;

/**
 * The items in order, cut into batches of `size` (the last one may be smaller). An item named
 * twice goes into the first batch that names it only: no run gets an item another run has.
 */
export function splitIntoBatches<T>(items: readonly T[], size: number): T[][] {
	if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`a batch holds at least one item, got ${size}`);
	const unique = [...new Set(items)];
	const batches: T[][] = [];
	for (let start = 0; start < unique.length; start += size) batches.push(unique.slice(start, start + size));
	return batches;
}

/** Whether a selection is one run as before fan-out existed: no items (the agent chooses), or one batch's worth. */
export const isSingleRun = (itemCount: number, size: number) => itemCount <= size;
