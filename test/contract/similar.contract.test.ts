// similarItems on both backends alike: a near-duplicate ranks first with the shared terms named,
// the item itself never appears, limit bounds the results, and bad requests are refused.

import {describe, expect, it} from 'vitest';
import type {AsyncStore} from '../../store/api.js';
import {SIMILAR_TERMS} from '../../store/index.js';
import {notePgOff} from '../support/pg.js';
import {BACKENDS, refusalOf, storesOn, type Backend} from './backends.js';

const ISSUES = {
	id: 'issues', name: 'Issues', fields: [
		{key: 'number', label: 'Number', type: 'number', is_unique: true, is_required: true, config: {integer: true}},
		{key: 'title', label: 'Title', type: 'text'},
		{key: 'body', label: 'Body', type: 'text', config: {long: true}},
	],
};

const PLAIN = {id: 'plain', name: 'Plain', fields: [{key: 'title', label: 'Title', type: 'text'}]};

/** Filler with common words only, so the distinctive terms are the duplicates' own. */
const filler = (n: number) => ({number: 100 + n, title: `note ${n}`, body: `the app shows the list and the list is fine ${n % 3 === 0 ? 'today' : 'again'}`});

describe.each(BACKENDS)('similarItems on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const {fresh} = storesOn(backend);

	async function issues(items: Array<Record<string, unknown>>): Promise<{store: AsyncStore; ids: Map<number, string>}> {
		const store = await fresh();
		await store.importChannel({channel: ISSUES, items: items.map(values => ({values}))});
		const page = await store.listPage('issues', {limit: 50});
		return {store, ids: new Map(page.items.map(item => [Number(item.preview.number), item.id]))};
	}

	it('ranks a near-duplicate first, names the shared terms, never returns the item itself, and bounds by limit', async () => {
		const {store, ids} = await issues([
			{number: 1, title: 'Crash when exporting CSV', body: 'The exporter crashes with a segfault in libcsv when the spreadsheet has merged cells.'},
			{number: 2, title: 'Export to CSV segfaults', body: 'Segfault in libcsv: exporting a spreadsheet with merged cells crashes the app.'},
			{number: 3, title: 'Export is slow', body: 'Exporting a large spreadsheet takes minutes.'},
			...Array.from({length: 12}, (_, n) => filler(n)),
		]);
		const page = await store.similarItems('issues', ids.get(1)!, {limit: 5});
		expect(page.item_id).toBe(ids.get(1));
		expect(page.items[0]!.id).toBe(ids.get(2));
		expect(page.items[0]!.preview.number).toBe(2);
		expect(page.items[0]!.shared_terms).toEqual(expect.arrayContaining(['libcsv', 'segfault', 'merged', 'cells']));
		expect(page.terms.length).toBeGreaterThan(0);
		expect(page.terms.length).toBeLessThanOrEqual(SIMILAR_TERMS);
		expect(page.items.map(item => item.id)).not.toContain(ids.get(1));
		const scores = page.items.map(item => item.score);
		expect(scores).toEqual([...scores].sort((a, b) => b - a));
		expect(page.items.length).toBeLessThanOrEqual(5);
		// Rare shared words weigh more than common ones: the other export report ranks above the filler.
		expect(page.items.map(item => item.preview.number).slice(0, 2)).toEqual([2, 3]);

		const one = await store.similarItems('issues', ids.get(2)!, {limit: 1});
		expect(one.items.map(item => item.preview.number)).toEqual([1]);
		// Words most items hold are not searched: a filler item resembles only the others that say "today"; never itself, and limit holds.
		const fill = await store.similarItems('issues', ids.get(100)!, {limit: 2});
		expect(fill.terms).toContain('today');
		expect(fill.terms.filter(term => ['the', 'app', 'list', 'shows', 'fine', 'is', 'and'].includes(term))).toEqual([]);
		expect(fill.items).toHaveLength(2);
		expect(fill.items.every(item => [103, 106, 109].includes(item.preview.number as number))).toBe(true);
		expect((await store.similarItems('issues', ids.get(100)!, {limit: 20})).items.map(item => item.preview.number).sort()).toEqual([103, 106, 109]);
	});

	it('with olderOnly asks only the items added before the item; a shared title counts', async () => {
		const {store, ids} = await issues([
			{number: 1, title: 'Exporter segfault in libcsv', body: 'The exporter crashes with a segfault in libcsv when the spreadsheet has merged cells.'},
			...Array.from({length: 6}, (_, n) => filler(n)),
			{number: 2, title: 'Export to CSV segfaults', body: 'Segfault in libcsv: exporting a spreadsheet with merged cells crashes the app.'},
			{number: 3, title: 'Exporter segfault in libcsv', body: 'Merged cells again: a segfault in libcsv while exporting.'},
		]);
		const all = await store.similarItems('issues', ids.get(2)!, {limit: 3});
		expect(all.items.map(item => item.preview.number).sort()).toEqual([1, 3]);
		const older = await store.similarItems('issues', ids.get(2)!, {limit: 3, olderOnly: true});
		expect(older.items.map(item => item.preview.number)).toEqual([1]);
		// Number 3 shares number 1's title word for word: it ranks it first, above number 2, whose body is as close.
		expect((await store.similarItems('issues', ids.get(3)!, {limit: 2, olderOnly: true})).items.map(item => item.preview.number)).toEqual([1, 2]);
		expect(await refusalOf(() => store.similarItems('issues', ids.get(2)!, {olderOnly: 'yes' as unknown as boolean}))).toMatchObject({error: 'invalid_argument', message: expect.stringContaining('olderOnly')});
	});

	it('words inside dotted names, paths and versions are words on both: a stack trace\'s duplicate is found by them, and a bare word finds them', async () => {
		const {store, ids} = await issues([
			{number: 1, title: 'Startup fails', body: 'NPE at org.apache.hadoop.fs.FileSystem.getLocal reading /etc/hadoop/core-site.xml on 0.20.2'},
			{number: 2, title: 'Startup fails', body: 'FileSystem.getLocal in org.apache.hadoop.fs throws NPE: /etc/hadoop/core-site.xml, release 0.20.2'},
			{number: 3, title: 'Startup fails', body: 'The app fails to start after the list is fine again'},
			...Array.from({length: 12}, (_, n) => filler(n)),
		]);
		const page = await store.similarItems('issues', ids.get(2)!, {limit: 3, olderOnly: true});
		expect(page.items[0]!.preview.number).toBe(1);
		expect(page.items[0]!.shared_terms).toEqual(expect.arrayContaining(['getlocal', 'filesystem', 'hadoop', 'core', 'site']));
		const found = await store.listPage('issues', {where: 'getlocal', limit: 50});
		expect(found.items.map(item => item.preview.number).sort()).toEqual([1, 2]);
	});

	it('refuses a bad limit, a missing item and a channel without long text', async () => {
		const {store, ids} = await issues([{number: 1, title: 'a', body: 'words here'}]);
		expect(await refusalOf(() => store.similarItems('issues', ids.get(1)!, {limit: 21}))).toMatchObject({error: 'invalid_argument', message: expect.stringContaining('from 1 to 20')});
		expect(await refusalOf(() => store.similarItems('issues', ids.get(1)!, {limit: 0}))).toMatchObject({error: 'invalid_argument'});
		expect(await refusalOf(() => store.similarItems('issues', 'nonsense'))).toMatchObject({error: 'invalid_argument'});
		const other = ids.get(1)!.replace(/.$/, last => (last === '9' ? '8' : '9'));
		expect(await refusalOf(() => store.similarItems('issues', other))).toMatchObject({error: 'not_found'});
		await store.importChannel({channel: PLAIN, items: [{values: {title: 'x'}}]});
		const plain = (await store.listPage('plain')).items[0]!.id;
		expect(await refusalOf(() => store.similarItems('plain', plain))).toMatchObject({error: 'invalid_argument', message: expect.stringContaining('no long text')});
		// Alone in its channel: nothing resembles it.
		expect((await store.similarItems('issues', ids.get(1)!)).items).toEqual([]);
	});
});
