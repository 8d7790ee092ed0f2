// Control characters never reach the terminal raw.

import {copyFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import Database from 'better-sqlite3';
import {beforeAll, describe, expect, it} from 'vitest';
import {bugsChannel} from '../../demo-data/generate.js';
import {openStore} from '../../store/index.js';
import {fillValueColumns} from '../../store/sqlite/value-columns.js';
import {demoDatabase, ensureBuilt, sift, tempDir} from '../support/cli.js';

beforeAll(() => ensureBuilt());

/** What must never reach a terminal raw: C0 but newline and tab (ESC among them), DEL, C1, bidi controls. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

const TITLE = 'T\u001b]0;PWNED\u0007';
const LABEL = 'Sta\u001b[2Jtus\u202e\u009b31m';
const CREATED = 'Jan 1 2026 (\u001b]0;PWNED\u0007\u001b[2J)';
const RUN_ID = 'run-\u001b]0;PWNED\u0007\u001b[31m\u202e';
const TICKET = 'BUG-\u001b[2J666';

/**
 * A database whose every text column an attacker could reach holds escapes, written straight
 * into the SQLite file (the store's own checks would refuse some of them).
 */
function hostileDatabase(): {db: string; itemId: string} {
	const db = demoDatabase(3);
	const store = openStore(db);
	const [item] = store.listPage('bugs', {limit: 1}).items;
	store.editItem({channelId: 'bugs', itemId: item!.id, values: {points: 3}, actor: {kind: 'agent', run_id: 'run-1'}});
	expect(() => store.editItem({channelId: 'bugs', itemId: item!.id, values: {points: 20}, actor: {kind: 'agent', run_id: 'run-1'}})).toThrow();
	store.close();

	const sqlite = new Database(db);
	const fields = bugsChannel.fields.map(field => (field.key === 'status'
		? {...field, label: LABEL, config: {...field.config, options: field.config!.options!.map(option => ({...option, label: `${option.label}\u001b[5m`}))}}
		: field));
	sqlite.prepare('UPDATE channels SET name = ?, fields = ?').run(`Bugs\u001b]0;PWNED\u0007`, JSON.stringify(fields));
	sqlite.prepare(`UPDATE items SET created_at = ?, updated_at = ?, data = json_set(data, '$.title', ?, '$.ticket', ?) WHERE id = ?`).run(CREATED, CREATED, TITLE, TICKET, item!.id);
	// The ticket's value column too, as the store itself would (store/sqlite/value-columns.ts).
	fillValueColumns(sqlite, bugsChannel);
	sqlite.prepare('UPDATE events SET run_id = ?, at = ?').run(RUN_ID, CREATED);
	sqlite.prepare('UPDATE followups SET run_id = ?, message = ?, created_at = ?').run(RUN_ID, `bad \u001b[2J value`, CREATED);
	const insertRun = sqlite.prepare(`INSERT INTO runs (id, channel_id, item_ids, instruction, started_at, finished_at, outcome, error, log_path)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
	insertRun.run(RUN_ID, `bugs\u001b[2J`, JSON.stringify([`it_\u001b]0;PWNED\u0007`, TICKET]), `triage\u001b[2J\u202e all\nof it\u0007`, CREATED, CREATED, `failed\u001b[5m`, `boom\u001b]0;PWNED\u0007\u009b31m`, `/tmp/run\u001b[2J.jsonl`);
	insertRun.run(`${RUN_ID}-open`, 'bugs', '[]', `\u001b[31mred`, CREATED, null, null, null, `\u001b]0;PWNED\u0007`);
	sqlite.close();
	return {db, itemId: item!.id};
}

describe('no raw control character reaches the terminal from any command', () => {
	it('over a hostile database, in text and JSON, on stdout and stderr', () => {
		const {db, itemId} = hostileDatabase();
		const dir = tempDir('sift-hostile-');
		writeFileSync(join(dir, 'evil.json'), JSON.stringify({channel: {...bugsChannel, id: 'evil', name: 'E\u001b]0;PWNED\u0007'}, items: [{values: {ticket: 'E-1', title: TITLE}}]}));
		const commands: string[][] = [
			['channels'],
			['list'],
			['list', '--all'],
			['list', '--filter', 'status=new'],
			['show', itemId],
			['show', TICKET],
			['show', `nope\u001b[2J\u202e`],
			['edit', itemId, 'points=5'],
			['edit', itemId, 'it_0000000002', `title=${TITLE}`],
			['edit', itemId, 'status=bogus'],
			['edit', itemId, 'points=1', '--expect-version', '1'],
			['add', `ticket=${TICKET}`, 'title=dup'],
			['add', 'ticket=NEW-1', `title=${TITLE}`],
			['events'],
			['events', '--after', '1', '--limit', '2'],
			['followups'],
			['followups', 'dismiss', '1'],
			['delete', 'it_0000000002'],
			['runs'],
			['runs', RUN_ID],
			['runs', `${RUN_ID}-open`],
			['demo', '--no-open'],
			['import', join(dir, 'evil.json')],
			['list', '--channel', 'evil'],
			['list', `--\u001b]0;PWNED\u0007`],
			[`\u001b]0;PWNED\u0007`],
			['edit', `\u001b[2J`],
		];
		for (const args of commands) {
			for (const json of [false, true]) {
				// Each command runs on a fresh copy, so one's writes never hide another's output.
				const copy = join(tempDir('sift-hostile-copy-'), 'h.db');
				copyFileSync(db, copy);
				const result = sift([...args, '--db', copy, ...(json ? ['--json'] : [])]);
				const what = `sift ${JSON.stringify(args)}${json ? ' --json' : ''} (exit ${result.code})`;
				expect(result.stdout, `${what} stdout`).not.toMatch(RAW_CONTROL);
				expect(result.stderr, `${what} stderr`).not.toMatch(RAW_CONTROL);
				expect(result.stdout + result.stderr, what).not.toBe('');
			}
		}

		for (const args of [['doctor'], ['--help'], ['run', '--help']]) {
			const result = sift(args, {SIFT_CODEX: `/no\u001b[2J/codex`});
			expect(result.stdout + result.stderr).not.toMatch(RAW_CONTROL);
		}
		// Dozens of CLI processes one after another: room for a machine that is busy with other suites.
	}, 240_000);

	it('shows the escapes as visible marks where they were', () => {
		const {db, itemId} = hostileDatabase();
		expect(sift(['show', itemId, '--db', db]).stdout).toContain('created Jan 1 2026 (␛]0;PWNED␇␛[2J)');
		expect(sift(['list', '--db', db], {COLUMNS: '200'}).stdout).toContain('Sta␛[2Jtus');
		expect(sift(['events', '--db', db]).stdout).toContain('by agent run-␛]0;PWNED␇␛[31m\\u202e');
		expect(sift(['followups', '--db', db]).stdout).toContain('(run run-␛]0;PWNED␇␛[31m\\u202e)');
		const run = sift(['runs', RUN_ID, '--db', db]).stdout;
		expect(run).toContain('error: boom␛]0;PWNED␇');
		expect(run).toContain('channel bugs␛[2J, items it_␛]0;PWNED␇, BUG-␛[2J666');
		expect(run).toContain('log: /tmp/run␛[2J.jsonl');
	});
});
