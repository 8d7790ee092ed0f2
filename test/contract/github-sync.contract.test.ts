// The GitHub adapter, the engine loop and the store's sync engine together, on both backends,
// against the fake GitHub (every exchange checked against GitHub's OpenAPI document): a first pull
// into an empty channel, an idle re-pull that costs one 304, pushes GitHub shows, a conflict held
// on both sides, options grown for a new label, an entry a crash left 'sending' confirmed
// without a second write, and the duplicate relation closing an issue as a duplicate exactly once.

import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import type {AsyncStore} from '../../store/contract.js';
import {pullChannel, pushChannel, syncChannel} from '../../source/sync/engine-loop.js';
import {currentRemote, duplicateComment, GithubAdapter} from '../../source/sync/github/adapter.js';
import {GithubClient} from '../../source/sync/github/client.js';
import {channelForRepository} from '../../source/sync/github/connect.js';
import {githubLinkFields} from '../../source/sync/github/mapping.js';
import {SteppedClock} from '../support/clock.js';
import {FIXTURE_REPO, startFakeGithub, type FakeGithub} from '../support/fake-github.js';
import {notePgOff} from '../support/pg.js';
import {BACKENDS, storesOn, type Backend} from './backends.js';

const human = {kind: 'human'} as const;

describe.each(BACKENDS)('GitHub sync on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	storesOn(backend);
	let fake: FakeGithub;
	let store: AsyncStore;
	let adapter: GithubAdapter;
	let client: GithubClient;
	const notices: string[] = [];

	beforeEach(async () => {
		fake = await startFakeGithub();
		client = new GithubClient({token: fake.token, baseUrl: fake.url, clock: new SteppedClock(), writeSpacingMs: 0, retryBaseMs: 1});
		adapter = new GithubAdapter(client);
		store = await backend.open();
		await store.importChannel({channel: await channelForRepository(client, FIXTURE_REPO, 'rust'), items: []});
		const mapped = githubLinkFields(await store.getChannel('rust'));
		await store.sync.link({channel_id: 'rust', tracker: 'github', remote: FIXTURE_REPO, key_field: mapped.keyField, fields: mapped.fields, state: {since: null, etag: null, read_only: mapped.readOnly}});
		notices.length = 0;
	});

	afterEach(async () => {
		await store.close();
		await fake.stop();
		fake.assertClean();
	});

	const link = async () => (await store.sync.getLink('rust'))!;
	const pull = async () => pullChannel(store, adapter, await link(), {notice: message => notices.push(message)});
	const push = async () => pushChannel(store, adapter, await link());
	const itemOf = async (number: number) => {
		const [match] = await store.findItemsNamed('rust', String(number));
		return store.readItem('rust', match!.item_id);
	};

	it('pulls every issue into an empty channel: pull requests told apart, GitHub\'s times kept, comments', async () => {
		const outcome = await pull();
		expect(outcome).toMatchObject({created: 300, updated: 0, conflicts: 0, comments: 200});
		const item = await itemOf(27001);
		const issue = fake.issue(27001);
		expect(item).toMatchObject({created_at: issue.created_at, updated_at: issue.updated_at});
		expect(item.values).toMatchObject({number: 27001, title: issue.title, is_pull_request: true, author: issue.user.login});
		expect(await store.countMatches('rust', 'is_pull_request:true')).toBe(193);
		expect((await link()).last_pull_at).not.toBeNull();
	});

	it('an idle re-pull costs one 304 and changes nothing', async () => {
		await pull();
		await pull();
		const before = fake.requests.length;
		const outcome = await pull();
		expect(outcome).toMatchObject({created: 0, updated: 0, unchanged: 0, conflicts: 0});
		expect(fake.requests.slice(before)).toEqual([expect.objectContaining({status: 304})]);
	});

	it('pushes a label added and removed and a state change, one write each, and a re-pull agrees', async () => {
		fake.edit(27001, issue => {
			issue.labels = [fake.label('A-old')];
			issue.state = 'open';
			issue.state_reason = null;
			issue.closed_at = null;
		});
		await pull();
		const item = await itemOf(27001);
		expect(item.values).toMatchObject({labels: ['A-old'], state: 'open'});
		fake.label('A-new');
		await store.changeChannel('rust', {kind: 'add_option', key: 'labels', value: 'A-new'});
		await store.editItem({channelId: 'rust', itemId: item.id, values: {labels: ['A-new'], state: 'closed', state_reason: 'not_planned'}, actor: human});
		expect((await store.sync.outbox('rust')).map(entry => entry.field).sort()).toEqual(['labels', 'state', 'state_reason']);
		expect(await push()).toMatchObject({sent: 3, failed: 0});
		expect((fake.issue(27001).labels as Array<{name: string}>).map(label => label.name)).toEqual(['A-new']);
		expect(fake.issue(27001)).toMatchObject({state: 'closed', state_reason: 'not_planned'});
		expect(fake.writesTo(27001).map(write => write.change)).toEqual(['labels+A-new', 'labels-A-old', 'state']);
		expect(await store.sync.outbox('rust')).toEqual([]);
		expect(await pull()).toMatchObject({conflicts: 0, created: 0});
		expect((await itemOf(27001)).values).toMatchObject({labels: ['A-new'], state: 'closed', state_reason: 'not_planned'});
	});

	it('a title changed on both sides is a conflict: neither side written, nothing pushed for it', async () => {
		await pull();
		const item = await itemOf(27002);
		await store.editItem({channelId: 'rust', itemId: item.id, values: {title: 'Ours'}, actor: human});
		fake.edit(27002, issue => {
			issue.title = 'Theirs';
		});
		const outcome = await syncChannel(store, adapter, await link(), {pull: true, push: true});
		expect(outcome.conflicts).toBe(1);
		expect(outcome.push).toMatchObject({sent: 0});
		expect((await itemOf(27002)).values.title).toBe('Ours');
		expect(fake.issue(27002).title).toBe('Theirs');
		expect(fake.writes).toEqual([]);
		const [conflict] = await store.listFollowUps({channelId: 'rust', status: 'open'});
		expect(conflict).toMatchObject({kind: 'sync_conflict', key: 'title', ours: 'Ours', theirs: 'Theirs'});
	});

	it('a label new on GitHub grows the field\'s options, and says so', async () => {
		await pull();
		fake.edit(27003, issue => (issue.labels as unknown[]).push(fake.label('T-brand-new')));
		await pull();
		const labels = (await store.getChannel('rust')).fields.find(field => field.key === 'labels')!;
		expect((labels.config as {options: Array<{value: string}>}).options.map(option => option.value)).toContain('T-brand-new');
		expect((await itemOf(27003)).values.labels).toContain('T-brand-new');
		expect(notices.join('\n')).toMatch(/added "T-brand-new" to the options of labels/);
	});

	it('follows a rename: says so, keeps the new name, and pushes to it without another 301', async () => {
		await pull();
		fake.rename(FIXTURE_REPO, 'rust-lang/renamed');
		await pull();
		expect(notices.join('\n')).toMatch(/rust-lang\/rust was renamed to rust-lang\/renamed/);
		expect(currentRemote(await link())).toBe('rust-lang/renamed');
		const item = await itemOf(27001);
		await store.editItem({channelId: 'rust', itemId: item.id, values: {title: 'Under the new name'}, actor: human});
		const before = fake.requests.length;
		expect(await push()).toMatchObject({sent: 1});
		expect(fake.requests.slice(before).map(request => request.status)).toEqual([200]);
		expect(fake.issue(27001, 'rust-lang/renamed').title).toBe('Under the new name');
	});

	it('an entry a crash left \'sending\' after its request went is confirmed, not sent again', async () => {
		await pull();
		const item = await itemOf(27004);
		await store.editItem({channelId: 'rust', itemId: item.id, values: {title: 'Sent once'}, actor: human});
		const [entry] = await store.sync.outbox('rust');
		// The push as far as the crash: journaled, the request made, never confirmed.
		await store.sync.markSending([entry!.id]);
		const [unit] = await adapter.push(await link(), [entry!]);
		await unit!.send();
		expect(fake.writesTo(27004)).toHaveLength(1);
		const outcome = await push();
		expect(outcome).toMatchObject({confirmed: 1, sent: 0});
		expect(fake.writesTo(27004)).toHaveLength(1);
		expect(await store.sync.outbox('rust')).toEqual([]);
	});

	it('an entry journaled but never sent goes out once on the next push', async () => {
		await pull();
		const item = await itemOf(27005);
		await store.editItem({channelId: 'rust', itemId: item.id, values: {title: 'After the crash'}, actor: human});
		await store.sync.markSending((await store.sync.outbox('rust')).map(entry => entry.id));
		expect(await push()).toMatchObject({confirmed: 0, sent: 1});
		expect(fake.issue(27005).title).toBe('After the crash');
		expect(fake.writesTo(27005)).toHaveLength(1);
	});

	describe('the duplicate relation', () => {
		/** The channel with a duplicate_of relation to itself, linked again so the link pushes it; 27001 open, 27002 its original. */
		const withDuplicateRelation = async () => {
			fake.edit(27001, issue => {
				issue.state = 'open';
				issue.state_reason = null;
				issue.closed_at = null;
			});
			await pull();
			await store.changeChannel('rust', {kind: 'add_field', key: 'duplicate_of', type: 'relation', config: {channel_id: 'rust'}});
			const mapped = githubLinkFields(await store.getChannel('rust'));
			expect(mapped.fields).toContainEqual({key: 'duplicate_of', remote: 'duplicate_of', kind: 'scalar'});
			await store.sync.link({channel_id: 'rust', tracker: 'github', remote: FIXTURE_REPO, key_field: mapped.keyField, fields: mapped.fields});
			return {copy: await itemOf(27001), original: await itemOf(27002)};
		};

		const duplicateComments = (number: number) => fake.writesTo(number).filter(write => write.change === `comment:${duplicateComment('27002')}`);

		it('set, closes the issue as a duplicate with one comment; a re-pull keeps the relation; cleared, GitHub is left alone', async () => {
			const {copy, original} = await withDuplicateRelation();
			await store.editItem({channelId: 'rust', itemId: copy.id, values: {duplicate_of: original.id}, actor: human});
			expect((await store.sync.outbox('rust')).map(entry => entry.field)).toEqual(['duplicate_of']);
			expect(await push()).toMatchObject({sent: 1, failed: 0});
			expect(fake.issue(27001)).toMatchObject({state: 'closed', state_reason: 'duplicate'});
			expect(fake.writesTo(27001).map(write => write.change)).toEqual(['comment:Duplicate of #27002', 'state']);
			expect(await store.sync.outbox('rust')).toEqual([]);
			expect(await pull()).toMatchObject({conflicts: 0, created: 0});
			expect((await itemOf(27001)).values).toMatchObject({duplicate_of: original.id, state: 'closed', state_reason: 'duplicate'});
			expect(await store.sync.outbox('rust')).toEqual([]);

			await store.editItem({channelId: 'rust', itemId: copy.id, values: {duplicate_of: null}, actor: human});
			const before = fake.writes.length;
			expect(await push()).toMatchObject({sent: 1, failed: 0});
			expect(fake.writes.length).toBe(before);
			expect(fake.issue(27001)).toMatchObject({state: 'closed', state_reason: 'duplicate'});
		});

		it('with duplicate_status closing the state too: closed as a duplicate, not as completed, and a re-pull agrees', async () => {
			const {copy, original} = await withDuplicateRelation();
			await store.changeChannel('rust', {kind: 'set_field', key: 'duplicate_of', config: {channel_id: 'rust', duplicate_status: 'closed', status_field: 'state'}});
			await store.editItem({channelId: 'rust', itemId: copy.id, values: {duplicate_of: original.id}, actor: human});
			expect((await store.sync.outbox('rust')).map(entry => entry.field).sort()).toEqual(['duplicate_of', 'state']);
			expect(await push()).toMatchObject({sent: 2, failed: 0});
			expect(fake.issue(27001)).toMatchObject({state: 'closed', state_reason: 'duplicate'});
			expect(duplicateComments(27001)).toHaveLength(1);
			expect(await pull()).toMatchObject({conflicts: 0});
			expect((await itemOf(27001)).values).toMatchObject({duplicate_of: original.id, state: 'closed', state_reason: 'duplicate'});
			expect(await store.sync.outbox('rust')).toEqual([]);
		});

		it('a crash after the comment went: the retry closes the issue without a second comment', async () => {
			const {copy, original} = await withDuplicateRelation();
			await store.editItem({channelId: 'rust', itemId: copy.id, values: {duplicate_of: original.id}, actor: human});
			// The push as far as the crash: journaled, the comment posted, the close never made.
			await store.sync.markSending((await store.sync.outbox('rust')).map(entry => entry.id));
			fake.addComment(27001, duplicateComment('27002'), 'sift-bot');
			expect(await push()).toMatchObject({confirmed: 0, sent: 1});
			expect(fake.issue(27001)).toMatchObject({state: 'closed', state_reason: 'duplicate'});
			expect(fake.writesTo(27001).map(write => write.change)).toEqual(['state']);
			expect(await store.sync.outbox('rust')).toEqual([]);
		});

		it('a crash after both requests went: confirmed from the issue, nothing sent again', async () => {
			const {copy, original} = await withDuplicateRelation();
			await store.editItem({channelId: 'rust', itemId: copy.id, values: {duplicate_of: original.id}, actor: human});
			const [entry] = await store.sync.outbox('rust');
			await store.sync.markSending([entry!.id]);
			const [unit] = await adapter.push(await link(), [entry!], {remoteIdOf: async itemId => String((await store.readItem('rust', itemId)).values.number)});
			await unit!.send();
			expect(duplicateComments(27001)).toHaveLength(1);
			expect(await push()).toMatchObject({confirmed: 1, sent: 0});
			expect(duplicateComments(27001)).toHaveLength(1);
			expect(fake.writesTo(27001)).toHaveLength(2);
			expect(await store.sync.outbox('rust')).toEqual([]);
		});
	});
});
