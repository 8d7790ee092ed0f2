// Points the real Codex CLI at a local scripted Responses endpoint (./responses-endpoint.ts).
//
// Verified with @openai/codex 0.171.0:
//   CODEX_HOME=<temp dir> codex exec --json --skip-git-repo-check --ignore-user-config -s read-only \
//     -c approval_policy="never" <codexLocalArgs(...).args> \
//     -c 'mcp_servers.sift={command="node", args=[...], required=true,
//         default_tools_approval_mode="approve", enabled_tools=[...]}' -- "PROMPT" </dev/null
// The MCP server's `-c` is the runner's business and is not built here.

import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

/**
 * A model name outside Codex's catalog: Codex then offers MCP tools as plain functions
 * (endpoint mode 'triage-functions'). It also logs an item of type "error" saying the model's
 * metadata was not found and it uses fallback metadata: a warning, not a failure.
 */
export const SCRIPTED_MODEL = 'sift-scripted-triage';

/** The provider id used in `model_provider` and `model_providers.<id>`. */
export const PROVIDER_ID = 'sift_scripted';

export interface CodexLocalOptions {
	/** The endpoint's base URL, as returned by startResponsesEndpoint (http://127.0.0.1:PORT/v1). */
	endpointUrl: string;
	/**
	 * The model to ask for. Omit it to run Codex's default model, which puts Codex in code mode
	 * (endpoint mode 'triage-code'); pass SCRIPTED_MODEL for plain functions ('triage-functions').
	 */
	model?: string;
	/** Codex's home for this run: a fresh temp folder (see makeCodexHome), never ~/.codex. */
	codexHome: string;
}

export interface CodexLocal {
	/** KEY=VALUE strings, each to be passed as `-c KEY=VALUE` (or sift's `--codex-config`). */
	config: string[];
	/** The model for `-m`, or undefined for Codex's default. */
	model: string | undefined;
	/** `config` and `model` as codex arguments: ['-c', KV, ..., '-m', MODEL]. */
	args: string[];
	/** Environment to add to Codex's: CODEX_HOME. */
	env: {CODEX_HOME: string};
}

export function codexLocalArgs(options: CodexLocalOptions): CodexLocal {
	const provider = [
		'name="sift scripted endpoint"',
		`base_url=${JSON.stringify(options.endpointUrl)}`,
		'wire_api="responses"',
		// Plain HTTP + SSE: the endpoint speaks no WebSocket.
		'supports_websockets=false',
		'requires_openai_auth=false',
		// Codex retries a failed request 5 times by default ("Reconnecting... n/5" error events,
		// about 6 s for a 401). Tests want the first answer to count.
		'request_max_retries=0',
		'stream_max_retries=0',
	].join(', ');
	const config = [
		`model_provider="${PROVIDER_ID}"`,
		`model_providers.${PROVIDER_ID}={${provider}}`,
		// Without these two Codex resolves github.com, api.github.com and ab.chatgpt.com on start.
		'features.plugins=false',
		'analytics.enabled=false',
	];
	const args = config.flatMap(kv => ['-c', kv]);
	if (options.model !== undefined) {
		args.push('-m', options.model);
	}
	return {config, model: options.model, args, env: {CODEX_HOME: options.codexHome}};
}

/**
 * A fresh CODEX_HOME. Codex warns on stderr that it will not create its helper binaries under a
 * temp dir ("could not create PATH aliases"); that is harmless for `codex exec`.
 */
export async function makeCodexHome(): Promise<{path: string; remove(): Promise<void>}> {
	const path = await mkdtemp(join(tmpdir(), 'sift-codex-home-'));
	return {path, remove: () => rm(path, {recursive: true, force: true})};
}

/** The run options (source/codex/runner.ts) that start `codex` this way: the model, the `-c` settings and CODEX_HOME. */
export function localRunOptions(local: CodexLocal, codex: string): {codex: string; model: string | undefined; codexConfig: string[]; env: NodeJS.ProcessEnv} {
	return {codex, model: local.model, codexConfig: local.config, env: {...process.env, ...local.env}};
}
