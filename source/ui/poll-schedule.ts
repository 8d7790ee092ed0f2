/**
 * When to poll the channel's events next, as a pure step from one poll's outcome to the next
 * state and wait. The hook (hooks/use-events.ts) does the reading and the timers.
 */

/** Poll intervals (ms): fast while a run works, backing off when idle. */
export const ACTIVE_INTERVAL = 100;
export const IDLE_MIN = 250;
export const IDLE_MAX = 4000;
/**
 * With push (PostgreSQL's NOTIFY) a poll still runs this often: a lost notification costs at most
 * this long (docs/team-mode.md).
 */
export const PUSHED_INTERVAL = 2000;
/** Retry waits (ms) after a failed poll: doubling from the first to the cap. */
export const RETRY_MIN = 500;
export const RETRY_MAX = 30_000;

/** live: polling; retrying: the store could not be read, trying again; gone: the channel is not listed. */
export type PollPhase = 'live' | 'retrying' | 'gone';
export type PollState = {phase: PollPhase; idle: number; retry: number};

export type PollOutcome =
	| {kind: 'events'; got: boolean; hasMore: boolean}
	/** The poll, or listing the channels, failed. */
	| {kind: 'failed'}
	/** The channels were listed and this one is not among them. */
	| {kind: 'missing'};

/** What to tell the person, once per change of phase (never on every retry). */
export type PollNotice = 'paused' | 'gone' | 'resumed' | null;
export type PollStep = {state: PollState; delay: number; notice: PollNotice};

export const INITIAL_POLL: PollState = {phase: 'live', idle: IDLE_MIN, retry: RETRY_MIN};

/** The next wait: events (or more pending) snap back, an empty poll doubles the idle wait up to the cap. */
export function nextDelay(idle: number, gotEvents: boolean, hasMore: boolean, active: boolean): {delay: number; idle: number} {
	const nextIdle = gotEvents ? IDLE_MIN : Math.min(idle * 2, IDLE_MAX);
	if (hasMore) return {delay: 0, idle: nextIdle};
	return {delay: active ? ACTIVE_INTERVAL : (gotEvents ? IDLE_MIN : nextIdle), idle: nextIdle};
}

/**
 * One step of the poll loop. `retryMax` caps the retry wait (RETRY_MAX unless configured). `pushed`:
 * notifications wake the reader, so polling only guards against a lost one (PUSHED_INTERVAL).
 */
export function nextPoll(state: PollState, outcome: PollOutcome, options: {active: boolean; retryMax?: number; pushed?: boolean}): PollStep {
	const retryMax = options.retryMax ?? RETRY_MAX;
	if (outcome.kind === 'events') {
		const resumed = state.phase !== 'live';
		const next = nextDelay(resumed ? IDLE_MIN : state.idle, outcome.got || resumed, outcome.hasMore, options.active);
		const delay = options.pushed && !outcome.hasMore ? PUSHED_INTERVAL : next.delay;
		return {state: {phase: 'live', idle: next.idle, retry: RETRY_MIN}, delay, notice: resumed ? 'resumed' : null};
	}

	const delay = Math.min(state.phase === 'live' ? RETRY_MIN : state.retry, retryMax);
	const retry = Math.min(delay * 2, retryMax);
	// A failed re-listing while the channel is gone says nothing new: it stays gone until listed again.
	const phase: PollPhase = outcome.kind === 'missing' || state.phase === 'gone' ? 'gone' : 'retrying';
	let notice: PollNotice = null;
	if (phase !== state.phase) notice = phase === 'gone' ? 'gone' : 'paused';
	return {state: {phase, idle: IDLE_MIN, retry}, delay, notice};
}

/** SIFT_POLL_MAX_MS: a lower retry cap (ms), for tests that make the store unreadable for a moment. */
export function retryMaxFromEnv(env: NodeJS.ProcessEnv): number | undefined {
	const raw = env.SIFT_POLL_MAX_MS;
	if (raw === undefined || !/^\d+$/.test(raw.trim())) return undefined;
	const value = Number(raw);
	return value > 0 ? Math.min(value, RETRY_MAX) : undefined;
}
