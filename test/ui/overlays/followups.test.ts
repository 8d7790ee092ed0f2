// The followups slice (source/ui/overlays/followups.ts) through the root reducer: each of its events.
// CASES is typed over the slice's events, so an event added to it without a test does not compile.

import {describe, expect, it} from 'vitest';
import {FOLLOWUPS} from '../../../source/ui/features/followups/slice.js';
import {reduce} from '../../../source/ui/reducer.js';
import {followUp, item, listed, kinds, effect, plain, queued, run1} from './fixtures.js';

const CASES: {[T in keyof typeof FOLLOWUPS.events]: () => void} = {
	openQueue() {
		const opening = reduce(listed(), {type: 'openQueue'});
		expect(kinds(opening)).toEqual(['loadQueue']);
		expect(opening.state.awaiting).toBe('queue');
	},
	queueLoaded() {
		const opened = reduce(reduce(listed(), {type: 'openQueue'}).state, {type: 'queueLoaded', followUps: [followUp(1, 300)]});
		expect(opened.state.overlay).toMatchObject({kind: 'queue', index: 0});
		expect(effect(opened, 'readQueueEntry')?.followUp.id).toBe(1);
		const empty = reduce(reduce(listed(), {type: 'openQueue'}).state, {type: 'queueLoaded', followUps: []});
		expect(empty.state.message).toEqual({text: 'No open follow-ups.', tone: 'ok'});
	},
	queueEntry() {
		expect(queued().queue.entry?.item?.version).toBe(2);
		// Not in the queue any more: ignored.
		expect(reduce(listed(), {type: 'queueEntry', entry: null}).state.queue.entry).toBeNull();
	},
	followUpDismissed() {
		const asking = reduce(queued(), {type: 'queueDismiss'}).state;
		const done = reduce(asking, {type: 'followUpDismissed', ok: true, left: [followUp(2, 299)]});
		expect(done.state.message?.text).toBe('Follow-up dismissed · 1 left');
		expect(done.state.overlay).toMatchObject({confirmDismiss: false, index: 0});
		const failed = reduce(asking, {type: 'followUpDismissed', ok: false, message: 'gone'});
		expect(failed.state.overlay).toMatchObject({confirmDismiss: false, problem: 'gone'});
	},
};

describe('the followups slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);
});

describe('a date typed in the queue (defect 2)', () => {
	// Wednesday 2026-01-07, local time: friday is 2026-01-09.
	const at = new Date(2026, 0, 7, 12).getTime();
	const dueQueue = () => {
		const due = {...followUp(3, 300), key: 'due', attempted: 'Friday', message: 'due is a date field', allowed: undefined};
		let state = reduce(listed(), {type: 'openQueue'}).state;
		state = reduce(state, {type: 'queueLoaded', followUps: [due]}).state;
		return reduce(state, {type: 'queueEntry', entry: {followUp: due, item: item(300, 2)}, at}).state;
	};

	it('opens empty, not holding the tried text, and takes friday as the field edit does', () => {
		const typing = reduce(dueQueue(), {type: 'queueType'}).state;
		expect(typing.overlay).toMatchObject({typing: {value: '', pos: 0}});
		const typed = run1(typing, ...[...'friday'].map(input => ({type: 'type' as const, input, key: plain})));
		expect(typed.state.overlay).toMatchObject({typing: {value: 'friday'}});
		const submitted = reduce(typed.state, {type: 'submit'});
		expect(effect(submitted, 'edit')?.request).toMatchObject({key: 'due', value: '2026-01-09', origin: 'queue'});
	});

	it('refuses words that are no date in the queue, naming the forms', () => {
		const typed = run1(reduce(dueQueue(), {type: 'queueType'}).state, ...[...'someday'].map(input => ({type: 'type' as const, input, key: plain})));
		const submitted = reduce(typed.state, {type: 'submit'});
		expect(submitted.effects).toEqual([]);
		expect(submitted.state.overlay).toMatchObject({problem: expect.stringContaining('not a date: "someday"') as string});
	});
});
