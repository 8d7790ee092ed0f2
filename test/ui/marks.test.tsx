// Marks survive starting, finishing and cancelling runs.

import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {makeDemoDb, type DemoDb} from '../support/pty-fixtures.js';
import {repoRoot} from '../support/pty.js';
import {renderApp} from './helpers.js';

// The runner starts the built `sift mcp` for Codex, so these runs need `npm run build` first.
const FAKE_CODEX = path.join(repoRoot(), 'test', 'support', 'fake-codex.mjs');
const ENTER = '\r';

let db: DemoDb;
let store: AsyncStore;

beforeEach(async () => {
	db = makeDemoDb(60, {prefix: 'sift-marks-'});
	store = await openAsyncStore(db.dbPath);
});

afterEach(async () => {
	await store.close();
	db.cleanup();
});

describe('marks across runs', () => {
	it('survive starting and finishing a run', async () => {
		const app = renderApp(store, {stateDir: db.stateDir, codex: FAKE_CODEX, env: {FAKE_CODEX_MODE: 'normal'}});
		try {
			await app.waitFor(frame => frame.includes('BUG-0060'));
			await app.keys(' ', ' ');
			await app.waitFor(frame => frame.includes('2 marked'));
			await app.keys('c');
			await app.waitFor(frame => frame.includes('Run Codex on 2 marked records'));
			await app.keys(ENTER);
			const started = await app.waitFor(frame => frame.includes('Codex started on 2 records'));
			expect(started).toContain('2 marked');
			const finished = await app.waitFor(frame => frame.includes('✓ Codex ok'), 20_000);
			expect(finished).toContain('2 marked');
		} finally {
			app.unmount();
		}
	});

	it('survive cancelling a run with x; only the person clears them', async () => {
		const app = renderApp(store, {stateDir: db.stateDir, codex: FAKE_CODEX, env: {FAKE_CODEX_MODE: 'hang'}});
		try {
			await app.waitFor(frame => frame.includes('BUG-0060'));
			await app.keys(' ', ' ', ' ');
			await app.waitFor(frame => frame.includes('3 marked'));
			await app.keys('c');
			await app.waitFor(frame => frame.includes('Run Codex on 3 marked records'));
			await app.keys(ENTER);
			await app.waitFor(frame => frame.includes('list_record_items'), 15_000);
			await app.keys('x');
			await app.waitFor(frame => frame.includes('Cancel the Codex run?'));
			await app.keys('y');
			const cancelled = await app.waitFor(frame => frame.includes('✗ Codex cancelled'), 15_000);
			expect(cancelled).toContain('3 marked');
			// The person clears them: V marks every loaded row, V again clears them all.
			await app.keys('V');
			await app.waitFor(frame => frame.includes('loaded rows marked'));
			await app.keys('V');
			const cleared = await app.waitFor(frame => frame.includes('All marks cleared.'));
			expect(cleared).not.toMatch(/\d+ marked/);
		} finally {
			app.unmount();
		}
	});
});
