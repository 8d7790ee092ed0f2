import {useCallback, useEffect, useRef, useState} from 'react';
import type {AsyncStore} from '../../../store/api.js';
import type {Fanout} from '../../codex/fanout.js';

export type WatchSettings = {
	store: AsyncStore;
	channelId: string;
	stateDir: string;
	batch: number;
	/** Makes the watch's Fanout and shows its runs on the board (use-fanout). */
	create: (instruction: string) => Promise<Fanout>;
	attach: (fanout: Fanout, instruction: string) => () => void;
	onError: (message: string) => void;
};

/** How often the TUI's watch reads the events (the event feed of the list polls on its own). */
const POLL_MS = 500;

/** What the board's status line says while watch mode is on. */
export function watchStatus(sequence: number, waiting: number, options: {batch: number; parallel: number; settleMs: number}): string {
	const queue = waiting > 0 ? ` · ${waiting} waiting to fill a batch` : '';
	return `watch on: new items after event ${sequence} go to Codex in batches of ${options.batch} (${options.parallel} at once, settle ${options.settleMs / 1000}s)${queue} · W stops`;
}

/**
 * Watch mode (W): the same loop as `sift watch` (its cursor file too, so either one carries on
 * where the other stopped), its batches run through a Fanout shown on the runs board. Turning it
 * off, quitting or unmounting cancels its running batches.
 */
export function useWatch(settings: WatchSettings, parallel: number) {
	const [status, setStatus] = useState<string | null>(null);
	const settingsRef = useRef(settings);
	settingsRef.current = settings;
	const loop = useRef<{stop: () => void; done: Promise<void>} | null>(null);

	const start = useCallback(() => {
		let stopped = false;
		let wake: (() => void) | undefined;
		let fanout: Fanout | undefined;
		const sleep = async (ms: number) => new Promise<void>(resolve => {
			const timer = setTimeout(resolve, ms);
			wake = () => {
				clearTimeout(timer);
				resolve();
			};
		});
		const done = (async () => {
			const {store, channelId, stateDir, batch, create, attach} = settingsRef.current;
			const watch = await import('../../codex/watch.js');
			const {takeInEvents, DEFAULT_WATCH_INSTRUCTION} = watch;
			const file = watch.watchCursorPath(stateDir, {location: store.location, channelId, where: undefined});
			let cursor = watch.loadWatchCursor(file) ?? watch.emptyCursor(await store.latestSequence(channelId));
			watch.saveWatchCursor(file, cursor);
			fanout = await create(DEFAULT_WATCH_INSTRUCTION);
			attach(fanout, DEFAULT_WATCH_INSTRUCTION);
			const settleMs = watch.DEFAULT_SETTLE_MS;
			while (!stopped) {
				try {
					// eslint-disable-next-line no-await-in-loop
					const taken = await takeInEvents(store, channelId, undefined, cursor);
					if (taken !== cursor) watch.saveWatchCursor(file, (cursor = taken));
				} catch {
					// A store that cannot be read for a moment is tried again at the next tick.
				}

				if (stopped) break;
				cursor = watch.sendDue(cursor, file, fanout, {batchSize: batch, settleMs});

				setStatus(watchStatus(cursor.sequence, cursor.pending.length, {batch, parallel, settleMs}));
				// eslint-disable-next-line no-await-in-loop
				await sleep(POLL_MS);
			}
		})().catch((error: unknown) => {
			settingsRef.current.onError(`Watch mode stopped: ${(error as Error).message}`);
		}).finally(async () => {
			fanout?.cancelAll();
			await fanout?.idle();
			loop.current = null;
			setStatus(null);
		});
		setStatus('watch on: starting…');
		loop.current = {
			stop() {
				stopped = true;
				wake?.();
			},
			done,
		};
	}, [parallel]);

	/** Stops the watch and waits until its batches are cancelled and recorded. */
	const stop = useCallback(async () => {
		const current = loop.current;
		if (!current) return;
		current.stop();
		await current.done;
	}, []);

	const toggle = useCallback(() => {
		if (loop.current) void stop();
		else start();
	}, [start, stop]);

	useEffect(() => () => {
		loop.current?.stop();
	}, []);

	return {on: status !== null, status, toggle, stop};
}
