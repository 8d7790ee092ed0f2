// `|` on the built app in a real pseudo-terminal: the column chooser hides a field of the view
// (its label leaves the list's header line), the choice survives a restart (the state directory's
// columns.json), and showing it again brings the column back.

import {existsSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {ptyDemo} from '../support/pty-fixtures.js';
import {KEYS, type PtyApp} from '../support/pty.js';

const demo = ptyDemo(60, 'sift-columns-');

function start(): PtyApp {
	return demo.launch({args: ['--db', demo.db.dbPath], cols: 200, rows: 30, env: {SIFT_STATE_DIR: demo.db.stateDir, XDG_CONFIG_HOME: path.join(demo.db.dir, 'no-config')}});
}

/** The list's header line of column labels (it starts with the ticket's). */
const labelsLine = (screen: string) => screen.split('\n').find(line => /^\s*Ticket\s+Title\b/.test(line)) ?? '';

describe('the column chooser (|)', () => {
	it('hides a column of the view, keeps the choice across a restart, and shows it again', async () => {
		let app = start();
		await app.waitFor(screen => labelsLine(screen).includes('Severity'), 10_000, 'the Severity column');
		app.type('|');
		await app.waitFor('Columns of ');
		// ticket, title, description, status, owner, severity: the sixth field.
		for (let step = 0; step < 5; step++) app.type('j');
		app.press(KEYS.space);
		await app.waitFor('[ ] Severity (severity)');
		app.press(KEYS.enter);
		await app.waitFor('Columns kept for the view');
		expect(labelsLine(app.screen())).not.toContain('Severity');
		expect(labelsLine(app.screen())).toContain('Owner');
		expect(existsSync(path.join(demo.db.stateDir, 'columns.json'))).toBe(true);
		expect(await app.quit()).toBe(0);

		app = start();
		await app.waitFor(screen => labelsLine(screen).includes('Owner') && !labelsLine(screen).includes('Severity') && /row 1\b/.test(screen), 10_000, 'the kept columns after a restart');
		app.type('|');
		// The hidden field is listed last: k from the top wraps to it.
		app.type('k');
		app.press(KEYS.space);
		await app.waitFor('[x] Severity (severity)');
		app.press(KEYS.enter);
		await app.waitFor(screen => labelsLine(screen).includes('Severity'), 10_000, 'the Severity column again');
		expect(await app.quit()).toBe(0);
	});
});
