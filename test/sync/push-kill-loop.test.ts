// `sift sync push` SIGKILLed at 10 seeded random points in its crash window (the bench runs 200:
// test/bench/sync-github.ts), on SQLite and PostgreSQL: no change is sent twice, none is lost.

import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {ensureBuilt, siftAsync, tempDir} from '../support/cli.js';
import {FIXTURE_REPO, startFakeGithub, type FakeGithub} from '../support/fake-github.js';
import {cliStoreTargets} from '../support/pg.js';
import {pushKillLoop} from '../support/push-kill-loop.js';

const TARGETS = cliStoreTargets('sift-kill-loop-');

beforeAll(() => ensureBuilt());

describe.each(TARGETS)('a push killed at random points on $name', target => {
	let fake: FakeGithub;
	beforeAll(async () => target.setUp());
	afterAll(async () => target.tearDown());
	beforeEach(async () => {
		fake = await startFakeGithub();
	});
	afterEach(async () => {
		await fake.stop();
		fake.assertClean();
	});

	it('sends every change exactly once across 10 kills', async () => {
		const db = await target.fresh();
		const env = {GITHUB_TOKEN: fake.token, GH_TOKEN: '', SIFT_GITHUB_API: fake.url, SIFT_NO_GH: '1', XDG_CONFIG_HOME: tempDir('sift-config-')};
		expect((await siftAsync(['sync', 'add', 'github', FIXTURE_REPO, '--db', db], env)).code).toBe(0);
		expect((await siftAsync(['sync', 'rust', '--db', db], env)).code).toBe(0);
		const result = await pushKillLoop({fake, db, channel: 'rust', env, points: 10, seed: 42});
		expect(result).toMatchObject({points: 10, changes: 30, duplicates: 0, lost: 0});
		// The seed puts most points in the window (a round whose push ends first still counts its changes).
		expect(result.killed).toBeGreaterThan(0);
	// Twelve CLI processes and their start-up under a loaded machine: a generous guard, not a speed goal.
	}, 600_000);
});
