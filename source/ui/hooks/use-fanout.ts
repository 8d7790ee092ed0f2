import {useCallback, useEffect, useReducer, useRef} from 'react';
import type {AsyncStore} from '../../../store/api.js';
import type {Fanout, FanoutEvent} from '../../codex/fanout.js';
import {resolveStateDir} from '../../codex/paths.js';
import {boardReducer, EMPTY_BOARD, isGoing} from '../model/runs.js';
import type {RunSettings} from '../run-settings.js';

export type FanoutSettings = RunSettings & {batch: number; parallel: number};

/**
 * The fan-outs of one screen: each `start` cuts the items into batches and runs them through a
 * Fanout (codex/fanout.ts), at most `parallel` at once; the board folds every event. A watch
 * (W) adds its own Fanout through `attach`. Unmounting cancels every run.
 */
export function useFanout(settings: FanoutSettings, db: AsyncStore | null, onFinish?: (event: Extract<FanoutEvent, {type: 'finished' | 'unstarted'}>) => void) {
	const [board, dispatch] = useReducer(boardReducer, EMPTY_BOARD);
	const fanouts = useRef<Fanout[]>([]);
	const settingsRef = useRef(settings);
	settingsRef.current = settings;
	const finishRef = useRef(onFinish);
	finishRef.current = onFinish;

	/** Shows a fan-out's runs on the board; returns the unsubscriber. */
	const attach = useCallback((fanout: Fanout, instruction: string) => {
		fanouts.current.push(fanout);
		return fanout.subscribe(event => {
			dispatch({type: 'event', event, instruction, at: Date.now()});
			if (event.type === 'finished' || event.type === 'unstarted') finishRef.current?.(event);
		});
	}, []);

	/** A Fanout that starts each batch as a recorded run (loaded on first use, like the single run's runner). */
	const create = useCallback(async (instruction: string) => {
		const [{Fanout}, {startStoreRun}, {startRun}] = await Promise.all([import('../../codex/fanout.js'), import('../../serve/run-token.js'), import('../../codex/runner.js')]);
		const current = settingsRef.current;
		const stateDir = current.stateDir ?? resolveStateDir(current.env ?? process.env);
		const {batch: _batch, parallel, endpoint, agentMode, ...run} = current;
		return new Fanout({
			parallel,
			async start({runId, itemIds}) {
				const options = {...run, stateDir, instruction, itemIds, transcript: [], runId, mode: agentMode?.()};
				return db ? startStoreRun(db, options, endpoint) : startRun(options);
			},
		});
	}, [db]);

	/** Cuts the items into batches and starts them; resolves to how many batches there are. */
	const start = useCallback(async (instruction: string, itemIds: string[]) => {
		const [{splitIntoBatches}, fanout] = await Promise.all([import('../../codex/batches.js'), create(instruction)]);
		attach(fanout, instruction);
		const batches = splitIntoBatches(itemIds, settingsRef.current.batch);
		for (const items of batches) fanout.add(items);
		return batches.length;
	}, [attach, create]);

	const cancel = useCallback((runId: string) => {
		for (const fanout of fanouts.current) fanout.cancel(runId);
	}, []);

	const cancelAll = useCallback(() => {
		for (const fanout of fanouts.current) fanout.cancelAll();
	}, []);

	/** Cancels every run and waits until their processes are gone (for quitting). */
	const shutdown = useCallback(async () => {
		for (const fanout of fanouts.current) fanout.cancelAll();
		await Promise.all(fanouts.current.map(async fanout => fanout.idle()));
	}, []);

	useEffect(() => () => {
		for (const fanout of fanouts.current) fanout.cancelAll();
	}, []);

	const active = board.runs.some(isGoing);
	return {board, start, create, attach, cancel, cancelAll, shutdown, active};
}

export type FanoutApi = ReturnType<typeof useFanout>;
