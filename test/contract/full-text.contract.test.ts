// Bare words also search long text, by word (SQLite FTS5, PostgreSQL text search), on both
// backends alike: kept in step by every write (create, edit, delete, import, upsert, a schema
// change that makes a field long), unicode words, a 1 MiB body, and the match count.

import {describe, expect, it} from 'vitest';
import type {AsyncStore} from '../../store/api.js';
import {FULL_TEXT_CHARACTERS} from '../../store/query/sql.js';
import {notePgOff} from '../support/pg.js';
import {human, QUERY_NOW as NOW} from '../store/helpers.js';
import {BACKENDS, storesOn, type Backend} from './backends.js';

const NOTES = {
	id: 'notes', name: 'Notes', fields: [
		{key: 'ticket', label: 'Ticket', type: 'text', is_unique: true, is_required: true},
		{key: 'title', label: 'Title', type: 'text'},
		{key: 'body', label: 'Body', type: 'text', config: {long: true}},
		{key: 'log', label: 'Log', type: 'text'},
	],
};

describe.each(BACKENDS)('full-text search on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const {fresh} = storesOn(backend);

	async function notes(items: Array<Record<string, string>>): Promise<AsyncStore> {
		const store = await fresh();
		await store.importChannel({channel: NOTES, items: items.map(values => ({values}))});
		return store;
	}

	/** The tickets `where` matches, sorted, and the count agrees. */
	async function tickets(store: AsyncStore, where: string): Promise<string[]> {
		const page = await store.listPage('notes', {where, limit: 50, now: NOW});
		expect(await store.countMatches('notes', where, NOW)).toBe(page.items.length);
		return page.items.map(item => String(item.preview.ticket)).sort();
	}

	it('a bare word finds a word of the long text, by prefix, whatever its case; short text still by substring', async () => {
		const store = await notes([
			{ticket: 'N-1', title: 'crash', body: 'The Exporter fails when the disk is full.'},
			{ticket: 'N-2', title: 'slow', body: 'Loading takes minutes'},
			{ticket: 'N-3', title: 'exports', body: 'nothing about that'},
		]);
		expect(await tickets(store, 'export')).toEqual(['N-1', 'N-3']);
		expect(await tickets(store, 'DISK')).toEqual(['N-1']);
		expect(await tickets(store, 'load')).toEqual(['N-2']);
		// A word, not a substring, in long text: "porter" is inside "Exporter" but starts no word.
		expect(await tickets(store, 'porter')).toEqual([]);
		expect(await tickets(store, '-disk')).toEqual(['N-2', 'N-3']);
		expect(await tickets(store, 'disk full')).toEqual(['N-1']);
	});

	it('unicode words: accents kept, case folded, CJK and emoji neighbours', async () => {
		const store = await notes([
			{ticket: 'U-1', body: 'Überlauf im Zähler beim Export'},
			{ticket: 'U-2', body: 'ошибка при загрузке файла'},
			{ticket: 'U-3', body: '保存 できない 🎉 問題'},
		]);
		expect(await tickets(store, 'überlauf')).toEqual(['U-1']);
		expect(await tickets(store, 'zähler')).toEqual(['U-1']);
		expect(await tickets(store, 'ОШИБКА')).toEqual(['U-2']);
		expect(await tickets(store, 'загруз')).toEqual(['U-2']);
		expect(await tickets(store, '保存')).toEqual(['U-3']);
		expect(await tickets(store, '問題')).toEqual(['U-3']);
	});

	it('every write keeps it in step: create, edit, delete, upsert, and a field made long', async () => {
		const store = await notes([{ticket: 'W-1', body: 'alpha'}]);
		const created = await store.createItem('notes', {ticket: 'W-2', body: 'bravo charlie'}, human);
		expect(await tickets(store, 'bravo')).toEqual(['W-2']);
		await store.editItem({channelId: 'notes', itemId: created.item.id, values: {body: 'delta'}, actor: human});
		expect(await tickets(store, 'bravo')).toEqual([]);
		expect(await tickets(store, 'delta')).toEqual(['W-2']);
		await store.editItem({channelId: 'notes', itemId: created.item.id, values: {title: 'renamed'}, actor: human});
		expect(await tickets(store, 'delta')).toEqual(['W-2']);
		await store.deleteItem('notes', created.item.id, human);
		expect(await tickets(store, 'delta')).toEqual([]);
		await store.upsertItems({channelId: 'notes', key: 'ticket', rows: [{values: {ticket: 'W-1', body: 'echo'}, at: 'row 1'}, {values: {ticket: 'W-3', body: 'foxtrot'}, at: 'row 2'}]});
		expect(await tickets(store, 'alpha')).toEqual([]);
		expect(await tickets(store, 'echo')).toEqual(['W-1']);
		expect(await tickets(store, 'foxtrot')).toEqual(['W-3']);
		// `log` is short text: a bare word finds a substring of it; made long, a word.
		await store.editItem({channelId: 'notes', itemId: (await store.findItemsNamed('notes', 'W-3'))[0]!.item_id, values: {log: 'golfing'}, actor: human});
		expect(await tickets(store, 'olfin')).toEqual(['W-3']);
		await store.changeChannel('notes', {kind: 'set_field', key: 'log', config: {long: true}});
		expect(await tickets(store, 'olfin')).toEqual([]);
		expect(await tickets(store, 'golf')).toEqual(['W-3']);
	});

	it('bulk writes beside another channel with long text: an import (taken back and put in order) and upserts are indexed once they land, the other channel is untouched, and later writes are still indexed', async () => {
		// On SQLite a bulk write runs with no insert trigger and indexes its items at its end (store/sqlite/channels.ts insertedInBulk).
		const store = await notes([{ticket: 'N-1', body: 'kilo'}]);
		const logs = {...NOTES, id: 'logs', name: 'Logs'};
		// L-2 is older than L-1: the import takes L-1 back and inserts both in created_at order.
		await store.importChannel({channel: logs, items: [{values: {ticket: 'L-1', body: 'lima mike'}}, {values: {ticket: 'L-2', body: 'november'}, created_at: '2020-01-01T00:00:00.000Z'}]});
		const logTickets = async (where: string) => (await store.listPage('logs', {where, limit: 50, now: NOW})).items.map(item => String(item.preview.ticket)).sort();
		expect([await logTickets('lima'), await logTickets('november'), await tickets(store, 'kilo')]).toEqual([['L-1'], ['L-2'], ['N-1']]);
		// One upsert creates L-3 and edits L-1; a second edits L-3, and leaves L-2 as it was.
		expect(await store.upsertItems({channelId: 'logs', key: 'ticket', rows: [{values: {ticket: 'L-3', body: 'oscar'}, at: 'row 1'}, {values: {ticket: 'L-1', body: 'quebec'}, at: 'row 2'}]})).toMatchObject({created: 1, updated: 1, written: true});
		expect([await logTickets('oscar'), await logTickets('lima'), await logTickets('quebec')]).toEqual([['L-3'], [], ['L-1']]);
		expect(await store.upsertItems({channelId: 'logs', key: 'ticket', rows: [{values: {ticket: 'L-3', body: 'papa'}, at: 'row 1'}]})).toMatchObject({updated: 1, written: true});
		expect([await logTickets('oscar'), await logTickets('papa'), await logTickets('november')]).toEqual([[], ['L-3'], ['L-2']]);
		expect(await tickets(store, 'kilo')).toEqual(['N-1']);
		// A refused upsert indexes nothing.
		expect(await store.upsertItems({channelId: 'logs', key: 'ticket', rows: [{values: {ticket: 'L-4', body: 'romeo'}, at: 'row 1'}, {values: {ticket: 'L-5', body: 'x', nope: 1}, at: 'row 2'}]})).toMatchObject({written: false});
		expect(await logTickets('romeo')).toEqual([]);
		await store.createItem('notes', {ticket: 'N-2', body: 'sierra'}, human);
		await store.createItem('logs', {ticket: 'L-6', body: 'tango'}, human);
		expect([await tickets(store, 'sierra'), await logTickets('tango')]).toEqual([['N-2'], ['L-6']]);
	});

	it('a 1 MiB body is written and searched; the first 256 Ki characters are indexed, on both alike', async () => {
		const filler = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(1024 * 1024 / 27)).slice(0, 1024 * 1024 - 20);
		const body = `zulu ${filler.slice(0, FULL_TEXT_CHARACTERS)} yankee ${filler.slice(FULL_TEXT_CHARACTERS)}`.slice(0, 1024 * 1024);
		const store = await notes([{ticket: 'B-1', body}, {ticket: 'B-2', body: 'short'}]);
		expect(await tickets(store, 'zulu')).toEqual(['B-1']);
		expect(await tickets(store, 'dolor')).toEqual(['B-1']);
		expect(await tickets(store, 'yankee')).toEqual([]);
	});
});
