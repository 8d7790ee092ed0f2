// The exact `codex exec` argv and environment.

import {execFileSync} from 'node:child_process';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {buildCodexCommand, buildLoginStatusCommand, tomlString, type CommandInput} from '../../source/codex/command.js';
import {packageRoot} from '../../source/codex/paths.js';
import {tempDir} from './support.js';

const INPUT: CommandInput = {
	prompt: 'Triage BUG-0042',
	runId: 'run-20250102T030405006Z-abc123',
	channelId: 'bugs',
	dbPath: '/data/sift.db',
	nodePath: '/usr/bin/node',
	siftEntry: '/opt/sift/dist/source/cli.js',
	ownerPid: 4242,
	supportedFlags: ['--ignore-rules'],
	env: {PATH: '/usr/bin', HOME: '/home/a', OPENAI_API_KEY: 'sk', CODEX_API_KEY: 'ck', OPENAI_BASE_URL: 'http://x'},
};

const LOGIN_ENV = {PATH: '/usr/bin', HOME: '/home/a'};

const SERVER =
	'mcp_servers.sift={command="/usr/bin/node", args=["/opt/sift/dist/source/cli.js", "mcp", "--db-env", "SIFT_MCP_DB", "--grant", "bugs", "--actor", "agent", "--run", "run-20250102T030405006Z-abc123", "--owner-pid", "4242"], required=true, env_vars=["HOME", "SIFT_MCP_DB"], default_tools_approval_mode="approve", enabled_tools=["list_granted_resources", "list_record_items", "read_record_item", "search_record_items", "find_similar_items", "edit_record_item", "poll_resource_events"], startup_timeout_sec=30}';

describe('buildCodexCommand', () => {
	it('builds exactly the documented codex exec argv', () => {
		expect(buildCodexCommand(INPUT).args).toEqual([
			'exec',
			'--json',
			'--skip-git-repo-check',
			'--ignore-user-config',
			'--ignore-rules',
			'-s',
			'read-only',
			'-c',
			'approval_policy="never"',
			'-c',
			SERVER,
			'--',
			'Triage BUG-0042',
		]);
	});

	it('a proposing run\'s server gets --propose (its run record says so too: docs/review.md)', () => {
		const args = buildCodexCommand({...INPUT, mode: 'propose'}).args;
		expect(args).toContain(SERVER.replace('"--run", "run-20250102T030405006Z-abc123", ', '"--run", "run-20250102T030405006Z-abc123", "--propose", '));
		expect(buildCodexCommand({...INPUT, mode: 'apply'}).args).toContain(SERVER);
	});

	it('a proposing run with the config\'s auto_accept_above passes it to its server; a writing run never does', () => {
		const args = buildCodexCommand({...INPUT, mode: 'propose', autoAcceptAbove: 0.95}).args;
		expect(args).toContain(SERVER.replace('"--run", "run-20250102T030405006Z-abc123", ', '"--run", "run-20250102T030405006Z-abc123", "--propose", "--auto-accept-above", "0.95", '));
		expect(buildCodexCommand({...INPUT, mode: 'apply', autoAcceptAbove: 0.95}).args).toContain(SERVER);
	});

	it('adds --ignore-rules, --ephemeral and --strict-config only when the probe found them', () => {
		expect(buildCodexCommand({...INPUT, supportedFlags: []}).args).not.toContain('--ignore-rules');
		const all = buildCodexCommand({...INPUT, supportedFlags: ['--ignore-rules', '--ephemeral', '--strict-config']}).args;
		expect(all.slice(0, 7)).toEqual(['exec', '--json', '--skip-git-repo-check', '--ignore-user-config', '--ignore-rules', '--ephemeral', '--strict-config']);
		expect(buildCodexCommand(INPUT).args).not.toContain('--ephemeral');
	});

	it('passes the tool switches after the user overrides, so a user -c cannot turn a tool back on', () => {
		const {args} = buildCodexCommand({...INPUT, codexConfig: ['features.shell_tool=true'], toolSwitches: ['features.shell_tool=false', 'web_search="disabled"']});
		expect(args.slice(-8)).toEqual(['-c', 'features.shell_tool=true', '-c', 'features.shell_tool=false', '-c', 'web_search="disabled"', '--', 'Triage BUG-0042']);
	});

	it('keeps the store location off the argv: a password URL goes to the environment, env_vars names what passes on', () => {
		const url = 'postgres://sift:SECRETMARK@db.internal:5432/sift?sslmode=require';
		const env = {...INPUT.env, PGPASSWORD: 'pw', PGSSLMODE: 'require', PGSSLROOTCERT: '/ca.pem', SIFT_STATE_DIR: '/s', XDG_DATA_HOME: '/x', UNRELATED: 'no'};
		const command = buildCodexCommand({...INPUT, dbPath: url, env});
		expect(command.args.join(' ')).not.toContain('SECRETMARK');
		expect(command.env.SIFT_MCP_DB).toBe(url);
		expect(command.args[10]).toContain('env_vars=["HOME", "PGPASSWORD", "PGSSLMODE", "PGSSLROOTCERT", "SIFT_MCP_DB", "SIFT_STATE_DIR", "XDG_DATA_HOME"]');
		// An inherited SIFT_MCP_DB never wins over the run's own store.
		expect(buildCodexCommand({...INPUT, env: {...INPUT.env, SIFT_MCP_DB: '/other.db'}}).env.SIFT_MCP_DB).toBe('/data/sift.db');
		// Over HTTP there is no local server, and no location to pass.
		expect(buildCodexCommand({...INPUT, server: {url: 'http://127.0.0.1:7345/mcp', token: 't'}}).env.SIFT_MCP_DB).toBeUndefined();
	});

	it('passes the model and the user overrides, in order, before -- and the prompt', () => {
		const {args} = buildCodexCommand({...INPUT, prompt: '--help me', model: 'gpt-x', codexConfig: ['model_provider="local"', 'a.b=1']});
		expect(args.slice(-8)).toEqual(['-m', 'gpt-x', '-c', 'model_provider="local"', '-c', 'a.b=1', '--', '--help me']);
	});

	it('drops the API variables unless asked to keep them, and keeps everything else', () => {
		expect(buildCodexCommand(INPUT).env).toEqual({PATH: '/usr/bin', HOME: '/home/a', SIFT_MCP_DB: '/data/sift.db'});
		expect(buildCodexCommand({...INPUT, keepApiEnv: true}).env).toEqual({...INPUT.env, SIFT_MCP_DB: '/data/sift.db'});
		expect(INPUT.env.OPENAI_API_KEY).toBe('sk');
	});

	it('asks `codex login status` in the same scrubbed environment as the run', () => {
		expect(buildLoginStatusCommand(INPUT)).toEqual({args: ['login', 'status'], env: LOGIN_ENV});
		expect(buildLoginStatusCommand({...INPUT, keepApiEnv: true}).env).toEqual(INPUT.env);
	});
});

describe('tomlString', () => {
	it('escapes quotes, backslashes and control characters', () => {
		expect(tomlString('a "b" \\c')).toBe('"a \\"b\\" \\\\c"');
		expect(tomlString('x\ny\tz\u0001\u007f')).toBe('"x\\ny\\tz\\u0001\\u007f"');
		expect(tomlString('é ü 日本')).toBe('"é ü 日本"');
	});

	it('round-trips awkward paths through the real codex config parser', () => {
		const dbPath = '/tmp/we"ird \\ path\n日本/sift.db';
		const {args} = buildCodexCommand({...INPUT, dbPath, channelId: 'bu"gs'});
		const codex = path.join(packageRoot(), 'node_modules', '.bin', 'codex');
		const listed = execFileSync(codex, ['-c', args[10]!, 'mcp', 'list', '--json'], {
			encoding: 'utf8',
			env: {...process.env, CODEX_HOME: tempDir()},
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const [server] = JSON.parse(listed) as Array<{name: string; transport: {command: string; args: string[]; env: unknown; env_vars: string[]}; startup_timeout_sec: number}>;
		expect(server!.name).toBe('sift');
		expect(server!.transport.command).toBe('/usr/bin/node');
		expect(server!.transport.args).toEqual(['/opt/sift/dist/source/cli.js', 'mcp', '--db-env', 'SIFT_MCP_DB', '--grant', 'bu"gs', '--actor', 'agent', '--run', INPUT.runId, '--owner-pid', '4242']);
		// Codex reads the variable names, and holds no value of its own for them.
		expect(server!.transport.env_vars).toEqual(['HOME', 'SIFT_MCP_DB']);
		expect(server!.transport.env).toBeNull();
		expect(server!.startup_timeout_sec).toBe(30);
	});
});
