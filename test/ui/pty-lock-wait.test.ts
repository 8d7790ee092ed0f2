// The TUI while another process holds the store's write lock (a long import, say): an edit waits
// off the event loop, the footer says so, keys go on moving the cursor, and the edit lands once
// the lock is released. The built app in a real pseudo-terminal; the holder is its own process.

import {describe, expect, it} from 'vitest';
import {holdWriteLock} from '../support/lock-holder.js';
import {idOfTicket, ptyDemo} from '../support/pty-fixtures.js';
import {rowOf} from '../support/pty.js';

const demo = ptyDemo(60, 'sift-pty-lock-');
const ticket = (n: number) => `BUG-${String(n).padStart(4, '0')}`;
const WAITING = 'Waiting for another sift process to finish writing…';

describe('the TUI under another process\'s write lock', () => {
	it('s 2 waits with a notice; j j j still moves at once; the edit lands on release', async () => {
		const second = demo.store.getChannel('bugs').fields.find(field => field.key === 'status')!.config.options![1]!.value;
		const name = ticket(60);
		const id = idOfTicket(demo.store, name);
		if (demo.store.readItem('bugs', id).values.status === second) {
			demo.store.editItem({channelId: 'bugs', itemId: id, values: {status: 'new'}, actor: {kind: 'human'}});
		}

		const app = demo.launch({args: ['--db', demo.db.dbPath], cols: 140, rows: 36, env: {SIFT_STATE_DIR: demo.db.stateDir}});
		await app.waitFor(name);
		const holder = await holdWriteLock(demo.db.dbPath);
		try {
			app.press('s', '2');
			await app.waitFor(WAITING, 3000, 'the lock-wait notice');
			// Keys act while the edit waits: each move is drawn while the other process still holds the
			// lock (a wait that held the event loop would draw none of them before the release below).
			// (The pick has already moved the cursor on to row 2: advance_after_edit.)
			for (const row of [3, 4, 5]) {
				app.press('j');
				await app.waitFor(screen => screen.includes(`row ${row} `), 10_000, `row ${row} while the edit waits`);
			}

			expect(app.screen()).toContain(WAITING);

			expect(demo.store.readItem('bugs', id).values.status).not.toBe(second);
			await holder.release();
			const screen = await app.waitFor(`${name}: Status`, 5000);
			expect(screen).not.toContain(WAITING);
			expect(rowOf(screen, name)).toContain('Triaged');
			expect(demo.store.readItem('bugs', id).values.status).toBe(second);
			expect(await app.quit()).toBe(0);
		} finally {
			holder.kill();
		}
	});
});
