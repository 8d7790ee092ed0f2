#!/usr/bin/env node
// A stand-in for `codex` in the `sift run --server` tests: records the MCP token it was given
// (SIFT_MCP_TOKEN), the sift server config from its argv, and whether the token worked during
// the run, into $TOKEN_CODEX_OUT; then behaves exactly as test/support/fake-codex.mjs.
import {writeFileSync} from 'node:fs';

const argv = process.argv.slice(2);
const config = argv.find(arg => arg.startsWith('mcp_servers.sift=')) ?? '';
if (argv[0] === 'exec' && config && process.env.TOKEN_CODEX_OUT) {
	const url = /url="([^"]+)"/.exec(config)?.[1];
	const token = process.env.SIFT_MCP_TOKEN;
	let status = null;
	if (url && token) {
		const response = await fetch(url, {
			method: 'POST',
			headers: {'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}`},
			body: JSON.stringify({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'list_granted_resources', arguments: {}}}),
		});
		status = {code: response.status, body: await response.json()};
	}

	writeFileSync(process.env.TOKEN_CODEX_OUT, JSON.stringify({argv, token, status}));
}

await import('../support/fake-codex.mjs');
