// Paging under change: 600 items, 50 a page from the newest; after every page either 2 items are
// created or 2 already-read items deleted. Offset paging (a raw LIMIT/OFFSET query on the same
// file) against the store's before_id cursor, and the store's keyset cursor for sorted queries
// (sort value + id), with the same changes in the same order.

import type {Store} from '../../store/index.js';
import {cleanScratch, freshBugStore, human, printTable, seeded, type Row} from './support.js';

const SORTED = {
	'cursor, sort:-severity': 'sort:-severity',
	'cursor, sort:due': 'sort:due',
	'cursor, -status:fixed sort:-points': '-status:fixed sort:-points',
} as const;

type Mode = 'offset (raw LIMIT/OFFSET)' | 'before_id (store.listPage)' | keyof typeof SORTED;

function pass(mode: Mode): Row {
	const store: Store = freshBugStore(600);
	const random = seeded(42);
	const allIds = () => (store.db.prepare("SELECT id FROM items WHERE channel_id = 'bugs'").all() as Array<{id: string}>).map(row => row.id);
	const initial = new Set(allIds());
	const deleted = new Set<string>();
	const reads = new Map<string, number>();
	const offsetQuery = store.db.prepare("SELECT id FROM items WHERE channel_id = 'bugs' ORDER BY seq DESC LIMIT ? OFFSET ?");
	let pages = 0;
	let itemReads = 0;
	let offset = 0;
	let beforeId: string | null = null;
	let cursor: string | null | undefined;
	let created = 0;
	for (;;) {
		let ids: string[];
		let more: boolean;
		if (mode === 'offset (raw LIMIT/OFFSET)') {
			ids = (offsetQuery.all(50, offset) as Array<{id: string}>).map(row => row.id);
			offset += 50;
			more = ids.length === 50;
		} else if (mode === 'before_id (store.listPage)') {
			const page = store.listPage('bugs', {beforeId, limit: 50});
			ids = page.items.map(item => item.id);
			beforeId = page.next_before_id;
			more = beforeId !== null;
		} else {
			const page = store.listPage('bugs', {where: SORTED[mode], cursor, limit: 50});
			ids = page.items.map(item => item.id);
			cursor = page.next_cursor;
			more = cursor !== null && cursor !== undefined;
		}

		pages++;
		itemReads += ids.length;
		for (const id of ids) {
			reads.set(id, (reads.get(id) ?? 0) + 1);
		}

		if (!more) {
			break;
		}

		if (pages % 2 === 1) {
			for (let n = 0; n < 2; n++) {
				store.createItem('bugs', {ticket: `NEW-${++created}`, title: 'filed while paging'}, human);
			}
		} else {
			const candidates = [...reads.keys()].filter(id => !deleted.has(id));
			for (let n = 0; n < 2; n++) {
				const victim = candidates.splice(Math.floor(random() * candidates.length), 1)[0]!;
				store.deleteItem('bugs', victim, human);
				deleted.add(victim);
			}
		}
	}

	// Sorted and filtered passes count only the items they select (checked on the final file: the
	// changes never touch the fields they sort or filter by).
	const where = mode in SORTED ? SORTED[mode as keyof typeof SORTED] : undefined;
	const selected = where ? selectedIds(store, where) : undefined;
	const throughout = [...initial].filter(id => !deleted.has(id) && (!selected || selected.has(id)));
	const row: Row = {
		paging: mode,
		pages,
		'item reads': itemReads,
		'read twice': [...reads.values()].filter(count => count > 1).length,
		'never seen': throughout.filter(id => !reads.has(id)).length,
		'items there throughout': throughout.length,
	};
	store.close();
	return row;
}

function selectedIds(store: Store, where: string): Set<string> {
	const ids = new Set<string>();
	let cursor: string | null | undefined;
	do {
		const page = store.listPage('bugs', {where, cursor, limit: 50});
		for (const item of page.items) ids.add(item.id);
		cursor = page.next_cursor;
	} while (cursor);
	return ids;
}

export function benchPagingUnderChange(): Row[] {
	const modes: Mode[] = ['offset (raw LIMIT/OFFSET)', 'before_id (store.listPage)', ...Object.keys(SORTED) as Mode[]];
	const rows = modes.map(mode => pass(mode));
	const keyset = rows.slice(1);
	const met = keyset.every(row => row['read twice'] === 0 && row['never seen'] === 0);
	printTable('Paging under change: 600 items, 50 a page, after each page 2 created or 2 already-read deleted', rows, [
		`before_id and every sorted cursor must show 0 read twice and 0 never seen: ${met ? 'yes' : 'NO'}`,
	]);
	cleanScratch();
	return rows;
}
