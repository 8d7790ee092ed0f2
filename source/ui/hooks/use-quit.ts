import {useApp} from '#ink';
import {useCallback, useRef} from 'react';
import type {Tone} from '../state.js';

/** What quitting needs of the runs: whether any is active, and how to stop them all. */
export type Runs = {active: boolean; shutdown: () => Promise<void>};

/** Quitting once: an active run is stopped first (its processes too), then the app exits. */
export function useQuit(run: Runs, say: (text: string, tone?: Tone) => void) {
	const {exit} = useApp();
	const quitting = useRef(false);
	return useCallback(() => {
		if (quitting.current) return;
		quitting.current = true;
		if (run.active) {
			say('Stopping Codex…', 'warn');
			void run.shutdown().then(() => {
				exit();
			});
		} else {
			exit();
		}
	}, [run, exit, say]);
}
