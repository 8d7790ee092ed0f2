// `sift mcp`: the stdio MCP server for one run or client, with `--owner-pid`.

import {Grants, StoreError, type Actor} from '../../store/index.js';
import {CallQueue} from '../mcp/call-queue.js';
import {createSiftServer} from '../mcp/server.js';
import {isProcessAlive} from '../codex/group.js';
import {StdioLineTransport} from '../mcp/stdio-transport.js';
import {confidenceFlag, wholeNumber, withStore} from './common.js';
import {UsageError, type Command, type CommandContext} from './context.js';

const ACTOR_KINDS = ['agent', 'human'] as const;

/**
 * `sift mcp --grant CHANNEL [--grant ...] [--actor agent|human] [--run ID] [--db FILE]`: the stdio
 * MCP server (docs/reference.md#agent-tools). stdout carries only JSON-RPC; every log line goes to stderr. Serves until
 * stdin closes, then closes the store and resolves 0.
 */
const command: Command = async context => {
	const grants = context.flags.grant ?? [];
	if (grants.length === 0) {
		throw new UsageError('sift mcp needs at least one --grant CHANNEL: the channels its tools may touch');
	}

	const kind = context.flags.actor ?? 'agent';
	if (!(ACTOR_KINDS as readonly string[]).includes(kind)) {
		throw new UsageError(`--actor must be agent or human, got ${JSON.stringify(kind)}`);
	}

	const runId = context.flags.run;
	if (runId !== undefined && (runId === '' || runId.length > 128)) {
		throw new UsageError('--run must be a run id of 1 to 128 characters');
	}

	const ownerPid = wholeNumber(context.flags.ownerPid, '--owner-pid', 1);
	const autoAcceptAbove = confidenceFlag(context.flags.autoAcceptAbove, '--auto-accept-above', Number.MIN_VALUE);
	if (autoAcceptAbove !== undefined && !context.flags.propose) throw new UsageError('--auto-accept-above goes with --propose: only a proposal can be accepted on arrival');

	return withStore(withLocationFromEnv(context), async store => {
		const known = new Set((await store.listChannelNames()).map(channel => channel.id));
		const missing = grants.filter(id => !known.has(id));
		if (missing.length > 0) {
			throw new StoreError({error: 'not_found', message: `--grant names ${missing.map(id => JSON.stringify(id)).join(', ')}, not a channel of ${store.location}; channels: ${[...known].join(', ') || 'none'}`});
		}

		const actor: Actor = runId === undefined ? {kind: kind as Actor['kind']} : {kind: kind as Actor['kind'], run_id: runId};
		const log = (line: string) => context.stderr.write(`${line}\n`);
		const calls = new CallQueue();
		const server = createSiftServer({store, grants: new Grants(grants), actor, mode: context.flags.propose ? 'propose' : undefined, autoAcceptAbove, log, calls});
		const stdinClosed = new Promise<void>(resolve => {
			process.stdin.once('end', resolve);
			process.stdin.once('close', resolve);
		});
		const transport = new StdioLineTransport(process.stdin, context.stdout, {log});
		transport.onerror = error => log(`sift mcp: transport error: ${error.message}`);
		await server.connect(transport);
		const owner = ownerPid === undefined ? undefined : watchOwner(ownerPid, transport);
		// The location, never the URL as given: it may carry a password.
		log(`sift mcp: serving ${store.location} (grants: ${grants.join(', ')}; actor: ${kind}${runId === undefined ? '' : `, run ${runId}`}${context.flags.propose ? `; proposing${autoAcceptAbove === undefined ? '' : `, accepting at ${autoAcceptAbove} or above`}` : ''}${ownerPid === undefined ? '' : `; owner ${ownerPid}`})`);
		const ownerGone = await Promise.race([stdinClosed.then(() => false), owner?.gone ?? new Promise<never>(() => undefined)]);
		owner?.dispose();
		// Closing aborts the calls still waiting their turn; the one running finishes before the store closes.
		await server.close();
		await calls.idle();
		if (!ownerGone) return 0;
		log(`sift mcp: the sift that started this server (pid ${ownerPid}) is gone; no more requests are served`);
		// Nothing reads stdin any more: without this the open pipe would keep the process alive.
		process.stdin.destroy();
		return 1;
	});
};

export default command;

/**
 * `--db-env VAR`: the location comes from the environment (a run's Codex passes it on), so a
 * password in a postgres:// URL never shows on a command line. A missing variable is an error,
 * never a silent fall back to the default database.
 */
function withLocationFromEnv(context: CommandContext): CommandContext {
	const name = context.flags.dbEnv;
	if (name === undefined) return context;
	if (context.flags.db !== undefined) throw new UsageError('give either --db or --db-env, not both');
	const location = context.env[name];
	if (!location) throw new UsageError(`--db-env names ${name}, which is not set in this environment (a run's Codex passes it on through mcp_servers.sift.env_vars)`);
	return {...context, flags: {...context.flags, db: location}};
}

/** How often the owner is looked for: an orphaned Codex loses write access within this (plus the exit). */
const OWNER_POLL_MS = 500;

/**
 * The MCP server of a run serves only while the sift that owns the run lives: polled, and checked
 * again before every incoming message, so a request that arrives after the owner died is never
 * handled — the Codex left behind by a killed sift cannot change a record.
 */
function watchOwner(ownerPid: number, transport: StdioLineTransport) {
	let resolveGone: (gone: true) => void = () => undefined;
	const gone = new Promise<true>(resolve => (resolveGone = resolve));
	const check = () => {
		if (isProcessAlive(ownerPid)) return true;
		resolveGone(true);
		return false;
	};

	const timer = setInterval(check, OWNER_POLL_MS);
	const handle = transport.onmessage;
	transport.onmessage = message => {
		if (check()) handle?.(message);
	};

	return {gone, dispose: () => clearInterval(timer)};
}
