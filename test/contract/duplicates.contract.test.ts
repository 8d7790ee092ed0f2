// duplicate_of on both backends alike: a relation of a channel to itself names the record an item
// duplicates; it must name an existing other item of the channel, an agent's invented id opens a
// follow-up, and setting it sets the status the field's config names in the same edit. A person's
// "not a duplicate" mark is kept both ways, evented, and leaves the pair out of similarItems.

import {describe, expect, it} from 'vitest';
import type {AsyncStore} from '../../store/api.js';
import {notePgOff} from '../support/pg.js';
import {allEvents, BACKENDS, refusalOf, storesOn, type Backend} from './backends.js';

export const DUPLICATE_CHANNEL = {
	id: 'issues', name: 'Issues', fields: [
		{key: 'ticket', label: 'Ticket', type: 'text', is_unique: true},
		{key: 'title', label: 'Title', type: 'text'},
		{key: 'body', label: 'Body', type: 'text', config: {long: true}},
		{key: 'status', label: 'Status', type: 'select', config: {options: [{value: 'open', label: 'Open'}, {value: 'duplicate', label: 'Duplicate'}]}},
		{key: 'duplicate_of', label: 'Duplicate of', type: 'relation', config: {channel_id: 'issues', duplicate_status: 'duplicate'}},
	],
};

describe.each(BACKENDS)('duplicate_of on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const {fresh} = storesOn(backend);

	async function issues(): Promise<{store: AsyncStore; ids: string[]}> {
		const store = await fresh();
		await store.importChannel({channel: DUPLICATE_CHANNEL, items: ['A', 'B', 'C'].map(ticket => ({values: {ticket: `T-${ticket}`, title: `about ${ticket}`, status: 'open'}}))});
		const page = await store.listPage('issues', {limit: 10});
		const byTicket = new Map(page.items.map(item => [item.preview.ticket as string, item.id]));
		return {store, ids: ['T-A', 'T-B', 'T-C'].map(ticket => byTicket.get(ticket)!)};
	}

	it('setting duplicate_of sets the named status in the same edit, one event with both changes', async () => {
		const {store, ids: [a, b]} = await issues();
		const result = await store.editItem({channelId: 'issues', itemId: a!, values: {duplicate_of: b}, actor: {kind: 'human'}});
		expect(result.item.values).toMatchObject({duplicate_of: b, status: 'duplicate'});
		const last = (await allEvents(store, 'issues')).at(-1)!;
		expect(last.changes).toEqual({duplicate_of: {from: null, to: b}, status: {from: 'open', to: 'duplicate'}});
		// A status given with it wins; clearing the relation leaves the status alone.
		await store.editItem({channelId: 'issues', itemId: a!, values: {duplicate_of: null}, actor: {kind: 'human'}});
		expect((await store.readItem('issues', a!)).values).toMatchObject({duplicate_of: null, status: 'duplicate'});
		await store.editItem({channelId: 'issues', itemId: a!, values: {duplicate_of: b, status: 'open'}, actor: {kind: 'human'}});
		expect((await store.readItem('issues', a!)).values).toMatchObject({duplicate_of: b, status: 'open'});
	});

	it('refuses the item itself and an id outside the channel with the allowed shape; an agent gets a follow-up each', async () => {
		const {store, ids: [a, b]} = await issues();
		await store.importChannel({channel: {id: 'other', name: 'Other', fields: [{key: 'title', label: 'Title', type: 'text'}]}, items: [{values: {title: 'elsewhere'}}]});
		const elsewhere = (await store.listPage('other')).items[0]!.id;
		const before = await store.readItem('issues', a!);
		const self = await refusalOf(() => store.editItem({channelId: 'issues', itemId: a!, values: {duplicate_of: a}, actor: {kind: 'agent', run_id: 'run-1'}}));
		expect(self).toEqual({error: 'validation_failed', fields: [{key: 'duplicate_of', message: `values.duplicate_of must be the id of another item in channel issues, not the item itself, got "${a}"`}]});
		for (const invented of [elsewhere, 'k1234567890', 42]) {
			const refusal = await refusalOf(() => store.editItem({channelId: 'issues', itemId: b!, values: {duplicate_of: invented}, actor: {kind: 'agent', run_id: 'run-1'}}));
			expect(refusal).toMatchObject({error: 'validation_failed', fields: [{key: 'duplicate_of', message: expect.stringContaining('must be the id of an existing item in channel issues')}]});
		}

		expect(await store.readItem('issues', a!)).toEqual(before);
		const followUps = await store.listFollowUps({channelId: 'issues'});
		expect(followUps.map(followUp => [followUp.item_id, followUp.key, followUp.status])).toEqual(expect.arrayContaining([[a, 'duplicate_of', 'open'], [b, 'duplicate_of', 'open']]));
		// The status the relation would set is not written either: nothing of a refused edit lands.
		expect((await store.readItem('issues', b!)).values.status).toBe('open');
	});

	it('refuses a duplicate_status that is no option, or on a relation into another channel', async () => {
		const store = await fresh();
		const badOption = structuredClone(DUPLICATE_CHANNEL);
		badOption.fields[4]!.config = {channel_id: 'issues', duplicate_status: 'dupe'};
		expect(await refusalOf(() => store.importChannel({channel: badOption, items: []}))).toMatchObject({error: 'invalid_schema', message: expect.stringContaining('"dupe" is not an option of status')});
		const elsewhere = structuredClone(DUPLICATE_CHANNEL);
		elsewhere.fields[4]!.config = {channel_id: 'other', duplicate_status: 'duplicate'};
		expect(await refusalOf(() => store.importChannel({channel: elsewhere, items: []}))).toMatchObject({error: 'invalid_schema', message: expect.stringContaining('needs a relation to its own channel')});
	});

	it('"not a duplicate" is kept both ways, evented once, and leaves the pair out of similarItems with the page still filled', async () => {
		const store = await fresh();
		const text = (n: number) => `libcsv segfault exporting merged cells ${n % 2 === 0 ? 'spreadsheet' : 'workbook'} crash`;
		await store.importChannel({channel: DUPLICATE_CHANNEL, items: [
			...Array.from({length: 5}, (_, n) => ({values: {ticket: `T-${n}`, title: `export crash ${n}`, body: text(n)}})),
			...Array.from({length: 10}, (_, n) => ({values: {ticket: `F-${n}`, title: `note ${n}`, body: `the list shows fine ${n}`}})),
		]});
		const page = await store.listPage('issues', {limit: 50});
		const id = (ticket: string) => page.items.find(item => item.preview.ticket === ticket)!.id;
		const before = await store.similarItems('issues', id('T-0'), {limit: 3});
		expect(before.items.map(hit => hit.preview.ticket)).toHaveLength(3);
		const first = before.items[0]!.id;
		const marked = await store.markNotDuplicate('issues', id('T-0'), first);
		expect(marked).toMatchObject({ok: true, item_id: id('T-0'), other_id: first});
		const event = (await allEvents(store, 'issues')).at(-1)!;
		expect(event).toMatchObject({sequence: marked.sequence, type: 'not_duplicate.marked', item_id: id('T-0'), actor: {kind: 'human'}, changes: {not_duplicate_of: {from: null, to: first}}});
		// Marking again changes nothing and appends nothing.
		expect((await store.markNotDuplicate('issues', first, id('T-0'))).sequence).toBe(marked.sequence);
		expect(await store.latestSequence('issues')).toBe(marked.sequence);
		expect(await store.notDuplicatesOf('issues', id('T-0'))).toEqual([first]);
		expect(await store.notDuplicatesOf('issues', first)).toEqual([id('T-0')]);

		const after = await store.similarItems('issues', id('T-0'), {limit: 3});
		expect(after.items.map(hit => hit.id)).not.toContain(first);
		expect(after.items).toHaveLength(3);
		expect(after.items.slice(0, 2).map(hit => hit.id)).toEqual(before.items.slice(1, 3).map(hit => hit.id));
		expect((await store.similarItems('issues', first, {limit: 20})).items.map(hit => hit.id)).not.toContain(id('T-0'));

		expect(await refusalOf(() => store.markNotDuplicate('issues', first, first))).toMatchObject({error: 'invalid_argument', message: expect.stringContaining('another item')});
		expect(await refusalOf(() => store.markNotDuplicate('issues', first, 'nonsense'))).toMatchObject({error: 'invalid_argument'});
		const missing = first.replace(/.$/, last => (last === 'z' ? 'y' : 'z'));
		expect(await refusalOf(() => store.markNotDuplicate('issues', first, missing))).toMatchObject({error: 'not_found'});
		expect(await store.latestSequence('issues')).toBe(marked.sequence);
	});

	it('a proposal keeps the confidence its agent gave (null when none); one outside 0..1 is refused before anything is read', async () => {
		const {store, ids: [a, b, c]} = await issues();
		const propose = (itemId: string, values: Record<string, unknown>, confidence?: number) => store.editItem({channelId: 'issues', itemId, values, actor: {kind: 'agent'}, mode: 'propose', reason: 'same report', ...(confidence === undefined ? {} : {confidence})});
		const sure = await propose(a!, {duplicate_of: b}, 0.93);
		const unsure = await propose(c!, {title: 'retitled'});
		const listed = await store.proposals.list({channelId: 'issues'});
		expect(listed.map(proposal => [proposal.id, proposal.confidence])).toEqual([[sure.proposal_id, 0.93], [unsure.proposal_id, null]]);
		expect(listed[0]!.values).toEqual({duplicate_of: b, status: 'duplicate'});
		for (const bad of [1.5, -0.1, Number.NaN]) {
			expect(await refusalOf(() => propose(b!, {title: 'x'}, bad))).toMatchObject({error: 'invalid_argument', message: expect.stringContaining('confidence must be a number from 0 to 1')});
		}

		expect(await store.proposals.countOpen('issues')).toBe(2);
	});

	it('a run counts how many of its proposals a person accepted and declined', async () => {
		const {store, ids: [a, b, c]} = await issues();
		await store.runs.start({id: 'run-dups', channelId: 'issues', itemIds: [], instruction: 'find duplicates', startedAt: new Date().toISOString(), logPath: null, mode: 'propose'});
		const propose = (itemId: string, values: Record<string, unknown>) => store.editItem({channelId: 'issues', itemId, values, actor: {kind: 'agent', run_id: 'run-dups'}, confidence: 0.8});
		const made = [await propose(a!, {duplicate_of: b}), await propose(b!, {title: 'one'}), await propose(c!, {title: 'two'})];
		expect(await store.runs.get('run-dups')).toMatchObject({accepted: 0, declined: 0});
		await store.proposals.accept({ids: [made[0]!.proposal_id!]});
		await store.proposals.decline([made[1]!.proposal_id!]);
		expect(await store.runs.get('run-dups')).toMatchObject({mode: 'propose', accepted: 1, declined: 1});
		expect((await store.runs.list()).find(run => run.id === 'run-dups')).toMatchObject({accepted: 1, declined: 1});
		expect((await store.readItem('issues', a!)).values).toMatchObject({duplicate_of: b, status: 'duplicate'});
	});
});
