// find_similar_items through the real MCP SDK client, on both backends: listed as read-only with
// its bounds in words, a near-duplicate first with its shared terms and never the item itself,
// bad arguments refused, and channels that are not granted.

import {describe, expect, it} from 'vitest';
import {SIMILAR_TERMS} from '../../store/index.js';
import {notePgOff} from '../support/pg.js';
import {BACKENDS, storesOn, type Backend} from '../contract/backends.js';
import {callerFor, connectInProcess, jsonOf, openMcpStore, textOf} from './fixtures.js';

const NOTES = {
	id: 'notes', name: 'Notes', fields: [
		{key: 'ticket', label: 'Ticket', type: 'text', is_unique: true, is_required: true},
		{key: 'title', label: 'Title', type: 'text'},
		{key: 'body', label: 'Body', type: 'text', config: {long: true}},
	],
};

describe.each(BACKENDS)('find_similar_items on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	storesOn(backend);

	it('is read-only, states its bounds, ranks a near-duplicate first with its shared terms, and never returns the item itself', async () => {
		const test = await openMcpStore(backend, 3);
		await test.store.importChannel({channel: NOTES, items: [
			{values: {ticket: 'N-1', title: 'Sync stalls on a flaky network', body: 'The sync worker stalls forever when the wifi drops during an upload; the spinner never stops.'}},
			{values: {ticket: 'N-2', title: 'Upload spinner never stops', body: 'When wifi drops mid upload the sync worker stalls and the spinner keeps going.'}},
			{values: {ticket: 'N-3', title: 'Dark mode colours', body: 'The sidebar is unreadable in dark mode.'}},
			{values: {ticket: 'N-4', title: 'Slow start', body: 'Start takes ten seconds on an old laptop.'}},
		]});
		const ids = new Map((await test.store.listPage('notes')).items.map(item => [item.preview.ticket as string, item.id]));
		const session = await connectInProcess(test.store, undefined, ['bugs', 'notes']);
		try {
			const tool = (await session.client.listTools()).tools.find(candidate => candidate.name === 'find_similar_items')!;
			expect(tool.annotations).toMatchObject({readOnlyHint: true});
			expect(tool.description).toContain('from 1 to 20');
			expect(tool.description).toContain(`at most ${SIMILAR_TERMS}`);
			const call = callerFor(session.client);

			const result = await call('find_similar_items', {record_channel_id: 'notes', item_id: ids.get('N-1'), limit: 2});
			expect(result.isError).toBeFalsy();
			const page = jsonOf(result);
			expect(page.item_id).toBe(ids.get('N-1'));
			expect(page.items.length).toBeLessThanOrEqual(2);
			expect(page.items[0].preview.ticket).toBe('N-2');
			expect(page.items[0].shared_terms).toEqual(expect.arrayContaining(['wifi', 'spinner', 'stalls']));
			expect(page.items.map((item: {id: string}) => item.id)).not.toContain(ids.get('N-1'));
			expect(page.schema).toEqual({ticket: {required: true, unique: true}, title: 'text', body: {long: true}});

			const tooMany = await call('find_similar_items', {record_channel_id: 'notes', item_id: ids.get('N-1'), limit: 21});
			expect(tooMany.isError).toBe(true);
			expect(textOf(tooMany)).toContain('limit must be a whole number from 1 to 20');
			const missing = await call('find_similar_items', {record_channel_id: 'notes', item_id: 'nope'});
			expect(missing.isError).toBe(true);
			expect(jsonOf(missing)).toMatchObject({error: 'invalid_argument'});
			const secret = await call('find_similar_items', {record_channel_id: 'secrets', item_id: ids.get('N-1')});
			expect(secret.isError).toBe(true);
			expect(jsonOf(secret)).toMatchObject({error: 'not_granted'});
		} finally {
			await session.close();
			await test.close();
		}
	});
});
