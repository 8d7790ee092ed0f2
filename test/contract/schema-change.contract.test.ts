// Schema changes on both backends through the one asynchronous interface: every change kind, a
// refused retire with its count and first names (nothing changed), a migrated retire (versions and
// person events checked), add-field --required refused while items exist, bad input refused naming
// the field, the channel.updated event, and a second connection seeing the new schema at once.

import {describe, expect, it} from 'vitest';
import type {AsyncStore} from '../../store/api.js';
import {human} from '../store/helpers.js';
import {allEvents, BACKENDS, refusalOf, stateOf, storesOn, type Backend} from './backends.js';

const bugs = {
	id: 'bugs',
	name: 'Bugs',
	fields: [
		{key: 'ref', label: 'Ref', type: 'text', is_required: true, is_unique: true, config: {}},
		{key: 'title', label: 'Title', type: 'text', is_required: false, is_unique: false, config: {}},
		{key: 'status', label: 'Status', type: 'select', is_required: false, is_unique: false, config: {options: [{value: 'new', label: 'New'}, {value: 'wontfix', label: 'Won\'t fix'}, {value: 'fixed', label: 'Fixed'}]}},
		{key: 'tags', label: 'Tags', type: 'multi_select', is_required: false, is_unique: false, config: {options: [{value: 'ui', label: 'UI'}, {value: 'old', label: 'Old'}, {value: 'api', label: 'API'}]}},
	],
};

const STATUSES = ['new', 'wontfix', 'fixed', 'wontfix', 'new', 'new', 'wontfix', undefined];
const bugItems = STATUSES.map((status, index) => ({values: {ref: `BUG-${String(index + 1).padStart(4, '0')}`, title: `bug ${index + 1}`, ...(status ? {status} : {}), ...(index % 2 === 0 ? {tags: ['old', 'ui']} : {})}}));

function describeBackend(backend: Backend) {
	describe.skipIf(!backend.enabled)(`schema changes (${backend.name})`, () => {
		const {fresh, again} = storesOn(backend);
		const store = async () => {
			const opened = await fresh();
			await opened.importChannel({channel: bugs, items: bugItems});
			return opened;
		};

		const idOf = async (s: AsyncStore, ref: string) => (await s.findItemsNamed('bugs', ref))[0]!.item_id;

		it('add-option, rename-label and add-field: evented, and seen at once by another connection', async () => {
			const s = await store();
			const other = await again();
			expect((await other.listPage('bugs')).schema.find(field => field.key === 'status')!.config.options).toHaveLength(3);
			const added = await s.changeChannel('bugs', {kind: 'add_option', key: 'status', value: 'triaged', label: 'Triaged', color: 'cyan'});
			expect(added.channel.fields[2]!.config.options!.at(-1)).toEqual({value: 'triaged', label: 'Triaged', color: 'cyan'});
			// The other connection's next page and write see it: no restart.
			expect((await other.listPage('bugs')).schema.find(field => field.key === 'status')!.config.options!.map(option => option.value)).toEqual(['new', 'wontfix', 'fixed', 'triaged']);
			const id = await idOf(other, 'BUG-0001');
			await other.editItem({channelId: 'bugs', itemId: id, actor: human, values: {status: 'triaged'}});
			expect((await other.listPage('bugs', {where: 'status:triaged'})).items.map(item => item.id)).toEqual([id]);
			expect((await other.listPage('bugs', {where: 'sort:status'})).items.at(-2)?.id).toBe(id);

			await s.changeChannel('bugs', {kind: 'rename_label', key: 'status', value: 'wontfix', label: 'Will not fix'});
			expect((await other.getChannel('bugs')).fields[2]!.config.options![1]).toEqual({value: 'wontfix', label: 'Will not fix'});
			await s.changeChannel('bugs', {kind: 'add_field', key: 'points', type: 'number', label: 'Points', config: {min: 0, max: 13}});
			await other.editItem({channelId: 'bugs', itemId: id, actor: human, values: {points: 5}});
			expect((await other.listPage('bugs', {where: 'points:>3 sort:-points'})).items.map(item => item.id)).toEqual([id]);

			const events = (await allEvents(s, 'bugs')).filter(event => event.type === 'channel.updated');
			expect(events).toHaveLength(3);
			expect(events[0]).toMatchObject({item_id: '', version: 0, actor: {kind: 'human'}});
			expect(events[0]!.changes.status!.to).toMatchObject({key: 'status'});
			expect((events[2]!.changes.points as {from: unknown}).from).toBeNull();
		});

		it('retire-option is refused with the count and first names, and nothing changes', async () => {
			const s = await store();
			const before = await stateOf(s, 'bugs');
			const body = await refusalOf(() => s.changeChannel('bugs', {kind: 'retire_option', key: 'status', value: 'wontfix'}));
			expect(body).toEqual({
				error: 'schema_change_refused', key: 'status', count: 3, items: ['BUG-0002', 'BUG-0004', 'BUG-0007'],
				message: '3 items hold status "wontfix": BUG-0002, BUG-0004, BUG-0007; give --migrate-to VALUE to move them',
			});
			expect(await stateOf(s, 'bugs')).toEqual(before);
		});

		it('retire-option --migrate-to moves each item in a versioned edit by a person, then retires it', async () => {
			const s = await store();
			const ids = await Promise.all(['BUG-0002', 'BUG-0004', 'BUG-0007'].map(async ref => idOf(s, ref)));
			const result = await s.changeChannel('bugs', {kind: 'retire_option', key: 'status', value: 'wontfix', migrateTo: 'fixed'}, human);
			expect(result.migrated).toBe(3);
			for (const id of ids) {
				expect(await s.readItem('bugs', id)).toMatchObject({version: 2, values: {status: 'fixed'}});
			}

			const events = await allEvents(s, 'bugs');
			const moved = events.filter(event => event.type === 'item.updated');
			expect(moved.map(event => [event.item_id, event.version, event.actor, event.changes])).toEqual(ids.map(id => [id, 2, {kind: 'human'}, {status: {from: 'wontfix', to: 'fixed'}}]));
			expect(events.at(-1)).toMatchObject({type: 'channel.updated', sequence: 8 + 3 + 1});
			expect((await s.getChannel('bugs')).fields[2]!.config.options!.map(option => option.value)).toEqual(['new', 'fixed']);
			expect(await refusalOf(() => s.editItem({channelId: 'bugs', itemId: ids[0]!, actor: human, values: {status: 'wontfix'}}))).toMatchObject({error: 'validation_failed'});
			// A multi_select: the retired value replaced in each list, each list kept distinct.
			await s.changeChannel('bugs', {kind: 'retire_option', key: 'tags', value: 'old', migrateTo: 'ui'});
			expect((await s.readItem('bugs', await idOf(s, 'BUG-0001'))).values.tags).toEqual(['ui']);
		});

		it('set --required is refused while items lack the value; set --config re-checks every value', async () => {
			const s = await store();
			expect(await refusalOf(() => s.changeChannel('bugs', {kind: 'set_field', key: 'status', required: true}))).toMatchObject({
				error: 'schema_change_refused', count: 1, items: ['BUG-0008'], message: expect.stringMatching(/^1 item have no value or hold a value the new status refuses: BUG-0008$/) as unknown,
			});
			expect(await refusalOf(() => s.changeChannel('bugs', {kind: 'set_field', key: 'title', config: {max_length: 4}}))).toMatchObject({count: 8});
			await s.changeChannel('bugs', {kind: 'set_field', key: 'title', config: {max_length: 6}});
			const first = await idOf(s, 'BUG-0001');
			expect(await refusalOf(() => s.editItem({channelId: 'bugs', itemId: first, actor: human, values: {title: 'too long'}}))).toMatchObject({fields: [{key: 'title', max: 6}]});
			await s.changeChannel('bugs', {kind: 'set_field', key: 'title', config: {max_length: null}});
			expect((await s.getChannel('bugs')).fields[1]!.config).toEqual({});
			await s.changeChannel('bugs', {kind: 'set_field', key: 'title', required: true});
			expect((await s.getChannel('bugs')).fields[1]!.is_required).toBe(true);
		});

		it('add-field --required is refused while the channel has items; allowed on an empty channel', async () => {
			const s = await store();
			expect(await refusalOf(() => s.changeChannel('bugs', {kind: 'add_field', key: 'owner', type: 'text', required: true}))).toMatchObject({error: 'schema_change_refused', count: 8});
			const empty = await fresh();
			await empty.importChannel({channel: bugs, items: []});
			await empty.changeChannel('bugs', {kind: 'add_field', key: 'owner', type: 'text', required: true});
			expect(await refusalOf(() => empty.createItem('bugs', {ref: 'X-1'}, human))).toMatchObject({fields: [{key: 'owner', message: 'values.owner is required'}]});
		});

		it('bad input is refused naming the field, and writes nothing', async () => {
			const s = await store();
			const before = await stateOf(s, 'bugs');
			const cases: Array<[Parameters<AsyncStore['changeChannel']>[1], RegExp]> = [
				[{kind: 'add_option', key: 'title', value: 'x'}, /field title is a text field; options belong to select and multi_select fields/],
				[{kind: 'add_option', key: 'status', value: 'new'}, /"new" is already an option of status/],
				[{kind: 'add_option', key: 'colour', value: 'x'}, /"colour" is not a field of channel bugs; fields: ref, title, status, tags/],
				[{kind: 'rename_label', key: 'status', value: 'gone', label: 'G'}, /"gone" is not an option of status; options: new, wontfix, fixed/],
				[{kind: 'rename_label', key: 'status', value: 'new', label: ''}, /field status: config.options\[0\] \("new"\) needs a non-empty string label/],
				[{kind: 'retire_option', key: 'status', value: 'new', migrateTo: 'nope'}, /"nope" is not an option of status/],
				[{kind: 'add_field', key: 'title', type: 'text'}, /field title already exists/],
				[{kind: 'add_field', key: 'Bad Key', type: 'text'}, /must be a lowercase identifier/],
				[{kind: 'add_field', key: 'size', type: 'huge'}, /field size has an unknown type "huge"/],
				[{kind: 'add_field', key: 'size', type: 'number', config: {min: 5, max: 1}}, /field size: config.min \(5\) is greater than config.max \(1\)/],
				[{kind: 'set_field', key: 'title', config: {options: []}}, /field title: config.options does not apply to a text field/],
				[{kind: 'set_field', key: 'title'}, /set needs --required, --optional or --config/],
				[{kind: 'add_field', key: 'parent', type: 'relation', config: {channel_id: 'ghost'}}, /field parent relates to channel "ghost", which does not exist/],
			];
			for (const [change, message] of cases) {
				const body = await refusalOf(() => s.changeChannel('bugs', change));
				expect((body as {message: string}).message, JSON.stringify(change)).toMatch(message);
			}

			expect(await stateOf(s, 'bugs')).toEqual(before);
			// A relation to the channel itself is fine.
			await s.changeChannel('bugs', {kind: 'add_field', key: 'parent', type: 'relation', config: {channel_id: 'bugs'}});
			const [one, two] = await Promise.all([idOf(s, 'BUG-0001'), idOf(s, 'BUG-0002')]);
			expect((await s.editItem({channelId: 'bugs', itemId: two, actor: human, values: {parent: one}})).item.values.parent).toBe(one);
		});
	});
}

for (const backend of BACKENDS) {
	describeBackend(backend);
}

