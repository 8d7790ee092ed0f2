// The Codex command for `--server`; every repeatable flag has a list default; JSON log lines.

import {describe, expect, it} from 'vitest';
import {buildCodexCommand, type CommandInput} from '../../source/codex/command.js';
import {defaultFlags, FLAGS} from '../../source/commands/flags.js';
import {serverEndpoint} from '../../source/commands/common.js';
import {mcpEndpoint} from '../../source/config/server-url.js';
import {asLogLine, jsonLinesStream} from '../../source/serve/log.js';

const INPUT: CommandInput = {
	prompt: 'Triage',
	runId: 'run-1',
	channelId: 'bugs',
	dbPath: '/data/sift.db',
	nodePath: '/usr/bin/node',
	siftEntry: '/opt/sift/dist/source/cli.js',
	supportedFlags: [],
	ownerPid: 4242,
	env: {PATH: '/usr/bin', SIFT_MCP_TOKEN: 'sift_inherited'},
};

describe('the Codex command for a run over HTTP', () => {
	it('configures the HTTP server with the token variable, and puts the token only in the environment', () => {
		const command = buildCodexCommand({...INPUT, server: {url: 'http://team:7345/mcp', token: 'sift_run_secret'}});
		expect(command.args).toContain(
			'mcp_servers.sift={url="http://team:7345/mcp", bearer_token_env_var="SIFT_MCP_TOKEN", required=true, default_tools_approval_mode="approve", enabled_tools=["list_granted_resources", "list_record_items", "read_record_item", "search_record_items", "find_similar_items", "edit_record_item", "poll_resource_events"], startup_timeout_sec=30}',
		);
		expect(command.args.join(' ')).not.toContain('sift_run_secret');
		expect(command.env).toEqual({PATH: '/usr/bin', SIFT_MCP_TOKEN: 'sift_run_secret'});
	});

	it('a stdio run does not pass on a token from the parent environment', () => {
		// It gets the store location instead, for its own `sift mcp`.
		expect(buildCodexCommand(INPUT).env).toEqual({PATH: '/usr/bin', SIFT_MCP_DB: INPUT.dbPath});
	});

	it.each([
		['http://team:7345', 'http://team:7345/mcp'],
		['http://team:7345/', 'http://team:7345/mcp'],
		['https://sift.example/team/', 'https://sift.example/team/mcp'],
		['ftp://team', null],
		['team:7345', null],
		['http://user:pw@team:7345', null],
		['not a url', null],
	])('--server %s → %s', (given, endpoint) => {
		expect(mcpEndpoint(given)).toBe(endpoint);
	});

	it.each(['http://bob:S3CRETPW@team:7345', 'http://bob:S3CRETPW@team:7345/?x=1', 'ftp://bob:S3CRETPW@team', 'http://bob:S3CRETPW@[::1'])('the refusal of %s names the user, never the password', given => {
		expect(() => serverEndpoint(given)).toThrow(/--server must be the http\(s\) URL.*bob:\*\*\*@/);
		try {
			serverEndpoint(given);
		} catch (error) {
			expect((error as Error).message).not.toContain('S3CRETPW');
		}
	});
});

describe('sift serve flags and log lines', () => {
	it('every repeatable flag starts as an empty list, so giving it never crashes (--allow-host did)', () => {
		const defaults = defaultFlags() as Record<string, unknown>;
		for (const spec of Object.values(FLAGS).filter(entry => entry.multiple)) expect(defaults[spec.key], `--${spec.name}`).toEqual([]);
	});

	it('text that is not JSON (a notice, a stack trace) becomes one JSON line; a JSON line stays as it is', () => {
		const stack = 'Error: boom\n    at handler (file.js:1:1)\n    at next (file.js:2:2)\n';
		const line = asLogLine(stack, 'error');
		expect(line).not.toContain('\n');
		expect(JSON.parse(line)).toMatchObject({level: 'error', message: stack.trimEnd()});
		expect(asLogLine('{"at":"x","status":200}\n')).toBe('{"at":"x","status":200}');
		expect(JSON.parse(asLogLine('[1,2]')).message).toBe('[1,2]');
		const written: string[] = [];
		const stream = jsonLinesStream({write: text => written.push(text)});
		stream.write('sift: waiting for another sift process to finish writing…\n');
		expect(JSON.parse(written[0]!)).toMatchObject({message: 'sift: waiting for another sift process to finish writing…'});
	});
});
