import {useCallback, useEffect, useReducer, useRef} from 'react';
import type {AsyncStore} from '../../../store/api.js';
import type {RunHandle, RunResult} from '../../codex/runner.js';
import type {Turn} from '../../codex/transcript.js';
import {newRunId, resolveStateDir} from '../../codex/paths.js';
import {isActive, runReducer, type RunView} from '../model/runs.js';
import type {RunSettings} from '../run-settings.js';


/**
 * One Codex run at a time: starts it with the runner, folds its live updates into a RunView,
 * cancels it (the runner kills the whole process group), and remembers this session's runs so a
 * follow-up instruction carries the earlier turns.
 */
export function useRun(settings: RunSettings, db: AsyncStore | null, onFinish?: (result: RunResult | null, view: RunView) => void) {
	const [run, dispatch] = useReducer(runReducer, null);
	const handle = useRef<RunHandle | null>(null);
	const sessionRuns = useRef<string[]>([]);
	const settingsRef = useRef(settings);
	settingsRef.current = settings;
	const finishRef = useRef(onFinish);
	finishRef.current = onFinish;
	const viewRef = useRef<RunView | null>(null);
	viewRef.current = run;

	const starting = useRef(false);

	/**
	 * Starts a run (false if one is already going). The runner's modules load on the first run,
	 * not at launch: the first frame does not wait for code it may never need.
	 */
	const start = useCallback((instruction: string, itemIds: string[]) => {
		if (handle.current || starting.current) return false;
		starting.current = true;
		const current = settingsRef.current;
		const stateDir = current.stateDir ?? resolveStateDir(current.env ?? process.env);
		const runId = newRunId();
		dispatch({type: 'start', runId, instruction, itemIds, at: Date.now()});
		void (async () => {
			const [{startRun}, {startStoreRun}, {loadTranscript}] = await Promise.all([import('../../codex/runner.js'), import('../../serve/run-token.js'), import('../../codex/transcript.js')]);
			let transcript: Turn[];
			try {
				transcript = loadTranscript(stateDir, sessionRuns.current);
			} catch {
				transcript = [];
			}

			// With the store at hand the run also goes into its runs table (R shows it from there).
			const {endpoint, agentMode, ...settings} = current;
			const options = {...settings, stateDir, instruction, itemIds, transcript, runId, mode: agentMode?.()};
			const started = db ? await startStoreRun(db, options, endpoint) : startRun(options);
			handle.current = started;
			starting.current = false;
			if (cancelEarly.current) {
				cancelEarly.current = false;
				started.cancel();
			}

			started.done.then(result => {
				handle.current = null;
				sessionRuns.current.push(runId);
				dispatch({type: 'done', runId, result, at: Date.now()});
				finishRef.current?.(result, {...viewRef.current!, result});
			}, (error: unknown) => {
				handle.current = null;
				const message = `The run could not be recorded: ${(error as Error).message}`;
				dispatch({type: 'crash', runId, message, at: Date.now()});
				finishRef.current?.(null, viewRef.current!);
			});
			for await (const update of started.updates) {
				dispatch({type: 'update', runId, update});
			}
		})().catch((error: unknown) => {
			starting.current = false;
			handle.current = null;
			dispatch({type: 'crash', runId, message: `Codex could not be started: ${(error as Error).message}`, at: Date.now()});
			finishRef.current?.(null, viewRef.current!);
		});
		return true;
	}, [db]);

	const cancelEarly = useRef(false);
	const cancel = useCallback(() => {
		const current = handle.current;
		if (!current) {
			if (!starting.current || !viewRef.current) return false;
			// Still loading the runner: cancel as soon as it exists.
			cancelEarly.current = true;
			dispatch({type: 'cancelling', runId: viewRef.current.runId});
			return true;
		}

		dispatch({type: 'cancelling', runId: current.runId});
		current.cancel();
		return true;
	}, []);

	/** Cancels any active run and waits until its processes are gone (for quitting). */
	const shutdown = useCallback(async () => {
		for (let waited = 0; starting.current && waited < 5000; waited += 20) {
			// eslint-disable-next-line no-await-in-loop
			await new Promise(resolve => setTimeout(resolve, 20));
		}

		const current = handle.current;
		if (!current) return;
		current.cancel();
		await current.done.catch(() => undefined);
	}, []);

	useEffect(() => () => {
		handle.current?.cancel();
	}, []);

	return {run, start, cancel, shutdown, active: isActive(run)};
}

export type RunApi = ReturnType<typeof useRun>;
