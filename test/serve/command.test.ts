import {describe, expect, it} from 'vitest';
import {buildCodexCommand, type CommandInput} from '../../source/codex/command.js';
import {mcpEndpoint} from '../../source/serve/endpoint.js';

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
			'mcp_servers.sift={url="http://team:7345/mcp", bearer_token_env_var="SIFT_MCP_TOKEN", required=true, default_tools_approval_mode="approve", enabled_tools=["list_granted_resources", "list_record_items", "read_record_item", "edit_record_item", "poll_resource_events"], startup_timeout_sec=30}',
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
});
