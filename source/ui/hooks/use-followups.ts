import {useCallback, useState} from 'react';
import type {FollowUp, Item, Store} from '../../../store/index.js';

export type QueueEntry = {followUp: FollowUp; item: Item | null};

const QUEUE_LIMIT = 500;

/** The channel's open follow-ups: the header count, and the queue the person works through. */
export function useFollowUps(store: Store, channelId: string) {
	const read = useCallback(() => {
		try {
			return store.countOpenFollowUps(channelId);
		} catch {
			return 0;
		}
	}, [store, channelId]);
	const [count, setCount] = useState(read);
	const [queue, setQueue] = useState<FollowUp[]>([]);

	const refreshCount = useCallback(() => {
		setCount(read());
	}, [read]);

	/** Reloads the open list (oldest first) and the count; returns the list. */
	const load = useCallback(() => {
		const open = store.listFollowUps({channelId, status: 'open', limit: QUEUE_LIMIT});
		setQueue(open);
		setCount(read());
		return open;
	}, [store, channelId, read]);

	/** The follow-up with its item as it is now (null if the item went away). */
	const entry = useCallback((followUp: FollowUp): QueueEntry => {
		try {
			return {followUp, item: store.readItem(channelId, followUp.item_id)};
		} catch {
			return {followUp, item: null};
		}
	}, [store, channelId]);

	return {count, queue, refreshCount, load, entry};
}

export type FollowUpsApi = ReturnType<typeof useFollowUps>;
