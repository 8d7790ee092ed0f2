import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {setTimeout as delay} from 'node:timers/promises';
import {StreamableHTTPServerTransport} from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js';
import {Grants, type AsyncStore, type TokenIdentity} from '../../store/index.js';
import {createSiftServer} from '../mcp/server.js';
import {MAX_BODY_BYTES, readBody} from './body.js';
import {ServerPool} from './pool.js';
import {AllowedHosts, formatHost} from './hosts.js';
import {RateLimiter} from './rate.js';

export const DEFAULT_LISTEN = {host: '127.0.0.1', port: 7345};
export const DEFAULT_RATE = 50;
export const DRAIN_TIMEOUT_MS = 10_000;

export type ServeOptions = {
	store: AsyncStore;
	host?: string;
	/** 0 picks a free port. */
	port?: number;
	/** Added to the listen address (and the loopback names when it is loopback). */
	allowHosts?: readonly string[];
	/** Requests a second per token; default 50. */
	rate?: number;
	/** One JSON line per request; default stderr. */
	log?: (line: string) => void;
	/** Test hook: every tools/call waits this long first, so a call can be caught in flight. */
	callDelayMs?: number;
};

export type SiftHttpServer = {
	/** e.g. http://127.0.0.1:7345 (the MCP endpoint is `${url}/mcp`). */
	url: string;
	port: number;
	/** Requests being handled right now (answered, and the token's last use written). */
	inFlight: () => number;
	/**
	 * Stops accepting connections, lets requests in flight finish (up to `timeoutMs`), then closes
	 * every connection. Resolves true when everything finished in time.
	 */
	drain: (timeoutMs?: number) => Promise<boolean>;
};

/** What one log line says about a request: never the secret, never a record value. */
type RequestLog = {token: string | null; method: string | null; tool: string | null; outcome: string};

/**
 * `sift serve`: the agent tools of `sift mcp` over MCP Streamable HTTP at /mcp. Stateless: each
 * POST gets its own MCP server and transport bound to the caller's token, so grants and actor are
 * decided per request from the token alone, nothing is kept between requests, and a revoked
 * token stops working on its very next request.
 */
export async function startServe(options: ServeOptions): Promise<SiftHttpServer> {
	const host = options.host ?? DEFAULT_LISTEN.host;
	const limiter = new RateLimiter(options.rate ?? DEFAULT_RATE);
	const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
	let allowed = new AllowedHosts([]);
	const pools = new Map<string, ServerPool>();
	/** When each token's last use was written, so the store is asked at most once a minute per token. */
	const touched = new Map<string, number>();
	let inFlight = 0;
	let draining = false;
	const idle: Array<() => void> = [];

	const server: Server = createServer((request, response) => {
		inFlight++;
		const started = performance.now();
		const entry: RequestLog = {token: null, method: null, tool: null, outcome: 'ok'};
		const answered = new Promise<void>(resolve => response.once('close', () => {
			log(JSON.stringify({at: new Date().toISOString(), http: `${request.method ?? ''} ${pathOf(request)}`, status: response.statusCode, ...entry, ms: Math.round((performance.now() - started) * 10) / 10}));
			resolve();
		}));
		const handled = handle(request, response, entry).catch(error => {
			entry.outcome = 'internal_error';
			log(JSON.stringify({at: new Date().toISOString(), error: String((error as Error)?.message ?? error).slice(0, 200)}));
			if (!response.headersSent) reply(response, 500, {error: 'internal_error'});
			else response.destroy();
		});
		// In flight until answered and handled to the end (the token's last use written): draining
		// waits for both before the store closes.
		void Promise.all([answered, handled]).then(() => {
			inFlight--;
			if (inFlight === 0) for (const resolve of idle.splice(0)) resolve();
		});
	});
	// A slow or silent client cannot hold a connection open for ever.
	server.requestTimeout = 30_000;
	server.headersTimeout = 10_000;

	async function handle(request: IncomingMessage, response: ServerResponse, entry: RequestLog): Promise<void> {
		if (draining) {
			entry.outcome = 'draining';
			reply(response, 503, {error: 'shutting_down'}, {Connection: 'close'});
			return;
		}

		if (!allowed.allowsHost(request.headers.host) || (request.headers.origin !== undefined && !allowed.allowsOrigin(request.headers.origin))) {
			entry.outcome = 'forbidden_host';
			reply(response, 403, {error: 'forbidden', message: 'Host or Origin is not allowed (see --allow-host)'}, {Connection: 'close'});
			return;
		}

		const path = pathOf(request);
		if (path === '/healthz' && request.method === 'GET') {
			// This request is one of those in flight.
			reply(response, 200, {status: 'ok', in_flight: inFlight - 1});
			return;
		}

		if (path !== '/mcp') {
			entry.outcome = 'not_found';
			reply(response, 404, {error: 'not_found'});
			return;
		}

		const identity = await authenticate(request);
		if (!identity) {
			entry.outcome = 'unauthorized';
			reply(response, 401, {error: 'unauthorized', message: 'a valid bearer token is required'}, {'WWW-Authenticate': 'Bearer realm="sift"', Connection: 'close'});
			return;
		}

		entry.token = identity.name;
		if (!rateAllows(response, entry, identity, 1)) return;
		if (request.method !== 'POST') {
			// Stateless: no server-initiated stream (GET) and no session to end (DELETE).
			entry.outcome = 'method_not_allowed';
			reply(response, 405, {error: 'method_not_allowed'}, {Allow: 'POST'});
			return;
		}

		const body = await readBody(request, MAX_BODY_BYTES);
		if (!body.ok) {
			entry.outcome = body.reason;
			if (body.reason === 'too_large') reply(response, 413, {error: 'too_large', message: `request bodies are limited to ${MAX_BODY_BYTES} bytes`}, {Connection: 'close'});
			else response.destroy();
			return;
		}

		let message: unknown;
		try {
			message = JSON.parse(body.text);
		} catch {
			entry.outcome = 'parse_error';
			reply(response, 400, {jsonrpc: '2.0', error: {code: -32700, message: 'Parse error: the body is not JSON'}, id: null});
			return;
		}

		describeCall(message, entry);
		// A batch costs one request per message; the first was paid above.
		if (Array.isArray(message) && message.length > 1 && !rateAllows(response, entry, identity, message.length - 1)) return;
		if (options.callDelayMs && entry.method === 'tools/call') await delay(options.callDelayMs);
		await dispatch(request, response, message, identity, entry);
		if (response.statusCode < 400) await touch(identity.name);
	}

	async function touch(name: string): Promise<void> {
		const now = Date.now();
		if (now - (touched.get(name) ?? 0) < 60_000) return;
		if (touched.size >= 10_000) touched.clear();
		touched.set(name, now);
		try {
			await options.store.tokens.touch(name);
		} catch (error) {
			// Best effort: a busy store must not fail a request that was served.
			log(JSON.stringify({at: new Date().toISOString(), warning: `last use of token ${name} not recorded: ${String((error as Error)?.message ?? error).slice(0, 200)}`}));
		}
	}

	async function authenticate(request: IncomingMessage): Promise<TokenIdentity | null> {
		const match = /^Bearer ([^\s]+)$/i.exec(request.headers.authorization ?? '');
		return match ? options.store.tokens.verify(match[1]!) : null;
	}

	function rateAllows(response: ServerResponse, entry: RequestLog, identity: TokenIdentity, cost: number): boolean {
		const wait = limiter.take(identity.name, cost);
		if (wait === 0) return true;
		entry.outcome = 'rate_limited';
		reply(response, 429, {error: 'rate_limited', message: `over ${options.rate ?? DEFAULT_RATE} requests a second for this token`}, {'Retry-After': String(wait)});
		return false;
	}

	async function dispatch(request: IncomingMessage, response: ServerResponse, message: unknown, identity: TokenIdentity, entry: RequestLog): Promise<void> {
		// A token's grants and actor never change, so its servers can be reused across its requests.
		const key = JSON.stringify([identity.name, identity.grants, identity.actor, identity.scope]);
		let pool = pools.get(key);
		if (!pool) {
			// Tokens come and go (one per run): forget them all rather than grow without bound.
			if (pools.size >= 1000) pools.clear();
			pool = new ServerPool(() => createSiftServer({store: options.store, grants: new Grants(identity.grants, identity.scope), actor: identity.actor, log}));
			pools.set(key, pool);
		}

		const mcp = pool.take();
		const transport = new StreamableHTTPServerTransport({sessionIdGenerator: undefined, enableJsonResponse: true});
		const send = transport.send.bind(transport);
		transport.send = async (reply, sendOptions) => {
			entry.outcome = outcomeOf(reply, entry.outcome);
			return send(reply, sendOptions);
		};

		response.once('close', () => {
			// A server whose client went away mid-call may still be finishing it: not reused.
			const reusable = response.writableFinished;
			void mcp.close().then(() => reusable && pool.give(mcp), () => {});
		});
		await mcp.connect(transport);
		await transport.handleRequest(request, response, message);
	}

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? DEFAULT_LISTEN.port, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;
	allowed = AllowedHosts.forListen(host, port, options.allowHosts ?? []);

	return {
		url: `http://${formatHost(host)}:${port}`,
		port,
		inFlight: () => inFlight,
		async drain(timeoutMs = DRAIN_TIMEOUT_MS) {
			draining = true;
			const closed = new Promise<void>(resolve => server.close(() => resolve()));
			server.closeIdleConnections();
			const finished = inFlight === 0 ? Promise.resolve(true) : new Promise<boolean>(resolve => idle.push(() => resolve(true)));
			const timer = delay(timeoutMs, false, {ref: false});
			const inTime = await Promise.race([finished, timer]);
			server.closeAllConnections();
			await closed;
			return inTime;
		},
	};
}

function pathOf(request: IncomingMessage): string {
	// Without the query (which some clients use for secrets), and short enough for a log line.
	const url = request.url ?? '/';
	const query = url.indexOf('?');
	return (query === -1 ? url : url.slice(0, query)).slice(0, 200);
}

function reply(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	const text = JSON.stringify(body);
	response.writeHead(status, {'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers});
	response.end(text);
}

const NAME = /^[A-Za-z0-9_/.-]{1,64}$/;

/** The JSON-RPC method and tool name of the first request in the body, when they look like names. */
function describeCall(message: unknown, entry: RequestLog): void {
	const first = (Array.isArray(message) ? message[0] : message) as {method?: unknown; params?: {name?: unknown}} | undefined;
	if (!first || typeof first !== 'object') return;
	if (typeof first.method === 'string') entry.method = NAME.test(first.method) ? first.method : 'invalid';
	const tool = first.params?.name;
	if (entry.method === 'tools/call') entry.tool = typeof tool === 'string' && NAME.test(tool) ? tool : 'invalid';
}

/** ok, a JSON-RPC error, or a tool's refusal code (e.g. validation_failed, not_granted). */
function outcomeOf(message: JSONRPCMessage, previous: string): string {
	if ('error' in message) return 'rpc_error';
	if (!('result' in message)) return previous;
	const result = message.result as {isError?: boolean; content?: Array<{type: string; text?: string}>};
	if (!result.isError) return previous;
	const text = result.content?.[0]?.text ?? '';
	try {
		const code = (JSON.parse(text) as {error?: unknown}).error;
		return typeof code === 'string' && NAME.test(code) ? code : 'tool_error';
	} catch {
		return 'invalid_arguments';
	}
}
