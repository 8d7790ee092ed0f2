// A TUI run through `sift serve` (`--server`, or `server:` in the config), with a token minted for
// that run alone.

import {readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {startServe, type SiftHttpServer} from '../../source/serve/http.js';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {makeDemoDb, type DemoDb} from '../support/pty-fixtures.js';
import {renderApp} from '../ui/helpers.js';
import {MCP_HEADERS, rawRequest, toolCall} from './support.js';

// A Codex run from the TUI with a server set (`--server`, or `server:` in the config): the agent
// reaches the store through `sift serve` with a token minted for that run alone. The runner starts
// the built `sift`, so `npm run build` comes first (npm test does).

const TOKEN_CODEX = fileURLToPath(new URL('token-codex.mjs', import.meta.url));

let db: DemoDb;
let store: AsyncStore;
let server: SiftHttpServer;

beforeEach(async () => {
	db = makeDemoDb(30, {prefix: 'sift-tui-server-'});
	store = await openAsyncStore(db.dbPath);
	server = await startServe({store, port: 0, log: () => undefined});
});

afterEach(async () => {
	await server.drain(2000);
	await store.close();
	db.cleanup();
});

describe('a TUI run through sift serve', () => {
	it('hands Codex the server URL and a token of its own, which dies with the run', async () => {
		const out = path.join(db.dir, 'seen-tui.json');
		const app = renderApp(store, {stateDir: db.stateDir, codex: TOKEN_CODEX, endpoint: `${server.url}/mcp`, env: {FAKE_CODEX_MODE: 'normal', TOKEN_CODEX_OUT: out}});
		try {
			await app.waitFor(frame => frame.includes('BUG-0030'));
			await app.keys('c');
			await app.waitFor(frame => frame.includes('Run Codex on'));
			await app.keys('\r');
			await app.waitFor(frame => frame.includes('✓ Codex ok'), 30_000);
		} finally {
			app.unmount();
		}

		const seen = JSON.parse(readFileSync(out, 'utf8')) as {argv: string[]; token: string; status: {code: number; body: {result: {structuredContent: {channels: Array<{id: string}>}}}}};
		// The token worked during the run, for this channel only, and never went into argv.
		expect(seen.status.code).toBe(200);
		expect(seen.status.body.result.structuredContent.channels.map(channel => channel.id)).toEqual(['bugs']);
		expect(seen.argv.join(' ')).toContain(`url="${server.url}/mcp"`);
		expect(seen.argv.join(' ')).not.toContain(seen.token);
		// The run's token is revoked now that the run is over.
		const [token] = (await store.tokens.list()).filter(listed => listed.name.startsWith('run-'));
		expect(token).toMatchObject({actor: 'agent', grants: ['bugs']});
		expect(token!.revoked_at).not.toBeNull();
		const after = await rawRequest(server.url, {headers: {...MCP_HEADERS, Authorization: `Bearer ${seen.token}`}, body: toolCall('list_granted_resources')});
		expect(after.status).toBe(401);
	});
});
