// The tracker's comments in the record pane and the full-screen record, on the built app in a
// pseudo-terminal: a channel linked to a tracker pulls a record with two comments through the
// sync engine; the pane shows "Comments (2)" under the fields with each author, date and body
// (markdown drawn), oldest first; an escape sequence in a comment reaches the terminal as a
// visible mark, never raw.

import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {ptyDemo} from '../support/pty-fixtures.js';
import {KEYS} from '../support/pty.js';

const demo = ptyDemo(3, 'sift-pty-comments-');
const T0 = '2026-03-01T10:00:00.000Z';
const HOSTILE = 'Pasted: \u001B]0;pwned\u0007 and \u001B[31mred\u001B[0m';

describe('pulled comments in a pseudo-terminal', () => {
	let store: AsyncStore;

	beforeAll(async () => {
		store = await openAsyncStore(demo.db.dbPath);
		await store.sync.link({channel_id: 'bugs', tracker: 'github', remote: 'acme/app', key_field: 'ticket', fields: [{key: 'title', remote: 'title', kind: 'scalar'}]});
		await store.sync.applyRemote('bugs', [{remote_id: 'GH-1', values: {title: 'Crash on save'}, created_at: T0, updated_at: T0, comments: [
			{remote_id: '902', author: 'mallory', body: HOSTILE, created_at: '2026-03-03T09:30:00Z', updated_at: '2026-03-03T09:30:00Z'},
			{remote_id: '901', author: 'aiko', body: 'Seen on **macOS** too', created_at: '2026-03-02T08:15:00Z', updated_at: '2026-03-02T08:15:00Z'},
		]}]);
	});

	afterAll(async () => {
		await store?.close();
	});

	it('shows the comments under the fields in the pane and full screen, escapes drawn as marks', async () => {
		const app = demo.launch({args: ['--db', demo.db.dbPath], cols: 120, rows: 40, env: {SIFT_STATE_DIR: demo.db.stateDir}});
		// The pulled record is the newest: the top row.
		await app.waitFor('GH-1');
		app.press(KEYS.enter);
		// The pane, under the list here, shows the section's head under the fields.
		const pane = await app.waitFor(text => text.includes('Comments (2)') && text.includes('Crash on save'), 15_000, 'the comments in the pane');
		expect(pane.indexOf('Comments (2)')).toBeGreaterThan(pane.indexOf('Description'));
		app.press('Z');
		const full = await app.waitFor(text => /Esc back/.test(text) && text.includes('Seen on macOS too') && text.includes('mallory'), 15_000, 'the comments full screen');
		// Oldest first, each under its author and time; the markdown drawn.
		expect(full.indexOf('aiko · 2026-03-02 08:15')).toBeGreaterThan(full.indexOf('Comments (2)'));
		expect(full.indexOf('Seen on macOS too')).toBeGreaterThan(full.indexOf('aiko · 2026-03-02 08:15'));
		expect(full.indexOf('mallory · 2026-03-03 09:30')).toBeGreaterThan(full.indexOf('Seen on macOS too'));
		expect(full).toContain('Pasted: ␛]0;pwned␇ and ␛[31mred␛[0m');
		expect(app.raw).not.toContain('\u001B]0;pwned');
		expect(app.raw).not.toContain('\u001B[31mred');
		expect(await app.quit()).toBe(0);
	});
});
