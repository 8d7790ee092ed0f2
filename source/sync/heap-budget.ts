// A bound on the JS heap of a long pull (docs/sync.md#limits): V8 lets garbage pile up well past
// what is alive before it collects, so a first pull of 10,000 issues grew a heap of some 20 MB live
// to 100 MB. After each page the engine applies, a heap over the budget is collected in full
// (a few milliseconds at this size), and its committed size stays near the budget.

import v8 from 'node:v8';
import vm from 'node:vm';

const MB = 1024 * 1024;

/** The heap a pull keeps below: room for a page of records and the store's work on it above what sift holds live. */
export const PULL_HEAP_BUDGET_MB = 24;

let collector: (() => void) | null | undefined;

/** V8's full collection: exposed once (a flag V8 reads when a context is made), null where it cannot be. */
function fullCollection(): (() => void) | null {
	if (collector === undefined) {
		try {
			v8.setFlagsFromString('--expose-gc');
			collector = vm.runInNewContext('gc') as () => void;
		} catch {
			collector = null;
		}
	}

	return collector;
}

/** A check to run between pages: collects when the heap in use is over `budgetMb`. */
export function heapBudget(budgetMb = PULL_HEAP_BUDGET_MB): () => void {
	return () => {
		if (v8.getHeapStatistics().used_heap_size > budgetMb * MB) fullCollection()?.();
	};
}
