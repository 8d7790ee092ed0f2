import {existsSync} from 'node:fs';
import {afterAll, afterEach, beforeAll, expect, it} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {createTestDatabase, describePg, type TestDatabase} from '../support/pg.js';
import {CLI, launch, type PtyApp} from '../support/pty.js';
import {importDemo} from '../support/stores.js';
import {tempDir} from '../support/temp.js';

// Two people's review queues on one PostgreSQL database, each the built app in its own
// pseudo-terminal: a proposal accepted in one leaves the other's queue within a second (the
// proposal.accepted event, pushed by LISTEN/NOTIFY, reads the queue again).

let database: TestDatabase;
let url: string;
let stateDir: string;
let agentStore: AsyncStore;
const apps: PtyApp[] = [];
const RUN = 'run-review-pg';

describePg('two review queues on one PostgreSQL database', () => {
	beforeAll(async () => {
		if (!existsSync(CLI())) throw new Error(`${CLI()} is missing: run \`npm run build\` first (npm test does)`);
		database = await createTestDatabase();
		url = await database.freshSchemaUrl();
		await importDemo(url, 10);
		stateDir = tempDir('sift-pty-review-pg-');
		agentStore = await openAsyncStore(url);
		await agentStore.runs.start({id: RUN, channelId: 'bugs', itemIds: [], instruction: 'triage', startedAt: new Date().toISOString(), logPath: null, mode: 'propose'});
		// Two proposals, oldest item first: each a points value the item does not hold.
		const items = (await agentStore.listPage('bugs')).items.slice(0, 2);
		for (const item of items) {
			// eslint-disable-next-line no-await-in-loop
			await agentStore.editItem({channelId: 'bugs', itemId: item.id, values: {points: item.preview.points === 13 ? 1 : 13}, actor: {kind: 'agent', run_id: RUN}, expectedVersion: item.version, reason: 'sized by the agent'});
		}
	});

	afterEach(async () => {
		for (const app of apps.splice(0)) {
			app.kill();
			await app.exited; // eslint-disable-line no-await-in-loop
		}
	});

	afterAll(async () => {
		await agentStore?.close();
		await database?.drop();
	});

	const start = () => {
		const app = launch({args: ['--db', url], cols: 120, rows: 30, env: {SIFT_STATE_DIR: stateDir}});
		apps.push(app);
		return app;
	};

	it('an accept in one removes the proposal from the other within 1 s', async () => {
		const [one, other] = [start(), start()];
		await Promise.all([one.waitFor(/2 proposals/), other.waitFor(/2 proposals/)]);
		one.press('P');
		other.press('P');
		await Promise.all([one.waitFor('Proposal 1 of 2'), other.waitFor('Proposal 1 of 2')]);
		one.press('a');
		await one.waitFor('1 proposal accepted');
		const acceptedAt = Date.now();
		await other.waitFor('Proposal 1 of 1', 3000, 'the accepted proposal gone from the other queue');
		expect(Date.now() - acceptedAt).toBeLessThan(1000);
		expect(await agentStore.proposals.countOpen('bugs')).toBe(1);
	});
});
