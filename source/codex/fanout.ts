// The fan-out scheduler: batches as separate recorded runs, at most P at once; events, an immutable
// board snapshot (for a React hook), each run's replayable updates, cancel one or all.

import {newRunId} from './paths.js';
import type {RunHandle, RunResult} from './runner.js';
import type {StepStatus} from './steps.js';
import type {RunUpdate, Usage} from './tracker.js';

/**
 * queued → starting (the run is being recorded, the login checked) → running (Codex is launched)
 * → finished; a batch cancelled while queued is skipped; one whose run could not start is unstarted.
 */
export type FanoutRunState = 'queued' | 'starting' | 'running' | 'finished' | 'skipped' | 'unstarted';

/**
 * One batch of a fan-out as a board shows it. Immutable: every change makes a new object, so a
 * React hook can compare by identity.
 */
export type FanoutRun = {
	/** Chosen before the run starts, so a queued batch can be named (and cancelled) too. */
	runId: string;
	/** The batch's place in the order it was added, from 0. */
	index: number;
	itemIds: readonly string[];
	state: FanoutRunState;
	/** Epoch ms. */
	startedAt: number | null;
	finishedAt: number | null;
	/** Steps that ended, done or failed. */
	stepsDone: number;
	/** The label of the latest step still running. */
	currentStep: string | null;
	usage: Usage | null;
	result: RunResult | null;
	/** Why an unstarted batch could not start (the run log could not be written, the store refused). */
	error: string | null;
};

export type FanoutEvent =
	| {type: 'queued'; run: FanoutRun}
	| {type: 'started'; run: FanoutRun}
	| {type: 'update'; run: FanoutRun; update: RunUpdate}
	| {type: 'finished'; run: FanoutRun; result: RunResult}
	| {type: 'skipped'; run: FanoutRun}
	| {type: 'unstarted'; run: FanoutRun; error: unknown};

/** Starts one batch's recorded run with the run id given (startRecordedRun or startServerRun). */
export type StartBatch = (batch: {runId: string; itemIds: string[]}) => Promise<RunHandle>;

export type FanoutOptions = {
	/** At most this many runs at once (1 or more). */
	parallel: number;
	start: StartBatch;
};

type Slot = {
	run: FanoutRun;
	handle?: RunHandle;
	cancelled: boolean;
	steps: Map<string, {label: string; status: StepStatus}>;
};

/**
 * Runs batches of items as separate Codex runs, at most `parallel` at once, in the order added.
 * Everything it does is told to subscribers as events; snapshot() is the board's current state
 * (the same array until something changes, as useSyncExternalStore wants). A run's own live
 * steps replay from its start through updatesOf(runId).
 */
export class Fanout {
	private readonly slots: Slot[] = [];
	private readonly listeners = new Set<(event: FanoutEvent) => void>();
	private readonly idleWaiters: Array<() => void> = [];
	private current: readonly FanoutRun[] = [];
	private active = 0;

	constructor(private readonly options: FanoutOptions) {
		if (!Number.isSafeInteger(options.parallel) || options.parallel < 1) throw new RangeError(`parallel must be 1 or more, got ${options.parallel}`);
	}

	/** Queues a batch; it starts as soon as fewer than `parallel` runs are going. */
	add(itemIds: readonly string[]): FanoutRun {
		const slot: Slot = {
			run: {runId: newRunId(), index: this.slots.length, itemIds: [...itemIds], state: 'queued', startedAt: null, finishedAt: null, stepsDone: 0, currentStep: null, usage: null, result: null, error: null},
			cancelled: false,
			steps: new Map(),
		};
		this.slots.push(slot);
		this.change(slot, {}, run => ({type: 'queued', run}));
		this.pump();
		return slot.run;
	}

	/**
	 * Told of every change; returns the unsubscriber. Bound, like snapshot, so a hook can pass both
	 * as they are: useSyncExternalStore(fanout.subscribe, fanout.snapshot).
	 */
	readonly subscribe = (listener: (event: FanoutEvent) => void): (() => void) => {
		this.listeners.add(listener);
		return () => {
			this.listeners.delete(listener);
		};
	};

	/** The board: one entry per batch in the order added; a new array after every change, the same one otherwise. */
	readonly snapshot = (): readonly FanoutRun[] => this.current;

	/** How many runs are starting or going now. */
	get running(): number {
		return this.active;
	}

	/** How many more runs could start now. */
	get free(): number {
		return this.options.parallel - this.active - this.slots.filter(slot => slot.run.state === 'queued').length;
	}

	/** A run's updates from its first on (undefined until it started). */
	updatesOf(runId: string): AsyncIterable<RunUpdate> | undefined {
		return this.slots.find(slot => slot.run.runId === runId)?.handle?.updates;
	}

	/** Stops one batch: a queued one never starts, a running one is cancelled (its whole process group). */
	cancel(runId: string): void {
		const slot = this.slots.find(candidate => candidate.run.runId === runId);
		if (slot) this.stop(slot);
	}

	cancelAll(): void {
		for (const slot of this.slots) this.stop(slot);
	}

	/** Resolves once no batch is queued or running. */
	async idle(): Promise<void> {
		if (this.isIdle()) return;
		await new Promise<void>(resolve => this.idleWaiters.push(resolve));
	}

	private isIdle(): boolean {
		return this.slots.every(slot => slot.run.state !== 'queued' && slot.run.state !== 'starting' && slot.run.state !== 'running');
	}

	private stop(slot: Slot): void {
		if (slot.cancelled) return;
		slot.cancelled = true;
		if (slot.run.state === 'queued') {
			this.change(slot, {state: 'skipped'}, run => ({type: 'skipped', run}));
			this.settle();
		} else {
			// A run still starting is cancelled as soon as its handle is there (see launch).
			slot.handle?.cancel();
		}
	}

	private pump(): void {
		for (const slot of this.slots) {
			if (this.active >= this.options.parallel) return;
			if (slot.run.state === 'queued') void this.launch(slot);
		}
	}

	private async launch(slot: Slot): Promise<void> {
		this.active++;
		this.change(slot, {state: 'starting', startedAt: Date.now()}, () => undefined);
		let handle: RunHandle;
		try {
			handle = await this.options.start({runId: slot.run.runId, itemIds: [...slot.run.itemIds]});
		} catch (error) {
			this.active--;
			this.change(slot, {state: 'unstarted', finishedAt: Date.now(), error: error instanceof Error ? error.message : String(error)}, run => ({type: 'unstarted', run, error}));
			this.next();
			return;
		}

		slot.handle = handle;
		if (slot.cancelled) handle.cancel();
		this.change(slot, {state: 'running'}, run => ({type: 'started', run}));
		for await (const update of handle.updates) this.apply(slot, update);
		const result = await handle.done.catch((error: unknown) => error);
		this.active--;
		if (result instanceof Error || !isRunResult(result)) {
			const message = result instanceof Error ? result.message : String(result);
			this.change(slot, {state: 'unstarted', finishedAt: Date.now(), error: message}, run => ({type: 'unstarted', run, error: result}));
		} else {
			this.change(slot, {state: 'finished', finishedAt: Date.now(), result, usage: result.usage ?? slot.run.usage, currentStep: null}, run => ({type: 'finished', run, result}));
		}

		this.next();
	}

	private next(): void {
		this.pump();
		this.settle();
	}

	private apply(slot: Slot, update: RunUpdate): void {
		const patch: Partial<FanoutRun> = {};
		if (update.type === 'step') {
			slot.steps.set(update.step.id, {label: update.step.label, status: update.step.status});
			const steps = [...slot.steps.values()];
			patch.stepsDone = steps.filter(step => step.status !== 'running').length;
			patch.currentStep = steps.filter(step => step.status === 'running').at(-1)?.label ?? null;
		} else if (update.type === 'usage') {
			patch.usage = update.usage;
		}

		this.change(slot, patch, run => ({type: 'update', run, update}));
	}

	/** Replaces the slot's run with a changed copy, refreshes the snapshot, then tells subscribers. */
	private change(slot: Slot, patch: Partial<FanoutRun>, event: (run: FanoutRun) => FanoutEvent | undefined): void {
		slot.run = {...slot.run, ...patch};
		this.current = this.slots.map(each => each.run);
		const told = event(slot.run);
		if (told) this.emit(told);
	}

	private emit(event: FanoutEvent): void {
		for (const listener of this.listeners) listener(event);
	}

	private settle(): void {
		if (!this.isIdle()) return;
		for (const resolve of this.idleWaiters.splice(0)) resolve();
	}
}

const isRunResult = (value: unknown): value is RunResult => typeof value === 'object' && value !== null && 'outcome' in value && 'runId' in value;
