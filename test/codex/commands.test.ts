// `sift run`, `sift runs`, `sift doctor` with the fake codex.

import {chmodSync, copyFileSync, existsSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {beforeAll, describe, expect, it} from 'vitest';
import {ensureBuilt, sift, SIFT_ENTRY} from '../support/cli.js';
import {setUp} from './cli-setup.js';
import {FAKE_CODEX, isAlive, readPids, tempDir} from './support.js';

beforeAll(() => ensureBuilt());

describe('sift run', () => {
	it('--json prints the one documented object, progress goes to stderr, the run is recorded', () => {
		const setup = setUp();
		const result = sift(['run', 'Triage these', '--items', setup.ids.join(','), '--db', setup.db, '--json'], setup.env);
		expect(result.code, result.stderr).toBe(0);
		const summary = JSON.parse(result.stdout) as Record<string, unknown>;
		expect(Object.keys(summary).sort()).toEqual(
			['run_id', 'outcome', 'text', 'error', 'usage', 'duration_ms', 'steps', 'edits_applied', 'proposals', 'rejections', 'followups_opened', 'log'].sort(),
		);
		expect(summary).toMatchObject({outcome: 'ok', error: null, edits_applied: 1, proposals: 0, rejections: 1, followups_opened: 2});
		expect(summary.steps).toContainEqual({kind: 'mcp_tool_call', label: 'edit_record_item BUG-0043', status: 'failed', result: 'rejected: points, due'});
		expect(existsSync(summary.log as string)).toBe(true);
		expect(result.stderr).toContain('✓ edit_record_item BUG-0042 — ok v3');
		expect(result.stderr).toContain('✗ edit_record_item BUG-0044 — conflict');

		const runs = JSON.parse(sift(['runs', '--db', setup.db, '--json'], setup.env).stdout) as Array<Record<string, unknown>>;
		expect(runs).toHaveLength(1);
		expect(runs[0]).toMatchObject({id: summary.run_id, outcome: 'ok', item_ids: setup.ids, instruction: 'Triage these', edits_applied: 1, rejections: 1, followups_opened: 2});
	});

	it('--propose records the run in propose mode, so its agent\'s edits are proposals (docs/review.md)', () => {
		const setup = setUp();
		const result = sift(['run', 'Triage these', '--propose', '--items', setup.ids.join(','), '--db', setup.db, '--json'], setup.env);
		expect(result.code, result.stderr).toBe(0);
		const runs = JSON.parse(sift(['runs', '--db', setup.db, '--json'], setup.env).stdout) as Array<Record<string, unknown>>;
		expect(runs[0]).toMatchObject({id: JSON.parse(result.stdout).run_id, mode: 'propose'});
		const plain = JSON.parse(sift(['run', 'Triage these', '--items', setup.ids.join(','), '--db', setup.db, '--json'], setup.env).stdout);
		expect((JSON.parse(sift(['runs', '--db', setup.db, '--json'], setup.env).stdout) as Array<Record<string, unknown>>)[0]).toMatchObject({id: plain.run_id, mode: 'apply'});
	});

	it('prints a readable summary without --json', () => {
		const setup = setUp();
		const result = sift(['run', 'Triage', '--db', setup.db], setup.env);
		expect(result.code).toBe(0);
		expect(result.stdout).toMatch(/^ok — 1 edit applied, 1 edit refused \(2 follow-ups\), \d+\.\d s\n\nSet BUG-0042/);
		expect(result.stdout).toMatch(/\nlog: .*\.jsonl\n$/);
	});

	it.each([
		['crash-after-answer', 3, 'partial'],
		['auth', 4, 'auth_required'],
		['mcp-startup-failure', 1, 'failed'],
	])('%s exits %i (%s)', (mode, code, outcome) => {
		const setup = setUp({FAKE_CODEX_MODE: mode});
		const result = sift(['run', 'Triage', '--db', setup.db, '--json'], setup.env);
		expect(result.code).toBe(code);
		expect(JSON.parse(result.stdout)).toMatchObject({outcome});
	});

	it('--timeout stops a hanging run: exit 5', () => {
		const setup = setUp({FAKE_CODEX_MODE: 'hang'});
		const result = sift(['run', 'Triage', '--db', setup.db, '--timeout', '1', '--json'], setup.env);
		expect(result.code).toBe(5);
		expect(JSON.parse(result.stdout)).toMatchObject({outcome: 'timed_out'});
		expect(readPids(setup.env.FAKE_CODEX_PIDFILE!).filter(isAlive)).toEqual([]);
	});

	it('refuses to start when this codex would give the agent a shell it cannot turn off (agent_sandbox_unavailable, exit 1), unless --allow-agent-shell', () => {
		// The fake plays a Codex from before tools could be switched off: it has no `features` command.
		const setup = setUp({FAKE_CODEX_FEATURES: 'old'});
		const argsFile = path.join(setup.dir, 'args.json');
		const env = {...setup.env, FAKE_CODEX_ARGS_FILE: argsFile};
		const refused = sift(['run', 'Triage', '--db', setup.db, '--json'], env);
		expect(refused.code).toBe(1);
		const summary = JSON.parse(refused.stdout) as {outcome: string; error: string};
		expect(summary.outcome).toBe('agent_sandbox_unavailable');
		expect(summary.error).toMatch(/^codex-cli 0\.171\.0-fake offers the agent a shell that sift cannot turn off: shell .*--allow-agent-shell/);
		expect(existsSync(argsFile)).toBe(false);

		const allowed = sift(['run', 'Triage', '--db', setup.db, '--json', '--allow-agent-shell'], env);
		expect(allowed.code, allowed.stderr).toBe(0);
		expect(JSON.parse(allowed.stdout)).toMatchObject({outcome: 'ok'});
		expect(existsSync(argsFile)).toBe(true);
	});

	it('a capable codex gets the tool switches, --ephemeral and --strict-config, and the store location only in its environment', () => {
		const setup = setUp();
		const argsFile = path.join(setup.dir, 'args.json');
		const result = sift(['run', 'Triage', '--db', setup.db, '--json'], {...setup.env, FAKE_CODEX_ARGS_FILE: argsFile});
		expect(result.code, result.stderr).toBe(0);
		const {argv, env_keys: envKeys} = JSON.parse(readFileSync(argsFile, 'utf8')) as {argv: string[]; env_keys: string[]};
		expect(argv).toEqual(expect.arrayContaining(['--ephemeral', '--strict-config', 'features.shell_tool=false', 'web_search="disabled"', 'tools.experimental_request_user_input={enabled=false}']));
		expect(argv.join(' ')).not.toContain(setup.db);
		expect(envKeys).toContain('SIFT_MCP_DB');
	});

	it('a missing codex exits 1 with how to install it', () => {
		const setup = setUp();
		const result = sift(['run', 'Triage', '--db', setup.db, '--codex', '/nonexistent/codex'], setup.env);
		expect(result.code).toBe(1);
		expect(result.stdout).toContain('npm install -g @openai/codex');
	});

	it('SIGINT cancels the run: exit 130, Codex gone', async () => {
		// The run holds before its answer (a gate never opened) until the signal comes.
		const setup = setUp({FAKE_CODEX_MODE: 'normal', FAKE_CODEX_ANSWER_GATE: path.join(tempDir(), 'never')});
		const child = execa(process.execPath, [SIFT_ENTRY, 'run', 'Triage', '--db', setup.db, '--json'], {env: {...process.env, ...setup.env}, reject: false});
		await new Promise<void>(resolve => {
			child.stderr!.on('data', (chunk: Buffer) => {
				if (chunk.toString().includes('list_record_items')) resolve();
			});
		});
		child.kill('SIGINT');
		const result = await child;
		expect(result.exitCode).toBe(130);
		expect(JSON.parse(String(result.stdout))).toMatchObject({outcome: 'cancelled'});
		expect(readPids(setup.env.FAKE_CODEX_PIDFILE!).filter(isAlive)).toEqual([]);
	});

	it('--items takes names like every other command: a ticket, an id, a name given twice runs once', () => {
		const setup = setUp();
		const argsFile = path.join(setup.dir, 'args.json');
		const env = {...setup.env, FAKE_CODEX_ARGS_FILE: argsFile};
		const one = sift(['run', 'Triage it', '--items', 'BUG-2', '--db', setup.db, '--json'], env);
		expect(one.code, one.stderr).toBe(0);
		expect(one.stderr).toMatch(/^sift: run \S+ on bugs \(1 item\)\n/);
		const runs = () => JSON.parse(sift(['runs', '--db', setup.db, '--json'], setup.env).stdout) as Array<{item_ids: string[]}>;
		expect(runs()[0]!.item_ids).toEqual([setup.ids[0]]);
		expect(JSON.stringify(JSON.parse(readFileSync(argsFile, 'utf8')))).toContain(setup.ids[0]);
		const mixed = sift(['run', 'Triage them', '--items', `BUG-1,${setup.ids[0]},BUG-2`, '--db', setup.db, '--json'], env);
		expect(mixed.code, mixed.stderr).toBe(0);
		expect(mixed.stderr).toContain('(2 items)');
		expect(runs().map(run => run.item_ids)).toContainEqual([setup.ids[1], setup.ids[0]]);
	});

	it('refuses unknown items before starting Codex, and an empty instruction as a usage error', () => {
		const setup = setUp();
		const unknown = sift(['run', 'Triage', '--items', 'nope', '--db', setup.db], setup.env);
		expect(unknown.code).toBe(1);
		expect(unknown.stderr).toMatch(/^sift: item "nope" does not exist in channel bugs/);
		expect(existsSync(setup.env.FAKE_CODEX_PIDFILE!)).toBe(false);
		expect(sift(['run', '  ', '--db', setup.db], setup.env).code).toBe(2);
	});
});

describe('sift runs', () => {
	it('lists the history newest first, and shows one run with its steps from the log', () => {
		const setup = setUp();
		const first = JSON.parse(sift(['run', 'First pass', '--db', setup.db, '--json'], setup.env).stdout) as {run_id: string};
		sift(['run', 'Second pass', '--db', setup.db, '--json'], {...setup.env, FAKE_CODEX_MODE: 'auth'});
		const listing = sift(['runs', '--db', setup.db], setup.env);
		expect(listing.code).toBe(0);
		const lines = listing.stdout.trim().split('\n');
		expect(lines).toHaveLength(2);
		expect(lines[0]).toMatch(/auth_required .* Second pass$/);
		expect(lines[1]).toMatch(/ok .* 1 edited, 1 refused .* First pass$/);

		const detail = sift(['runs', first.run_id, '--db', setup.db], setup.env);
		expect(detail.code).toBe(0);
		expect(detail.stdout).toContain('failed  edit_record_item BUG-0043 — rejected: points, due');
		expect(detail.stdout).toContain('Set BUG-0042 to in_progress');
		expect(sift(['runs', 'run-nope', '--db', setup.db], setup.env).code).toBe(1);
	});

	it('says so when there are no runs', () => {
		const setup = setUp();
		expect(sift(['runs', '--db', setup.db], setup.env).stdout).toMatch(/^No runs yet/);
	});
});

describe('sift doctor', () => {
	it('all OK with a working, logged-in codex', () => {
		const setup = setUp();
		const config = path.join(setup.dir, 'config.yaml');
		const result = sift(['doctor', '--config', config], setup.env);
		expect(result.code).toBe(0);
		expect(result.stdout.trim().split('\n')).toEqual([
			`OK   codex found: ${FAKE_CODEX} (from SIFT_CODEX)`,
			'OK   codex version: codex-cli 0.171.0-fake',
			'OK   codex login: Logged in using ChatGPT',
			'OK   optional flags: --ignore-rules, --ephemeral, --strict-config',
			expect.stringMatching(/^OK {3}agent tools: sift's list_granted_resources, list_record_items, read_record_item, search_record_items, find_similar_items, edit_record_item, poll_resource_events; also, with no switch but unable to reach outside the run: list_mcp_resources/),
			expect.stringMatching(/^OK {3}agent tools turned off: shell \(exec_command, write_stdin, shell\); web_search; view_image; multi_agent /),
			'OK   agent tools that could not be turned off: none',
			`OK   config: no file at ${config}; the defaults`,
		]);
	});

	it('--db checks the store it names: a SQLite file, a missing one, a file that is not a store', () => {
		const setup = setUp();
		const config = ['--config', path.join(setup.dir, 'none.yaml')];
		const result = sift(['doctor', '--db', setup.db, ...config], setup.env);
		expect(result.code, result.stdout + result.stderr).toBe(0);
		expect(result.stdout).toContain(`OK   database: ${setup.db} (1 channel), private`);
		const missing = path.join(setup.dir, 'missing.db');
		const absent = sift(['doctor', '--db', missing, ...config], setup.env);
		expect(absent.code).toBe(1);
		expect(absent.stdout).toContain(`FAIL database: no database at ${missing} — fix: create one with \`sift demo --db ${missing}\``);
		const other = path.join(setup.dir, 'notes.txt');
		writeFileSync(other, 'not a database');
		const notStore = sift(['doctor', '--db', other, ...config], setup.env);
		expect(notStore.code).toBe(1);
		expect(notStore.stdout).toMatch(new RegExp(`^FAIL database: ${other.replace(/[.]/g, '\\.')} is not a sift database`, 'm'));
	});

	it('checks the config file: every problem on its own line, naming its key, the channel\'s too', () => {
		const setup = setUp();
		const config = path.join(setup.dir, 'config.yaml');
		writeFileSync(config, [
			'theme: loud',
			'colour: red',
			'timeout: 0',
			'views:',
			'  - name: Mine',
			'    query: sevrity:high',
			'  - name: Fine',
			'    query: status:new',
			'hotkeys:',
			'  status: "12"',
			'',
		].join('\n'));
		const result = sift(['doctor', '--db', setup.db, '--config', config], setup.env);
		expect(result.code, result.stderr).toBe(0);
		const problems = result.stdout.split('\n').filter(line => line.startsWith('WARN config: '));
		expect(problems).toEqual([
			expect.stringMatching(/^WARN config: config\.yaml line 1: theme: must be default or mono/),
			expect.stringMatching(/^WARN config: config\.yaml line 2: unknown key 'colour'/),
			expect.stringMatching(/^WARN config: config\.yaml line 3: timeout: must be 1 second or more/),
			expect.stringMatching(/^WARN config: config\.yaml line \d+: hotkeys\.status: .*\(channel bugs\)$/),
			// A top-level view is every channel's to skip in the TUI; only no channel running it is a problem.
			expect.stringMatching(/^WARN config: config\.yaml line 6: views\[0\]\.query: .*sevrity.*\(channel bugs\); no channel of this database can run it$/),
		]);
		const json = JSON.parse(sift(['doctor', '--db', setup.db, '--config', config, '--json'], setup.env).stdout) as {checks: Array<{name: string; warn?: boolean}>};
		expect(json.checks.filter(check => check.name === 'config' && check.warn)).toHaveLength(5);
	});

	it('a codex whose shell cannot be turned off fails the doctor, naming its version; --allow-agent-shell makes it a warning', () => {
		const setup = setUp({FAKE_CODEX_FEATURES: 'old'});
		const result = sift(['doctor', '--json'], setup.env);
		expect(result.code).toBe(1);
		const checks = (JSON.parse(result.stdout) as {checks: Array<{name: string; ok: boolean; warn?: boolean; detail: string; fix: string | null}>}).checks;
		const open = checks.find(check => check.name === 'agent tools that could not be turned off')!;
		expect(open).toMatchObject({ok: false, detail: expect.stringMatching(/^shell \(exec_command, write_stdin, shell\); /)});
		expect(open.fix).toContain('codex-cli 0.171.0-fake offers the agent a shell that sift cannot turn off');
		expect(checks.find(check => check.name === 'agent tools turned off')).toMatchObject({detail: 'none'});
		const allowed = sift(['doctor', '--allow-agent-shell'], setup.env);
		expect(allowed.code).toBe(0);
		expect(allowed.stdout).toMatch(/^WARN agent tools that could not be turned off: shell/m);
	});

	it('warns when other users can read the database, and removes a killed demo\'s half-built files', () => {
		const setup = setUp();
		const leftover = `${setup.db}.building-${2 ** 22 + 12_345}`;
		writeFileSync(leftover, 'half');
		const env = {...setup.env, SIFT_DB: setup.db};
		const result = sift(['doctor'], env);
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout).toContain(`OK   database: ${setup.db}; removed 1 half-built demo file (1 channel), private`);
		expect(existsSync(leftover)).toBe(false);
		chmodSync(setup.db, 0o644);
		const shared = sift(['doctor'], env);
		expect(shared.code).toBe(0);
		expect(shared.stdout).toContain(`WARN database: ${setup.db} (1 channel) can be read by other users — fix: chmod 600 ${setup.db}`);
	});

	it('one FAIL line each, with its fix: logged out, an old codex', () => {
		const setup = setUp();
		const oldCodex = path.join(setup.dir, 'codex');
		copyFileSync(FAKE_CODEX, oldCodex);
		const result = sift(['doctor', '--codex', oldCodex, '--json'], {...setup.env, XDG_CONFIG_HOME: setup.dir, FAKE_CODEX_LOGGED_IN: '0', FAKE_CODEX_HELP: 'old', FAKE_CODEX_FEATURES: 'old'});
		expect(result.code).toBe(1);
		const report = JSON.parse(result.stdout) as {ok: boolean; checks: Array<{name: string; ok: boolean; detail: string; fix: string | null}>};
		expect(report.ok).toBe(false);
		expect(report.checks.map(check => [check.name, check.ok])).toEqual([
			['codex found', true],
			['codex version', true],
			['codex login', false],
			['optional flags', false],
			['agent tools', true],
			['agent tools turned off', true],
			['agent tools that could not be turned off', false],
			['config', true],
		]);
		expect(report.checks[2]).toMatchObject({detail: 'Not logged in', fix: expect.stringContaining(`\`${oldCodex} login\``)});
		expect(report.checks[3]).toMatchObject({detail: 'missing --ignore-rules, --ephemeral, --strict-config', fix: expect.stringContaining('npm install -g @openai/codex')});
	});

	it('without codex, says how to install it', () => {
		const setup = setUp();
		const result = sift(['doctor', '--codex', '/nonexistent/codex'], setup.env);
		expect(result.code).toBe(1);
		expect(result.stdout.split('\n')[0]).toMatch(/^FAIL codex found: .*\/nonexistent\/codex.* — fix: Install it with `npm install -g @openai\/codex`/);
	});
});
