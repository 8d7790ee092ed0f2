import {useCallback, useEffect, useReducer, useRef, useState} from 'react';
import type {AsyncStore} from '../../../store/api.js';
import {trackFanout} from '../../codex/active.js';
import type {Fanout, FanoutEvent} from '../../codex/fanout.js';
import {resolveStateDir} from '../../codex/paths.js';
import type {Turn} from '../../codex/transcript.js';
import {boardReducer, EMPTY_BOARD, isGoing} from '../model/runs.js';
import {refusalText} from '../run-status.js';
import type {RunSettings} from '../run-settings.js';

export type FanoutSettings = RunSettings & {batch: number; parallel: number};

/** Told when a batch ends; `labelled` when its fan-out has several batches (or is a watch's), so the message names the batch. */
export type FinishListener = (event: Extract<FanoutEvent, {type: 'finished' | 'unstarted'}>, labelled: boolean) => void;

/** What `start` did: the runs went out (in `batches` batches), or why none did. */
export type StartOutcome = {ok: true; batches: number} | {ok: false; text: string};

/**
 * Every run of one screen: each `start` (c) checks Codex can run, cuts the items into batches and
 * runs them through a Fanout (codex/fanout.ts, the path `sift run` uses), at most `parallel` at
 * once; one run is a fan-out of one batch. The board folds every event. A watch (W) adds its own
 * Fanout through `attach`. Each start carries the session's earlier turns (its transcript).
 * Unmounting cancels every run.
 */
export function useFanout(settings: FanoutSettings, db: AsyncStore, onFinish?: FinishListener) {
	const [board, dispatch] = useReducer(boardReducer, EMPTY_BOARD);
	const fanouts = useRef<Fanout[]>([]);
	const settingsRef = useRef(settings);
	settingsRef.current = settings;
	const finishRef = useRef(onFinish);
	finishRef.current = onFinish;
	// The runs of this session that ended, in order: a follow-up instruction carries their turns.
	const sessionRuns = useRef<string[]>([]);
	// A start between `c` and its first queued batch (modules loading, the login checked): it counts as active.
	const [starting, setStarting] = useState(false);
	const startingRef = useRef(false);
	const cancelEarly = useRef(false);

	/** Shows a fan-out's runs on the board; returns the unsubscriber. */
	const attach = useCallback((fanout: Fanout, instruction: string, labelled = true) => {
		fanouts.current.push(fanout);
		// A termination signal cancels it whole, queued batches included (start.tsx).
		const untrack = trackFanout(fanout);
		const unsubscribe = fanout.subscribe(event => {
			dispatch({type: 'event', event, instruction, at: Date.now()});
			if (event.type === 'finished') sessionRuns.current.push(event.run.runId);
			if (event.type === 'finished' || event.type === 'unstarted') finishRef.current?.(event, labelled);
		});
		return () => {
			unsubscribe();
			untrack();
		};
	}, []);

	/** A Fanout that starts each batch as a recorded run (loaded on first use: the first frame does not wait for it). */
	const create = useCallback(async (instruction: string, transcript: Turn[] = []) => {
		const [{Fanout}, {batchStarter}] = await Promise.all([import('../../codex/fanout.js'), import('../../codex/run-token.js')]);
		const current = settingsRef.current;
		const stateDir = current.stateDir ?? resolveStateDir(current.env ?? process.env);
		const {batch: _batch, parallel, endpoint, agentMode, ...run} = current;
		// The agent mode is read as each batch starts: a batch proposes or writes as the screen says then.
		return new Fanout({parallel, start: batchStarter(db, () => ({...run, stateDir, instruction, transcript, mode: agentMode?.()}), endpoint)});
	}, [db]);

	/**
	 * Checks that Codex can run (binary and login, codex/ready.ts) before any item is taken, then
	 * cuts the items into batches and starts them.
	 */
	const start = useCallback(async (instruction: string, itemIds: string[]): Promise<StartOutcome> => {
		if (startingRef.current || fanouts.current.some(fanout => fanout.snapshot().some(isGoing))) return {ok: false, text: 'A run is already active; x cancels it.'};
		startingRef.current = true;
		cancelEarly.current = false;
		setStarting(true);
		try {
			const current = settingsRef.current;
			const stateDir = current.stateDir ?? resolveStateDir(current.env ?? process.env);
			const [{splitIntoBatches}, {codexReady}, {loadTranscript}] = await Promise.all([import('../../codex/batches.js'), import('../../codex/ready.js'), import('../../codex/transcript.js')]);
			const refusal = await codexReady({...current, stateDir});
			if (refusal) return {ok: false, text: refusalText(refusal, 'c')};
			let transcript: Turn[];
			try {
				transcript = loadTranscript(stateDir, sessionRuns.current);
			} catch {
				transcript = [];
			}

			const fanout = await create(instruction, transcript);
			const batches = splitIntoBatches(itemIds, current.batch);
			attach(fanout, instruction, batches.length > 1);
			for (const items of batches) fanout.add(items);
			if (cancelEarly.current) fanout.cancelAll();
			return {ok: true, batches: batches.length};
		} finally {
			startingRef.current = false;
			setStarting(false);
		}
	}, [attach, create]);

	const cancel = useCallback((runId: string) => {
		dispatch({type: 'cancelling', runId});
		for (const fanout of fanouts.current) fanout.cancel(runId);
	}, []);

	const cancelAll = useCallback(() => {
		if (startingRef.current) cancelEarly.current = true;
		for (const fanout of fanouts.current) {
			for (const run of fanout.snapshot()) if (isGoing(run)) dispatch({type: 'cancelling', runId: run.runId});
			fanout.cancelAll();
		}
	}, []);

	/** Cancels every run and waits until their processes are gone (for quitting). */
	const shutdown = useCallback(async () => {
		cancelEarly.current = true;
		for (let waited = 0; startingRef.current && waited < 5000; waited += 20) {
			await new Promise(resolve => setTimeout(resolve, 20));
		}

		for (const fanout of fanouts.current) fanout.cancelAll();
		await Promise.all(fanouts.current.map(async fanout => fanout.idle()));
	}, []);

	useEffect(() => () => {
		for (const fanout of fanouts.current) fanout.cancelAll();
	}, []);

	const active = starting || board.runs.some(isGoing);
	return {board, start, create, attach, cancel, cancelAll, shutdown, active};
}

export type FanoutApi = ReturnType<typeof useFanout>;
