// The config's `sync: {live: true}` on the built app in a pseudo-terminal: a channel linked to the
// fake GitHub, the TUI open on it with a short injected interval; an issue edited on GitHub reaches
// the open screen by the loop's next round, with no key pressed, and the app exits with the loop stopped;
// a first pull made by the loop shows its progress (records, rate, time left) in the header.

import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {openAsyncStore} from '../../store/api.js';
import {siftAsync, tempDir} from '../support/cli.js';
import {startFakeGithub, FIXTURE_REPO, type FakeGithub} from '../support/fake-github.js';
import {suiteLauncher} from '../support/pty-fixtures.js';

describe('live sync in the TUI', () => {
	const launch = suiteLauncher();
	let fake: FakeGithub;
	beforeEach(async () => {
		fake = await startFakeGithub();
	});
	afterEach(async () => {
		await fake.stop();
		fake.assertClean();
	});

	it('shows a GitHub edit in the open screen within a round of the loop', async () => {
		const dir = tempDir('sift-pty-sync-live-');
		const db = path.join(dir, 'sift.db');
		const env = {GITHUB_TOKEN: fake.token, GH_TOKEN: '', SIFT_GITHUB_API: fake.url, SIFT_NO_GH: '1', XDG_CONFIG_HOME: dir, SIFT_STATE_DIR: path.join(dir, 'state')};
		expect((await siftAsync(['sync', 'add', 'github', FIXTURE_REPO, '--db', db], env)).code).toBe(0);
		expect((await siftAsync(['sync', 'rust', '--db', db], env)).code).toBe(0);
		// The issue on the list's first row: the newest.
		const store = await openAsyncStore(db);
		const first = (await store.listPage('rust', {limit: 1})).items[0]!;
		const number = Number((await store.readItem('rust', first.id)).values.number);
		await store.close();

		const config = path.join(dir, 'config.yaml');
		writeFileSync(config, 'sync:\n  live: true\n  interval: 300ms\n');
		const app = launch({args: ['--db', db, '--channel', 'rust', '--config', config], cols: 140, rows: 30, env});
		await app.waitFor(/⇅ rust-lang\/rust · pulled/);
		const requestsBefore = fake.requests.length;
		fake.edit(number, issue => {
			issue.title = 'Edited on GitHub meanwhile';
		});
		// No key pressed: the loop's next round pulls it, the channel's event shows it.
		await app.waitFor('Edited on GitHub meanwhile', 15_000, 'the GitHub edit on the open screen');
		expect(fake.requests.length).toBeGreaterThan(requestsBefore);
		// The loop ends with the screen: the app exits on q, nothing keeps it alive.
		expect(await app.quit()).toBe(0);
	});

	it('shows a first pull\'s progress in the header while the live sync pulls', async () => {
		const dir = tempDir('sift-pty-sync-progress-');
		const db = path.join(dir, 'sift.db');
		const env = {GITHUB_TOKEN: fake.token, GH_TOKEN: '', SIFT_GITHUB_API: fake.url, SIFT_NO_GH: '1', XDG_CONFIG_HOME: dir, SIFT_STATE_DIR: path.join(dir, 'state')};
		// Linked, never pulled: the TUI's live sync makes the first pull (300 issues, three pages).
		expect((await siftAsync(['sync', 'add', 'github', FIXTURE_REPO, '--db', db], env)).code).toBe(0);
		// The gate: the comment listing, read after every issue page, is held unanswered, so the round stays under way.
		const gate = fake.holdNext((method, route) => method === 'GET' && route.endsWith('/issues/comments'));
		const config = path.join(dir, 'config.yaml');
		writeFileSync(config, 'sync:\n  live: true\n  interval: 300ms\n');
		const app = launch({args: ['--db', db, '--channel', 'rust', '--config', config], cols: 160, rows: 30, env});
		await gate;
		// Items, their total (from GitHub's last page link), the rate and the time left, in the header's sync words.
		const screen = await app.waitFor(/⇅ rust-lang\/rust · pulling \d+\/300 records \([\d,]+\/s, about \d+ s left\)/, 15_000, 'the first pull\'s progress in the header');
		expect(screen.split('\n')[0]).toMatch(/pulling \d+\/300 records/);
		// The held request is dropped as the loop stops with the screen.
		expect(await app.quit()).toBe(0);
	});
});
