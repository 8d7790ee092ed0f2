// Paging under change: 600 items, 50 a page from the newest; after every page either 2 items are
// created or 2 already-read items deleted. Offset paging (a raw LIMIT/OFFSET query on the same
// file) against the store's before_id cursor, with the same changes in the same order.

import type {Store} from '../../store/index.js';
import {cleanScratch, freshBugStore, human, printTable, seeded, type Row} from './support.js';

type Mode = 'offset (raw LIMIT/OFFSET)' | 'before_id (store.listPage)';

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
	let created = 0;
	for (;;) {
		let ids: string[];
		let more: boolean;
		if (mode === 'offset (raw LIMIT/OFFSET)') {
			ids = (offsetQuery.all(50, offset) as Array<{id: string}>).map(row => row.id);
			offset += 50;
			more = ids.length === 50;
		} else {
			const page = store.listPage('bugs', {beforeId, limit: 50});
			ids = page.items.map(item => item.id);
			beforeId = page.next_before_id;
			more = beforeId !== null;
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

	const throughout = [...initial].filter(id => !deleted.has(id));
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

export function benchPagingUnderChange(): Row[] {
	const rows = [pass('offset (raw LIMIT/OFFSET)'), pass('before_id (store.listPage)')];
	const cursor = rows[1]!;
	printTable('Paging under change: 600 items, 50 a page, after each page 2 created or 2 already-read deleted', rows, [
		`before_id must show 0 read twice and 0 never seen: ${cursor['read twice'] === 0 && cursor['never seen'] === 0 ? 'yes' : 'NO'}`,
	]);
	cleanScratch();
	return rows;
}
