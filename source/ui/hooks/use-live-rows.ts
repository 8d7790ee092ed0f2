import {useCallback, useEffect, useMemo, useState} from 'react';
import type {Field, Item, Store, StoreEvent} from '../../../store/index.js';
import {previewFromValues} from '../format.js';
import type {FollowUpsApi} from './use-followups.js';
import type {PageApi} from './use-page.js';

/** How long a row stays marked as "changed just now". */
const CHANGED_MS = 3000;

type LiveRowsOptions = {
	store: Store;
	channelId: string;
	fields: Field[];
	page: PageApi;
	followUps: FollowUpsApi;
	/** The channel's item count when the screen opened. */
	initialTotal: number;
};

/** Rows kept live from the event log: the total, new items, "changed" markers and the detail refresh tick. */
export function useLiveRows({store, channelId, fields, page, followUps, initialTotal}: LiveRowsOptions) {
	const [total, setTotal] = useState(initialTotal);
	const [newItems, setNewItems] = useState(0);
	const [changed, setChanged] = useState<ReadonlyMap<string, number>>(new Map());
	const [detailTick, setDetailTick] = useState(0);

	const bumpDetail = useCallback(() => {
		setDetailTick(tick => tick + 1);
	}, []);

	const clearNewItems = useCallback(() => {
		setNewItems(0);
	}, []);

	/** Shows a record as the store returned it after an edit. */
	const showItem = useCallback((item: Item) => {
		page.patch(item.id, current => ({...current, version: item.version, updated_at: item.updated_at, preview: previewFromValues(fields, item.values)}));
	}, [page, fields]);

	const refreshRow = useCallback((id: string) => {
		let item: Item;
		try {
			item = store.readItem(channelId, id);
		} catch {
			page.patch(id, current => ({...current, deleted: true}));
			return;
		}

		page.patch(id, current => (current.version >= item.version && !current.deleted ? current : {...current, version: item.version, updated_at: item.updated_at, preview: previewFromValues(fields, item.values)}));
	}, [store, channelId, page, fields]);

	const onEvents = useCallback((events: StoreEvent[]) => {
		const touched = new Set<string>();
		let created = 0;
		let deleted = 0;
		for (const event of events) {
			if (event.type === 'item.created') created++;
			else if (event.type === 'item.deleted') {
				deleted++;
				page.patch(event.item_id, current => ({...current, deleted: true}));
			} else touched.add(event.item_id);
		}

		for (const id of touched) refreshRow(id);
		if (created || deleted) {
			setTotal(value => value + created - deleted);
			if (created) setNewItems(value => value + created);
		}

		if (touched.size > 0) {
			const until = Date.now() + CHANGED_MS;
			setChanged(previous => {
				const next = new Map(previous);
				for (const id of touched) next.set(id, until);
				return next;
			});
			setDetailTick(value => value + 1);
		}

		followUps.refreshCount();
	}, [page, refreshRow, followUps]);

	// Expire the "changed just now" markers.
	useEffect(() => {
		if (changed.size === 0) return;
		const timer = setTimeout(() => {
			const at = Date.now();
			setChanged(previous => new Map([...previous].filter(([, until]) => until > at)));
		}, 1000);
		return () => {
			clearTimeout(timer);
		};
	}, [changed]);

	const changedIds = useMemo(() => new Set(changed.keys()), [changed]);

	return {total, newItems, clearNewItems, changedIds, detailTick, bumpDetail, showItem, refreshRow, onEvents};
}

export type LiveRowsApi = ReturnType<typeof useLiveRows>;
