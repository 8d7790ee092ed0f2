// 150 `PgDn` down a 6,000-item channel with V8's heap capped at 48 MB (React's production build):
// the app keeps drawing and quits cleanly (the vendored Ink's caches stay bounded)

import {describe, expect, it} from 'vitest';
import {ptyDemo} from '../support/pty-fixtures.js';
import {KEYS} from '../support/pty.js';

// The TUI's memory stays bounded while it pages through rows it has never drawn: with V8's heap
// capped at 48 MB, 150 pages down a 6,000-item channel (every frame new rows) must not run the
// app out of memory. The vendored Ink once kept the styled characters of 10,000 lines across
// frames (an object per cell, ~1.4 M objects), and died here. React's production build, as a
// person's `sift` runs it (the suite's NODE_ENV=test would pick the development build).

const demo = ptyDemo(6000, 'sift-pty-memory-');

describe('memory while paging', () => {
	it('150 PgDn at 140×40 with the heap capped at 48 MB: the app keeps drawing and quits cleanly', async () => {
		const app = demo.launch({args: ['--db', demo.db.dbPath], cols: 140, rows: 40, nodeArgs: ['--max-old-space-size=48'], env: {SIFT_STATE_DIR: demo.db.stateDir, NODE_ENV: 'production'}});
		await app.waitFor(/row 1\b/, 20_000);
		const rowOf = (screen: string) => Number(/row ([\d,]+)/.exec(screen)?.[1]?.replaceAll(',', '') ?? 0);
		// One key at a time, the next once the page it asked for is drawn (keys sent together are read as one chunk).
		for (let page = 0; page < 150; page++) {
			const before = rowOf(app.screen());
			app.press(KEYS.pageDown);
			await app.waitFor(screen => rowOf(screen) > before, 30_000, `page ${page + 1} drawn`);
		}

		const deep = await app.waitFor(screen => rowOf(screen) > 4500, 30_000, 'the cursor far down');
		expect(deep).toMatch(/BUG-\d{4}/);
		expect(await app.quit()).toBe(0);
	});
});
