// The HTTP server: routing, token check, limits, the SDK's web-standard transport per request, one
// log line per request with its real status and outcome, draining on SIGTERM; `/healthz` asks the
// store, and an unreachable store is 503.

import {createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse} from 'node:http';
import type {AddressInfo, Socket} from 'node:net';
import type {Duplex} from 'node:stream';
import {setTimeout as delay} from 'node:timers/promises';
import {WebStandardStreamableHTTPServerTransport} from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {ErrorCode, isJSONRPCRequest, type JSONRPCMessage, type RequestId} from '@modelcontextprotocol/sdk/types.js';
import {Grants, StoreError, type AsyncStore, type TokenIdentity} from '../../store/index.js';
import {CallQueue} from '../mcp/call-queue.js';
import {answerId, BATCH_PROTOCOL_VERSION, cancelledAnswer, cancelledRequestId, checkMessages, type Checked, type ErrorAnswer} from '../mcp/jsonrpc.js';
import {createSiftServer} from '../mcp/server.js';
import {MAX_BODY_BYTES, readBody} from './body.js';
import {ServerPool} from './pool.js';
import {allowHostEntries, AllowedHosts, formatHost} from './hosts.js';
import {asLogLine, logLine} from './log.js';
import {RateLimiter, rateHeaders} from './rate.js';
import {counted} from '../text/format.js';

export const DEFAULT_LISTEN = {host: '127.0.0.1', port: 7345};
export const DEFAULT_RATE = 50;
export const DRAIN_TIMEOUT_MS = 10_000;
/** A request must have arrived whole within this; a slow or silent client cannot hold a connection for ever. */
export const REQUEST_TIMEOUT_MS = 30_000;

export type ServeOptions = {
	store: AsyncStore;
	host?: string;
	/** 0 picks a free port. */
	port?: number;
	/** `HOST` or `HOST:PORT` entries added to the listen address (see AllowedHosts.forListen); a malformed one throws. */
	allowHosts?: readonly string[];
	/** Requests a second per token; default 50. */
	rate?: number;
	/** One JSON line per request (and per event); default stderr. */
	log?: (line: string) => void;
	/** Default 30 s; tests make it short. */
	requestTimeoutMs?: number;
	/** Test hook: every tools/call waits this long first, so a call can be caught in flight. */
	callDelayMs?: number;
	/** Test hook: the rate buckets' clock in ms (default performance.now), so a refill needs no waiting. */
	rateClock?: () => number;
};

export type SiftHttpServer = {
	/** e.g. http://127.0.0.1:7345 (the MCP endpoint is `${url}/mcp`). */
	url: string;
	port: number;
	/** Requests being handled right now (answered, their calls settled, the token's last use written). */
	inFlight: () => number;
	/**
	 * Stops accepting connections, lets requests in flight finish (up to `timeoutMs`), then closes
	 * every connection, logging the requests cut off. Resolves true when everything finished in time.
	 */
	drain: (timeoutMs?: number) => Promise<boolean>;
};

/** What one log line says about a request: never the secret, never a record value. */
type RequestLog = {
	token: string | null;
	method: string | null;
	tool: string | null;
	outcome: string;
	/** A status written outside the response (Node's 408), which the response object never learns. */
	status?: number;
	logged?: boolean;
};

type Live = {request: IncomingMessage; response: ServerResponse; entry: RequestLog; started: number};

/**
 * `sift serve`: the agent tools of `sift mcp` over MCP Streamable HTTP at /mcp (the SDK's
 * transport). Stateless: each POST gets its own MCP server and transport bound to the caller's
 * token, so grants and actor are decided per request from the token alone, nothing is kept
 * between requests, and a revoked token stops working on its very next request.
 */
export async function startServe(options: ServeOptions): Promise<SiftHttpServer> {
	const host = options.host ?? DEFAULT_LISTEN.host;
	const extraHosts = allowHostEntries(options.allowHosts ?? []);
	const rate = options.rate ?? DEFAULT_RATE;
	const limiter = new RateLimiter(rate, options.rateClock);
	const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
	const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
	let allowed = new AllowedHosts([]);
	const pools = new Map<string, ServerPool>();
	/** When each token's last use was written, so the store is asked at most once a minute per token. */
	const touched = new Map<string, number>();
	const live = new Set<Live>();
	const bySocket = new WeakMap<Duplex, RequestLog>();
	let inFlight = 0;
	let draining = false;
	let cutOff = false;
	const idle: Array<() => void> = [];

	/** The request's one log line, once: its real status (null when none was sent) and outcome. */
	function logRequest({request, response, entry, started}: Live): void {
		if (entry.logged) return;
		entry.logged = true;
		const finished = response.writableFinished;
		const status = entry.status ?? (finished ? response.statusCode : null);
		let {outcome} = entry;
		if (entry.status === undefined && !finished && outcome === 'ok') outcome = cutOff ? 'cut_off' : 'client_closed';
		else if (status !== null && status >= 400 && outcome === 'ok') outcome = httpOutcome(status);
		const {token, method, tool} = entry;
		log(logLine({http: `${request.method ?? ''} ${pathOf(request)}`, status, token, method, tool, outcome, ms: Math.round((performance.now() - started) * 10) / 10}));
	}

	const server: Server = createServer({connectionsCheckingInterval: Math.min(30_000, Math.max(50, requestTimeout / 4))}, (request, response) => {
		inFlight++;
		const record: Live = {request, response, entry: {token: null, method: null, tool: null, outcome: 'ok'}, started: performance.now()};
		live.add(record);
		bySocket.set(request.socket, record.entry);
		const answered = new Promise<void>(resolve => response.once('close', resolve));
		const handled = handle(request, response, record.entry).catch(error => {
			// The store cannot be reached (a restart, a dropped connection): 503, and the next request tries again.
			if (error instanceof StoreError && (error.code === 'unavailable' || error.code === 'timeout')) {
				record.entry.outcome = error.code;
				if (!response.headersSent) reply(response, 503, {error: error.code, message: error.message}, {'Retry-After': '1'});
				else response.destroy();
				return;
			}

			record.entry.outcome = 'internal_error';
			log(logLine({level: 'error', error: String((error as Error)?.message ?? error).slice(0, 200)}));
			if (!response.headersSent) reply(response, 500, {error: 'internal_error'});
			else response.destroy();
		});
		// In flight until answered and handled to the end (its calls settled, the token's last use
		// written): draining waits for both before the store closes.
		void Promise.all([answered, handled]).then(() => {
			live.delete(record);
			if (bySocket.get(request.socket) === record.entry) bySocket.delete(request.socket);
			logRequest(record);
			inFlight--;
			if (inFlight === 0) for (const resolve of idle.splice(0)) resolve();
		});
	});
	server.requestTimeout = requestTimeout;
	server.headersTimeout = Math.min(10_000, requestTimeout);
	// Node answers a request that timed out (408) or is not HTTP (400) on the socket itself; the
	// request's log line must say so, not "ok".
	server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
		const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
		const entry = bySocket.get(socket);
		// A client that left, or broke off a request it had begun (that request's line says aborted).
		if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || !socket.writable || (entry && status !== 408)) {
			socket.destroy();
			return;
		}

		if ((socket as Socket).bytesWritten === 0) {
			socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
			setTimeout(() => socket.destroy(), 1000).unref();
		} else {
			socket.destroy();
		}

		const outcome = status === 408 ? 'request_timeout' : 'bad_request';
		if (entry) {
			entry.status = status;
			entry.outcome = outcome;
		} else {
			log(logLine({http: null, status, token: null, method: null, tool: null, outcome, ms: null}));
		}
	});

	async function handle(request: IncomingMessage, response: ServerResponse, entry: RequestLog): Promise<void> {
		// Every answer says the limit; once the token is known, its own bucket (rateAllows).
		setHeaders(response, rateHeaders({limit: Math.floor(rate), remaining: Math.floor(rate), reset: 0}));
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
			const busy = inFlight - 1;
			const reachable = await options.store.ping().then(() => true, () => false);
			if (!reachable) entry.outcome = 'store_unreachable';
			reply(response, reachable ? 200 : 503, {status: reachable ? 'ok' : 'unavailable', store: reachable ? 'ok' : 'unreachable', in_flight: busy});
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
			if (entry.status === undefined) entry.outcome = body.reason;
			if (body.reason === 'too_large') reply(response, 413, {error: 'too_large', message: `request bodies are limited to ${MAX_BODY_BYTES} bytes`}, {Connection: 'close'});
			else response.destroy();
			return;
		}

		let json: unknown;
		try {
			json = JSON.parse(body.text);
		} catch {
			entry.outcome = 'parse_error';
			reply(response, 400, {jsonrpc: '2.0', error: {code: ErrorCode.ParseError, message: 'Parse error: the body is not JSON'}, id: null});
			return;
		}

		// Without the header a client speaks 2025-03-26 (the MCP transport rules), the version with batches.
		const version = request.headers['mcp-protocol-version'];
		const checked = checkMessages(json, typeof version === 'string' ? version : BATCH_PROTOCOL_VERSION);
		describeCall(checked.messages[0] ?? (Array.isArray(json) ? json[0] : json), entry);
		if (Array.isArray(json) && json.length > rate) {
			// The bucket holds `rate` at most: a Retry-After could never help.
			entry.outcome = 'batch_over_rate';
			reply(response, 413, {error: 'batch_over_rate', message: `a batch of ${json.length} messages costs ${json.length} requests, more than the ${rate} a second allowed per token (--rate), so it can never be served; send at most ${counted(rate, 'message')} a batch`}, {Connection: 'close'});
			return;
		}

		// A batch costs one request per message; the first was paid above.
		if (Array.isArray(json) && json.length > 1 && !rateAllows(response, entry, identity, json.length - 1)) return;
		if (checked.messages.length === 0) {
			entry.outcome = refusalOutcome(checked.refusals);
			const status = checked.refusals.every(refusal => refusal.error.code === ErrorCode.InvalidParams) ? 200 : 400;
			reply(response, status, checked.batch ? checked.refusals : checked.refusals[0]);
			return;
		}

		if (options.callDelayMs && entry.method === 'tools/call') await delay(options.callDelayMs);
		if (response.destroyed) return; // the client left already: nothing to run for it
		await dispatch(request, response, checked, identity, entry);
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
			log(logLine({level: 'warning', warning: `last use of token ${name} not recorded: ${String((error as Error)?.message ?? error).slice(0, 200)}`}));
		}
	}

	async function authenticate(request: IncomingMessage): Promise<TokenIdentity | null> {
		const match = /^Bearer ([^\s]+)$/i.exec(request.headers.authorization ?? '');
		return match ? options.store.tokens.verify(match[1]!) : null;
	}

	function rateAllows(response: ServerResponse, entry: RequestLog, identity: TokenIdentity, cost: number): boolean {
		const wait = limiter.take(identity.name, cost);
		setHeaders(response, rateHeaders(limiter.state(identity.name)));
		if (wait === 0) return true;
		entry.outcome = 'rate_limited';
		reply(response, 429, {error: 'rate_limited', message: `over ${counted(rate, 'request')} a second for this token`}, {'Retry-After': String(wait)});
		return false;
	}

	function poolOf(identity: TokenIdentity): ServerPool {
		// A token's grants and actor never change, so its servers can be reused across its requests.
		const key = JSON.stringify([identity.name, identity.grants, identity.actor, identity.scope]);
		let pool = pools.get(key);
		if (!pool) {
			// Tokens come and go (one per run): forget them all rather than grow without bound.
			if (pools.size >= 1000) pools.clear();
			const serverLog = (line: string) => log(asLogLine(line, 'error'));
			pool = new ServerPool(() => {
				const calls = new CallQueue();
				return {server: createSiftServer({store: options.store, grants: new Grants(identity.grants, identity.scope), actor: identity.actor, log: serverLog, calls}), calls};
			});
			pools.set(key, pool);
		}

		return pool;
	}

	async function dispatch(request: IncomingMessage, response: ServerResponse, checked: Checked, identity: TokenIdentity, entry: RequestLog): Promise<void> {
		const pool = poolOf(identity);
		const lent = pool.take();
		const transport = new WebStandardStreamableHTTPServerTransport({sessionIdGenerator: undefined, enableJsonResponse: true});
		const requests = new Set<RequestId>(checked.messages.filter(isJSONRPCRequest).map(message => message.id));
		const answered = new Set<RequestId>();
		let cancelled = false;
		const send = transport.send.bind(transport);
		transport.send = async (message, sendOptions) => {
			const id = answerId(message);
			if (id !== undefined) {
				if (answered.has(id)) return; // a request its batch cancelled was answered already
				answered.add(id);
			}

			// Once a batch cancelled one of its requests, that is what its line says.
			if (!cancelled) entry.outcome = outcomeOf(message, entry.outcome);
			return send(message, sendOptions);
		};

		const closed = new Promise<null>(resolve => (response.destroyed ? resolve(null) : response.once('close', () => resolve(null))));
		try {
			await lent.server.connect(transport);
			const deliver = transport.onmessage!;
			transport.onmessage = (message, extra) => {
				deliver(message, extra);
				// The SDK sends nothing for a cancelled request, and the batch would wait for it for ever.
				const id = cancelledRequestId(message);
				if (id !== undefined && requests.has(id) && !answered.has(id)) {
					cancelled = true;
					entry.outcome = 'cancelled';
					void transport.send(cancelledAnswer(id)).catch(() => undefined);
				}
			};

			const parsedBody = checked.batch ? checked.messages : checked.messages[0];
			// A client that goes away mid-call gets no answer; its call still settles below.
			const answer = await Promise.race([transport.handleRequest(webRequestOf(request), {parsedBody}), closed]);
			if (answer && !response.destroyed) await writeAnswer(response, answer, checked);
		} finally {
			await lent.server.close().catch(() => undefined);
			// A cancelled call, or one whose client left, may still be running: in flight until it settles.
			await lent.calls.idle();
			pool.give(lent);
		}
	}

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? DEFAULT_LISTEN.port, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;
	allowed = AllowedHosts.forListen(host, port, extraHosts);

	return {
		url: `http://${formatHost(host)}:${port}`,
		port,
		inFlight: () => inFlight,
		async drain(timeoutMs = DRAIN_TIMEOUT_MS) {
			draining = true;
			const closed = new Promise<void>(resolve => server.close(() => resolve()));
			server.closeIdleConnections();
			const finished = inFlight === 0 ? Promise.resolve(true) : new Promise<boolean>(resolve => idle.push(() => resolve(true)));
			// A timer that keeps the process alive: the drain ends by finishing or by this, never by an
			// event loop that ran dry under an await that can no longer settle.
			let timer: NodeJS.Timeout | undefined;
			const timedOut = new Promise<boolean>(resolve => (timer = setTimeout(() => resolve(false), timeoutMs)));
			const inTime = await Promise.race([finished, timedOut]);
			clearTimeout(timer);
			if (!inTime) {
				cutOff = true;
				for (const record of live) {
					if (!record.response.writableFinished && record.entry.outcome === 'ok') record.entry.outcome = 'cut_off';
					logRequest(record);
				}
			}

			server.closeAllConnections();
			await closed;
			return inTime;
		},
	};
}

/** The parts of a Node request the SDK's web-standard transport reads (no body: it gets the parsed one). */
function webRequestOf(request: IncomingMessage): Request {
	const headers = new Headers();
	for (const name of ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id']) {
		const value = request.headers[name];
		if (typeof value === 'string') headers.set(name, value);
	}

	return new Request(`http://sift.invalid${pathOf(request)}`, {method: request.method, headers});
}

/** The SDK's answer, with the answers checkMessages already gave added; a batch is always answered with an array. */
async function writeAnswer(response: ServerResponse, answer: Response, checked: Checked): Promise<void> {
	let text = await answer.text();
	let status = answer.status;
	if (status < 300 && (checked.batch || checked.refusals.length > 0) && !(status === 202 && checked.refusals.length === 0)) {
		const given = text ? (JSON.parse(text) as JSONRPCMessage | JSONRPCMessage[]) : [];
		text = JSON.stringify([...(Array.isArray(given) ? given : [given]), ...checked.refusals]);
		status = 200;
	}

	const headers: Record<string, string> = {};
	if (text) headers['Content-Type'] = answer.headers.get('content-type') ?? 'application/json';
	headers['Content-Length'] = String(Buffer.byteLength(text));
	response.writeHead(status, headers);
	response.end(text);
}

function setHeaders(response: ServerResponse, headers: Record<string, string>): void {
	for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
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

/** The outcome of a request answered with an HTTP error by someone other than this file (the SDK, Node). */
function httpOutcome(status: number): string {
	const named: Record<number, string> = {400: 'bad_request', 404: 'not_found', 406: 'not_acceptable', 408: 'request_timeout', 413: 'too_large', 415: 'unsupported_media_type', 500: 'internal_error'};
	return named[status] ?? `http_${status}`;
}

/** The outcome of a body refused before the server: invalid_request, or invalid_params when that is all. */
function refusalOutcome(refusals: ErrorAnswer[]): string {
	return refusals.every(refusal => refusal.error.code === ErrorCode.InvalidParams) ? 'invalid_params' : 'invalid_request';
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
