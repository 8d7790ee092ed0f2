// What the commands do without being told, on both backends: the config file's default_channel
// picks the channel when the database holds several, and `sift add` numbers the channel's key
// (BUG-1001) when its items' keys follow PREFIX-digits. The commands run in this process.

import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {Writable} from 'node:stream';
import {describe, expect, it} from 'vitest';
import addCommand from '../../source/commands/add.js';
import editCommand from '../../source/commands/edit.js';
import listCommand from '../../source/commands/list.js';
import {resolveDateInput} from '../../source/text/typed-value.js';
import {defaultFlags} from '../../source/commands/flags.js';
import type {CliFlags, CommandContext} from '../../source/commands/context.js';
import type {AsyncStore} from '../../store/api.js';
import {notePgOff} from '../support/pg.js';
import {kitChannel, tempDir} from '../store/helpers.js';
import {BACKENDS, storesOn, type Backend} from '../contract/backends.js';

/** A command context on `db`, printing into strings. */
function contextOf(input: string[], flags: Partial<CliFlags>, env: Record<string, string> = {}): {context: CommandContext; stdout: () => string} {
	let out = '';
	const sink = (keep: boolean) => new Writable({write(chunk, _encoding, done) {
		if (keep) out += String(chunk);
		done();
	}});
	return {context: {input, flags: {...defaultFlags(), ...flags}, stdout: sink(true), stderr: sink(false), env}, stdout: () => out};
}

const ticketChannel = (id: string, name: string) => ({id, name, fields: [
	{key: 'ticket', label: 'Ticket', type: 'text', is_required: true, is_unique: true, config: {}},
	{key: 'title', label: 'Title', type: 'text', is_required: true, is_unique: false, config: {}},
]});

describe.each(BACKENDS)('command defaults on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const {fresh} = storesOn(backend);

	async function twoChannels(): Promise<AsyncStore> {
		const store = await fresh();
		await store.importChannel({channel: kitChannel, items: [{values: {title: 'in kit'}}]});
		await store.importChannel({channel: ticketChannel('tasks', 'Team tasks'), items: [{values: {ticket: 'T-1', title: 'in tasks'}}]});
		return store;
	}

	it('default_channel from the config file picks the channel; without it, several channels are a usage error that says so', async () => {
		await twoChannels();
		const db = backend.lastLocation();
		const config = join(tempDir('sift-defaults-'), 'config.yaml');
		writeFileSync(config, 'default_channel: team TASKS\n');
		const listed = contextOf([], {db, json: true, config});
		expect(await listCommand(listed.context)).toBe(0);
		expect(listed.stdout()).toContain('in tasks');
		expect(listed.stdout()).not.toContain('in kit');
		// The default config file is found the same way ($XDG_CONFIG_HOME/sift/config.yaml).
		const home = tempDir('sift-defaults-home-');
		mkdirSync(join(home, 'sift'));
		writeFileSync(join(home, 'sift', 'config.yaml'), 'default_channel: kit\n');
		const fromHome = contextOf([], {db, json: true}, {XDG_CONFIG_HOME: home});
		expect(await listCommand(fromHome.context)).toBe(0);
		expect(fromHome.stdout()).toContain('in kit');
		await expect(listCommand(contextOf([], {db}, {XDG_CONFIG_HOME: tempDir('sift-defaults-none-')}).context)).rejects.toThrow(/several channels \(kit, tasks\); pick one with --channel, or set default_channel in the config file/);
		writeFileSync(config, 'default_channel: gone\n');
		await expect(listCommand(contextOf([], {db, config}).context)).rejects.toThrow(/default_channel in .*config\.yaml names no channel of this database \("gone"\); channels: kit, tasks/);
	});

	it('sift add numbers the key after the highest, as wide as the others, when the keys follow PREFIX-digits', async () => {
		const store = await fresh();
		await store.importChannel({channel: ticketChannel('bugs', 'Bugs'), items: [{values: {ticket: 'BUG-0999', title: 'a'}}, {values: {ticket: 'BUG-1000', title: 'b'}}, {values: {ticket: 'BUG-0042', title: 'c'}}]});
		const db = backend.lastLocation();
		const added = contextOf(['title=new one'], {db});
		expect(await addCommand(added.context)).toBe(0);
		expect(added.stdout()).toMatch(/^created \S+ BUG-1001 \(event \d+\)/);
		const again = contextOf(['title=another'], {db, json: true});
		expect(await addCommand(again.context)).toBe(0);
		expect(JSON.parse(again.stdout()).item.values.ticket).toBe('BUG-1002');
		// A key given is kept as given.
		const given = contextOf(['ticket=OPS-7', 'title=mine'], {db, json: true});
		expect(await addCommand(given.context)).toBe(0);
		expect(JSON.parse(given.stdout()).item.values.ticket).toBe('OPS-7');
		// Now the keys follow no one pattern: nothing is made up, the store refuses the missing key.
		await expect(addCommand(contextOf(['title=no key'], {db}).context)).rejects.toThrow(/ticket/);
	});

	it('sift edit and sift add read a value as the TUI does: an option\'s label, a weekday, none', async () => {
		const store = await fresh();
		await store.importChannel({channel: kitChannel, items: [{values: {title: 'one', status: 'new'}}]});
		const db = backend.lastLocation();
		const id = (await store.listPage('kit')).items[0]!.id;
		const edited = contextOf([id, 'status=in progress', 'due=friday', 'tags=UI, api'], {db, channel: 'kit', json: true});
		expect(await editCommand(edited.context)).toBe(0);
		const friday = resolveDateInput('friday', new Date());
		expect(friday.ok && (await store.readItem('kit', id)).values).toMatchObject({status: 'in_progress', due: friday.ok ? friday.date : '', tags: ['ui', 'api']});
		expect(await editCommand(contextOf([id, 'due=none'], {db, channel: 'kit'}).context)).toBe(0);
		expect((await store.readItem('kit', id)).values.due ?? null).toBeNull();
		// A word that is no date goes to the store as typed: its refusal names the field, the form it
		// takes, and what a person may type instead (relative days, weekdays).
		await expect(editCommand(contextOf([id, 'due=someday'], {db, channel: 'kit'}).context)).rejects.toThrow(/values\.due must be a date as YYYY-MM-DD, got "someday"; sift edit\/add and the TUI also read today, \+3d or friday/);
		const added = contextOf(['title=two', 'status=Won\'t fix'], {db, channel: 'kit', json: true});
		expect(await addCommand(added.context)).toBe(0);
		expect(JSON.parse(added.stdout()).item.values.status).toBe('wont_fix');
	});
});
