// `uuuu` in one write after four edits of one record (two of one field) takes all four back, at
// 80×24 and 200×60 (defect 4); `uu` after a one-row edit then a bulk edit of the same record takes
// back both.

import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {idOfTicket, ptyDemo} from '../support/pty-fixtures.js';

// Undo on the built app in a real pseudo-terminal, checked in the store: a burst of `u` sent in
// one write undoes as many edits as were pressed, on one record, in order.

const demo = ptyDemo(60, 'sift-pty-undo-');

/** A config that keeps the cursor on the edited row, so the four edits are of one record. */
function stayingConfig(): string {
	const home = path.join(demo.db.dir, 'config-staying');
	mkdirSync(path.join(home, 'sift'), {recursive: true});
	writeFileSync(path.join(home, 'sift', 'config.yaml'), 'advance_after_edit: false\n');
	return home;
}

const ticket = (n: number) => `BUG-${String(n).padStart(4, '0')}`;
const values = (name: string) => demo.store.readItem('bugs', idOfTicket(demo.store, name)).values;
const options = (key: string) => demo.store.getChannel('bugs').fields.find(field => field.key === key)!.config.options!.map(option => option.value);

describe('undo in a pseudo-terminal', () => {
	for (const [cols, rows, n] of [[80, 24, 60], [200, 60, 59]] as const) {
		it(`uuuu in one write takes back all four edits of one record (${cols}×${rows})`, async () => {
			const name = ticket(n);
			const before = values(name);
			const version = demo.store.readItem('bugs', idOfTicket(demo.store, name)).version;
			const app = demo.launch({args: ['--db', demo.db.dbPath], cols, rows, env: {SIFT_STATE_DIR: demo.db.stateDir, XDG_CONFIG_HOME: stayingConfig()}});
			await app.waitFor(name);
			if (n === 59) {
				app.press('j');
				await app.waitFor('row 2 ');
			}

			// Four edits of the newest row, two of them of the same field, each an option it does not hold.
			const pick = (key: string, not: unknown[]) => options(key).findIndex(value => !not.includes(value)) + 1;
			const status1 = pick('status', [before.status]);
			const status2 = pick('status', [before.status, options('status')[status1 - 1]]);
			const edits: Array<[string, number]> = [['s', status1], ['v', pick('severity', [before.severity])], ['s', status2], ['a', pick('area', [before.area])]];
			for (const [index, [hotkey, option]] of edits.entries()) {
				app.press(hotkey, String(option));
				await app.waitFor(screen => screen.includes(`(v${version + index + 1}) · u undoes`), 10_000, `edit ${index + 1} saved`);
			}

			expect(values(name)).not.toEqual(before);
			app.type('uuuu');
			await app.waitFor(screen => screen.includes('Undone:') && screen.includes(`(v${version + 8})`), 10_000, 'the fourth undo');
			expect(values(name)).toEqual(before);
			const screen = app.screen();
			expect(screen).not.toContain('keeps changing');
			expect(screen).not.toContain('Not undone');
			// A fifth u: nothing is left to take back.
			app.press('u');
			await app.waitFor('Nothing to undo');
			expect(await app.quit()).toBe(0);
		});
	}

	for (const [cols, rows, n] of [[80, 24, 50], [200, 60, 49]] as const) {
		it(`a one-row edit, then a bulk edit of the same record: uu takes back both (${cols}×${rows})`, async () => {
			const name = ticket(n);
			const before = values(name);
			const app = demo.launch({args: ['--db', demo.db.dbPath], cols, rows, env: {SIFT_STATE_DIR: demo.db.stateDir, XDG_CONFIG_HOME: stayingConfig()}});
			await app.waitFor(ticket(60));
			app.press(...Array.from({length: 60 - n}, () => 'j'));
			await app.waitFor(`row ${61 - n} `);
			const pick = (not: unknown[]) => options('status').findIndex(value => !not.includes(value)) + 1;
			const first = pick([before.status]);
			app.press('s', String(first));
			await app.waitFor(`${name}: Status`);
			// The same record marked (Space marks it and moves on), then its status set again on the marks.
			app.press(' ');
			await app.waitFor('1 marked');
			app.press('s', String(pick([before.status, options('status')[first - 1]])));
			await app.waitFor(/status: 1 item written, 0 conflicts, 0 refused/);
			expect(values(name).status).not.toBe(options('status')[first - 1]);
			app.type('uu');
			await app.waitFor(screen => /Undone: .*Status back to/.test(screen) || screen.includes('Not undone'), 10_000, 'the second undo');
			expect(app.screen()).not.toContain('Not undone');
			expect(values(name)).toEqual(before);
			expect(await app.quit()).toBe(0);
		});
	}
});
