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

const SERVER =
	'mcp_servers.sift={command="/usr/bin/node", args=["/opt/sift/dist/source/cli.js", "mcp", "--db", "/data/sift.db", "--grant", "bugs", "--actor", "agent", "--run", "run-20250102T030405006Z-abc123", "--owner-pid", "4242"], required=true, default_tools_approval_mode="approve", enabled_tools=["list_granted_resources", "list_record_items", "read_record_item", "edit_record_item", "poll_resource_events"], startup_timeout_sec=30}';

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

	it('adds --ignore-rules only when the probe found it', () => {
		expect(buildCodexCommand({...INPUT, supportedFlags: []}).args).not.toContain('--ignore-rules');
	});

	it('passes the model and the user overrides, in order, before -- and the prompt', () => {
		const {args} = buildCodexCommand({...INPUT, prompt: '--help me', model: 'gpt-x', codexConfig: ['model_provider="local"', 'a.b=1']});
		expect(args.slice(-8)).toEqual(['-m', 'gpt-x', '-c', 'model_provider="local"', '-c', 'a.b=1', '--', '--help me']);
	});

	it('drops the API variables unless asked to keep them, and keeps everything else', () => {
		expect(buildCodexCommand(INPUT).env).toEqual({PATH: '/usr/bin', HOME: '/home/a'});
		expect(buildCodexCommand({...INPUT, keepApiEnv: true}).env).toEqual(INPUT.env);
		expect(INPUT.env.OPENAI_API_KEY).toBe('sk');
	});

	it('asks `codex login status` in the same scrubbed environment as the run', () => {
		expect(buildLoginStatusCommand(INPUT)).toEqual({args: ['login', 'status'], env: buildCodexCommand(INPUT).env});
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
		const [server] = JSON.parse(listed) as Array<{name: string; transport: {command: string; args: string[]}; startup_timeout_sec: number}>;
		expect(server!.name).toBe('sift');
		expect(server!.transport.command).toBe('/usr/bin/node');
		expect(server!.transport.args).toEqual(['/opt/sift/dist/source/cli.js', 'mcp', '--db', dbPath, '--grant', 'bu"gs', '--actor', 'agent', '--run', INPUT.runId, '--owner-pid', '4242']);
		expect(server!.startup_timeout_sec).toBe(30);
	});
});
