import {useEffect, useRef, useState} from 'react';
import type {Store, StoreEvent} from '../../../store/index.js';
import {ACTIVE_INTERVAL, INITIAL_POLL, nextPoll, type PollNotice, type PollOutcome, type PollPhase, type PollState} from '../poll-schedule.js';
import type {Tone} from '../state.js';

export {ACTIVE_INTERVAL, IDLE_MAX, IDLE_MIN, nextDelay} from '../poll-schedule.js';

export type EventsOptions = {
	store: Store;
	channelId: string;
	/** The sequence already reflected on screen. */
	after: number;
	/** A run is active: poll sub-second. */
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
 * A failed poll is retried with a doubling wait; a channel that is gone is looked for again at
 * the same pace, and polled as soon as it is listed.
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
		const schedule = (delay: number) => {
			clearTimeout(timer);
			timer = setTimeout(tick, delay);
		};

		/** Whether the channel is listed; null when the channels cannot be read either. */
		const listed = (): boolean | null => {
			try {
				return store.listChannelNames().some(channel => channel.id === channelId);
			} catch (error) {
				lastError = (error as Error).message;
				return null;
			}
		};

		const poll = (): PollOutcome => {
			let page;
			try {
				page = store.pollEvents(channelId, {afterSequence: cursor.current, limit: 100});
			} catch (error) {
				// Whatever the error (not_found, not_granted, an unreadable file), the channel list tells
				// a channel that is gone from a store that cannot be read right now.
				lastError = (error as Error).message;
				return listed() === false ? {kind: 'missing'} : {kind: 'failed'};
			}

			const got = page.events.length > 0;
			if (got) {
				cursor.current = page.next_after_sequence;
				latest.current.onEvents(page.events);
			}

			return {kind: 'events', got, hasMore: page.has_more};
		};

		function tick() {
			if (done) return;
			let outcome: PollOutcome;
			if (state.phase === 'gone') {
				const found = listed();
				outcome = found ? poll() : (found === false ? {kind: 'missing'} : {kind: 'failed'});
			} else {
				outcome = poll();
			}

			const step = nextPoll(state, outcome, {active: latest.current.active, retryMax: latest.current.retryMaxMs});
			if (step.state.phase !== state.phase) setPhase(step.state.phase);
			state = step.state;
			if (step.notice) {
				const {text, tone} = noticeText(step.notice, channelId, lastError);
				latest.current.onNotice(text, tone);
			}

			schedule(step.delay);
		}

		wake.current = () => {
			if (done) return;
			if (state.phase === 'live') state = {...state, idle: INITIAL_POLL.idle};
			schedule(0);
		};

		schedule(latest.current.active ? ACTIVE_INTERVAL : INITIAL_POLL.idle);
		return () => {
			done = true;
			clearTimeout(timer);
		};
	}, [store, channelId]);

	useEffect(() => {
		if (options.active) wake.current();
	}, [options.active]);

	/** Poll now (after our own write, or when a run starts). */
	return {phase, live: phase === 'live', poll: () => wake.current(), cursor};
}
