/** What stopping a run needs; the runner's RunHandle is one. */
type Stoppable = {cancel: () => void; done: Promise<unknown>};

/** Runs of this process not yet done: what a termination signal must stop. Kept light: the TUI loads it at launch. */
const activeRuns = new Set<Stoppable>();

export function trackActiveRun(run: Stoppable): void {
	activeRuns.add(run);
	void run.done.finally(() => activeRuns.delete(run)).catch(() => undefined);
}

/** Cancels every run of this process and waits until each is over and recorded (or failed to be). */
export async function stopActiveRuns(): Promise<void> {
	const runs = [...activeRuns];
	for (const run of runs) run.cancel();
	await Promise.all(runs.map(async run => run.done.catch(() => undefined)));
}
