// The whole chain: the built TUI, the real Codex, `sift mcp`.

import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {parseTriageWishes} from '../../demo-data/generate.js';
import {openStore, type Store} from '../../store/index.js';
import {codexLocalArgs, makeCodexHome, SCRIPTED_MODEL} from '../support/codex-local.js';
import {makeDemoDb, type DemoDb} from '../support/pty-fixtures.js';
import {KEYS, launch, repoRoot, rowOf, type PtyApp} from '../support/pty.js';
import {startResponsesEndpoint, type ResponsesEndpoint} from '../support/responses-endpoint.js';

// The whole chain a person uses: the built TUI in a pseudo-terminal launches the real Codex CLI,
// which talks to the scripted model endpoint and edits records through `sift mcp`; the row and the
// follow-up count change on screen from Codex's own writes.

const REAL_CODEX = path.join(repoRoot(), 'node_modules', '.bin', 'codex');

let db: DemoDb;
let store: Store;
let endpoint: ResponsesEndpoint;
let codexHome: {path: string; remove(): Promise<void>};
let app: PtyApp | undefined;

beforeAll(async () => {
	db = makeDemoDb(30, {prefix: 'sift-pty-codex-', seed: 11});
	store = openStore(db.dbPath);
	endpoint = await startResponsesEndpoint({mode: 'triage-functions'});
	codexHome = await makeCodexHome();
});

afterAll(async () => {
	app?.kill();
	await app?.exited;
	store?.close();
	await endpoint?.close();
	await codexHome?.remove();
	db?.cleanup();
});

/** The newest item whose reporter asked for 20 points: Codex can set its status but not its points. */
function targetRow(): {index: number; id: string; ticket: string; statusLabel: string} {
	const {items, schema} = store.listPage('bugs', {limit: 50});
	const statusOptions = schema.find(field => field.key === 'status')!.config.options!;
	for (const [index, item] of items.entries()) {
		const wishes = parseTriageWishes(String(store.readItem('bugs', item.id).values.description));
		if (item.preview.status === 'new' && wishes.points === '20') {
			const option = statusOptions.find(candidate => candidate.label.toLowerCase() === wishes.status!.toLowerCase())!;
			return {index, id: item.id, ticket: String(item.preview.ticket), statusLabel: option.label};
		}
	}

	throw new Error('the fixture has no new item asking for 20 points');
}


describe('the TUI with the real Codex CLI', () => {
	it('runs Codex on the current row: steps live, the row changes to the value Codex set, the refused points become a follow-up', async () => {
		const target = targetRow();
		const local = codexLocalArgs({endpointUrl: endpoint.url, model: SCRIPTED_MODEL, codexHome: codexHome.path});
		app = launch({
			args: ['--db', db.dbPath, '--codex', REAL_CODEX, '--model', SCRIPTED_MODEL, ...local.config.flatMap(pair => ['--codex-config', pair])],
			cols: 150,
			rows: 36,
			env: {SIFT_STATE_DIR: db.stateDir, ...local.env},
		});
		await app.waitFor(target.ticket, 15_000);
		app.press(...Array.from({length: target.index}, () => 'j'));
		await app.waitFor(`row ${target.index + 1}`);
		app.press('c');
		await app.waitFor('Run Codex on', 10_000);
		app.press(KEYS.enter);
		const done = await app.waitFor(text => text.includes('✓ Codex ok') && text.includes('usage:'), 60_000, 'the finished run');
		expect(done).toMatch(/✓ edit_record_item/);
		const screen = await app.waitFor(text => rowOf(text, target.ticket).includes(target.statusLabel) && /[1-9]\d* follow-ups?/.test(text.split('\n')[0]!), 10_000, 'the row and the header after the run');
		expect(screen.split('\n')[0]).toMatch(/[1-9]\d* follow-ups?/);

		const item = store.readItem('bugs', target.id);
		expect(item.values.status).not.toBe('new');
		expect(item.values.points).toBeNull();
		expect(store.listFollowUps({itemId: target.id, status: 'open'}).map(followUp => followUp.key)).toContain('points');
		expect(await app.quit()).toBe(0);
	});
});
