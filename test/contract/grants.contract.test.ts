// What a writer's edit may reach, on both backends: a channel outside the grants gets one
// not_granted answer whether it exists or not, a relation only points into granted channels (asked
// the same way whether or not the item exists), and idempotency keys belong to one channel and one
// actor, so nobody's key is refused because someone else used it elsewhere.

import {describe, expect, it} from 'vitest';
import type {AsyncStore} from '../../store/api.js';
import {Grants} from '../../store/index.js';
import {notePgOff} from '../support/pg.js';
import {agent, human, scopeChannels} from '../store/helpers.js';
import {BACKENDS, refusalOf, stateOf, storesOn, type Backend} from './backends.js';


const bugsOnly = new Grants(['bugs']);

/** Both channels, with one secret item and two bugs: the ids of each. */
async function scoped(store: AsyncStore): Promise<{secret: string; bug: string; other: string}> {
	await store.importChannel({channel: scopeChannels.secret, items: [{values: {title: 'hidden'}}]});
	await store.importChannel({channel: scopeChannels.bugs, items: [{values: {title: 'a'}}, {values: {title: 'b'}}]});
	const [bug, other] = (await store.listPage('bugs')).items.map(item => item.id);
	return {secret: (await store.listPage('secret')).items[0]!.id, bug: bug!, other: other!};
}

/** The refusal `work` gets, after checking it changed nothing in either channel. */
async function refusedUnchanged(store: AsyncStore, work: () => Promise<unknown>) {
	const before = [await stateOf(store, 'bugs'), await stateOf(store, 'secret')];
	const body = await refusalOf(work);
	expect([await stateOf(store, 'bugs'), await stateOf(store, 'secret')]).toEqual(before);
	return body;
}

describe.each(BACKENDS)('grants on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const {fresh} = storesOn(backend);

	describe('channels outside the grants', () => {
		it('a granted channel passes; an existing and a non-existing channel get the same not_granted answer', async () => {
			const store = await fresh();
			await scoped(store);
			expect(new Grants(['bugs']).check('bugs')).toBe('bugs');
			const existing = await refusalOf(async () => bugsOnly.check('secret'));
			const missing = await refusalOf(async () => bugsOnly.check('nopenope'));
			expect((await store.listChannelNames()).map(channel => channel.id)).toContain('secret');
			expect(existing).toEqual({error: 'not_granted', message: 'channel "secret" is not granted to this server; granted: bugs'});
			expect(missing).toEqual({error: 'not_granted', message: 'channel "nopenope" is not granted to this server; granted: bugs'});
		});

		it('odd channel ids are refused the same way, and briefly', () => {
			const grants = new Grants(['kit', 'bugs']);
			for (const id of [42, null, undefined, '__proto__', 'constructor', 'KIT', ' kit', 'x'.repeat(10_000)]) {
				expect(() => grants.check(id)).toThrow(/is not granted to this server; granted: kit, bugs$/);
				try {
					grants.check(id);
				} catch (error) {
					expect((error as Error).message.length).toBeLessThan(200);
				}
			}
		});
	});

	describe('relations only point into granted channels', () => {
		it('a writer granted only bugs cannot link into secret, nor learn whether an id exists there', async () => {
			const store = await fresh();
			const {secret, bug} = await scoped(store);
			const missing = 'it_zzzzzzzzzz';
			const refusalFor = async (target: string) => refusedUnchanged(store, () => store.editItem({channelId: 'bugs', itemId: bug, values: {blocker: target}, actor: human, grants: bugsOnly}));
			const existing = await refusalFor(secret);
			expect(existing).toEqual({error: 'validation_failed', fields: [{key: 'blocker', message: `values.blocker relates to channel secret, which is not granted to this writer, got "${secret}"`}]});
			// The same answer for an id that does not exist, but for the id it echoes.
			expect(JSON.stringify(await refusalFor(missing)).replaceAll(missing, secret)).toBe(JSON.stringify(existing));
		});

		it('an agent\'s refused link becomes a follow-up like any other refusal, and links nothing', async () => {
			const store = await fresh();
			const {secret, bug} = await scoped(store);
			const body = await refusalOf(() => store.editItem({channelId: 'bugs', itemId: bug, values: {blocker: secret}, actor: agent(), grants: bugsOnly}));
			expect(JSON.stringify(body)).toMatch(/not granted to this writer/);
			expect((await store.readItem('bugs', bug)).values.blocker).toBeNull();
			expect((await store.listFollowUps({})).map(followUp => followUp.key)).toEqual(['blocker']);
		});

		it('relations within granted channels work as before; without grants (a person) every channel is granted', async () => {
			const store = await fresh();
			const {secret, bug, other} = await scoped(store);
			const edit = async (values: Record<string, unknown>, actor: typeof human | ReturnType<typeof agent>, grants?: Grants) =>
				(await store.editItem({channelId: 'bugs', itemId: bug, values, actor, grants})).item.values;
			expect((await edit({parent: other}, agent(), bugsOnly)).parent).toBe(other);
			expect((await edit({blocker: secret}, agent(), new Grants(['bugs', 'secret']))).blocker).toBe(secret);
			expect((await edit({blocker: null}, human)).blocker).toBeNull();
			expect((await edit({blocker: secret}, human)).blocker).toBe(secret);
		});
	});

	describe('idempotency keys belong to one channel and one actor', () => {
		it('a key used on another channel, or by another actor, does not block this edit', async () => {
			const store = await fresh();
			const {secret, bug} = await scoped(store);
			await store.editItem({channelId: 'secret', itemId: secret, values: {title: 'x'}, actor: agent('run-1'), idempotencyKey: 'k'});
			const version = async (title: string, actor: typeof human | ReturnType<typeof agent>) =>
				(await store.editItem({channelId: 'bugs', itemId: bug, values: {title}, actor, idempotencyKey: 'k'})).item.version;
			expect(await version('y', agent('run-1'))).toBe(2);
			expect(await version('z', agent('run-2'))).toBe(3);
			expect(await version('w', human)).toBe(4);
		});

		it('within one channel and actor, a replay returns the first result and a changed edit is refused, changing nothing', async () => {
			const store = await fresh();
			const {bug} = await scoped(store);
			const edit = async (title: string) => store.editItem({channelId: 'bugs', itemId: bug, values: {title}, actor: agent('run-1'), idempotencyKey: 'k'});
			const first = await edit('y');
			expect(await edit('y')).toEqual(first);
			expect(await refusedUnchanged(store, async () => edit('other')))
				.toEqual({error: 'idempotency_key_reused', message: 'idempotency_key "k" was already used with different arguments; use a new key for a new edit'});
		});
	});
});
