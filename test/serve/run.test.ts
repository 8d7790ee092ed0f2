// `sift run --server`: the run token's life.

import {readFileSync, rmSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, afterEach, beforeEach, describe, expect, it} from 'vitest';
import {startServe, type SiftHttpServer} from '../../source/serve/http.js';
import {startServerRun} from '../../source/codex/run-token.js';
import {openAsyncStore, openStore, type AsyncStore, type Store} from '../../store/index.js';
import {tempDir} from '../codex/support.js';
import {makeDatabase} from '../mcp/fixtures.js';
import {MCP_HEADERS, rawRequest, toolCall} from './support.js';

/** The fake codex, behind a wrapper that records the token it was handed and tries it once. */
const TOKEN_CODEX = fileURLToPath(new URL('token-codex.mjs', import.meta.url));

const dir = tempDir('sift-serve-run-');
afterAll(() => rmSync(dir, {recursive: true, force: true}));

let counter = 0;
let file: string;
let store: Store;
/** The server's own connection, as `sift serve` in its own process has. */
let served: AsyncStore;
let server: SiftHttpServer;

beforeEach(async () => {
	file = path.join(dir, `r${counter++}.db`);
	makeDatabase(file);
	store = openStore(file);
	served = await openAsyncStore(file);
	server = await startServe({store: served, port: 0, log: () => {}});
});

afterEach(async () => {
	await server.drain(2000);
	await served.close();
	store.close();
});

type Seen = {argv: string[]; token: string; status: {code: number; body: any}};

async function runThroughServer(mode: string, timeoutMs = 20_000) {
	const out = path.join(dir, `seen-${counter}.json`);
	const began = Date.now();
	const handle = await startServerRun(served, {
		instruction: 'Triage these bugs',
		channelId: 'bugs',
		itemIds: [],
		dbPath: file,
		codex: TOKEN_CODEX,
		stateDir: path.join(dir, `state-${counter}`),
		timeoutMs,
		killGraceMs: 500,
		env: {...process.env, FAKE_CODEX_MODE: mode, TOKEN_CODEX_OUT: out, SIFT_MCP_TOKEN: 'inherited-must-not-pass'},
		endpoint: `${server.url}/mcp`,
	});
	const result = await handle.done;
	const seen = JSON.parse(readFileSync(out, 'utf8')) as Seen;
	return {result, seen, began};
}

const tokenWorks = async (token: string) => (await rawRequest(server.url, {headers: {...MCP_HEADERS, Authorization: `Bearer ${token}`}, body: toolCall('list_granted_resources')})).status;

describe('sift run --server', () => {
	it('Codex gets the HTTP server and a token for this run only, in its environment; the token dies with the run', async () => {
		const {result, seen, began} = await runThroughServer('normal');
		expect(result.outcome).toBe('ok');
		expect(seen.token).toMatch(/^sift_[\w-]{43}$/);
		// The token worked during the run, for the run's channel only.
		expect(seen.status.code).toBe(200);
		expect(seen.status.body.result.structuredContent.channels.map((channel: {id: string}) => channel.id)).toEqual(['bugs']);
		const config = seen.argv.find(arg => arg.startsWith('mcp_servers.sift='))!;
		expect(config).toBe(
			`mcp_servers.sift={url="${server.url}/mcp", bearer_token_env_var="SIFT_MCP_TOKEN", required=true, default_tools_approval_mode="approve", enabled_tools=["list_granted_resources", "list_record_items", "read_record_item", "search_record_items", "find_similar_items", "edit_record_item", "poll_resource_events"], startup_timeout_sec=30}`,
		);
		for (const argument of seen.argv) expect(argument).not.toContain(seen.token);
		expect(readFileSync(result.logPath, 'utf8')).not.toContain(seen.token);

		expect(await tokenWorks(seen.token)).toBe(401);
		const [info] = store.listTokens().filter(token => token.run_id === result.runId);
		expect(info).toMatchObject({name: `run-${result.runId}`, actor: 'agent', grants: ['bugs']});
		expect(info!.revoked_at).not.toBeNull();
		const expires = Date.parse(info!.expires_at!);
		expect(expires).toBeGreaterThanOrEqual(began + 20_000);
		expect(expires).toBeLessThanOrEqual(Date.now() + 20_000);
	});

	it.each(['crash-before-answer', 'auth'])('the token is revoked when the run ends %s', async mode => {
		const {result, seen} = await runThroughServer(mode);
		expect(result.outcome).not.toBe('ok');
		expect(seen.status.code).toBe(200);
		expect(await tokenWorks(seen.token)).toBe(401);
	});

	it('the token is revoked when the run is cancelled', async () => {
		const out = path.join(dir, 'seen-cancel.json');
		const handle = await startServerRun(served, {
			instruction: 'Triage',
			channelId: 'bugs',
			dbPath: file,
			codex: TOKEN_CODEX,
			stateDir: path.join(dir, 'state-cancel'),
			killGraceMs: 500,
			env: {...process.env, FAKE_CODEX_MODE: 'hang', TOKEN_CODEX_OUT: out},
			endpoint: `${server.url}/mcp`,
		});
		for await (const update of handle.updates) {
			if (update.type === 'step') break;
		}

		handle.cancel();
		const result = await handle.done;
		expect(result.outcome).toBe('cancelled');
		const seen = JSON.parse(readFileSync(out, 'utf8')) as Seen;
		expect(await tokenWorks(seen.token)).toBe(401);
	});
});
