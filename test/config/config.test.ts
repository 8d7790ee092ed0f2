// config.yaml: where it is, what it sets, every problem with its line and key (and the default
// kept for that key alone), the check against a channel, and saving a view with comments kept.

import {execFileSync} from 'node:child_process';
import {chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {CONFIG_MAX_BYTES, configPath, loadConfig, saveView, settingsForChannel} from '../../source/config/config.js';
import {DEFAULT_CONFIG, DEFAULT_VIEWS, SETTING_KEYS} from '../../source/config/schema.js';
import {demoFields, fieldOf} from '../ui/model/demo-channel.js';
import {tempDir} from '../support/temp.js';

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true});
});

function folder(): string {
	const dir = tempDir('sift-config-');
	dirs.push(dir);
	return dir;
}

/** A config file holding `text` (lines joined), in a fresh folder. */
function configFile(...lines: string[]): string {
	const file = path.join(folder(), 'config.yaml');
	writeFileSync(file, lines.join('\n') + '\n');
	return file;
}

const load = async (...lines: string[]) => loadConfig(configFile(...lines));
const now = new Date(2026, 11, 2, 12);
const ALL_KEYS = 'keys: views, channels, hotkeys, default_channel, default_view, instruction, model, timeout, theme, advance_after_edit, server, agent_mode, auto_accept_above, sync';

describe('where the file is', () => {
	it('$XDG_CONFIG_HOME/sift/config.yaml, else ~/.config/sift/config.yaml; a relative XDG_CONFIG_HOME is ignored', async () => {
		expect(configPath({XDG_CONFIG_HOME: '/x/conf', HOME: '/home/a'})).toBe('/x/conf/sift/config.yaml');
		expect(configPath({HOME: '/home/a'})).toBe('/home/a/.config/sift/config.yaml');
		expect(configPath({XDG_CONFIG_HOME: 'rel', HOME: '/home/a'})).toBe('/home/a/.config/sift/config.yaml');
		expect(configPath({XDG_CONFIG_HOME: '', HOME: '/home/a'})).toBe('/home/a/.config/sift/config.yaml');
	});
});

describe('loading', () => {
	it('no file, an empty file and a file of comments are the defaults, with no problems', async () => {
		const file = path.join(folder(), 'file');
		writeFileSync(file, '');
		for (const loaded of [await loadConfig(path.join(folder(), 'none.yaml')), await loadConfig(path.join(file, 'config.yaml')), await load(''), await load('# nothing yet', '   ')]) {
			expect(loaded.problems).toEqual([]);
			expect(loaded.config).toEqual(DEFAULT_CONFIG);
		}

		expect(DEFAULT_CONFIG.views.map(view => view.name)).toEqual(['Inbox', 'Unassigned', 'Follow-ups', 'All', 'Review']);
	});

	it('reads every setting; a view named like a default replaces it, the others come after the defaults', async () => {
		const loaded = await load(
			'# my settings',
			'views:',
			'  - name: inbox',
			'    query: status:new,triaged sort:-id',
			'  - name: Mine',
			'    query: {where: "owner:aiko", sort: -due}',
			'  - name: Sorted only',
			'    query: {sort: points}',
			'hotkeys:',
			'  status: S',
			'  due: none',
			'  area: ~',
			'instruction: Triage the marked bugs.',
			'model: gpt-5.2',
			'timeout: 900',
			'theme: mono',
			'server: http://sift.internal:7345',
		);
		expect(loaded.problems).toEqual([]);
		expect(loaded.config).toEqual({
			views: [
				{name: 'inbox', query: 'status:new,triaged sort:-id'},
				...DEFAULT_VIEWS.slice(1),
				{name: 'Mine', query: 'owner:aiko sort:-due'},
				{name: 'Sorted only', query: 'sort:points'},
			],
			channels: {},
			hotkeys: {status: 'S', due: 'none', area: null},
			instruction: 'Triage the marked bugs.',
			model: 'gpt-5.2',
			timeout: 900,
			theme: 'mono',
			server: 'http://sift.internal:7345',
		});
	});

	it('a YAML error names its line and leaves the whole file out', async () => {
		const loaded = await load('theme: mono', 'views:', '  - name: [unclosed', '    query: x');
		expect(loaded.config).toEqual(DEFAULT_CONFIG);
		expect(loaded.problems).toHaveLength(1);
		expect(loaded.problems[0]).toMatch(/^config\.yaml line [34]: .+; using the defaults for the whole file$/);
		expect((await load('a: 1', 'a: 2')).problems).toEqual([expect.stringMatching(/^config\.yaml line 2: Map keys must be unique/)]);
	});

	it('a file that is not a map of settings is the defaults', async () => {
		expect((await load('- views')).problems).toEqual([`config.yaml line 1: should be a map of settings (${ALL_KEYS}); using the defaults`]);
		expect((await load('just words')).problems).toEqual([`config.yaml line 1: should be a map of settings (${ALL_KEYS}); using the defaults`]);
	});

	it('a file that cannot be read, or is too large, is the defaults, saying why', async () => {
		const dir = folder();
		mkdirSync(path.join(dir, 'config.yaml'));
		const unreadable = await loadConfig(path.join(dir, 'config.yaml'));
		expect(unreadable.config).toEqual(DEFAULT_CONFIG);
		expect(unreadable.problems).toEqual(['config.yaml is a directory, not a regular file; using the defaults']);
		const large = configFile(`instruction: ${'x'.repeat(CONFIG_MAX_BYTES)}`);
		expect((await loadConfig(large)).problems).toEqual(['config.yaml is larger than 256 KiB; using the defaults']);
	});

	it('a named pipe or a device is refused without waiting on it or reading it', async () => {
		const fifo = path.join(folder(), 'config.yaml');
		execFileSync('mkfifo', [fifo]);
		const piped = await loadConfig(fifo);
		expect(piped.config).toEqual(DEFAULT_CONFIG);
		expect(piped.problems).toEqual(['config.yaml is a named pipe, not a regular file; using the defaults']);
		expect((await loadConfig('/dev/zero')).problems).toEqual(['zero is a device, not a regular file; using the defaults']);
		expect(await saveView('A', 'x', fifo)).toEqual({ok: false, message: 'cannot save the view: config.yaml is a named pipe, not a regular file'});
	});

	it('auto_accept_above is off unless set, and must be above 0 and at most 1', async () => {
		expect(DEFAULT_CONFIG.auto_accept_above).toBeUndefined();
		expect((await load('auto_accept_above: 0.95')).config.auto_accept_above).toBe(0.95);
		expect((await load('auto_accept_above: 1')).config.auto_accept_above).toBe(1);
		for (const bad of ['0', '1.5', '-0.2', 'high']) {
			const loaded = await load(`auto_accept_above: ${bad}`);
			expect(loaded.config.auto_accept_above).toBeUndefined();
			expect(loaded.problems.join('\n')).toContain('must be a number above 0 and at most 1');
		}
	});

	it('an unknown key is named with its line, and the rest still applies', async () => {
		const loaded = await load('theme: mono', 'colour: red');
		expect(loaded.problems).toEqual([`config.yaml line 2: unknown key 'colour' (${ALL_KEYS}); ignored`]);
		expect(loaded.config.theme).toBe('mono');
	});

	it('sync names the GitHub token file; anything else under it is named and ignored', async () => {
		expect((await load('sync:', '  github_token_file: ~/.config/sift/github-token')).config.sync).toEqual({github_token_file: '~/.config/sift/github-token'});
		const wrong = await load('sync:', '  token: ghp_x');
		expect(wrong.config.sync).toBeUndefined();
		expect(wrong.problems.join('\n')).toMatch(/line 2: .*token/);
	});

	it('sync: live and its interval (a duration of 100ms or more); a wrong one is named and the sync setting ignored', async () => {
		expect((await load('sync:', '  live: true', '  interval: 30s')).config.sync).toEqual({live: true, interval: '30s'});
		for (const [line, said] of [['  interval: soon', /interval.*duration such as 30s/], ['  interval: 50ms', /interval.*100ms or more/], ['  live: yes please', /live.*true or false/]] as const) {
			const wrong = await load('sync:', line);
			expect(wrong.config.sync, line).toBeUndefined();
			expect(wrong.problems.join('\n'), line).toMatch(said);
		}
	});

	it('each wrong setting falls back to its own default, naming line and key', async () => {
		const loaded = await load(
			'instruction: ""',
			'model: gpt 5',
			'timeout: 1.5',
			'theme: dark',
			'server: ftp://sift.internal',
			'hotkeys:',
			'  status: 1',
			'  owner: w',
		);
		expect(loaded.problems).toEqual([
			'config.yaml line 1: instruction: must not be empty; not set',
			'config.yaml line 2: model: must be a model name without spaces; not set',
			'config.yaml line 3: timeout: must be a whole number of seconds; not set',
			'config.yaml line 4: theme: must be default or mono; using "default"',
			'config.yaml line 5: server: must be the http(s) URL of sift serve, e.g. http://127.0.0.1:7345; not set',
			'config.yaml line 7: hotkeys.status: must be one letter, or none; using the default',
		]);
		expect(loaded.config).toEqual({...DEFAULT_CONFIG, hotkeys: {owner: 'w'}});
	});

	it('timeouts out of range and settings of the wrong type', async () => {
		expect((await load('timeout: 0')).problems).toEqual(['config.yaml line 1: timeout: must be 1 second or more; not set']);
		expect((await load('timeout: 100000')).problems).toEqual(['config.yaml line 1: timeout: must be at most 86400 seconds (a day); not set']);
		expect((await load('timeout: soon')).problems).toEqual(['config.yaml line 1: timeout: must be a number of seconds; not set']);
		expect((await load('model: 5')).problems).toEqual(['config.yaml line 1: model: must be a model name; not set']);
		expect((await load('instruction: [a]')).problems).toEqual(['config.yaml line 1: instruction: must be text; not set']);
	});

	it('views and hotkeys of the wrong shape keep their defaults', async () => {
		expect((await load('views: Inbox')).problems).toEqual(['config.yaml line 1: views: must be a list of views, each with a name and a query; using the default views']);
		expect((await load('hotkeys: [s]')).problems).toEqual(['config.yaml line 1: hotkeys: must be a map of field key to one letter (status: s); using the default hotkeys']);
		expect((await load('views: Inbox')).config.views).toEqual(DEFAULT_VIEWS);
	});

	it('a wrong view is left out alone, naming its index, key and line', async () => {
		const loaded = await load(
			'views:',
			'  - name: Good',
			'    query: owner:ren',
			'  - name: Odd',
			'    qeury: owner:ren',
			'  - query: status:new',
			'  - name: Good',
			'    query: owner:mika',
			'  - name: ""',
			'    query: x',
			'  - name: Typed',
			'    query: 7',
			'  - name: Bad sort',
			'    query: {where: x, order: due}',
			'  - plain text',
		);
		expect(loaded.problems).toEqual([
			'config.yaml line 4: views[1]: query is missing; view left out',
			"config.yaml line 5: views[1]: unknown key 'qeury' (keys: name, query, columns); view left out",
			'config.yaml line 6: views[2]: name is missing; view left out',
			"config.yaml line 7: views[3].name: 'Good' is already the name of views[0]; view left out",
			'config.yaml line 9: views[4].name: a view name cannot be empty; view left out',
			'config.yaml line 12: views[5].query: must be query text (status:new sort:-due), or a map of where and sort; view left out',
			"config.yaml line 14: views[6].query: unknown key 'order' (keys: where, sort); view left out",
			'config.yaml line 15: views[7]: Invalid input: expected object, received string; view left out',
		]);
		expect(loaded.config.views).toEqual([...DEFAULT_VIEWS, {name: 'Good', query: 'owner:ren'}]);
	});

	it('an alias bomb is refused, not expanded', async () => {
		const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x]'];
		for (let level = 1; level < 10; level++) lines.push(`a${level}: &a${level} [${Array.from({length: 9}, () => `*a${level - 1}`).join(', ')}]`);
		const loaded = await load(...lines);
		expect(loaded.problems).toEqual(['config.yaml line 1: Excessive alias count indicates a resource exhaustion attack; using the defaults']);
		expect(loaded.config).toEqual(DEFAULT_CONFIG);
	});

	it('__proto__ is a key like any other', async () => {
		const loaded = await load('__proto__: {polluted: 1}', 'hotkeys:', '  __proto__: ~', 'theme: mono');
		expect(loaded.problems).toEqual([`config.yaml line 1: unknown key '__proto__' (${ALL_KEYS}); ignored`]);
		expect(Object.getPrototypeOf(loaded.config.hotkeys)).toBe(Object.prototype);
		expect(Object.keys(loaded.config.hotkeys)).toEqual(['__proto__']);
		expect(loaded.config.theme).toBe('mono');
		expect(settingsForChannel(loaded, demoFields, now).problems).toEqual([expect.stringMatching(/^config\.yaml line 3: hotkeys\.__proto__: "__proto__" is not a field of this channel/)]);
	});

	it('what it quotes from the file is made safe for the terminal', async () => {
		const loaded = await load('"col\\u001b[31mour": red');
		expect(loaded.problems[0]).toContain("unknown key 'col␛[31mour'");
		expect(loaded.problems.join('')).not.toContain('\u001b');
	});
});

describe('against a channel', () => {
	it('a view of the channel\'s own that it refuses is left out, with the line and the parser\'s words', async () => {
		const loaded = await load('channels:', '  bugs:', '    views:', '      - name: Sev', '        query: severity:s1', '      - name: Typo', '        query: sevrity:s1 sort:-due');
		const settings = settingsForChannel(loaded, {id: 'bugs', fields: demoFields}, now);
		expect(settings.problems).toEqual(['config.yaml line 7: channels.bugs.views[1].query: sevrity is not a field of this channel; known: ticket, title, description, status, owner, severity, points, area, due, reporter, created, updated, has, sort; view left out']);
		expect(settings.views.map(view => view.name)).toEqual(['Inbox', 'Unassigned', 'Follow-ups', 'All', 'Review', 'Sev']);
	});

	it('every default view fits the demo channel; one that does not fit another channel is left out quietly', async () => {
		expect(settingsForChannel(await load(''), demoFields, now)).toEqual({views: DEFAULT_VIEWS, hotkeys: {status: 's', owner: 'o', severity: 'v', points: 'p', area: 'a', due: 'd'}, problems: []});
		const notes = [fieldOf({key: 'note', type: 'text'}), fieldOf({key: 'owner', type: 'select', config: {options: [{value: 'a', label: 'A'}]}})];
		const settings = settingsForChannel(await load(''), notes, now);
		// Each default the channel cannot run gives way to its first stand-in that it can.
		expect(settings.views).toEqual([{name: 'New this week', query: 'created:>=-7d'}, {name: 'Unassigned', query: 'owner:none'}, ...DEFAULT_VIEWS.slice(2)]);
		expect(settings.problems).toEqual([]);
	});

	it('a channel\'s own view replacing a default is checked like any of its views', async () => {
		const settings = settingsForChannel(await load('channels:', '  bugs:', '    views:', '      - name: Inbox', '        query: stat:new'), {id: 'bugs', fields: demoFields}, now);
		expect(settings.problems).toEqual([expect.stringMatching(/^config\.yaml line 5: channels\.bugs\.views\[0\]\.query: stat is not a field of this channel; known: /)]);
		expect(settings.views.map(view => view.name)).toEqual(['Inbox', 'Unassigned', 'Follow-ups', 'All', 'Review']);
	});

	it('hotkeys are resolved for the channel; a refused one names its line and keeps the default', async () => {
		const settings = settingsForChannel(await load('hotkeys:', '  owner: w', '  status: e', '  sevrity: x'), demoFields, now);
		expect(settings.hotkeys).toEqual({owner: 'w', status: 's', severity: 'v', points: 'p', area: 'a', due: 'd'});
		expect(settings.problems).toEqual([
			'config.yaml line 3: hotkeys.status: e is already the list\'s key to edit a field of the row; using the default',
			'config.yaml line 4: hotkeys.sevrity: "sevrity" is not a field of this channel; fields: ticket, title, description, status, owner, severity, points, area, due, reporter; using the default',
		]);
	});
});

describe('views by channel, default view and channel, columns', () => {
	const tasks = [fieldOf({key: 'name', type: 'text'}), fieldOf({key: 'state', type: 'select', config: {options: [{value: 'open', label: 'Open'}]}})];
	const bugs = {id: 'bugs', fields: demoFields};

	it('a view saved on one channel is that channel\'s: another channel neither shows it nor warns about it', async () => {
		const loaded = await load('channels:', '  bugs:', '    views:', '      - name: Sev one', '        query: severity:s1 sort:-due');
		expect(loaded.problems).toEqual([]);
		expect(settingsForChannel(loaded, bugs, now).views.at(-1)).toEqual({name: 'Sev one', query: 'severity:s1 sort:-due'});
		const other = settingsForChannel(loaded, {id: 'tasks', fields: tasks}, now);
		expect(other.problems).toEqual([]);
		expect(other.views.map(view => view.name)).not.toContain('Sev one');
	});

	it('the older top-level list is still read: each channel gets the views it can run, and no warning for the others', async () => {
		const loaded = await load('views:', '  - name: Sev one', '    query: severity:s1', '  - name: Open tasks', '    query: state:open');
		const onBugs = settingsForChannel(loaded, bugs, now);
		expect(onBugs.views.map(view => view.name)).toEqual(['Inbox', 'Unassigned', 'Follow-ups', 'All', 'Review', 'Sev one']);
		expect(onBugs.problems).toEqual([]);
		const onTasks = settingsForChannel(loaded, {id: 'tasks', fields: tasks}, now);
		expect(onTasks.views.map(view => view.name)).toEqual(['New this week', 'Recently changed', 'Follow-ups', 'All', 'Review', 'Open tasks']);
		expect(onTasks.problems).toEqual([]);
	});

	it('reads default_channel and default_view, the channel\'s own default_view first', async () => {
		const loaded = await load('default_channel: bugs', 'default_view: All', 'channels:', '  bugs:', '    default_view: unassigned');
		expect(loaded.problems).toEqual([]);
		expect(loaded.config.defaultChannel).toBe('bugs');
		expect(loaded.config.defaultView).toBe('All');
		expect(settingsForChannel(loaded, bugs, now).defaultView).toBe('Unassigned');
		expect(settingsForChannel(loaded, {id: 'tasks', fields: tasks}, now).defaultView).toBe('All');
	});

	it('a default view that names no view is a problem naming its key; one of another channel is not', async () => {
		const loaded = await load('default_view: Mine', 'channels:', '  bugs:', '    default_view: Nope', '  tasks:', '    views:', '      - name: Mine', '        query: state:open');
		expect(settingsForChannel(loaded, bugs, now).problems).toEqual([expect.stringMatching(/^config\.yaml line 4: channels\.bugs\.default_view: no view of this channel is named "Nope"; views: Inbox, .*; not used$/)]);
		const typo = await load('default_view: Inbx');
		expect(settingsForChannel(typo, bugs, now).problems).toEqual([expect.stringMatching(/^config\.yaml line 1: default_view: no view is named "Inbx"; views: Inbox, Unassigned, Follow-ups, All, Review; not used$/)]);
		expect(settingsForChannel(await load('default_view: Mine', 'channels:', '  tasks:', '    views:', '      - name: Mine', '        query: state:open'), bugs, now).problems).toEqual([]);
	});

	it('columns are chosen per view; a key the channel lacks is named and left out of them', async () => {
		const loaded = await load('channels:', '  bugs:', '    views:', '      - name: Triage', '        query: status:new', '        columns: [ticket, Status, colour, owner]');
		const settings = settingsForChannel(loaded, bugs, now);
		expect(settings.views.at(-1)).toEqual({name: 'Triage', query: 'status:new', columns: ['ticket', 'status', 'owner']});
		expect(settings.problems).toEqual([expect.stringMatching(/^config\.yaml line 6: channels\.bugs\.views\[0\]\.columns: colour is not a field of this channel; known: ticket, .*; left out of the columns$/)]);
		expect((await load('views:', '  - name: A', '    query: ""', '    columns: []')).problems).toEqual(['config.yaml line 4: views[0].columns: must name at least one field; view left out']);
	});

	it('channels of the wrong shape are named with their keys', async () => {
		expect((await load('channels: [bugs]')).problems).toEqual(['config.yaml line 1: channels: must be a map of channel id to its settings (views, default_view); ignored']);
		expect((await load('channels:', '  bugs: 3')).problems).toEqual(['config.yaml line 2: channels.bugs: must be a map of settings (keys: views, default_view); ignored']);
		expect((await load('channels:', '  bugs:', '    colour: red')).problems).toEqual(["config.yaml line 3: channels.bugs: unknown key 'colour' (keys: views, default_view); ignored"]);
	});
});

describe('saving a view', () => {
	const mode = (file: string) => statSync(file).mode & 0o777;

	it('on a channel: written under channels.ID.views (the new form), the older top-level list left as it was', async () => {
		const file = configFile('# mine', 'views:', '  - name: Old', '    query: owner:ren');
		expect(await saveView('Sev one', 'severity:s1', file, 'bugs')).toEqual({ok: true, path: file});
		expect((await saveView('sev ONE', 'severity:s1,s2', file, 'bugs')).ok).toBe(true);
		expect((await saveView('Mine', 'state:open', file, 'tasks')).ok).toBe(true);
		expect(readFileSync(file, 'utf8')).toBe([
			'# mine', 'views:', '  - name: Old', '    query: owner:ren',
			'channels:', '  bugs:', '    views:', '      - name: Sev one', '        query: severity:s1,s2',
			'  tasks:', '    views:', '      - name: Mine', '        query: state:open', '',
		].join('\n'));
		const loaded = await loadConfig(file);
		expect(loaded.problems).toEqual([]);
		expect(loaded.config.channels).toEqual({bugs: {views: [{name: 'Sev one', query: 'severity:s1,s2'}]}, tasks: {views: [{name: 'Mine', query: 'state:open'}]}});
		expect(await saveView('A', 'x', configFile('channels: 3'), 'bugs')).toEqual({ok: false, message: 'cannot save the view: channels in config.yaml is not a map'});
		expect(await saveView('A', 'x', configFile('channels:', '  bugs: [a]'), 'bugs')).toEqual({ok: false, message: 'cannot save the view: channels.bugs in config.yaml is not a map'});
	});

	it('creates the file and its folders, private, and loading finds the view', async () => {
		const file = path.join(folder(), 'conf', 'sift', 'config.yaml');
		expect(await saveView('Sev one', 'severity:s1 sort:-due', file)).toEqual({ok: true, path: file});
		expect(readFileSync(file, 'utf8')).toBe('views:\n  - name: Sev one\n    query: severity:s1 sort:-due\n');
		expect(mode(file)).toBe(0o600);
		expect(mode(path.dirname(file))).toBe(0o700);
		expect((await loadConfig(file)).config.views.at(-1)).toEqual({name: 'Sev one', query: 'severity:s1 sort:-due'});
	});

	it('keeps comments and layout; a view of that name (any case) gets the new query, else one is added', async () => {
		const file = configFile('# my settings', 'theme: mono # no colours', 'views:', '  # the ones I use', '  - name: Mine', '    query: owner:aiko # mine', 'model: gpt-5.2');
		expect((await saveView('mine', '-owner:none sort:-due', file)).ok).toBe(true);
		expect((await saveView('Blockers', 'severity:s1', file)).ok).toBe(true);
		expect(readFileSync(file, 'utf8')).toBe([
			'# my settings',
			'theme: mono # no colours',
			'views:',
			'  # the ones I use',
			'  - name: Mine',
			'    query: -owner:none sort:-due # mine',
			'  - name: Blockers',
			'    query: severity:s1',
			'model: gpt-5.2',
			'',
		].join('\n'));
		expect((await loadConfig(file)).problems).toEqual([]);
	});

	it('adds views to a file without them, and saves a default view\'s name as an override', async () => {
		const file = configFile('theme: mono');
		expect((await saveView('Inbox', 'status:new,triaged', file)).ok).toBe(true);
		expect(readFileSync(file, 'utf8')).toBe('theme: mono\nviews:\n  - name: Inbox\n    query: status:new,triaged\n');
		expect((await loadConfig(file)).config.views[0]).toEqual({name: 'Inbox', query: 'status:new,triaged'});
		const empty = configFile('views:');
		expect((await saveView('All open', '', empty)).ok).toBe(true);
		expect((await loadConfig(empty)).config.views.at(-1)).toEqual({name: 'All open', query: ''});
	});

	it('makes an existing file private and replaces it whole, leaving no temporary file', async () => {
		const file = configFile('theme: mono');
		chmodSync(file, 0o644);
		expect((await saveView('A', 'owner:ren', file)).ok).toBe(true);
		expect(mode(file)).toBe(0o600);
		expect(readdirSync(path.dirname(file))).toEqual(['config.yaml']);
	});

	it('follows a symlink, so a dotfiles link stays a link', async () => {
		const target = configFile('theme: mono');
		const link = path.join(folder(), 'config.yaml');
		symlinkSync(target, link);
		expect((await saveView('A', 'owner:ren', link)).ok).toBe(true);
		expect(readFileSync(target, 'utf8')).toContain('name: A');
		expect(readFileSync(link, 'utf8')).toBe(readFileSync(target, 'utf8'));
	});

	it('refuses a bad name, and leaves the file alone', async () => {
		const file = configFile('theme: mono');
		expect(await saveView(' ', 'x', file)).toEqual({ok: false, message: 'cannot save the view: a view name cannot be empty'});
		expect(await saveView('a\nb', 'x', file)).toEqual({ok: false, message: 'cannot save the view: a view name cannot hold control characters'});
		expect(readFileSync(file, 'utf8')).toBe('theme: mono\n');
	});

	it('refuses to touch a file with an error, or of another shape, saying where', async () => {
		const broken = configFile('theme: mono', 'views: [unclosed');
		const result = await saveView('A', 'x', broken);
		expect(result.ok).toBe(false);
		expect(!result.ok && result.message).toMatch(/^cannot save the view until config\.yaml is fixed: config\.yaml line \d: /);
		expect(readFileSync(broken, 'utf8')).toBe('theme: mono\nviews: [unclosed\n');
		expect(await saveView('A', 'x', configFile('- a list'))).toEqual({ok: false, message: 'cannot save the view: config.yaml is not a map of settings'});
		expect(await saveView('A', 'x', configFile('views: Inbox'))).toEqual({ok: false, message: 'cannot save the view: views in config.yaml is not a list'});
	});

	it('says so when the file cannot be read or written', async () => {
		const dir = folder();
		mkdirSync(path.join(dir, 'config.yaml'));
		const unreadable = await saveView('A', 'x', path.join(dir, 'config.yaml'));
		expect(!unreadable.ok && unreadable.message).toBe('cannot save the view: config.yaml is a directory, not a regular file');
		const blocked = path.join(folder(), 'file');
		writeFileSync(blocked, '');
		const unwritable = await saveView('A', 'x', path.join(blocked, 'config.yaml'));
		expect(!unwritable.ok && unwritable.message).toMatch(/^cannot save the view: config\.yaml cannot be written \(/);
		expect(existsSync(path.join(blocked, 'config.yaml'))).toBe(false);
	});

	it('refuses a file too large to read', async () => {
		const file = configFile(`instruction: ${'x'.repeat(CONFIG_MAX_BYTES)}`);
		expect(await saveView('A', 'x', file)).toEqual({ok: false, message: 'cannot save the view: config.yaml is larger than 256 KiB'});
	});
});

describe('the config file in docs/reference.md', () => {
	it('its table names every setting the file takes', () => {
		const reference = readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'reference.md'), 'utf8');
		const section = reference.slice(reference.indexOf('## Config file'), reference.indexOf('**A channel\'s tabs**'));
		const documented = new Set([...section.matchAll(/^\| `([a-z_]+)`(?:, `([a-z_]+)`)?/gm)].flatMap(match => [match[1], match[2]]).filter(Boolean));
		expect(SETTING_KEYS.filter(key => !documented.has(key))).toEqual([]);
	});
});
