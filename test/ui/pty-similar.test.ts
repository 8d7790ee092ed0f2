// The Similar pane (S) on the built app in a pseudo-terminal, over a channel with a duplicate_of
// relation that sets the status `duplicate`: the newest report's candidates are listed with their
// scores, titles and shared words (a hostile title escaped); `d` sets the relation and its status
// through the record's edit, seen in the store and the footer; `n` marks another candidate not a
// duplicate, which leaves the pane and stays gone when it is opened again; Enter opens a candidate.

import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {suiteLauncher} from '../support/pty-fixtures.js';
import {KEYS} from '../support/pty.js';
import {ISSUES_WITH_DUPLICATES as ISSUES} from '../support/duplicate-sets.js';
import {tempDir} from '../support/temp.js';


const EVIL = 'Exporter \u001B[31mred\u001B[0m segfault report';

/** Oldest first: two reports the newest one resembles, one with a hostile title, and filler. */
const ITEMS = [
	{ticket: 'I-1', title: 'Segfault in libcsv on merged cells', description: 'The exporter crashes with a segfault in libcsv when the spreadsheet has merged cells.'},
	{ticket: 'I-2', title: 'Spreadsheet export slow', description: 'Exporting a spreadsheet with merged cells takes minutes in libcsv.'},
	{ticket: 'I-3', title: EVIL, description: 'A segfault in the exporter again.'},
	...Array.from({length: 8}, (_, n) => ({ticket: `F-${n}`, title: `Note ${n}`, description: `the app shows the list and the list is fine ${n}`})),
	{ticket: 'I-9', title: 'Export to CSV segfaults', description: 'Segfault in libcsv: exporting a spreadsheet with merged cells crashes the exporter.'},
].map(values => ({values: {...values, status: 'new'}}));

describe('the Similar pane in a pseudo-terminal', () => {
	const launch = suiteLauncher();
	let store: AsyncStore;
	let dbPath: string;
	let stateDir: string;
	const ids = new Map<string, string>();

	beforeAll(async () => {
		const dir = tempDir('sift-pty-similar-');
		dbPath = `${dir}/similar.db`;
		stateDir = `${dir}/state`;
		store = await openAsyncStore(dbPath, {create: true});
		await store.importChannel({channel: ISSUES, items: ITEMS});
		for (const item of (await store.listPage('issues', {limit: 50})).items) ids.set(String(item.preview.ticket), item.id);
	});

	afterAll(async () => {
		await store?.close();
	});

	it('lists the candidates; d sets the duplicate and its status, n leaves a candidate out for good, Enter opens one', async () => {
		const app = launch({args: ['--db', dbPath], cols: 140, rows: 30, env: {SIFT_STATE_DIR: stateDir}});
		await app.waitFor('I-9');
		// The cursor opens on the newest report, I-9.
		app.press('S');
		const pane = await app.waitFor(/Similar to I-9: \d+ · d duplicate/);
		const lines = pane.split('\n');
		const first = lines.find(line => line.includes('› '))!;
		expect(first).toMatch(/› +\d+\.\d\d {2}I-1 {2}Segfault in libcsv on merged cells/);
		expect(first).toMatch(/libcsv|segfault|merged/);
		expect(pane).toContain('I-2  Spreadsheet export slow');
		expect(pane).toMatch(/shared: .*libcsv/);
		expect(pane).toContain('Exporter');
		expect(app.raw).not.toContain('\u001B[31mred');

		// d: the relation set on I-9 to I-1 (the edit a picker makes), and with it the status it names.
		app.press('d');
		await app.waitFor('Duplicate of', 10_000, 'the edit\'s word in the footer');
		await expect.poll(async () => (await store.readItem('issues', ids.get('I-9')!)).values).toMatchObject({duplicate_of: ids.get('I-1'), status: 'duplicate'});

		// n on I-2: marked not a duplicate; it leaves the list, which is read again.
		const at = pane.split('\n').filter(line => /^\s*(›|\s) +\d+\.\d\d {2}/.test(line)).findIndex(line => line.includes('I-2  '));
		expect(at).toBeGreaterThan(0);
		app.press(...Array.from({length: at}, () => 'j'));
		await app.waitFor(current => current.split('\n').some(line => line.includes('› ') && line.includes('I-2  Spreadsheet export slow')));
		app.press('n');
		await app.waitFor(current => current.includes('not duplicates') && !current.includes('Spreadsheet export slow'), 10_000, 'I-2 gone from the pane');

		// Closed and opened again: I-2 stays gone.
		app.press(KEYS.escape);
		await app.waitFor(current => !current.includes('Similar to I-9'));
		app.press('S');
		const again = await app.waitFor(/Similar to I-9: \d+ · /);
		expect(again).toContain('Segfault in libcsv on merged cells');
		expect(again).not.toContain('Spreadsheet export slow');

		// Enter: the pane closes and the list opens on the candidate, its record in the pane.
		app.press(KEYS.enter);
		await app.waitFor(current => !current.includes('Similar to I-9') && current.includes('The exporter crashes with a segfault in libcsv'), 10_000, 'I-1 open in the record pane');
		expect(await app.quit()).toBe(0);
	});
});
