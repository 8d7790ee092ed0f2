// The sync engine on both backends (docs/architecture.md#the-sync-engine): every write path that
// is not the engine's own queues its synced fields in the write's transaction; a pull merges each
// field three ways against its base (only ours, only theirs, both the same, both different, sets
// per element); the push journal is exactly-once; a person resolves conflicts; unlink drops the
// sync state and keeps the items; an import's upsert over a person's change is a conflict too.

import {describe, expect, it} from 'vitest';
import type {AsyncStore, RemoteRecord} from '../../store/contract.js';
import {notePgOff} from '../support/pg.js';
import {agent, human} from '../store/helpers.js';
import {BACKENDS, kitStore, refusalOf, type Backend} from './backends.js';
import {storesOn} from './backends.js';
import {raceChannel} from '../store/workers/race.js';
import {runEditor} from '../store/workers/launch.js';
import {waitUntil} from '../support/wait.js';

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-02T10:00:00.000Z';
const T2 = '2026-03-03T10:00:00.000Z';

const LINK = {channel_id: 'kit', tracker: 'github' as const, remote: 'acme/app', key_field: 'code', fields: [
	{key: 'title', remote: 'title', kind: 'scalar' as const},
	{key: 'status', remote: 'state', kind: 'scalar' as const},
	{key: 'tags', remote: 'labels', kind: 'set' as const},
]};

const remote = (id: string, values: Record<string, unknown>, updatedAt = T0, extra: Partial<RemoteRecord> = {}): RemoteRecord => ({remote_id: id, values, created_at: T0, updated_at: updatedAt, ...extra});

describe.each(BACKENDS)('sync engine on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const {keep} = storesOn(backend);

	/** A kit store linked to the tracker, with issue 7 pulled in (title, status new, tags [ui]). */
	async function linked(): Promise<{store: AsyncStore; id: string}> {
		const store = await kitStore(backend);
		keep(store);
		await store.sync.link(LINK);
		const outcome = await store.sync.applyRemote('kit', [remote('7', {title: 'Crash', status: 'new', tags: ['ui']})]);
		expect(outcome).toMatchObject({created: 1, updated: 0, conflicts: 0});
		const id = (await store.findItemsNamed('kit', '7'))[0]!.item_id;
		return {store, id};
	}

	const valuesOf = async (store: AsyncStore, id: string) => (await store.readItem('kit', id)).values;
	const entries = async (store: AsyncStore) => (await store.sync.outbox('kit')).map(entry => ({field: entry.field, base: entry.base, value: entry.value, state: entry.state, remote_id: entry.remote_id}));

	it('a pull creates items at the tracker\'s times, evented as the sync actor, and queues nothing', async () => {
		const {store, id} = await linked();
		const item = await store.readItem('kit', id);
		expect(item).toMatchObject({created_at: T0, updated_at: T0, values: {code: '7', title: 'Crash', status: 'new', tags: ['ui']}});
		const {events} = await store.pollEvents('kit');
		expect(events.at(-1)).toMatchObject({type: 'item.created', actor: {kind: 'sync'}});
		expect(await store.sync.outbox('kit')).toEqual([]);
		expect(await store.sync.status('kit')).toMatchObject({pending: 0, held: 0, conflicts: 0, local_only: expect.arrayContaining(['summary', 'points']) as unknown});
	});

	it('a person\'s edit queues its synced fields with the base, local fields stay local', async () => {
		const {store, id} = await linked();
		await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Crash on start', points: 3}, actor: human});
		expect(await entries(store)).toEqual([{field: 'title', base: 'Crash', value: 'Crash on start', state: 'pending', remote_id: '7'}]);
		// A second edit updates the one entry; back at the base, nothing is left to send.
		await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Crash!'}, actor: human});
		expect(await entries(store)).toEqual([{field: 'title', base: 'Crash', value: 'Crash!', state: 'pending', remote_id: '7'}]);
		await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Crash'}, actor: human});
		expect(await entries(store)).toEqual([]);
	});

	it('an edit that rolls back leaves no outbox entry', async () => {
		const {store, id} = await linked();
		const refused = await refusalOf(() => store.editItem({channelId: 'kit', itemId: id, values: {title: 'Crash on start', points: 99}, actor: human}));
		expect(refused.error).toBe('validation_failed');
		const stale = await refusalOf(() => store.editItem({channelId: 'kit', itemId: id, values: {title: 'Crash on start'}, actor: human, expectedVersion: 99}));
		expect(stale.error).toBe('version_conflict');
		expect(await store.sync.outbox('kit')).toEqual([]);
	});

	it('every write path queues: create, agent edit, accepted proposal, revert, upsert', async () => {
		const {store, id} = await linked();
		// Not on the tracker yet: no remote id.
		await store.createItem('kit', {title: 'New here'}, human);
		await store.runs.start({id: 'run-a', channelId: 'kit', itemIds: [], instruction: 'x', startedAt: T1, logPath: null, mode: 'apply'});
		await store.editItem({channelId: 'kit', itemId: id, values: {status: 'in_progress'}, actor: agent('run-a')});
		let fields = (await entries(store)).map(entry => `${entry.remote_id}:${entry.field}=${JSON.stringify(entry.value)}`);
		expect(fields).toEqual(['null:title="New here"', '7:status="in_progress"']);
		// A revert of the run sets status back: the entry is back at its base, nothing to send.
		await store.runs.revert('run-a');
		fields = (await entries(store)).map(entry => `${entry.field}=${JSON.stringify(entry.value)}`);
		expect(fields).toEqual(['title="New here"']);
		await store.runs.start({id: 'run-p', channelId: 'kit', itemIds: [], instruction: 'x', startedAt: T1, logPath: null, mode: 'propose'});
		const proposed = await store.editItem({channelId: 'kit', itemId: id, values: {tags: ['api', 'ui']}, actor: agent('run-p')});
		expect((await entries(store)).map(entry => entry.field)).toEqual(['title']);
		await store.proposals.accept({ids: [proposed.proposal_id!]});
		expect((await entries(store)).find(entry => entry.field === 'tags')).toMatchObject({base: ['ui'], value: ['api', 'ui']});
		const upserted = await store.upsertItems({channelId: 'kit', key: 'code', rows: [{values: {code: '7', title: 'From dump'}, at: 'row 1'}]});
		expect(upserted).toMatchObject({updated: 1});
		expect((await entries(store)).find(entry => entry.field === 'title' && entry.remote_id === '7')).toMatchObject({value: 'From dump'});
	});

	it('pull, three ways: only theirs changed is taken; only ours stays queued; both the same agree', async () => {
		const {store, id} = await linked();
		await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Ours'}, actor: human});
		// Theirs changed status only: taken; title unchanged there: our change stays queued.
		let outcome = await store.sync.applyRemote('kit', [remote('7', {title: 'Crash', status: 'in_progress', tags: ['ui']}, T1)]);
		expect(outcome).toMatchObject({updated: 1, conflicts: 0});
		const item = await store.readItem('kit', id);
		expect(item).toMatchObject({updated_at: T1, values: {title: 'Ours', status: 'in_progress'}});
		expect(await entries(store)).toEqual([{field: 'title', base: 'Crash', value: 'Ours', state: 'pending', remote_id: '7'}]);
		// Both now say the same: agreed, the entry is dropped, nothing written.
		outcome = await store.sync.applyRemote('kit', [remote('7', {title: 'Ours', status: 'in_progress', tags: ['ui']}, T2)]);
		expect(outcome).toMatchObject({updated: 0, unchanged: 1, conflicts: 0});
		expect(await store.sync.outbox('kit')).toEqual([]);
		// The base moved: a later change of theirs is taken.
		await store.sync.applyRemote('kit', [remote('7', {title: 'Theirs', status: 'in_progress', tags: ['ui']}, T2)]);
		expect((await valuesOf(store, id)).title).toBe('Theirs');
	});

	it('pull, both changed a scalar differently: a sync_conflict follow-up, the entry held, nothing written', async () => {
		const {store, id} = await linked();
		await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Ours'}, actor: human});
		const outcome = await store.sync.applyRemote('kit', [remote('7', {title: 'Theirs', status: 'new', tags: ['ui']}, T1)]);
		expect(outcome).toMatchObject({conflicts: 1, updated: 0});
		expect((await valuesOf(store, id)).title).toBe('Ours');
		expect(await store.sync.outbox('kit')).toEqual([]);
		const [conflict] = await store.listFollowUps({channelId: 'kit', status: 'open'});
		expect(conflict).toMatchObject({kind: 'sync_conflict', key: 'title', item_id: id, base: 'Crash', ours: 'Ours', theirs: 'Theirs'});
		expect(await store.sync.status('kit')).toMatchObject({pending: 0, held: 1, conflicts: 1});
		// A person's further edit does not release it, nor close the conflict.
		await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Ours again'}, actor: human});
		expect(await store.sync.status('kit')).toMatchObject({pending: 0, held: 1, conflicts: 1});
	});

	it('sets merge per element: added on either side kept, removed on one side and kept on the other is removed', async () => {
		const store = await kitStore(backend);
		keep(store);
		await store.sync.link(LINK);
		await store.sync.applyRemote('kit', [remote('8', {title: 'Tags', tags: ['ui', 'api']})]);
		const id = (await store.findItemsNamed('kit', '8'))[0]!.item_id;
		// We remove api; they remove ui (and keep api): both removals hold, no conflict.
		await store.editItem({channelId: 'kit', itemId: id, values: {tags: ['ui']}, actor: human});
		const outcome = await store.sync.applyRemote('kit', [remote('8', {title: 'Tags', tags: ['api']}, T1)]);
		expect(outcome.conflicts).toBe(0);
		expect((await valuesOf(store, id)).tags ?? null).toBeNull();
		// Ours (empty) differs from theirs (api): queued against the new base.
		expect(await entries(store)).toEqual([{field: 'tags', base: ['api'], value: null, state: 'pending', remote_id: '8'}]);
		// We add ui, they add nothing: our addition is queued; an element they add merges in.
		await store.sync.markSent((await store.sync.outbox('kit'))[0]!.id, null);
		await store.editItem({channelId: 'kit', itemId: id, values: {tags: ['ui']}, actor: human});
		await store.sync.applyRemote('kit', [remote('8', {title: 'Tags', tags: ['api']}, T2)]);
		expect((await valuesOf(store, id)).tags).toEqual(['api', 'ui']);
		expect(await entries(store)).toEqual([{field: 'tags', base: ['api'], value: ['api', 'ui'], state: 'pending', remote_id: '8'}]);
		expect(await store.listFollowUps({channelId: 'kit', status: 'open'})).toEqual([]);
	});

	it('the journal is exactly-once: sending survives, markSent is idempotent, a newer value waits', async () => {
		const {store, id} = await linked();
		await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Sent once'}, actor: human});
		const [entry] = await store.sync.outbox('kit');
		await store.sync.markSending([entry!.id]);
		// A crash here: the entry is still listed, as 'sending', for the adapter to check first.
		expect(await entries(store)).toEqual([{field: 'title', base: 'Crash', value: 'Sent once', state: 'sending', remote_id: '7'}]);
		await store.sync.markSent(entry!.id, 'Sent once');
		await store.sync.markSent(entry!.id, 'Sent once');
		expect(await store.sync.outbox('kit')).toEqual([]);
		// The base moved to what was sent: the tracker echoing it back changes nothing.
		expect(await store.sync.applyRemote('kit', [remote('7', {title: 'Sent once', status: 'new', tags: ['ui']}, T1)])).toMatchObject({unchanged: 1});
		// A person's edit while the request was out: after the confirmation the newer value waits.
		await store.editItem({channelId: 'kit', itemId: id, values: {title: 'First'}, actor: human});
		const [next] = await store.sync.outbox('kit');
		await store.sync.markSending([next!.id]);
		await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Second'}, actor: human});
		await store.sync.markSent(next!.id, 'First');
		expect(await entries(store)).toEqual([{field: 'title', base: 'First', value: 'Second', state: 'pending', remote_id: '7'}]);
	});

	it('markFailed: pending again with the error, or held with a refused follow-up', async () => {
		const {store, id} = await linked();
		await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Nope'}, actor: human});
		const [entry] = await store.sync.outbox('kit');
		await store.sync.markSending([entry!.id]);
		await store.sync.markFailed(entry!.id, 'HTTP 502');
		expect(await store.sync.outbox('kit')).toEqual([expect.objectContaining({state: 'pending', last_error: 'HTTP 502', attempts: 1})]);
		await store.sync.markFailed(entry!.id, 'title too long', {followUp: true});
		expect(await store.sync.outbox('kit')).toEqual([]);
		expect(await store.listFollowUps({channelId: 'kit', status: 'open'})).toEqual([expect.objectContaining({kind: 'refused', key: 'title', attempted: 'Nope', message: expect.stringContaining('title too long') as unknown})]);
		// A new edit of the field releases it.
		await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Shorter'}, actor: human});
		expect(await entries(store)).toEqual([{field: 'title', base: 'Crash', value: 'Shorter', state: 'pending', remote_id: '7'}]);
	});

	for (const [choice, expected, queued] of [
		[{side: 'ours'}, 'Ours', 'Ours'],
		[{side: 'theirs'}, 'Theirs', undefined],
		[{value: 'Both'}, 'Both', 'Both'],
	] as const) {
		it(`resolveConflict ${JSON.stringify(choice)}: writes locally as a person, queues against theirs, closes the follow-up`, async () => {
			const {store, id} = await linked();
			await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Ours'}, actor: human});
			await store.sync.applyRemote('kit', [remote('7', {title: 'Theirs', status: 'new', tags: ['ui']}, T1)]);
			const [conflict] = await store.listFollowUps({channelId: 'kit', status: 'open'});
			const resolved = await store.sync.resolveConflict(conflict!.id, choice);
			expect(resolved).toMatchObject({status: 'resolved', resolution: 'set'});
			expect((await valuesOf(store, id)).title).toBe(expected);
			expect(await entries(store)).toEqual(queued === undefined ? [] : [{field: 'title', base: 'Theirs', value: queued, state: 'pending', remote_id: '7'}]);
			expect(await store.sync.status('kit')).toMatchObject({held: 0, conflicts: 0});
			expect((await refusalOf(() => store.sync.resolveConflict(conflict!.id, choice))).error).toBe('invalid_argument');
		});
	}

	it('unlink drops the link, bases and outbox; the items stay', async () => {
		const {store, id} = await linked();
		await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Local'}, actor: human});
		await store.sync.unlink('kit');
		expect(await store.sync.links()).toEqual([]);
		expect((await valuesOf(store, id)).title).toBe('Local');
		expect((await refusalOf(() => store.sync.outbox('kit'))).error).toBe('not_found');
		// Edits no longer queue, and linking again starts without bases.
		await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Later'}, actor: human});
		await store.sync.link(LINK);
		expect(await store.sync.outbox('kit')).toEqual([]);
	});

	it('link checks the channel, saveState keeps the adapter\'s cursor', async () => {
		const store = await kitStore(backend);
		keep(store);
		expect((await refusalOf(() => store.sync.link({...LINK, key_field: 'title'}))).error).toBe('invalid_argument');
		expect((await refusalOf(() => store.sync.link({...LINK, fields: [{key: 'nope', remote: 'x', kind: 'scalar'}]}))).error).toBe('invalid_argument');
		expect((await refusalOf(() => store.sync.link({...LINK, fields: [{key: 'title', remote: 'x', kind: 'set'}]}))).error).toBe('invalid_argument');
		const link = await store.sync.link(LINK);
		expect(link).toMatchObject({channel_id: 'kit', state: {}, last_pull_at: null});
		await store.sync.saveState('kit', {since: T1}, {pulled: T2});
		expect(await store.sync.getLink('kit')).toMatchObject({state: {since: T1}, last_pull_at: T2, last_push_at: null});
		expect((await refusalOf(() => store.sync.link({...LINK, remote: 'other/repo'}))).error).toBe('invalid_argument');
	});

	it('a record gone from the tracker stops syncing; comments replace the stored ones', async () => {
		const {store, id} = await linked();
		const comments = [{remote_id: 'c1', author: 'ann', body: 'seen', created_at: T1, updated_at: T1}];
		expect(await store.sync.applyRemote('kit', [remote('7', {title: 'Crash', status: 'new', tags: ['ui']}, T0, {comments})])).toMatchObject({comments: 1, unchanged: 1});
		await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Mine'}, actor: human});
		expect(await store.sync.applyRemote('kit', [remote('7', {}, T1, {gone: 'deleted'})])).toMatchObject({gone: 1});
		expect(await store.sync.outbox('kit')).toEqual([]);
		expect((await valuesOf(store, id)).title).toBe('Mine');
	});

	it('a pull is all or nothing: a malformed or unfitting record writes nothing of it', async () => {
		const {store} = await linked();
		const before = await store.latestSequence('kit');
		expect((await refusalOf(() => store.sync.applyRemote('kit', [remote('9', {title: 'Fine'}), {remote_id: '', values: {}} as unknown as RemoteRecord]))).error).toBe('invalid_argument');
		const unfitting = await refusalOf(() => store.sync.applyRemote('kit', [remote('9', {title: 'Fine'}), remote('10', {title: 'x', status: 'closed'})]));
		expect(unfitting).toMatchObject({error: 'invalid_argument', message: expect.stringContaining('status') as unknown});
		expect(await store.latestSequence('kit')).toBe(before);
		expect(await store.findItemsNamed('kit', '9')).toEqual([]);
		expect((await refusalOf(() => store.sync.applyRemote('nope', []))).error).toBe('not_found');
	});

	it('a writer SIGKILLed mid-write leaves its edit and its outbox entry both or neither', async () => {
		const store = await backend.open();
		keep(store);
		const location = backend.lastLocation();
		const channel = {...raceChannel, fields: [...raceChannel.fields, {key: 'ref', label: 'Ref', type: 'text', is_required: false, is_unique: true, config: {}}]};
		await store.importChannel({channel, items: [0, 1, 2].map(index => ({values: {title: `item ${index}`, counter: 0, a: 'start', b: 'start', ref: `R${index}`}}))});
		const ids = (await store.listPage('race')).items.map(item => item.id);
		await store.sync.link({channel_id: 'race', tracker: 'github', remote: 'acme/race', key_field: 'ref', fields: [{key: 'a', remote: 'a', kind: 'scalar'}, {key: 'b', remote: 'b', kind: 'scalar'}]});
		for (let round = 0; round < 4; round++) {
			// Killed while it writes without pause, after a different number of commits each round.
			const result = await runEditor(['churn', location, ids.join(',')], control => {
				void waitUntil(() => control.stdout().split('edit\n').length > 2 + round * 3, 'some edits').then(() => control.kill(), () => control.kill());
			});
			expect(result.signal, result.stdout + result.stderr).toBe('SIGKILL');
			const entries = await store.sync.outbox('race');
			for (const id of ids) {
				const item = await store.readItem('race', id);
				const queued = Object.fromEntries(entries.filter(entry => entry.item_id === id).map(entry => [entry.field, entry.value]));
				// Every committed edit changed a and b: its entries hold exactly the values it wrote.
				expect(queued).toEqual(item.version === 1 ? {} : {a: item.values.a, b: item.values.b});
			}
		}
	}, 120_000);

	describe('an import\'s upsert over a person\'s change', () => {
		const row = (values: Record<string, unknown>, at = 'row 1') => ({values: {code: 'A1', ...values}, at});
		const dump = (store: AsyncStore, values: Record<string, unknown>) => store.upsertItems({channelId: 'kit', key: 'code', rows: [row(values)]});

		async function imported(): Promise<{store: AsyncStore; id: string}> {
			const store = await kitStore(backend, [{values: {code: 'A1', title: 'One', status: 'new', tags: ['ui']}}]);
			keep(store);
			return {store, id: (await store.findItemsNamed('kit', 'A1'))[0]!.item_id};
		}

		it('a field both changed keeps the person\'s value and opens a sync_conflict; a field only the file changed is written', async () => {
			const {store, id} = await imported();
			await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Mine'}, actor: human});
			const result = await dump(store, {title: 'From file', status: 'in_progress', tags: ['ui']});
			expect(result).toMatchObject({created: 0, updated: 1, unchanged: 0, conflicts: 1, refused: 0, written: true});
			expect(await valuesOf(store, id)).toMatchObject({title: 'Mine', status: 'in_progress'});
			expect(await store.listFollowUps({channelId: 'kit', status: 'open'})).toEqual([expect.objectContaining({kind: 'sync_conflict', key: 'title', base: 'One', ours: 'Mine', theirs: 'From file'})]);
		});

		it('a field only the person changed stays theirs when the file still has the old value', async () => {
			const {store, id} = await imported();
			await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Mine', tags: ['ui', 'api']}, actor: human});
			expect(await dump(store, {title: 'One', tags: ['ui']})).toMatchObject({updated: 0, unchanged: 1, conflicts: 0});
			expect(await valuesOf(store, id)).toMatchObject({title: 'Mine', tags: ['ui', 'api']});
			expect(await store.listFollowUps({channelId: 'kit', status: 'open'})).toEqual([]);
		});

		it('sets merge per element; the person and the file agreeing is no conflict', async () => {
			const {store, id} = await imported();
			await store.editItem({channelId: 'kit', itemId: id, values: {tags: ['ui', 'api'], title: 'Same'}, actor: human});
			// The file drops ui and agrees on the title: api (ours) stays, ui (removed there) goes.
			expect(await dump(store, {title: 'Same', tags: null})).toMatchObject({updated: 1, conflicts: 0});
			expect((await valuesOf(store, id)).tags).toEqual(['api']);
			// Agreed: a later change of the title in the file is taken.
			expect(await dump(store, {title: 'Next', tags: null})).toMatchObject({conflicts: 0});
			expect((await valuesOf(store, id)).title).toBe('Next');
		});

		it('resolved as ours, the same file again is no new conflict; a newer file is', async () => {
			const {store, id} = await imported();
			await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Mine'}, actor: human});
			await dump(store, {title: 'From file'});
			const [conflict] = await store.listFollowUps({channelId: 'kit', status: 'open'});
			await store.sync.resolveConflict(conflict!.id, {side: 'ours'});
			expect(await dump(store, {title: 'From file'})).toMatchObject({conflicts: 0, unchanged: 1});
			expect((await valuesOf(store, id)).title).toBe('Mine');
			expect(await dump(store, {title: 'Newer file'})).toMatchObject({conflicts: 1});
			const [again] = await store.listFollowUps({channelId: 'kit', status: 'open'});
			await store.sync.resolveConflict(again!.id, {side: 'theirs'});
			expect((await valuesOf(store, id)).title).toBe('Newer file');
			expect(await store.sync.outbox('kit').catch(() => 'not linked')).toBe('not linked');
		});

		it('a dry run opens nothing', async () => {
			const {store, id} = await imported();
			await store.editItem({channelId: 'kit', itemId: id, values: {title: 'Mine'}, actor: human});
			expect(await store.upsertItems({channelId: 'kit', key: 'code', rows: [row({title: 'From file'})], dryRun: true})).toMatchObject({conflicts: 1, written: false});
			expect(await store.listFollowUps({channelId: 'kit'})).toEqual([]);
		});
	});
});
