import {useCallback, useEffect, useState} from 'react';
import type {AsyncStore} from '../../../store/api.js';
import type {Step} from '../../codex/steps.js';
import type {RunSummary} from '../history.js';
import type {Overlay} from '../state.js';

/** The run history overlay: the runs listed when it opens, and the steps of the one opened. */
export function useRunHistory(stateDir: string, db: AsyncStore | null, overlay: Overlay, setOverlay: (overlay: Overlay) => void) {
	const [history, setHistory] = useState<RunSummary[]>([]);
	const [openHistory, setOpenHistory] = useState<{run: RunSummary; steps: Step[]} | null>(null);

	const showHistory = useCallback(() => {
		void import('../history.js').then(async ({loadRunHistory}) => {
			setHistory(await loadRunHistory(stateDir, db));
			setOverlay({kind: 'history', cursor: 0, open: false});
		});
	}, [stateDir, db, setOverlay]);

	const historyOpen = overlay.kind === 'history' && overlay.open ? history[overlay.cursor] ?? null : null;
	useEffect(() => {
		if (!historyOpen) {
			setOpenHistory(null);
			return;
		}

		void import('../history.js').then(({runSteps}) => {
			setOpenHistory({run: historyOpen, steps: runSteps(historyOpen)});
		});
	}, [historyOpen]);

	return {history, openHistory, showHistory};
}
