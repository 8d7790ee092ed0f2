import {useEffect, useRef, useState} from 'react';
import type {AsyncStore} from '../../../store/api.js';
import type {StoreEvent} from '../../../store/index.js';
import {ACTIVE_INTERVAL, INITIAL_POLL, nextPoll, PUSHED_INTERVAL, type PollNotice, type PollOutcome, type PollPhase, type PollState} from '../poll-schedule.js';
import type {Tone} from '../state.js';

export type EventsOptions = {
	store: AsyncStore;
	channelId: string;
	/** The sequence already reflected on screen. */
	after: number;
	/** A run is active: poll sub-second (without push). */
	active: boolean;
	onEvents: (events: StoreEvent[]) => void;
	/** Told once per change: live updates paused, the channel gone, live updates resumed. */
	onNotice: (message: string, tone: Tone) => void;
	/** The longest wait between retries after a failed poll (ms). */
	retryMaxMs?: number;
};

function noticeText(notice: Exclude<PollNotice, null>, channelId: string, error: string): {text: string; tone: Tone} {
	switch (notice) {
		case 'paused': { return {text: `Live updates paused: channel ${channelId} could not be read (${error}); retrying.`, tone: 'warn'}; }
		case 'gone': { return {text: `Channel ${channelId} is no longer in this database; live updates stop until it is back.`, tone: 'error'}; }
		case 'resumed': { return {text: 'Live updates resumed.', tone: 'ok'}; }
	}
}

/**
 * Follows the channel's event log after a cursor of our own; the store keeps no reader state.
 * On PostgreSQL a notification reads at once, and a slow poll covers a lost one; on SQLite the
 * poll adapts (poll-schedule.ts). A failed poll is retried with a doubling wait; a channel that is
 * gone is looked for again at the same pace, and polled as soon as it is listed. One read at a time.
 */
export function useEvents(options: EventsOptions) {
	const {store, channelId} = options;
	const latest = useRef(options);
	latest.current = options;
	const cursor = useRef(options.after);
	const wake = useRef<() => void>(() => undefined);
	const [phase, setPhase] = useState<PollPhase>('live');

	useEffect(() => {
		let done = false;
		let timer: NodeJS.Timeout | undefined;
		let state: PollState = INITIAL_POLL;
		let lastError = '';
		let reading = false;
		let again = false;
		let pushed = false;
		const schedule = (delay: number) => {
			clearTimeout(timer);
			timer = setTimeout(() => void tick(), delay);
		};

		/** Whether the channel is listed; null when the channels cannot be read either. */
		const listed = async (): Promise<boolean | null> => {
			try {
				return (await store.listChannelNames()).some(channel => channel.id === channelId);
			} catch (error) {
				lastError = (error as Error).message;
				return null;
			}
		};

		const poll = async (): Promise<PollOutcome> => {
			let page;
			try {
				page = await store.pollEvents(channelId, {afterSequence: cursor.current, limit: 100});
			} catch (error) {
				// Whatever the error (not_found, not_granted, an unreadable file), the channel list tells
				// a channel that is gone from a store that cannot be read right now.
				lastError = (error as Error).message;
				return (await listed()) === false ? {kind: 'missing'} : {kind: 'failed'};
			}

			const got = page.events.length > 0;
			if (got && !done) {
				cursor.current = page.next_after_sequence;
				latest.current.onEvents(page.events);
			}

			return {kind: 'events', got, hasMore: page.has_more};
		};

		async function tick() {
			if (done) return;
			if (reading) {
				again = true;
				return;
			}

			reading = true;
			clearTimeout(timer);
			let outcome: PollOutcome;
			if (state.phase === 'gone') {
				const found = await listed();
				outcome = found ? await poll() : (found === false ? {kind: 'missing'} : {kind: 'failed'});
			} else {
				outcome = await poll();
			}

			reading = false;
			if (done) return;
			const step = nextPoll(state, outcome, {active: latest.current.active, retryMax: latest.current.retryMaxMs, pushed});
			if (step.state.phase !== state.phase) setPhase(step.state.phase);
			state = step.state;
			if (step.notice) {
				const {text, tone} = noticeText(step.notice, channelId, lastError);
				latest.current.onNotice(text, tone);
			}

			// A wake-up that came during the read reads again at once: its events may be past what we got.
			schedule(again ? 0 : step.delay);
			again = false;
		}

		wake.current = () => {
			if (done) return;
			if (state.phase === 'live') state = {...state, idle: INITIAL_POLL.idle};
			if (reading) again = true;
			else schedule(0);
		};

		let unlisten: (() => Promise<void>) | undefined;
		if (store.listen) {
			// The notification carries the new sequence; the cursor read is what counts.
			store.listen(channelId, sequence => {
				if (sequence > cursor.current) wake.current();
			}).then(stop => {
				if (done) void stop().catch(() => undefined);
				else {
					unlisten = stop;
					pushed = true;
					// Writes between the first page and the LISTEN are read now.
					wake.current();
				}
			}, () => {
				// No push (the listener could not connect): polling alone keeps the screen live.
			});
		}

		schedule(latest.current.active ? ACTIVE_INTERVAL : (store.listen ? PUSHED_INTERVAL : INITIAL_POLL.idle));
		return () => {
			done = true;
			clearTimeout(timer);
			void unlisten?.().catch(() => undefined);
		};
	}, [store, channelId]);

	useEffect(() => {
		if (options.active) wake.current();
	}, [options.active]);

	/** Poll now (after our own write, or when a run starts). */
	return {phase, live: phase === 'live', poll: () => wake.current(), cursor};
}
