// search_record_items through the real MCP SDK client, on both backends: listed as read-only with
// its bounds in words, ranked results with scores paged by before_id, the query's own order
// without words, bad queries and arguments refused, and channels that are not granted.

import {describe, expect, it} from 'vitest';
import {notePgOff} from '../support/pg.js';
import {BACKENDS, storesOn, type Backend} from '../contract/backends.js';
import {callerFor, connectInProcess, jsonOf, openMcpStore, textOf} from './fixtures.js';

const NOTES = {
	id: 'notes', name: 'Notes', fields: [
		{key: 'ticket', label: 'Ticket', type: 'text', is_unique: true, is_required: true},
		{key: 'body', label: 'Body', type: 'text', config: {long: true}},
		{key: 'tags', label: 'Tags', type: 'multi_select', config: {options: [{value: 'sync', label: 'Sync'}, {value: 'ui', label: 'UI'}]}},
	],
};

describe.each(BACKENDS)('search_record_items on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	storesOn(backend);

	it('is read-only, states its bounds, ranks by relevance with scores and pages by before_id; without words it follows the query', async () => {
		const test = await openMcpStore(backend, 3);
		await test.store.importChannel({channel: NOTES, items: [
			{values: {ticket: 'N-1', body: 'sync stalls once', tags: ['sync']}},
			{values: {ticket: 'N-2', body: 'sync stalls: sync, sync and sync again', tags: ['sync', 'ui']}},
			{values: {ticket: 'N-3', body: 'the screen flickers', tags: ['ui']}},
			{values: {ticket: 'N-4', body: 'a sync of the sync', tags: []}},
		]});
		const session = await connectInProcess(test.store, undefined, ['bugs', 'notes']);
		try {
			const tool = (await session.client.listTools()).tools.find(candidate => candidate.name === 'search_record_items')!;
			expect(tool.annotations).toMatchObject({readOnlyHint: true});
			expect(tool.description).toContain('from 1 to 50');
			expect(tool.description).toContain('at most 2000 characters');
			expect(tool.description).toContain('at most 500 values');
			const call = callerFor(session.client);

			const first = await call('search_record_items', {record_channel_id: 'notes', query: 'sync', limit: 2});
			expect(first.isError).toBeFalsy();
			const page = jsonOf(first);
			expect(page.ranked).toBe(true);
			expect(page.items.map((item: {preview: {ticket: string}}) => item.preview.ticket)).toEqual(['N-2', 'N-4']);
			expect(page.items[0].score).toBeGreaterThan(page.items[1].score);
			expect(page.schema).toEqual({ticket: {required: true, unique: true}, body: {long: true}, tags: {type: 'multi_select', options: [['sync', 'Sync'], ['ui', 'UI']]}});
			const rest = jsonOf(await call('search_record_items', {record_channel_id: 'notes', query: 'sync', limit: 2, before_id: page.next_before_id}));
			expect(rest.items.map((item: {preview: {ticket: string}}) => item.preview.ticket)).toEqual(['N-1']);
			expect(rest.next_before_id).toBeNull();

			const members = jsonOf(await call('search_record_items', {record_channel_id: 'notes', query: 'tags:ui'}));
			expect(members).toMatchObject({ranked: false});
			expect(members.items.map((item: {preview: {ticket: string}; score: null}) => [item.preview.ticket, item.score])).toEqual([['N-3', null], ['N-2', null]]);

			const bad = await call('search_record_items', {record_channel_id: 'notes', query: 'tags:nope'});
			expect(bad.isError).toBe(true);
			expect(jsonOf(bad)).toMatchObject({error: 'bad_query', term: 'tags:nope'});
			const tooMany = await call('search_record_items', {record_channel_id: 'notes', query: 'sync', limit: 51});
			expect(tooMany.isError).toBe(true);
			expect(textOf(tooMany)).toContain('limit must be a whole number from 1 to 50');
			const secret = await call('search_record_items', {record_channel_id: 'secrets', query: 'agents'});
			expect(secret.isError).toBe(true);
			expect(jsonOf(secret)).toMatchObject({error: 'not_granted'});
		} finally {
			await session.close();
			await test.close();
		}
	});
});
