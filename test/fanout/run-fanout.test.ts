// `sift run --where/--batch/--parallel` with the fake codex: overlap, JSON Lines, worst-outcome
// exit, Ctrl+C and SIGTERM leave no process.

import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {beforeAll, describe, expect, it} from 'vitest';
import {ensureBuilt, sift, SIFT_ENTRY} from '../support/cli.js';
import {isAlive, readPids, tempDir} from '../codex/support.js';
import {waitUntil} from '../support/wait.js';
import {execRunIds, fanoutSetup, mostAtOnce, runRows} from './support.js';

beforeAll(() => ensureBuilt());

const SUMMARY_KEYS = ['run_id', 'outcome', 'text', 'error', 'usage', 'duration_ms', 'steps', 'edits_applied', 'proposals', 'rejections', 'followups_opened', 'log'].sort();
const jsonLines = (stdout: string) => stdout.trimEnd().split('\n').map(line => JSON.parse(line) as Record<string, unknown>);

describe('sift run: fan-out', () => {
	it('--where over 25 items, --batch 10 --parallel 2: three runs, two at once (never three), JSON Lines, each item once', async () => {
		// The runs hold before their answers until two have started (the answer gate): then they overlap for sure.
		const answerGate = path.join(tempDir(), 'answer-gate');
		const setup = fanoutSetup(25, {FAKE_CODEX_MODE: 'normal', FAKE_CODEX_ANSWER_GATE: answerGate});
		const everyId = jsonLines(sift(['list', '--db', setup.db, '--all', '--json'], setup.env).stdout).map(item => item.id as string);
		expect(everyId).toHaveLength(25);
		const running = execa(process.execPath, [SIFT_ENTRY, 'run', 'Triage', '--db', setup.db, '--where', '', '--batch', '10', '--parallel', '2', '--json'], {env: {...process.env, ...setup.env}, reject: false});
		const started = () => (existsSync(setup.env.FAKE_CODEX_PIDFILE!) ? readPids(setup.env.FAKE_CODEX_PIDFILE!).length : 0);
		await waitUntil(() => started() === 2, 'two runs started', {timeoutMs: 60_000});
		expect(started()).toBe(2);
		writeFileSync(answerGate, '');
		const finished = await running;
		const result = {code: finished.exitCode, stdout: String(finished.stdout), stderr: String(finished.stderr)};
		expect(result.code, result.stderr).toBe(0);
		const lines = jsonLines(result.stdout);
		expect(lines).toHaveLength(3);
		for (const line of lines) expect(Object.keys(line).sort()).toEqual(SUMMARY_KEYS);
		expect(lines.every(line => line.outcome === 'ok')).toBe(true);

		const rows = runRows(setup);
		expect(rows.map(row => row.id).sort()).toEqual(lines.map(line => line.run_id).sort());
		const sent = rows.flatMap(row => row.item_ids);
		expect(sent).toHaveLength(25);
		expect(new Set(sent).size).toBe(25);
		expect(rows.map(row => row.item_ids.length).sort()).toEqual([10, 10, 5]);
		expect([...sent].sort()).toEqual([...everyId].sort());
		expect(mostAtOnce(rows)).toBe(2);
		// Each run had its own MCP server, named by its own run id.
		expect(execRunIds(setup.env.FAKE_CODEX_CALLS!, file => readFileSync(file, 'utf8')).sort()).toEqual(rows.map(row => row.id).sort());
		// Progress names the batch.
		expect(result.stderr).toMatch(/sift: run run-\S+ on bugs \(10 items\) — batch 1\/3/);
		expect(result.stderr).toMatch(/^ {2}\[3\] ✓ edit_record_item BUG-0042 — ok v3$/m);
	});

	it('--parallel 1 runs the batches one after another', () => {
		const setup = fanoutSetup(6);
		const result = sift(['run', 'Triage', '--db', setup.db, '--where', '', '--batch', '2', '--parallel', '1', '--json'], setup.env);
		expect(result.code, result.stderr).toBe(0);
		expect(jsonLines(result.stdout)).toHaveLength(3);
		expect(mostAtOnce(runRows(setup))).toBe(1);
	});

	it('exits with the worst outcome\'s code: ok, partial and failed batches exit 1; ok and partial exit 3', () => {
		const setup = fanoutSetup(6);
		const ids = runRowsFreeIds(setup);
		const modes = JSON.stringify({[ids[2]!]: 'crash-after-answer', [ids[4]!]: 'crash-before-answer'});
		const env = {...setup.env, FAKE_CODEX_MODE_BY_ITEM: modes};
		const all = sift(['run', 'Triage', '--db', setup.db, '--items', ids.join(','), '--batch', '2', '--parallel', '3', '--json'], env);
		expect(all.code, all.stderr).toBe(1);
		expect(jsonLines(all.stdout).map(line => line.outcome).sort()).toEqual(['failed', 'ok', 'partial']);
		const okAndPartial = sift(['run', 'Triage', '--db', setup.db, '--items', ids.slice(0, 4).join(','), '--batch', '2', '--json'], env);
		expect(okAndPartial.code, okAndPartial.stderr).toBe(3);
		expect(jsonLines(okAndPartial.stdout).map(line => line.outcome).sort()).toEqual(['ok', 'partial']);
	});

	it('without --json, a summary per batch and the totals', () => {
		const setup = fanoutSetup(3);
		const result = sift(['run', 'Triage', '--db', setup.db, '--where', '', '--batch', '2'], setup.env);
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout).toMatch(/^batch 1\/2 \(run-\S+, 2 items\): ok — 1 edit applied/m);
		expect(result.stdout).toMatch(/^batch 2\/2 \(run-\S+, 1 item\): ok/m);
		expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('2 runs: 2 ok — 2 edits applied, 2 edits refused (4 follow-ups)');
	});

	it.each(['SIGINT', 'SIGTERM'] as const)('%s cancels every running batch, starts no more, records them cancelled; no process survives', async signal => {
		const setup = fanoutSetup(30, {FAKE_CODEX_MODE: 'hang'});
		const child = execa(process.execPath, [SIFT_ENTRY, 'run', 'Triage', '--db', setup.db, '--where', '', '--batch', '10', '--parallel', '2', '--json'], {env: {...process.env, ...setup.env}, reject: false});
		let stderr = '';
		await new Promise<void>(resolve => {
			child.stderr!.on('data', (chunk: Buffer) => {
				stderr += chunk.toString();
				if (stderr.includes('[1] … list_record_items') && stderr.includes('[2] … list_record_items')) resolve();
			});
		});
		child.kill(signal);
		const result = await child;
		expect(result.exitCode, String(result.stderr)).toBe(130);
		const lines = jsonLines(String(result.stdout));
		expect(lines.map(line => line.outcome)).toEqual(['cancelled', 'cancelled']);
		expect(String(result.stderr)).toContain('batch 3/3 (10 items) cancelled before it started');
		const pids = readPids(setup.env.FAKE_CODEX_PIDFILE!);
		expect(pids).toHaveLength(2);
		expect(pids.filter(isAlive)).toEqual([]);
		const rows = runRows(setup);
		expect(rows.map(row => row.outcome)).toEqual(['cancelled', 'cancelled']);
	});

	it('--server: each batch gets its own token for its own run, revoked when that run ends', () => {
		const setup = fanoutSetup(3);
		// The fake never calls the server: what is checked is what each run was handed.
		const result = sift(['run', 'Triage', '--db', setup.db, '--where', '', '--batch', '1', '--parallel', '3', '--server', 'http://127.0.0.1:9', '--json'], setup.env);
		expect(result.code, result.stderr).toBe(0);
		const runIds = jsonLines(result.stdout).map(line => line.run_id as string).sort();
		expect(runIds).toHaveLength(3);
		const tokens = JSON.parse(sift(['token', 'list', '--db', setup.db, '--json'], setup.env).stdout) as Array<{name: string; run_id: string; revoked_at: string | null; grants: string[]}>;
		expect(tokens.map(token => token.run_id).sort()).toEqual(runIds);
		expect(tokens.every(token => token.name === `run-${token.run_id}` && token.revoked_at !== null && token.grants.join() === 'bugs')).toBe(true);
		const execs = readFileSync(setup.env.FAKE_CODEX_CALLS!, 'utf8').trim().split('\n').map(line => JSON.parse(line) as string[]).filter(argv => argv[0] === 'exec' && argv.includes('--json'));
		expect(execs).toHaveLength(3);
		expect(execs.every(argv => argv.some(arg => arg.startsWith('mcp_servers.sift=') && arg.includes('url="http://127.0.0.1:9/mcp"')))).toBe(true);
	});

	it('one batch\'s worth behaves as before: one pretty JSON object', () => {
		const setup = fanoutSetup(4);
		const result = sift(['run', 'Triage', '--db', setup.db, '--where', '', '--json'], setup.env);
		expect(result.code, result.stderr).toBe(0);
		expect(Object.keys(JSON.parse(result.stdout) as object).sort()).toEqual(SUMMARY_KEYS);
		expect(result.stdout.split('\n').length).toBeGreaterThan(3);
		expect(result.stderr).not.toContain('batch');
		expect(runRows(setup)[0]!.item_ids).toHaveLength(4);
	});

	it('usage: --items with --where, --parallel out of range, --batch 0; a query matching nothing starts no run', () => {
		const setup = fanoutSetup(3);
		const both = sift(['run', 'Triage', '--db', setup.db, '--where', '', '--items', 'it_0000000001'], setup.env);
		expect(both.code).toBe(2);
		expect(both.stderr).toMatch(/^sift: give either --items or --where, not both; see `sift run --help`\n$/);
		const tooMany = sift(['run', 'Triage', '--db', setup.db, '--parallel', '9'], setup.env);
		expect(tooMany.code).toBe(2);
		expect(tooMany.stderr).toMatch(/^sift: --parallel must be from 1 to 8, got 9; see `sift run --help`\n$/);
		expect(sift(['run', 'Triage', '--db', setup.db, '--parallel', '0'], setup.env).code).toBe(2);
		expect(sift(['run', 'Triage', '--db', setup.db, '--batch', '0'], setup.env).stderr).toMatch(/--batch must be from 1 to 500, got 0/);
		const none = sift(['run', 'Triage', '--db', setup.db, '--where', 'title:"no such words anywhere"', '--json'], setup.env);
		expect(none.code, none.stderr).toBe(0);
		expect(none.stdout).toBe('');
		expect(none.stderr).toContain('--where matches no items; no run started');
		expect(readPids(setup.env.FAKE_CODEX_PIDFILE!)).toEqual([]);
	});
});

/** The channel's item ids, oldest first. */
function runRowsFreeIds(setup: {db: string; env: NodeJS.ProcessEnv}): string[] {
	const listed = JSON.parse(sift(['list', '--db', setup.db, '--json'], setup.env).stdout) as {items: Array<{id: string}>};
	return listed.items.map(item => item.id).reverse();
}
