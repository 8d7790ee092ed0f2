// What the screen shows of a channel kept in step with a tracker (store/sync): the header's words
// (last pull, pending pushes, conflicts) and each row's mark (unpushed, conflicted). Pure.

import {describeProgress, type SyncProgress} from '../sync/engine-loop.js';
import type {LiveNotice} from '../sync/live.js';
import {counted} from '../text/format.js';

/** A synced channel's state as the screen last read it (null in the state: the channel is not synced). */
export type SyncMarks = {
	/** 'OWNER/REPO' (or the tracker's own name for the project). */
	remote: string;
	lastPullAt: string | null;
	/** Changes waiting to be sent. */
	pending: number;
	/** Open sync conflicts. */
	conflicts: number;
	/** Records with a change waiting to be sent, and records with an open conflict. */
	unpushed: ReadonlySet<string>;
	conflicted: ReadonlySet<string>;
};

const twoDigits = (value: number) => String(value).padStart(2, '0');

/**
 * The header's words: the remote, when it was last pulled (local time), or while a live sync pulls
 * how far it got (items, rate, time left), what waits to be sent, the conflicts and the key that lists them.
 */
export function syncSummary(sync: SyncMarks, now: number, progress?: SyncProgress | null): string {
	let pulled = 'never pulled';
	if (sync.lastPullAt) {
		const at = new Date(sync.lastPullAt);
		const sameDay = new Date(now).toDateString() === at.toDateString();
		pulled = `pulled ${sameDay ? '' : `${at.getFullYear()}-${twoDigits(at.getMonth() + 1)}-${twoDigits(at.getDate())} `}${twoDigits(at.getHours())}:${twoDigits(at.getMinutes())}`;
	}

	return [
		`⇅ ${sync.remote}`,
		progress ? describeProgress(progress) : pulled,
		sync.pending > 0 ? `${sync.pending} to push` : 'pushed',
		sync.conflicts > 0 ? `${counted(sync.conflicts, 'conflict')} (C)` : null,
	].filter(Boolean).join(' · ');
}

/** A row's sync mark: `!` an open conflict, `↑` a change not yet sent, else none. */
export function syncMarkOf(sync: SyncMarks | null, id: string): 'conflict' | 'unpushed' | null {
	if (!sync) return null;
	if (sync.conflicted.has(id)) return 'conflict';
	return sync.unpushed.has(id) ? 'unpushed' : null;
}

/** What the live sync loop (the config's `sync: {live: true}`) tells the screen: a round done, its progress, or a failure in words. */
export type SyncNotice = LiveNotice;

/**
 * Carries the live sync loop's notices to the screen: the loop starts with the store, before the
 * screen exists, so the screen subscribes later (as it does to lock waits, lock-waits.ts). A round's
 * latest progress is kept until the round ends and given to a listener as it subscribes: a first
 * pull that began before the screen was drawn shows in the header at once.
 */
export class SyncNotices {
	private readonly listeners = new Set<(notice: SyncNotice) => void>();
	private progress: SyncNotice | undefined;

	readonly notify = (notice: SyncNotice): void => {
		if (notice.kind === 'progress') this.progress = notice;
		else if (notice.kind === 'round') this.progress = undefined;
		for (const listener of this.listeners) listener(notice);
	};

	/** Returns the unsubscribe (a React effect's cleanup). */
	subscribe(listener: (notice: SyncNotice) => void): () => void {
		this.listeners.add(listener);
		if (this.progress) listener(this.progress);
		return () => {
			this.listeners.delete(listener);
		};
	}
}
