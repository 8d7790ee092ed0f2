import {useMemo} from 'react';
import type {Store} from '../../../store/index.js';
import type {Pane} from '../state.js';

/** The record the detail pane shows: the row under the cursor, re-read when it or `tick` changes. */
export function useDetail(store: Store, channelId: string, pane: Pane, row: {id: string; version: number} | undefined, tick: number) {
	return useMemo(() => {
		if (pane !== 'detail' || !row) return {item: null, error: null, flagged: new Set<string>()};
		try {
			const item = store.readItem(channelId, row.id);
			const flagged = new Set(store.listFollowUps({itemId: row.id, status: 'open'}).map(followUp => followUp.key));
			return {item, error: null, flagged};
		} catch (error) {
			return {item: null, error: (error as Error).message, flagged: new Set<string>()};
		}
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [pane, row?.id, row?.version, tick, store, channelId]);
}
