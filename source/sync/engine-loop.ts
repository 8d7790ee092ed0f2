// Pull-then-push orchestration shared by every tracker adapter: the adapter only translates (pull
// pages of RemoteRecords, turn outbox entries into requests, say whether the tracker already holds
// a value); this loop feeds the pulls to the store's sync engine (growing select options the
// tracker introduced), journals each request before it goes ('sending') and confirms or fails it
// after, re-checks entries a crash left 'sending' so nothing goes twice, reports progress, and
// runs the watch loop with a rate-limit-aware interval and backoff on server or network errors.

import type {AsyncStore, Channel} from '../../store/index.js';
import type {OutboxEntry, PullOutcome, RemoteComments, RemoteRecord, SyncLink, TrackerKind} from '../../store/sync/types.js';
import {systemClock, type WatchClock} from '../codex/watch-loop.js';
import {thousands} from '../text/format.js';

/** What a pull yields: pages of records, then (once they are read) the adapter's new cursor. */
export type PullRun = {
	pages: AsyncIterable<RemoteRecord[]>;
	/** Comments added after the pages (a first pull's streamed listing, by remote id); each list adds to its record's. */
	comments?: AsyncIterable<RemoteComments[]>;
	/** How many records the pages hold at most, once the first is read (a progress's total), if the tracker says. */
	expected?(): number | undefined;
	/** Likewise for the comments. */
	commentsExpected?(): number | undefined;
	/** The state to save once every page is applied (read after the pages end). */
	state(): Record<string, unknown>;
	/** The link moved (a rename): the new remote name (the adapter keeps it in its state). */
	renamedTo?(): string | undefined;
};

/** One request's outcome for one entry. */
export type PushResult =
	| {id: number; ok: true; remoteValue: unknown}
	| {id: number; ok: false; error: string; followUp: boolean};

/** One request the adapter will make for a group of entries (or a refusal made without sending). */
export type PushUnit = {
	entries: OutboxEntry[];
	/** Refused before sending (e.g. a body too long for the tracker): each entry fails with this, as a follow-up. */
	refused?: string;
	send(): Promise<PushResult[]>;
};

/** What a push may ask of the store: the remote id of another item of the channel (a relation's target). */
export type PushContext = {remoteIdOf(itemId: string): Promise<string | null>};

export interface TrackerAdapter {
	readonly tracker: TrackerKind;
	pull(link: SyncLink, since: string | null): PullRun;
	/** The requests that send `entries` (entries of one item may share one request). */
	push(link: SyncLink, entries: OutboxEntry[], context?: PushContext): Promise<PushUnit[]>;
	/** Whether the tracker already holds the entry's value (a crash after the request): its value there when it does. */
	remoteHas(link: SyncLink, entry: OutboxEntry, context?: PushContext): Promise<{holds: true; remoteValue: unknown} | {holds: false}>;
	/** The rate limit the tracker reported last, if it says. */
	rateLimit?(): {remaining: number; resetAt: number} | undefined;
}

/** Entries grouped by their remote issue; those of items with no issue there refused (sync does not create issues). */
export function byRemoteIssue(entries: OutboxEntry[], trackerName: string): {refused: PushUnit[]; byIssue: Map<string, OutboxEntry[]>} {
	const refused: PushUnit[] = [];
	const byIssue = new Map<string, OutboxEntry[]>();
	for (const entry of entries) {
		if (entry.remote_id === null) {
			refused.push({entries: [entry], refused: `item ${entry.item_id} has no ${trackerName} issue to send ${entry.field} to (sync does not create issues)`, send: async () => []});
			continue;
		}

		(byIssue.get(entry.remote_id) ?? byIssue.set(entry.remote_id, []).get(entry.remote_id)!).push(entry);
	}

	return {refused, byIssue};
}

export type SyncProgress = {phase: 'pull' | 'comments' | 'push'; done: number; total?: number; ratePerSecond: number; etaSeconds?: number};

/**
 * A progress in words, as `sift sync` writes it to a terminal's stderr and the TUI's header shows
 * it while its live sync pulls: `pulling 1,200/10,000 issues (350/s, about 25 s left)`.
 */
export function describeProgress(progress: SyncProgress): string {
	const noun = progress.phase === 'push' ? 'changes' : progress.phase === 'comments' ? 'comments' : 'records';
	const eta = progress.etaSeconds === undefined ? '' : `, about ${thousands(Math.ceil(progress.etaSeconds))} s left`;
	return `${progress.phase === 'push' ? 'pushing' : 'pulling'} ${thousands(progress.done)}${progress.total === undefined ? '' : `/${thousands(progress.total)}`} ${noun} (${thousands(Math.round(progress.ratePerSecond))}/s${eta})`;
}

export type SyncRunOptions = {
	clock?: WatchClock;
	/** Told about the work done so far (items pulled, entries pushed), at most every page or request. */
	progress?: (progress: SyncProgress) => void;
	/** Lines worth telling the user (options grown, a rename followed). */
	notice?: (message: string) => void;
	/** Run after each page a pull applies (heap-budget.ts: a long pull's memory bound). */
	afterPage?: () => void;
};

export type PushOutcome = {sent: number; failed: number; refused: number; confirmed: number};
export type SyncOutcome = {channel: string; pull?: PullOutcome & {grown: Record<string, string[]>; renamed?: string}; push?: PushOutcome; conflicts: number};

/** Outbox entries read at a time by a push. */
const OUTBOX_PAGE = 200;

const emptyPull = (): PullOutcome => ({created: 0, updated: 0, unchanged: 0, conflicts: 0, gone: 0, comments: 0});

function rateOf(clock: WatchClock, started: number, done: number, total?: number): {ratePerSecond: number; etaSeconds?: number} {
	const seconds = Math.max(0.001, (clock.now() - started) / 1000);
	const ratePerSecond = done / seconds;
	return {ratePerSecond, etaSeconds: total !== undefined && ratePerSecond > 0 ? Math.max(0, (total - done) / ratePerSecond) : undefined};
}

/** The choice fields' values the records hold that the channel's options lack. */
export function optionsToGrow(channel: Channel, records: readonly RemoteRecord[]): Record<string, string[]> {
	const grow: Record<string, string[]> = {};
	for (const field of channel.fields) {
		if (field.type !== 'select' && field.type !== 'multi_select') continue;
		const known = new Set(((field.config as {options?: Array<{value: string}>}).options ?? []).map(option => option.value));
		const wanted = new Set<string>();
		for (const record of records) {
			const value = record.values[field.key];
			for (const entry of Array.isArray(value) ? value : value === null || value === undefined ? [] : [value]) {
				if (typeof entry === 'string' && !known.has(entry)) wanted.add(entry);
			}
		}

		if (wanted.size > 0) grow[field.key] = [...wanted].sort();
	}

	return grow;
}

/** Pulls every page from the tracker into the channel; the cursor is saved only once all pages are in. */
export async function pullChannel(store: AsyncStore, adapter: TrackerAdapter, link: SyncLink, options: SyncRunOptions = {}): Promise<NonNullable<SyncOutcome['pull']>> {
	const clock = options.clock ?? systemClock;
	const started = clock.now();
	const total = emptyPull();
	const grown: Record<string, string[]> = {};
	const run = adapter.pull(link, typeof link.state.since === 'string' ? link.state.since : null);
	let channel = await store.getChannel(link.channel_id);
	let done = 0;
	for await (const records of run.pages) {
		const grow = optionsToGrow(channel, records);
		for (const [key, values] of Object.entries(grow)) {
			for (const value of values) {
				// As --grow-options does: a label or person new on the tracker becomes an option, and the user is told.
				const result = await store.changeChannel(link.channel_id, {kind: 'add_option', key, value}, {kind: 'sync'});
				channel = result.channel;
				(grown[key] ??= []).push(value);
			}

			options.notice?.(`${link.remote}: added ${values.map(value => JSON.stringify(value)).join(', ')} to the options of ${key} (new on the tracker)`);
		}

		const outcome = await store.sync.applyRemote(link.channel_id, records);
		for (const key of Object.keys(total) as Array<keyof PullOutcome>) total[key] += outcome[key];
		done += records.length;
		options.afterPage?.();
		const expected = run.expected?.();
		const totalNow = expected === undefined ? undefined : Math.max(expected, done);
		options.progress?.({phase: 'pull', done, ...(totalNow === undefined ? {} : {total: totalNow}), ...rateOf(clock, started, done, totalNow)});
	}

	if (run.comments) {
		const commentsStarted = clock.now();
		let comments = 0;
		for await (const lists of run.comments) {
			total.comments += await store.sync.addComments(link.channel_id, lists);
			comments += lists.reduce((sum, list) => sum + list.comments.length, 0);
			options.afterPage?.();
			const expected = run.commentsExpected?.();
			const totalNow = expected === undefined ? undefined : Math.max(expected, comments);
			options.progress?.({phase: 'comments', done: comments, ...(totalNow === undefined ? {} : {total: totalNow}), ...rateOf(clock, commentsStarted, comments, totalNow)});
		}
	}

	// The adapter keeps the new name in its state (saved below), and reaches the repository by it from now on.
	const renamed = run.renamedTo?.();
	if (renamed) options.notice?.(`${link.remote} was renamed to ${renamed}; the link now follows ${renamed}`);

	await store.sync.saveState(link.channel_id, run.state(), {pulled: new Date(clock.now()).toISOString()});
	return {...total, grown, ...(renamed ? {renamed} : {})};
}

/**
 * Sends the outbox. Each request is journaled ('sending') before it goes and confirmed after; an
 * entry a crash left 'sending' is first checked against the tracker and confirmed without a second
 * request when the tracker already holds its value. A fatal error (no access, repository gone)
 * stops the push: entries it never sent go back to pending, the one in flight stays journaled.
 */
export async function pushChannel(store: AsyncStore, adapter: TrackerAdapter, link: SyncLink, options: SyncRunOptions = {}): Promise<PushOutcome> {
	const clock = options.clock ?? systemClock;
	const started = clock.now();
	const outcome: PushOutcome = {sent: 0, failed: 0, refused: 0, confirmed: 0};
	const tried = new Set<number>();
	let done = 0;
	let worked = false;
	const context: PushContext = {
		async remoteIdOf(itemId) {
			const item = await store.readItem(link.channel_id, itemId).catch(() => undefined);
			const key = item?.values[link.key_field];
			return key === null || key === undefined ? null : String(key);
		},
	};
	// The outbox a page at a time, until a page brings nothing not yet tried.
	for (;;) {
		const entries = (await store.sync.outbox(link.channel_id, OUTBOX_PAGE)).filter(entry => !tried.has(entry.id));
		if (entries.length === 0) break;
		for (const entry of entries) tried.add(entry.id);
		worked = true;
		const fresh: OutboxEntry[] = [];
		for (const entry of entries) {
			if (entry.state !== 'sending') {
				fresh.push(entry);
				continue;
			}

			const check = await adapter.remoteHas(link, entry, context);
			if (check.holds) {
				await store.sync.markSent(entry.id, check.remoteValue);
				outcome.confirmed++;
			} else {
				fresh.push(entry);
			}
		}

		const units = await adapter.push(link, fresh, context);
		const total = done + units.reduce((sum, unit) => sum + unit.entries.length, 0);
		for (const unit of units) {
			if (unit.refused !== undefined) {
				for (const entry of unit.entries) await store.sync.markFailed(entry.id, unit.refused, {followUp: true});
				outcome.refused += unit.entries.length;
				done += unit.entries.length;
				continue;
			}

			await store.sync.markSending(unit.entries.map(entry => entry.id));
			let results: PushResult[];
			try {
				results = await unit.send();
			} catch (error) {
				// Known not to have happened (refused outright): back to pending; otherwise the journal keeps it.
				if ((error as {fatal?: boolean}).fatal === true) {
					for (const entry of unit.entries) await store.sync.markFailed(entry.id, (error as Error).message);
				}

				throw error;
			}

			for (const result of results) {
				if (result.ok) {
					await store.sync.markSent(result.id, result.remoteValue);
					outcome.sent++;
				} else {
					await store.sync.markFailed(result.id, result.error, {followUp: result.followUp});
					outcome.failed++;
				}
			}

			done += unit.entries.length;
			options.progress?.({phase: 'push', done, total, ...rateOf(clock, started, done, total)});
		}
	}

	if (worked) await store.sync.saveState(link.channel_id, (await store.sync.getLink(link.channel_id))?.state ?? link.state, {pushed: new Date(clock.now()).toISOString()});
	return outcome;
}

/** Pull, then push, then the count of open conflicts. */
export async function syncChannel(store: AsyncStore, adapter: TrackerAdapter, link: SyncLink, what: {pull: boolean; push: boolean}, options: SyncRunOptions = {}): Promise<SyncOutcome> {
	const pull = what.pull ? await pullChannel(store, adapter, link, options) : undefined;
	const current = (await store.sync.getLink(link.channel_id)) ?? link;
	const push = what.push ? await pushChannel(store, adapter, current, options) : undefined;
	const status = await store.sync.status(link.channel_id);
	return {channel: link.channel_id, ...(pull ? {pull} : {}), ...(push ? {push} : {}), conflicts: status.conflicts};
}

/** The pause before the next round of a watch: the interval, longer when the rate limit runs low, longer still after failures. */
export function nextWatchDelay(options: {intervalMs: number; failures: number; now: number; rate?: {remaining: number; resetAt: number}; requestsPerRound?: number}): number {
	const {intervalMs, failures, now, rate, requestsPerRound = 2} = options;
	// Backoff after a server or network failure: doubling, capped at 15 minutes.
	const backoff = failures > 0 ? Math.min(15 * 60_000, intervalMs * 2 ** Math.min(failures, 10)) : intervalMs;
	if (!rate) return backoff;
	const untilReset = Math.max(0, rate.resetAt - now);
	// Keep a tenth of the limit in hand: spread the rounds left over the time to the reset.
	const roundsLeft = Math.floor(rate.remaining * 0.9 / requestsPerRound);
	if (roundsLeft <= 0) return Math.max(backoff, untilReset + 1000);
	return Math.max(backoff, Math.ceil(untilReset / roundsLeft));
}

/**
 * A watch's `localEdit`: an outbox entry on one of `channels` never tried yet, and not seen by an
 * earlier call (an entry a round left untried wakes the watch once, not every check).
 */
export function untriedEdit(store: AsyncStore, channels: () => Promise<readonly string[]>): () => Promise<boolean> {
	// An entry's id alone is not enough: SQLite may give a sent (deleted) entry's id to the next one.
	let seen = new Set<string>();
	return async () => {
		const now = new Set<string>();
		for (const channel of await channels()) {
			for (const entry of await store.sync.outbox(channel)) {
				if (entry.state === 'pending' && entry.attempts === 0) now.add(`${entry.id} ${entry.created_at} ${JSON.stringify(entry.value)}`);
			}
		}

		const found = [...now].some(key => !seen.has(key));
		seen = now;
		return found;
	};
}

/** How often a watch looks at the store for a local edit between its polls (a local read; it costs no rate limit). */
export const LOCAL_CHECK_MS = 250;

/**
 * Syncs again and again until `signal` aborts; a fatal error (no access) ends it, other failures back off.
 * With `localEdit`, the sleep between polls is cut short when it reports an edit waiting to be pushed,
 * so a person's edit goes out within LOCAL_CHECK_MS, not at the next poll; never during a backoff or
 * while the rate limit stretches the interval.
 */
export async function watchChannels(run: () => Promise<void>, options: {intervalMs: number; signal: AbortSignal; clock?: WatchClock; rate?: () => {remaining: number; resetAt: number} | undefined; onError: (error: unknown) => void; localEdit?: () => Promise<boolean>}): Promise<void> {
	const clock = options.clock ?? systemClock;
	const {signal, localEdit} = options;
	let failures = 0;
	while (!signal.aborted) {
		try {
			await run();
			failures = 0;
		} catch (error) {
			if ((error as {fatal?: boolean}).fatal === true) throw error;
			failures++;
			options.onError(error);
		}

		if (signal.aborted) break;
		const delay = nextWatchDelay({intervalMs: options.intervalMs, failures, now: clock.now(), rate: options.rate?.()});
		const until = clock.now() + delay;
		if (!localEdit || failures > 0 || delay > options.intervalMs) {
			await clock.sleepUntil(until, signal);
			continue;
		}

		while (!signal.aborted && clock.now() < until) {
			await clock.sleepUntil(Math.min(until, clock.now() + LOCAL_CHECK_MS), signal);
			// A store that cannot be read just now is no reason to wake: the poll comes anyway.
			if (signal.aborted || clock.now() >= until || await localEdit().catch(() => false)) break;
		}
	}
}
