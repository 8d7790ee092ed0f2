// The scripted endpoint over HTTP, without Codex: the SSE it streams, the tool path per mode,
// the 401 mode, and request capture. The real-Codex runs are the end-to-end tests' job.

import {afterEach, describe, expect, it} from 'vitest';
import {codexLocalArgs, SCRIPTED_MODEL} from '../support/codex-local.js';
import {type ResponsesEndpoint, startResponsesEndpoint, UNAUTHORIZED_BODY} from '../support/responses-endpoint.js';

let endpoint: ResponsesEndpoint | undefined;

afterEach(async () => {
	await endpoint?.close();
	endpoint = undefined;
});

const prompt = {type: 'message', role: 'user', content: [{type: 'input_text', text: 'Triage channel bugs.'}]};

// What Codex offers for a model outside its catalog, and for its default model (code mode).
const functionTools = [{type: 'namespace', name: 'mcp__sift', tools: [{type: 'function', name: 'list_record_items'}]}];
const codeTools = {type: 'additional_tools', role: 'developer', tools: [{type: 'namespace', name: 'functions', tools: [{type: 'custom', name: 'exec'}]}]};

async function post(body: unknown): Promise<{status: number; events: Array<Record<string, any>>; text: string}> {
	const response = await fetch(`${endpoint!.url}/responses`, {
		method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body),
	});
	const text = await response.text();
	const events = text.split('\n').filter(line => line.startsWith('data: ')).map(line => JSON.parse(line.slice(6)));
	return {status: response.status, events, text};
}

describe('startResponsesEndpoint', () => {
	it('streams a function_call in the mcp__sift namespace, then completes with usage', async () => {
		endpoint = await startResponsesEndpoint({mode: 'triage-functions'});
		expect(endpoint.url).toBe(`http://127.0.0.1:${endpoint.port}/v1`);
		const {status, events, text} = await post({model: SCRIPTED_MODEL, input: [prompt], tools: functionTools});
		expect(status).toBe(200);
		expect(events.map(e => e['type'])).toEqual(['response.created', 'response.output_item.done', 'response.completed']);
		expect(text).toContain('event: response.output_item.done\ndata: ');
		expect(events[1]['item']).toMatchObject({
			type: 'function_call', namespace: 'mcp__sift', name: 'list_granted_resources', arguments: '{}', call_id: 'call_sift_1',
		});
		expect(events[2]['response']['usage']).toMatchObject({input_tokens: expect.any(Number), output_tokens: expect.any(Number)});
		expect(endpoint.requests).toHaveLength(1);
		expect(endpoint.requests[0]).toMatchObject({method: 'POST', path: '/v1/responses', body: {model: SCRIPTED_MODEL}});
	});

	it('sends an exec cell of JavaScript in code mode', async () => {
		endpoint = await startResponsesEndpoint({mode: 'triage-code', channelId: 'bugs'});
		const {events} = await post({model: 'default', input: [codeTools, prompt]});
		expect(events[1]['item']).toMatchObject({type: 'custom_tool_call', name: 'exec', call_id: 'call_sift_1'});
		expect(events[1]['item']['input']).toBe('const r = await tools.mcp__sift__list_record_items({"record_channel_id":"bugs"});\ntext(r);');
	});

	it('says so in a message when Codex did not offer the tools the mode needs', async () => {
		endpoint = await startResponsesEndpoint({mode: 'triage-code'});
		const {events} = await post({input: [prompt], tools: functionTools});
		expect(events[1]['item']).toMatchObject({type: 'message', role: 'assistant'});
		expect(events[1]['item']['content'][0]['text']).toMatch(/did not offer the code-mode exec tool/);
	});

	it('answers 401 with an OpenAI-style error body in unauthorized mode', async () => {
		endpoint = await startResponsesEndpoint({mode: 'unauthorized'});
		const response = await fetch(`${endpoint.url}/responses`, {method: 'POST', body: '{}'});
		expect(response.status).toBe(401);
		expect(await response.json()).toEqual(UNAUTHORIZED_BODY);
	});

	it('answers 404 to anything but POST .../responses', async () => {
		endpoint = await startResponsesEndpoint({mode: 'triage-functions'});
		expect((await fetch(`${endpoint.url}/models`)).status).toBe(404);
	});
});

describe('codexLocalArgs', () => {
	it('points Codex at the endpoint with retries off and no outside lookups', () => {
		const local = codexLocalArgs({endpointUrl: 'http://127.0.0.1:4000/v1', model: SCRIPTED_MODEL, codexHome: '/tmp/h'});
		expect(local.config).toContain('model_provider="sift_scripted"');
		expect(local.config.find(kv => kv.startsWith('model_providers.sift_scripted='))).toContain('base_url="http://127.0.0.1:4000/v1"');
		expect(local.args.slice(-2)).toEqual(['-m', SCRIPTED_MODEL]);
		expect(local.args.filter(a => a === '-c')).toHaveLength(local.config.length);
		expect(local.env).toEqual({CODEX_HOME: '/tmp/h'});
	});

	it('leaves the model to Codex (code mode) when none is given', () => {
		const local = codexLocalArgs({endpointUrl: 'http://127.0.0.1:4000/v1', codexHome: '/tmp/h'});
		expect(local.model).toBeUndefined();
		expect(local.args).not.toContain('-m');
	});
});
