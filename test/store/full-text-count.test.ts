// The SQLite full-text index's document count as similar records read it (FTS5's totals record,
// not a count over every row): the same as count(*) after imports, deletes and edits.

import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {openStore} from '../../store/index.js';
import {indexedDocuments} from '../../store/sqlite/full-text.js';
import {duplicateChannel} from '../support/duplicate-sets.js';
import {tempDir} from '../support/temp.js';

describe('indexedDocuments', () => {
	it('reads the count FTS5 keeps, equal to count(*) through imports, deletes and edits', () => {
		const store = openStore(join(tempDir(), 'count.db'), {create: true});
		try {
			expect(indexedDocuments(store.db)).toBe(0);
			store.importChannel({channel: duplicateChannel('bugs'), items: Array.from({length: 300}, (_, n) => ({values: {title: `t${n}`, issue: String(n), description: `body number ${n}`}}))});
			const counted = () => (store.db.prepare('SELECT count(*) AS n FROM items_text').get() as {n: number}).n;
			expect(indexedDocuments(store.db)).toBe(300);
			const ids = store.listPage('bugs', {limit: 5}).items.map(item => item.id);
			for (const id of ids.slice(0, 3)) store.deleteItem('bugs', id, {kind: 'human'});
			store.editItem({channelId: 'bugs', itemId: ids[3]!, values: {description: 'changed words'}, actor: {kind: 'human'}});
			expect(indexedDocuments(store.db)).toBe(297);
			expect(indexedDocuments(store.db)).toBe(counted());
		} finally {
			store.close();
		}
	});
});
