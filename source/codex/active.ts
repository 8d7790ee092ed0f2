/** What stopping a run needs; the runner's RunHandle is one. */
type Stoppable = {cancel: () => void; done: Promise<unknown>};

/** What stopping a fan-out needs: its queued batches must never start. codex/fanout.ts's Fanout is one. */
type FanoutLike = {cancelAll: () => void; idle: () => Promise<void>};

/** Runs of this process not yet done: what a termination signal must stop. Kept light: the TUI loads it at launch. */
const activeRuns = new Set<Stoppable>();
const activeFanouts = new Set<FanoutLike>();

export function trackActiveRun(run: Stoppable): void {
	activeRuns.add(run);
	void run.done.finally(() => activeRuns.delete(run)).catch(() => undefined);
}

/** A fan-out whose batches a termination signal cancels (queued ones too); returns the untracker. */
export function trackFanout(fanout: FanoutLike): () => void {
	activeFanouts.add(fanout);
	return () => {
		activeFanouts.delete(fanout);
	};
}

/**
 * Cancels every fan-out and run of this process and waits until each is over and recorded (or
 * failed to be). The fan-outs go first and at once: a run that ends must not start a queued batch.
 */
export async function stopActiveRuns(): Promise<void> {
	const fanouts = [...activeFanouts];
	for (const fanout of fanouts) fanout.cancelAll();
	const runs = [...activeRuns];
	for (const run of runs) run.cancel();
	await Promise.all([...runs.map(async run => run.done.catch(() => undefined)), ...fanouts.map(async fanout => fanout.idle().catch(() => undefined))]);
}
