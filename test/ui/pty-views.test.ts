// Views as tabs with counts, the Unassigned view, `:sort due` then `G`/`g`, `:BUG-0042` jumps,
// `:set` and `:view save`, a config file with errors.

import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {ptyDemo} from '../support/pty-fixtures.js';
import {KEYS, rowOf, type PtyApp} from '../support/pty.js';

// Views, the config file, the `:` line and sort on the built app in a real pseudo-terminal.

const demo = ptyDemo(600, 'sift-views-');

let configs = 0;

/** A config home of its own (so no person's config leaks in), holding `text` as sift/config.yaml when given. */
function configHome(text?: string): string {
	const home = path.join(demo.db.dir, `config-${++configs}`);
	mkdirSync(path.join(home, 'sift'), {recursive: true});
	if (text !== undefined) writeFileSync(path.join(home, 'sift', 'config.yaml'), text);
	return home;
}

function start(home = configHome(), size: {cols?: number; rows?: number} = {}): PtyApp {
	const app = demo.launch({args: ['--db', demo.db.dbPath], cols: size.cols ?? 140, rows: size.rows ?? 36, env: {SIFT_STATE_DIR: demo.db.stateDir, XDG_CONFIG_HOME: home}});
	return app;
}

/** The ticket on the row under the cursor (the inverse one). */
function selectedTicket(app: PtyApp): string | undefined {
	const buffer = app.term.buffer.active;
	for (let y = 0; y < app.term.rows; y++) {
		const line = buffer.getLine(buffer.viewportY + y);
		const text = line?.translateToString(true) ?? '';
		const at = text.search(/BUG-\d{4}/);
		if (at >= 0 && line!.getCell(at)!.isInverse()) return /BUG-\d{4}/.exec(text)![0];
	}

	return undefined;
}

/** Every ticket the list shows. */
const ticketsOn = (screen: string) => screen.split('\n').map(line => /^..(BUG-\d{4})/.exec(line)?.[1]).filter((ticket): ticket is string => ticket !== undefined);

describe('views, the config file, the : line and sort', () => {
	it('shows the default views as tabs with their counts; 2 lists the Unassigned view', async () => {
		const app = start();
		await app.waitFor('BUG-0600');
		const unassigned = demo.store.countMatches('bugs', 'owner:none -status:fixed,wont_fix');
		const inbox = demo.store.countMatches('bugs', 'status:new');
		const screen = await app.waitFor(`2 Unassigned ${unassigned.toLocaleString('en-US')}`);
		expect(screen).toContain(`1 Inbox ${inbox}`);
		expect(screen).toContain('4 All 600');
		app.press('2');
		const listed = await app.waitFor(text => /View: Unassigned/.test(text) && ticketsOn(text).length > 5, 10_000, 'the Unassigned view');
		// Sorted by severity (its order), and only rows with no owner that are still open.
		expect(listed).toContain('sort:severity');
		const expected = demo.store.listPage('bugs', {where: 'owner:none -status:fixed,wont_fix', sort: 'severity', limit: 5}).items.map(item => item.preview.ticket);
		expect(ticketsOn(listed).slice(0, 5)).toEqual(expected);
		for (const ticket of ticketsOn(listed)) {
			const line = rowOf(listed, ticket);
			expect(line).not.toMatch(/Fixed|Won't fix/);
		}

		expect(await app.quit()).toBe(0);
	});

	it(':sort due then G shows the last record of that order, and g the first', async () => {
		const app = start();
		await app.waitFor('BUG-0600');
		app.press(':');
		app.type('sort due');
		app.press(KEYS.enter);
		await app.waitFor('Sorted by due');
		const first = demo.store.listPage('bugs', {sort: 'due', limit: 1}).items[0]!.preview.ticket as string;
		const last = demo.store.listPage('bugs', {sort: 'due', from: 'end', limit: 1}).items.at(-1)!.preview.ticket as string;
		await app.waitFor(() => selectedTicket(app) === first, 10_000, `${first} under the cursor`);
		app.press('G');
		await app.waitFor(text => text.includes('The oldest records') && selectedTicket(app) === last, 10_000, `${last} under the cursor`);
		app.press('g');
		await app.waitFor(() => selectedTicket(app) === first, 10_000, `${first} under the cursor again`);
		// `/` keeps the sort in the query text.
		app.press('/');
		await app.waitFor('/ sort:due');
		app.press(KEYS.escape);
		expect(await app.quit()).toBe(0);
	});

	it(':BUG-0042 jumps to a record that is not loaded; an unknown name is refused', async () => {
		const app = start();
		await app.waitFor('BUG-0600');
		app.press(':');
		app.type('BUG-0042');
		app.press(KEYS.enter);
		await app.waitFor(() => selectedTicket(app) === 'BUG-0042', 10_000, 'BUG-0042 under the cursor');
		// The list goes on from there, both ways.
		app.press('j');
		await app.waitFor(() => selectedTicket(app) === 'BUG-0041', 10_000, 'BUG-0041');
		app.press('k', 'k');
		await app.waitFor(() => selectedTicket(app) === 'BUG-0043', 10_000, 'BUG-0043');
		app.press(':');
		app.type('BUG-9999');
		app.press(KEYS.enter);
		await app.waitFor('No item is named BUG-9999');
		app.press(':');
		app.type('sort description');
		app.press(KEYS.enter);
		await app.waitFor(/description cannot be sorted.*sortable: id, ticket/);
		expect(await app.quit()).toBe(0);
	});

	it(':set changes the row through the edit path; :view save stores the query and adds a tab', async () => {
		const home = configHome('# my views\ntheme: default\n');
		const app = start(home);
		await app.waitFor('BUG-0600');
		app.press('/');
		app.type('status:new sort:-points');
		app.press(KEYS.enter);
		await app.waitFor('Search: "status:new sort:-points"');
		app.press(':');
		app.type('view save Hot');
		app.press(KEYS.enter);
		await app.waitFor(/View Hot saved \(key 6\)/);
		await app.waitFor(/6 Hot \d+/);
		const file = readFileSync(path.join(home, 'sift', 'config.yaml'), 'utf8');
		expect(file).toContain('# my views');
		expect(file).toMatch(/name: Hot\n\s+query: status:new sort:-points/);
		const ticket = selectedTicket(app)!;
		app.press(':');
		app.type('set owner ren');
		app.press(KEYS.enter);
		await app.waitFor(`${ticket}: Owner`);
		const item = demo.store.listPage('bugs', {where: `ticket:${ticket}`, limit: 5}).items.find(candidate => candidate.preview.ticket === ticket)!;
		expect(item.preview.owner).toBe('ren');
		// :q quits.
		app.press(':');
		app.type('q');
		app.press(KEYS.enter);
		const exited = await app.exitWithin(10_000);
		expect(exited, app.screen()).toBe(0);
	});

	it('a config file with errors starts anyway and says what it ignored, with line and key', async () => {
		const app = start(configHome(['colour: red', 'timeout: -5', ''].join('\n')), {cols: 240});
		await app.waitFor('BUG-0600');
		await app.waitFor('2 problems in the config file');
		app.press(':');
		app.type('problems');
		app.press(KEYS.enter);
		const screen = await app.waitFor('Config file problems: 2');
		expect(screen).toContain("config.yaml line 1: unknown key 'colour'");
		expect(screen).toContain('config.yaml line 2: timeout: must be 1 second or more');
		// The defaults stand in: the four default tabs.
		app.press(KEYS.escape);
		await app.waitFor(text => !text.includes('Config file problems') && /1 Inbox.*2 Unassigned.*3 Follow-ups.*4 All/.test(text), 10_000, 'the list again, with the default tabs');
		expect(await app.quit()).toBe(0);

		// A view of the channel's own that it refuses is left out, and said; the other views stay.
		const other = start(configHome(['channels:', '  bugs:', '    views:', '      - name: Mine', '        query: sevrity:s1', '      - name: Mine too', '        query: owner:ren', ''].join('\n')), {cols: 200});
		await other.waitFor('1 problem in the config file');
		other.press(':');
		other.type('problems');
		other.press(KEYS.enter);
		const said = await other.waitFor('Config file problems: 1');
		expect(said).toMatch(/config\.yaml line 5: channels\.bugs\.views\[0\]\.query: sevrity is not a field of this channel/);
		other.press(KEYS.escape);
		await other.waitFor(/6 Mine too \d+/);
		expect(other.screen()).not.toMatch(/\d Mine \d/);
		expect(await other.quit()).toBe(0);
	});
});
