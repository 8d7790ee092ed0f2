// The JSON-RPC checks both transports make before the SDK: error codes (-32600, -32602), batches
// only in protocol 2025-03-26, the answer to a request cancelled inside its batch.

import {ClientRequestSchema, ErrorCode, isJSONRPCRequest, JSONRPCMessageSchema, type JSONRPCMessage, type RequestId} from '@modelcontextprotocol/sdk/types.js';

/**
 * What both transports (stdio and HTTP) check in a message before the SDK sees it, so that a bad
 * message gets the JSON-RPC error code it deserves and the same answer on either transport:
 * -32700 only for text that is not JSON (the transport's own parse), -32600 for JSON that is not a
 * request (an empty batch, `id: null`, an id that is no safe integer), -32602 for bad params.
 */

/** The one protocol version with JSON-RPC batches: added in 2025-03-26, removed in 2025-06-18. */
export const BATCH_PROTOCOL_VERSION = '2025-03-26';
/** The answer to a request cancelled inside its own batch (outside JSON-RPC's reserved range, as LSP's RequestCancelled). */
export const REQUEST_CANCELLED = -32_800;
/** The SDK's own limit on messages in one batch. */
export const MAX_BATCH_MESSAGES = 100;

export type ErrorAnswer = {jsonrpc: '2.0'; id: RequestId | null; error: {code: number; message: string}};

/** A body checked: the messages to hand to the server, and the answers already due for the rest. */
export type Checked = {batch: boolean; messages: JSONRPCMessage[]; refusals: ErrorAnswer[]};

export const errorAnswer = (id: RequestId | null, code: number, message: string): ErrorAnswer => ({jsonrpc: '2.0', id, error: {code, message}});

/**
 * Checks parsed JSON against JSON-RPC and MCP. `protocolVersion` is the version this session
 * speaks (undefined before it is known): a batch is taken apart only for 2025-03-26, and refused
 * message by message for any other.
 */
export function checkMessages(json: unknown, protocolVersion: string | undefined): Checked {
	if (!Array.isArray(json)) {
		return single(checkMessage(json, false));
	}

	if (json.length === 0) return {batch: false, messages: [], refusals: [errorAnswer(null, ErrorCode.InvalidRequest, 'invalid request: an empty batch')]};
	if (json.length > MAX_BATCH_MESSAGES) return {batch: false, messages: [], refusals: [errorAnswer(null, ErrorCode.InvalidRequest, `invalid request: a batch of ${json.length} messages; at most ${MAX_BATCH_MESSAGES}`)]};
	const result: Checked = {batch: true, messages: [], refusals: []};
	if (protocolVersion !== BATCH_PROTOCOL_VERSION) {
		const why = protocolVersion === undefined
			? 'invalid request: a batch before initialize; batches exist only in protocol 2025-03-26'
			: `invalid request: protocol ${protocolVersion.slice(0, 40)} has no batches (only 2025-03-26 has); send each message on its own`;
		result.refusals = json.map(element => errorAnswer(idOf(element) ?? null, ErrorCode.InvalidRequest, why));
		return result;
	}

	const seen = new Set<RequestId>();
	for (const element of json) {
		const checked = checkMessage(element, true);
		if (isRefusal(checked)) {
			result.refusals.push(checked);
		} else if (isJSONRPCRequest(checked) && seen.has(checked.id)) {
			result.refusals.push(errorAnswer(checked.id, ErrorCode.InvalidRequest, `invalid request: id ${JSON.stringify(checked.id).slice(0, 80)} is used twice in this batch`));
		} else {
			if (isJSONRPCRequest(checked)) seen.add(checked.id);
			result.messages.push(checked);
		}
	}

	return result;
}

function single(checked: JSONRPCMessage | ErrorAnswer): Checked {
	return isRefusal(checked) ? {batch: false, messages: [], refusals: [checked]} : {batch: false, messages: [checked], refusals: []};
}

const refusals = new WeakSet<object>();
const isRefusal = (value: JSONRPCMessage | ErrorAnswer): value is ErrorAnswer => refusals.has(value);
function refuse(id: RequestId | null, code: number, message: string): ErrorAnswer {
	const answer = errorAnswer(id, code, message);
	refusals.add(answer);
	return answer;
}

/** Request schemas by method, for the params check (a method the SDK does not know is left to it: -32601). */
const REQUEST_SCHEMAS = new Map(ClientRequestSchema.options.map(schema => [schema.shape.method.value as string, schema]));

/** One message: the message itself when it may go to the server, else the answer it gets. */
function checkMessage(json: unknown, inBatch: boolean): JSONRPCMessage | ErrorAnswer {
	const parsed = JSONRPCMessageSchema.safeParse(json);
	if (!parsed.success) return refuse(idOf(json) ?? null, ErrorCode.InvalidRequest, `invalid request: not a JSON-RPC 2.0 message${whyNot(json)}`);
	const message = parsed.data;
	if (!isJSONRPCRequest(message)) return message;
	if (inBatch && message.method === 'initialize') return refuse(message.id, ErrorCode.InvalidRequest, 'invalid request: initialize must be sent on its own, not in a batch');
	const schema = REQUEST_SCHEMAS.get(message.method);
	if (schema) {
		const checked = schema.safeParse({method: message.method, params: message.params});
		if (!checked.success) {
			const issue = checked.error.issues[0]!;
			const where = issue.path.filter(part => part !== 'params').join('.') || 'params';
			return refuse(message.id, ErrorCode.InvalidParams, `invalid params for ${message.method}: ${where}: ${issue.message}`.slice(0, 300));
		}
	}

	// On the JSON as it came: parsing copies objects, and a copied `__proto__` key is no own key any more.
	const hidden = hiddenArgumentKey(json);
	return hidden ? refuse(message.id, ErrorCode.InvalidParams, hidden) : message;
}

/** Why a message with an id is not a request, when the id is the reason. */
function whyNot(json: unknown): string {
	if (typeof json !== 'object' || json === null || !('id' in json)) return '';
	const {id} = json as {id: unknown};
	if (id === null) return ' (its id is null; an id is a string or an integer)';
	if (typeof id === 'number' && !Number.isSafeInteger(id)) return ' (its id is no integer within ±2^53)';
	if (typeof id !== 'string' && typeof id !== 'number') return ' (its id is neither a string nor an integer)';
	return '';
}

/**
 * The SDK reads tool arguments into a zod record, which drops a `__proto__` key without a word;
 * refused here, before that, like any other key a tool does not take.
 */
function hiddenArgumentKey(json: unknown): string | undefined {
	const {method, params} = json as {method?: unknown; params?: {name?: unknown; arguments?: unknown}};
	const args = params?.arguments;
	if (method !== 'tools/call' || typeof args !== 'object' || args === null || !Object.hasOwn(args, '__proto__')) return undefined;
	return `Invalid arguments for tool ${String(params?.name).slice(0, 64)}: Unrecognized key: "__proto__"`;
}

/** The id of a message when it is one a JSON-RPC answer may carry (a string or a safe integer). */
export function idOf(json: unknown): RequestId | undefined {
	const id = typeof json === 'object' && json !== null ? (json as {id?: unknown}).id : undefined;
	return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : undefined;
}

/** The request a `notifications/cancelled` names, if the message is one. */
export function cancelledRequestId(message: JSONRPCMessage): RequestId | undefined {
	if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message) return undefined;
	return idOf({id: (message.params as {requestId?: unknown} | undefined)?.requestId});
}

/** The answer a request gets when the batch it came in cancels it: a batch is always answered in full. */
export const cancelledAnswer = (id: RequestId): JSONRPCMessage => ({jsonrpc: '2.0', id, error: {code: REQUEST_CANCELLED, message: 'request cancelled (by a notifications/cancelled in the same batch)'}});

/** The id of a result or error answer; undefined for requests and notifications. */
export function answerId(message: JSONRPCMessage): RequestId | undefined {
	return ('result' in message || 'error' in message) && 'id' in message ? (message.id as RequestId) : undefined;
}
