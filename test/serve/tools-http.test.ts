/**
 * The whole MCP tool suite of test/mcp/tools.test.ts, run again over HTTP: its in-process
 * connection is swapped for `sift serve` on a free port and the SDK's Streamable HTTP client,
 * with grants and actor carried by a bearer token. Same tests, not a copy.
 */
import {vi} from 'vitest';

vi.mock('../mcp/fixtures.js', async importOriginal => {
	const original = await importOriginal<typeof import('../mcp/fixtures.js')>();
	const {connectOverHttp, httpCallerFor} = await import('./support.js');
	return {...original, connectInProcess: connectOverHttp, callerFor: httpCallerFor};
});

await import('../mcp/tools.test.js');
