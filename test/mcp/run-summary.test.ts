// A run's summary counts the follow-ups the store opened, by the store's own rule: an edit refused
// for an unknown key or a formula write opens none, and the summary counts none for them. The
// refusal comes from the real tools on both backends, as Codex hands it to the run tracker.

import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {RunTracker} from '../../source/codex/tracker.js';
import {BACKENDS, type Backend} from '../contract/backends.js';
import {notePgOff} from '../support/pg.js';
import {callerFor, connectInProcess, openMcpStore} from './fixtures.js';

describe.each(BACKENDS)('run summary follow-ups on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	beforeAll(() => backend.setUp());
	afterAll(() => backend.tearDown());

	it('counts only the refused fields that opened a follow-up: not an unknown key, not a formula', async () => {
		const test = await openMcpStore(backend, 3);
		const session = await connectInProcess(test.store);
		try {
			const [item] = (await test.store.listPage('bugs')).items;
			const args = {record_channel_id: 'bugs', item_id: item!.id, values: {points: 99, colour: 'red', age_days: 3}, expected_version: item!.version, idempotency_key: 'k-summary'};
			const result = await callerFor(session.client)('edit_record_item', args);
			expect(result.isError).toBe(true);
			const tracker = new RunTracker();
			// An mcp_tool_call item as `codex exec --json` reports it.
			tracker.apply({type: 'item.completed', item: {id: 'call_1', type: 'mcp_tool_call', server: 'sift', tool: 'edit_record_item', arguments: args, result: {content: result.content, structured_content: result.structuredContent ?? null}, error: null, status: 'failed'}});
			const opened = await test.store.listFollowUps({itemId: item!.id});
			expect(opened.map(followup => followup.key)).toEqual(['points']);
			expect([tracker.rejections, tracker.followupsOpened]).toEqual([1, opened.length]);
		} finally {
			await session.close();
			await test.close();
		}
	});
});
