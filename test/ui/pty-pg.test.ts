// Two TUIs on one PostgreSQL database: an edit in one shows in the other within 1 s.

import {expect, it} from 'vitest';
import {bugsChannel} from '../../demo-data/generate.js';
import {describePg} from '../support/pg.js';
import {ptyPgDemo} from '../support/pty-fixtures.js';
import {KEYS, rowOf} from '../support/pty.js';

// Two people's TUIs on one PostgreSQL database, each the built app in its own pseudo-terminal: an
// edit made in one shows in the other within a second (LISTEN/NOTIFY, then a read by cursor).

describePg('two TUIs on one PostgreSQL database', () => {
	const demo = ptyPgDemo(30, 'sift-pty-pg-');

	it('an edit made in one shows in the other', async () => {
		const [one, other] = [demo.start(), demo.start()];
		await Promise.all([one.waitFor('BUG-0030'), other.waitFor('BUG-0030')]);
		const statusAt = bugsChannel.fields.filter(field => field.type !== 'formula').findIndex(field => field.key === 'status');
		one.press('e', ...Array.from({length: statusAt}, () => 'j'), KEYS.enter);
		await one.waitFor(screen => screen.includes('BUG-0030 · Status'));
		one.press(KEYS.down, KEYS.enter);
		const saved = await one.waitFor(/BUG-0030: Status .+ → .+ \(v2\)/);
		const [, before, after] = /BUG-0030: Status (.+?) → (.+?) \(v2\)/.exec(saved)!;
		expect(rowOf(saved, 'BUG-0030')).toContain(after);
		// How soon is a bench's question (test/bench/store-push.ts); here, that it shows.
		const seen = await other.waitFor(screen => rowOf(screen, 'BUG-0030').includes(after!), 10_000, `BUG-0030 ${before} → ${after} in the other TUI`);
		expect(seen).toMatch(/sift Bugs 30 items/);
	});

	it('a server that cannot be reached: one line naming the host, exit 1, the password not shown', async () => {
		const app = demo.launch({args: ['--db', 'postgres://triager:hunter2@127.0.0.1:1/sift'], cols: 120, rows: 30, env: {SIFT_STATE_DIR: demo.stateDir}});
		expect(await app.exited).toBe(1);
		// The exit can come before the last output has been drawn: wait for the line itself.
		await app.waitFor(/sift: cannot open the PostgreSQL store at .*127\.0\.0\.1/, 10_000, 'the one-line error naming the host');
		expect(app.raw).not.toContain('hunter2');
	});
});
