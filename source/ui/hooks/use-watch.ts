import {useCallback, useEffect, useRef, useState} from 'react';
import type {AsyncStore} from '../../../store/api.js';
import type {Fanout} from '../../codex/fanout.js';
import type {RunOptions} from '../../codex/runner.js';
import type {WatchLoop} from '../../codex/watch-loop.js';
import {refusalText, watchHaltText} from '../run-status.js';

export type WatchSettings = {
	store: AsyncStore;
	channelId: string;
	stateDir: string;
	batch: number;
	/** Makes the watch's Fanout and shows its runs on the board (use-fanout). */
	create: (instruction: string) => Promise<Fanout>;
	attach: (fanout: Fanout, instruction: string) => () => void;
	/** What the login check before any item is taken reads (codex/ready.ts). */
	ready: Pick<RunOptions, 'codex' | 'codexConfig' | 'keepApiEnv' | 'env' | 'stateDir'>;
	onError: (message: string) => void;
	/** The watch stopped on its own: Codex cannot run, or a batch needed a person (its items wait again). */
	onHalt: (message: string) => void;
};

/** What the board's status line says while watch mode is on. */
export function watchStatus(sequence: number, waiting: number, options: {batch: number; parallel: number; settleMs: number}): string {
	const queue = waiting > 0 ? ` · ${waiting} waiting to fill a batch` : '';
	return `watch on: new items after event ${sequence} go to Codex in batches of ${options.batch} (${options.parallel} at once, settle ${options.settleMs / 1000}s)${queue} · W stops`;
}

/**
 * Watch mode (W): the loop of `sift watch` (codex/watch-loop.ts: its cursor file, its LISTEN on
 * PostgreSQL and its backoff), its batches run through a Fanout shown on the runs board. Turning
 * it off, quitting or unmounting cancels its running batches.
 */
export function useWatch(settings: WatchSettings, parallel: number) {
	const [status, setStatus] = useState<string | null>(null);
	const settingsRef = useRef(settings);
	settingsRef.current = settings;
	const loop = useRef<{stop: () => void; done: Promise<void>} | null>(null);

	const start = useCallback(() => {
		let stopped = false;
		let running: WatchLoop | undefined;
		let fanout: Fanout | undefined;
		const done = (async () => {
			const {store, channelId, stateDir, batch, create, attach, ready} = settingsRef.current;
			// No item is taken by a watch whose runs could not start.
			const {codexReady} = await import('../../codex/ready.js');
			const refusal = await codexReady(ready);
			if (refusal) {
				settingsRef.current.onHalt(refusalText(refusal, 'W'));
				return;
			}

			if (stopped) return;
			const watch = await import('../../codex/watch.js');
			const {readFailedText, startWatchLoop} = await import('../../codex/watch-loop.js');
			const file = watch.watchCursorPath(stateDir, {location: store.location, channelId, where: undefined});
			const cursor = watch.loadWatchCursor(file) ?? watch.emptyCursor(await store.latestSequence(channelId));
			watch.saveWatchCursor(file, cursor);
			fanout = await create(watch.DEFAULT_WATCH_INSTRUCTION);
			attach(fanout, watch.DEFAULT_WATCH_INSTRUCTION);
			const settleMs = watch.DEFAULT_SETTLE_MS;
			if (stopped) return;
			running = await startWatchLoop({
				store, channelId, where: undefined, file, cursor, fanout, batchSize: batch, settleMs,
				onPass(now) {
					setStatus(watchStatus(now.sequence, now.pending.length, {batch, parallel, settleMs}));
				},
				onReadFailed(error, retryMs) {
					setStatus(`watch on: ${readFailedText(error, retryMs)} · W stops`);
				},
			});
			if (stopped) running.stop();
			await running.done;
			const halt = running.halted();
			if (halt) settingsRef.current.onHalt(watchHaltText(halt));
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
				running?.stop();
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
