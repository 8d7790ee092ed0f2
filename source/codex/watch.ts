// Watch logic shared by `sift watch` and the TUI's `W`: the cursor (last sequence, versions sent,
// items waiting), new events folded into it (`takeInEvents`), which batches are due after the
// settle; the cursor file, written atomically.

import {createHash} from 'node:crypto';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {shownLocation, type AsyncStore, type StoreEvent} from '../../store/index.js';
import {pages} from '../../store/page-stream.js';
import {writePrivateFileAtomically} from '../config/atomic-file.js';
import type {Fanout} from './fanout.js';

/**
 * What a watch remembers between polls and across restarts (the pure part; the command does the
 * reading and the runs).
 * - `sequence`: the last event it has taken in.
 * - `sent`: the version each item was last sent at, kept while the item still matches: an item
 *   that matches still is not "newly matching", whatever is edited. An item seen not matching (or
 *   deleted) leaves it, so it goes again once it matches again, at a later version.
 * - `pending`: items waiting for their batch, with when they began waiting (epoch ms).
 */
export type WatchCursor = {
	sequence: number;
	sent: Record<string, number>;
	pending: PendingItem[];
};

export type PendingItem = {id: string; version: number; since: number};

/** What a poll saw happen to one item: its latest version, or that it is gone. */
export type Touch = {id: string; version: number; deleted: boolean; byAgent: boolean};

export const DEFAULT_SETTLE_MS = 5000;
const MAX_SETTLE_MS = 3_600_000;

export const emptyCursor = (sequence: number): WatchCursor => ({sequence, sent: {}, pending: []});

/**
 * `5s`, `500ms`, `1m`, or a bare number of seconds, as milliseconds. Up to an hour; 0 sends every
 * item as soon as it is seen. Null when the text is none of these.
 */
export function parseSettle(text: string): number | null {
	const match = /^(\d{1,7})(ms|s|m)?$/.exec(text.trim());
	if (!match) return null;
	const ms = Number(match[1]) * (match[2] === 'ms' ? 1 : match[2] === 'm' ? 60_000 : 1000);
	return ms <= MAX_SETTLE_MS ? ms : null;
}

/**
 * The events of a poll folded per item: the last version each was seen at, and whether the last
 * change was a delete. `byAgent` holds only when every change of the poll to it was an agent's:
 * an agent's own edits never send an item (a watch would feed on its own runs otherwise).
 */
export function touchesOf(events: readonly StoreEvent[]): Touch[] {
	const touches = new Map<string, Touch>();
	for (const event of events) {
		// A schema change touches no item; nor does a proposal or its decline (an accept's write is an item.updated of its own).
		if (event.type === 'channel.updated' || event.type.startsWith('proposal.') || event.type === 'not_duplicate.marked') continue;
		const earlier = touches.get(event.item_id);
		touches.set(event.item_id, {
			id: event.item_id,
			version: event.version,
			deleted: event.type === 'item.deleted',
			byAgent: (earlier?.byAgent ?? true) && event.actor.kind === 'agent',
		});
	}

	return [...touches.values()];
}

/**
 * Takes in what a poll saw: `matching` holds the touched items that match the watch's query now.
 * A match not sent (or sent while it matched before, then stopped matching) waits in `pending`; a
 * pending item changed again waits on with its new version; one that stopped matching or was
 * deleted drops out of both.
 */
export function admit(cursor: WatchCursor, touches: readonly Touch[], matching: ReadonlySet<string>, sequence: number, now: number): WatchCursor {
	const sent = {...cursor.sent};
	const pending = new Map(cursor.pending.map(item => [item.id, item]));
	for (const touch of touches) {
		if (touch.deleted || !matching.has(touch.id)) {
			delete sent[touch.id];
			pending.delete(touch.id);
			continue;
		}

		const waiting = pending.get(touch.id);
		if (waiting) {
			pending.set(touch.id, {...waiting, version: Math.max(waiting.version, touch.version)});
		} else if (sent[touch.id] === undefined && !touch.byAgent) {
			pending.set(touch.id, {id: touch.id, version: touch.version, since: now});
		}
	}

	return {sequence: Math.max(cursor.sequence, sequence), sent, pending: [...pending.values()]};
}

/**
 * The batches due now, oldest items first, at most `slots` of them: every full batch, and then a
 * short one if its oldest item has waited `settleMs`. What is taken counts as sent (at the
 * version it waited with) in the returned cursor.
 */
export function takeDue(cursor: WatchCursor, options: {batchSize: number; settleMs: number; slots: number; now: number}): {batches: PendingItem[][]; cursor: WatchCursor} {
	const queue = [...cursor.pending].sort((a, b) => a.since - b.since);
	const batches: PendingItem[][] = [];
	while (batches.length < options.slots && queue.length > 0) {
		const full = queue.length >= options.batchSize;
		if (!full && options.now - queue[0]!.since < options.settleMs) break;
		batches.push(queue.splice(0, options.batchSize));
	}

	if (batches.length === 0) return {batches, cursor};
	const sent = {...cursor.sent};
	for (const item of batches.flat()) sent[item.id] = item.version;
	return {batches, cursor: {...cursor, sent, pending: queue}};
}

/**
 * Undoes the sending of a batch whose run never reached the agent (not logged in, no codex, no
 * sandbox, a run that could not start): its items wait again, at the version they were sent at,
 * as if just arrived. An item the cursor no longer counts as sent (it changed or stopped matching
 * since) is left as the cursor has it.
 */
export function giveBack(cursor: WatchCursor, itemIds: readonly string[], now: number): WatchCursor {
	const returned = itemIds.filter(id => cursor.sent[id] !== undefined && !cursor.pending.some(item => item.id === id));
	if (returned.length === 0) return cursor;
	const sent = {...cursor.sent};
	const pending = [...cursor.pending];
	for (const id of returned) {
		pending.push({id, version: sent[id]!, since: now});
		delete sent[id];
	}

	return {...cursor, sent, pending};
}

/** When the oldest waiting item's settle ends (epoch ms); undefined when nothing waits. */
export function settleEndsAt(cursor: WatchCursor, settleMs: number): number | undefined {
	if (cursor.pending.length === 0) return undefined;
	return Math.min(...cursor.pending.map(item => item.since)) + settleMs;
}

/** One cursor file per database, channel and query, in the state dir's watch folder. */
export function watchCursorPath(stateDir: string, key: {location: string; channelId: string; where: string | undefined}): string {
	const digest = createHash('sha256').update(JSON.stringify([key.location, key.channelId, key.where ?? null])).digest('hex').slice(0, 16);
	return path.join(stateDir, 'watch', `${key.channelId.replaceAll(/[^\w.-]/g, '_').slice(0, 40)}-${digest}.json`);
}

/**
 * Which channel a cursor belongs to: the store (shown without a password), the channel's id and
 * when it was made. A channel made again under the same id (`sift demo --reset`) starts its
 * events over: a cursor of the one before would skip them.
 */
export type WatchedChannel = {location: string; channel_id: string; created_at: string};

/** The channel as it is now; null when the store no longer holds it. */
export async function watchedChannel(store: AsyncStore, channelId: string): Promise<WatchedChannel | null> {
	const found = (await store.listChannelNames()).find(channel => channel.id === channelId);
	return found ? {location: shownLocation(store.location), channel_id: found.id, created_at: found.created_at} : null;
}

export const sameChannel = (a: WatchedChannel, b: WatchedChannel) => a.location === b.location && a.channel_id === b.channel_id && a.created_at === b.created_at;

/**
 * The cursor to go on with on `channel` (whose latest event is `latest`): the saved one when it
 * belongs to it; else a new one from the latest event, with why. A cursor saved before cursors
 * named their channel is kept unless it is past the channel's last event.
 */
export function cursorFor(cursor: WatchCursor, saved: WatchedChannel | undefined, channel: WatchedChannel, latest: number): {cursor: WatchCursor; restarted?: string} {
	if (saved ? !sameChannel(saved, channel) : cursor.sequence > latest) {
		return {cursor: emptyCursor(latest), restarted: `the channel ${channel.channel_id} was made again since this watch's cursor (event ${cursor.sequence}); watching from its latest event, ${latest}`};
	}

	return {cursor};
}

/** The saved cursor, or undefined when there is none; a damaged file is refused rather than silently restarting (which could resend). */
export function loadWatchCursor(file: string): WatchCursor | undefined {
	return readWatchFile(file)?.cursor;
}

/** The channel a saved cursor belongs to; undefined when there is no file or it does not say (an older one). */
export function loadWatchedChannel(file: string): WatchedChannel | undefined {
	return readWatchFile(file)?.channel;
}

function savedChannel(file: string): WatchedChannel | undefined {
	try {
		return loadWatchedChannel(file);
	} catch {
		return undefined;
	}
}

function readWatchFile(file: string): {cursor: WatchCursor; channel?: WatchedChannel} | undefined {
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
		throw error;
	}

	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = undefined;
	}

	if (!isCursor(parsed)) throw new Error(`the watch cursor ${file} is damaged; remove it to start watching from the latest event`);
	const {channel} = parsed as {channel?: unknown};
	return {cursor: {sequence: parsed.sequence, sent: parsed.sent, pending: parsed.pending}, ...(isWatchedChannel(channel) ? {channel} : {})};
}

const isWatchedChannel = (value: unknown): value is WatchedChannel => typeof value === 'object' && value !== null
	&& ['location', 'channel_id', 'created_at'].every(key => typeof (value as Record<string, unknown>)[key] === 'string');

/**
 * Written atomically (a crash leaves the old cursor or the new one), private like every state
 * file; with the channel it belongs to when known (the loop always knows it).
 */
export function saveWatchCursor(file: string, cursor: WatchCursor, channel?: WatchedChannel): void {
	// Without one, the channel the file names stays (a caller that has not opened the loop yet).
	const named = channel ?? savedChannel(file);
	writePrivateFileAtomically(file, `${JSON.stringify({version: 1, ...(named ? {channel: named} : {}), ...cursor})}\n`);
}

function isCursor(value: unknown): value is WatchCursor {
	if (typeof value !== 'object' || value === null) return false;
	const {sequence, sent, pending} = value as Record<string, unknown>;
	return Number.isSafeInteger(sequence)
		&& typeof sent === 'object' && sent !== null && !Array.isArray(sent) && Object.values(sent).every(version => Number.isSafeInteger(version))
		&& Array.isArray(pending) && pending.every(item => typeof item === 'object' && item !== null && typeof (item as PendingItem).id === 'string' && Number.isSafeInteger((item as PendingItem).version) && Number.isFinite((item as PendingItem).since));
}

export const DEFAULT_WATCH_INSTRUCTION = 'Triage these new items.';

/**
 * Every event after the cursor, page by page, folded into it: the touched items are matched
 * against the query (all of them match without one). Returns the same cursor when nothing happened.
 */
export async function takeInEvents(store: AsyncStore, channelId: string, where: string | undefined, cursor: WatchCursor, now: () => number = Date.now): Promise<WatchCursor> {
	let current = cursor;
	for (;;) {
		const page = await store.pollEvents(channelId, {afterSequence: current.sequence});
		if (page.events.length === 0) return current;
		const touches = touchesOf(page.events);
		const live = touches.filter(touch => !touch.deleted).map(touch => touch.id);
		const matching = where === undefined ? new Set(live) : await matchingAmong(store, channelId, where, new Set(live));
		current = admit(current, touches, matching, page.next_after_sequence, now());
		if (!page.has_more) return current;
	}
}

/**
 * Which of `ids` the query matches now. The query language has no id term, so the matches are
 * read page by page until every id is found or the matches end.
 */
async function matchingAmong(store: AsyncStore, channelId: string, where: string, ids: ReadonlySet<string>): Promise<Set<string>> {
	const found = new Set<string>();
	if (ids.size === 0) return found;
	for await (const page of pages(store, channelId, {where})) {
		for (const item of page.items) if (ids.has(item.id)) found.add(item.id);
		if (found.size === ids.size) break;
	}

	return found;
}

/**
 * Hands the batches now due to the fan-out, one run each. The cursor is saved with them as sent
 * before any run starts: a crash then never sends them twice. Returns the cursor as it now is.
 */
export function sendDue(cursor: WatchCursor, file: string, fanout: Pick<Fanout, 'free' | 'add'>, options: {batchSize: number; settleMs: number; now?: number; channel?: WatchedChannel}): WatchCursor {
	const due = takeDue(cursor, {batchSize: options.batchSize, settleMs: options.settleMs, slots: fanout.free, now: options.now ?? Date.now()});
	if (due.batches.length === 0) return cursor;
	saveWatchCursor(file, due.cursor, options.channel);
	for (const items of due.batches) fanout.add(items.map(item => item.id));
	return due.cursor;
}
