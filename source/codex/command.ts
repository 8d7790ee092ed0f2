// Builds the exact `codex exec` argv and scrubbed environment, with the MCP server attached (stdio
// or HTTP), the tool switches last, the store location in the environment and `env_vars` naming
// what passes on to `sift mcp`.

import type {OptionalFlag} from './probe.js';

/** The tools the sift MCP server offers; Codex is allowed these and nothing else from it. */
export const SIFT_TOOLS = [
	'list_granted_resources',
	'list_record_items',
	'read_record_item',
	'search_record_items',
	'find_similar_items',
	'edit_record_item',
	'poll_resource_events',
] as const;

/** Variables that switch a subscription login to paid API billing; left out of Codex's environment unless --keep-api-env. */
export const API_ENV_KEYS = ['CODEX_API_KEY', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'] as const;

export const MCP_STARTUP_TIMEOUT_SEC = 30;

/** Codex reads the bearer token for `sift serve` from this variable (never from argv). */
export const MCP_TOKEN_ENV = 'SIFT_MCP_TOKEN';

/**
 * A run's `sift mcp` reads the store location from this variable (`--db-env`), never from its
 * argv: a postgres:// URL may hold a password, and every command line on the host is public.
 */
export const MCP_DB_ENV = 'SIFT_MCP_DB';

/**
 * Codex starts a stdio MCP server with a filtered environment; these pass through (by name, so
 * no value reaches a command line): the store location, libpq's PG* settings (PGPASSWORD,
 * PGPASSFILE, PGSSLMODE, PGSSLROOTCERT, ...), sift's SIFT_* and the XDG_* folders, and HOME
 * (~/.pgpass).
 */
export function mcpEnvVarNames(env: NodeJS.ProcessEnv): string[] {
	const names = Object.keys(env).filter(name => env[name] !== undefined && (/^(SIFT_|PG|XDG_)/.test(name) || name === 'HOME'));
	return [...new Set([MCP_DB_ENV, ...names])].sort();
}

/** The tools through `sift serve`: its MCP endpoint and a token minted for this run. */
export type McpHttpServer = {url: string; token: string};

export type CommandInput = {
	prompt: string;
	runId: string;
	channelId: string;
	/** Absolute path of the database the MCP server opens. */
	dbPath: string;
	/** Absolute paths: Codex starts the server from the run folder with an environment of its own. */
	nodePath: string;
	siftEntry: string;
	/** The sift process that owns the run: the MCP server stops serving once it is gone. */
	ownerPid: number;
	/** propose: the run's `sift mcp` gets --propose (the run's record in the store says so too). */
	mode?: 'apply' | 'propose';
	/** Propose mode: `sift mcp --auto-accept-above N` (docs/review.md#auto-accept). */
	autoAcceptAbove?: number;
	/** Optional flags the probe found in this binary's `exec --help`. */
	supportedFlags: readonly OptionalFlag[];
	/** `KEY=VALUE` pairs that turn Codex's built-in tools off (agent-tools.ts); passed last, so they win. */
	toolSwitches?: readonly string[];
	model?: string;
	/** User `KEY=VALUE` overrides, passed through as `-c KEY=VALUE` in order. */
	codexConfig?: readonly string[];
	env: NodeJS.ProcessEnv;
	keepApiEnv?: boolean;
	/** When set, Codex reaches the tools over HTTP instead of starting `sift mcp`. */
	server?: McpHttpServer;
};

export type CodexCommand = {args: string[]; env: NodeJS.ProcessEnv};

/** Pure: the exact `codex exec` argv and environment (docs/reference.md#codex-runs). */
export function buildCodexCommand(input: CommandInput): CodexCommand {
	const env = withStoreLocation(withMcpToken(childEnv(input.env, input.keepApiEnv ?? false), input.server), input);
	const optional = (flag: OptionalFlag) => (input.supportedFlags.includes(flag) ? [flag] : []);
	const args = [
		'exec',
		'--json',
		'--skip-git-repo-check',
		'--ignore-user-config',
		...optional('--ignore-rules'),
		...optional('--ephemeral'),
		...optional('--strict-config'),
		'-s',
		'read-only',
		'-c',
		'approval_policy="never"',
		'-c',
		`mcp_servers.sift=${input.server ? httpMcpServerToml(input.server.url) : mcpServerToml({...input, envVars: mcpEnvVarNames(env)})}`,
		...(input.model ? ['-m', input.model] : []),
		...(input.codexConfig ?? []).flatMap(pair => ['-c', pair]),
		...(input.toolSwitches ?? []).flatMap(pair => ['-c', pair]),
		'--',
		input.prompt,
	];
	return {args, env};
}

/** A local server's store location goes to Codex's environment (and on to `sift mcp`), not its argv. */
function withStoreLocation(env: NodeJS.ProcessEnv, input: CommandInput): NodeJS.ProcessEnv {
	const copy = {...env};
	delete copy[MCP_DB_ENV];
	if (!input.server) copy[MCP_DB_ENV] = input.dbPath;
	return copy;
}

/**
 * This run's server as one TOML inline table. The approval mode is scoped to this server only:
 * under approval_policy="never" Codex refuses every destructive MCP call unless it is approved.
 */
export function mcpServerToml(input: Pick<CommandInput, 'nodePath' | 'siftEntry' | 'channelId' | 'runId' | 'ownerPid' | 'mode' | 'autoAcceptAbove'> & {envVars: readonly string[]}): string {
	const args = [input.siftEntry, 'mcp', '--db-env', MCP_DB_ENV, '--grant', input.channelId, '--actor', 'agent', '--run', input.runId, ...(input.mode === 'propose' ? ['--propose', ...(input.autoAcceptAbove === undefined ? [] : ['--auto-accept-above', String(input.autoAcceptAbove)])] : []), '--owner-pid', String(input.ownerPid)];
	return inlineTable([
		['command', tomlString(input.nodePath)],
		['args', tomlArray(args)],
		['required', 'true'],
		// Names only: `env` would put the values on Codex's command line.
		['env_vars', tomlArray(input.envVars)],
		['default_tools_approval_mode', tomlString('approve')],
		['enabled_tools', tomlArray(SIFT_TOOLS)],
		['startup_timeout_sec', String(MCP_STARTUP_TIMEOUT_SEC)],
	]);
}

/** The HTTP variant: same approval and tools, the token read by Codex from the environment. */
export function httpMcpServerToml(url: string): string {
	return inlineTable([
		['url', tomlString(url)],
		['bearer_token_env_var', tomlString(MCP_TOKEN_ENV)],
		['required', 'true'],
		['default_tools_approval_mode', tomlString('approve')],
		['enabled_tools', tomlArray(SIFT_TOOLS)],
		['startup_timeout_sec', String(MCP_STARTUP_TIMEOUT_SEC)],
	]);
}

/** Only a run over HTTP gets a token, and only its own: an inherited one is dropped. */
function withMcpToken(env: NodeJS.ProcessEnv, server: McpHttpServer | undefined): NodeJS.ProcessEnv {
	const copy = {...env};
	delete copy[MCP_TOKEN_ENV];
	if (server) copy[MCP_TOKEN_ENV] = server.token;
	return copy;
}

function inlineTable(entries: Array<[string, string]>): string {
	return `{${entries.map(([key, value]) => `${key}=${value}`).join(', ')}}`;
}

function tomlArray(values: readonly string[]): string {
	return `[${values.map(tomlString).join(', ')}]`;
}

/** A TOML basic string: quotes, backslashes and control characters escaped, the rest verbatim. */
export function tomlString(value: string): string {
	let out = '"';
	for (const char of value) {
		const code = char.codePointAt(0)!;
		if (char === '"' || char === '\\') out += '\\' + char;
		else if (char === '\n') out += '\\n';
		else if (char === '\t') out += '\\t';
		else if (char === '\r') out += '\\r';
		else if (code < 0x20 || code === 0x7f) out += '\\u' + code.toString(16).padStart(4, '0');
		else out += char;
	}
	return out + '"';
}

/**
 * `codex login status`, in the environment a run gets: what `sift doctor` reports and what the
 * preflight before a run checks are the same question asked the same way.
 */
export function buildLoginStatusCommand(input: Pick<CommandInput, 'env' | 'keepApiEnv'>): CodexCommand {
	return {args: ['login', 'status'], env: childEnv(input.env, input.keepApiEnv ?? false)};
}

function childEnv(env: NodeJS.ProcessEnv, keepApiEnv: boolean): NodeJS.ProcessEnv {
	const copy = {...env};
	if (!keepApiEnv) for (const key of API_ENV_KEYS) delete copy[key];
	return copy;
}
