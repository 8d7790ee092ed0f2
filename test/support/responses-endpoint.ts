// A scripted OpenAI Responses API endpoint for tests: the real Codex CLI talks to it over HTTP on
// 127.0.0.1 and it answers like a small, deterministic triage agent (./triage/policy.ts).
//
// Point Codex at it with codexLocalArgs() from ./codex-local.ts. Modes:
// - 'triage-functions': tool calls as plain function_call items (Codex offers MCP tools that way
//   for a model outside its catalog, e.g. SCRIPTED_MODEL);
// - 'triage-code': tool calls as custom_tool_call `exec` cells of JavaScript (Codex's default
//   model, code mode: run Codex without -m);
// - 'unauthorized': every request gets 401 with an OpenAI-style error body.
// Each request is answered from the conversation Codex sends, never from memory kept here, so
// the endpoint is exactly as stateless as a real model. Every request body is captured for tests,
// with the list of tools it offered the model. With `injection`, it plays a model that obeys a
// prompt injection in a record (./triage/injection.ts).

import http from 'node:http';
import type {AddressInfo} from 'node:net';
import {readConversation} from './triage/history.js';
import {nextAction, type PolicyConfig} from './triage/policy.js';
import {injectionReply, type InjectionConfig} from './triage/injection.js';
import {actionItems, messageItem, missingTool, offeredTools, sseEvents, type OutputItem, type ToolPath} from './triage/wire.js';

export type EndpointMode = 'triage-functions' | 'triage-code' | 'unauthorized';

export interface ResponsesEndpointOptions extends PolicyConfig {
	mode: EndpointMode;
	/** The MCP server's name in Codex's config (`mcp_servers.<name>`): tools are `mcp__<name>__*`. */
	serverName?: string;
	/** Wait this long before answering each request, e.g. to watch a run progress. */
	delayMs?: number;
	/** Play a model that obeys the injection in this item's description (./triage/injection.ts) instead of triaging. */
	injection?: InjectionConfig;
}

export interface CapturedRequest {
	method: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	/** The parsed JSON body (the raw text when it is not JSON). */
	body: unknown;
	/** The tools this request offered the model, as flat names (see offeredTools in ./triage/wire.ts). */
	tools: string[];
}

export interface ResponsesEndpoint {
	/** The provider base URL, e.g. http://127.0.0.1:PORT/v1 (Codex appends /responses). */
	url: string;
	port: number;
	/** Every request received, in order. */
	requests: CapturedRequest[];
	close(): Promise<void>;
}

/** The 401 body OpenAI sends for a bad key; Codex shows `message` in its error. */
export const UNAUTHORIZED_BODY = {
	error: {
		message: 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
		type: 'invalid_request_error',
		param: null,
		code: 'invalid_api_key',
	},
};

export async function startResponsesEndpoint(options: ResponsesEndpointOptions): Promise<ResponsesEndpoint> {
	const requests: CapturedRequest[] = [];
	const server = http.createServer((request, response) => {
		void serve(request, response, options, requests).catch(error => {
			// A bug here must show up in the test, not as a hung Codex.
			if (!response.headersSent) {
				response.writeHead(500, {'content-type': 'application/json'});
			}
			response.end(JSON.stringify({error: {message: `responses-endpoint: ${String(error)}`, type: 'server_error'}}));
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const {port} = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		port,
		requests,
		close: () => new Promise<void>(resolve => {
			server.closeAllConnections();
			server.close(() => resolve());
		}),
	};
}

async function serve(
	request: http.IncomingMessage,
	response: http.ServerResponse,
	options: ResponsesEndpointOptions,
	requests: CapturedRequest[],
): Promise<void> {
	const text = await readBody(request);
	const body = parseBody(text);
	const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
	requests.push({method: request.method ?? '', path, headers: request.headers, body, tools: offeredTools(body)});
	if (options.delayMs) {
		await new Promise(resolve => setTimeout(resolve, options.delayMs)); // the scripted endpoint's latency, when a test asks for one
	}
	if (request.method !== 'POST' || !path.endsWith('/responses')) {
		sendJson(response, 404, {error: {message: `no route for ${request.method} ${path}`, type: 'invalid_request_error'}});
		return;
	}
	if (options.mode === 'unauthorized') {
		sendJson(response, 401, UNAUTHORIZED_BODY);
		return;
	}
	const items = reply(body, options);
	response.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache'});
	response.end(sseEvents(`resp_sift_${requests.length}`, items, inputOf(body)));
}

/** The output items answering one request: the policy's next move on the right tool path. */
export function reply(body: unknown, options: ResponsesEndpointOptions): OutputItem[] {
	const path: ToolPath = options.mode === 'triage-code' ? 'code' : 'functions';
	const serverName = options.serverName ?? 'sift';
	const conversation = readConversation(inputOf(body), serverName);
	const sequence = conversation.exchanges.length + 1;
	const missing = missingTool(body, path, serverName);
	if (missing) {
		return [messageItem(`responses-endpoint: ${missing}`, sequence)];
	}
	if (options.injection) {
		return injectionReply(body, path, options.injection, serverName);
	}
	return actionItems(nextAction(conversation, options), path, sequence, serverName);
}

function inputOf(body: unknown): unknown {
	return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['input'] : undefined;
}

function readBody(request: http.IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		request.on('error', reject);
	});
}

function parseBody(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
	response.writeHead(status, {'content-type': 'application/json'});
	response.end(JSON.stringify(body));
}
