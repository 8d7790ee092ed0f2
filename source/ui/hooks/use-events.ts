import {useEffect, useRef, useState} from 'react';
import type {Store, StoreEvent} from '../../../store/index.js';

/** Poll intervals (ms): fast while a run works, backing off when idle. */
export const ACTIVE_INTERVAL = 100;
export const IDLE_MIN = 250;
export const IDLE_MAX = 4000;

/** The next wait: events (or more pending) snap back, an empty poll doubles the idle wait up to the cap. */
export function nextDelay(idle: number, gotEvents: boolean, hasMore: boolean, active: boolean): {delay: number; idle: number} {
	const nextIdle = gotEvents ? IDLE_MIN : Math.min(idle * 2, IDLE_MAX);
	if (hasMore) return {delay: 0, idle: nextIdle};
	return {delay: active ? ACTIVE_INTERVAL : (gotEvents ? IDLE_MIN : nextIdle), idle: nextIdle};
}

export type EventsOptions = {
	store: Store;
	channelId: string;
	/** The sequence already reflected on screen. */
	after: number;
	/** A run is active: poll sub-second. */
	active: boolean;
	onEvents: (events: StoreEvent[]) => void;
	/** Called once when the channel can no longer be read; polling stops. */
	onFail: (message: string) => void;
};

/** Follows the channel's event log after a cursor of our own; the store keeps no reader state. */
export function useEvents(options: EventsOptions) {
	const {store, channelId} = options;
	const latest = useRef(options);
	latest.current = options;
	const cursor = useRef(options.after);
	const wake = useRef<() => void>(() => undefined);
	const [stopped, setStopped] = useState(false);

	useEffect(() => {
		let done = false;
		let timer: NodeJS.Timeout | undefined;
		let idle = IDLE_MIN;
		const schedule = (delay: number) => {
			clearTimeout(timer);
			timer = setTimeout(tick, delay);
		};

		function tick() {
			if (done) return;
			let page;
			try {
				page = store.pollEvents(channelId, {afterSequence: cursor.current, limit: 100});
			} catch (error) {
				done = true;
				setStopped(true);
				latest.current.onFail(`Channel ${channelId} can no longer be read (${(error as Error).message}); live updates stopped.`);
				return;
			}

			const got = page.events.length > 0;
			if (got) {
				cursor.current = page.next_after_sequence;
				latest.current.onEvents(page.events);
			}

			const next = nextDelay(idle, got, page.has_more, latest.current.active);
			idle = next.idle;
			schedule(next.delay);
		}

		wake.current = () => {
			if (done) return;
			idle = IDLE_MIN;
			schedule(0);
		};

		schedule(latest.current.active ? ACTIVE_INTERVAL : IDLE_MIN);
		return () => {
			done = true;
			clearTimeout(timer);
		};
	}, [store, channelId]);

	useEffect(() => {
		if (options.active) wake.current();
	}, [options.active]);

	/** Poll now (after our own write, or when a run starts). */
	return {stopped, poll: () => wake.current(), cursor};
}
