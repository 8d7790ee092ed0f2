import {DEFAULT_LISTEN, DEFAULT_RATE, startServe} from '../serve/http.js';
import {reapAbandonedRuns} from '../codex/reap.js';
import {withStore} from './common.js';
import {UsageError, type Command} from './context.js';

/** Read only here, only by tests: every tool call waits this long, so one can be caught in flight. */
const CALL_DELAY_ENV = 'SIFT_SERVE_TEST_CALL_DELAY_MS';
/** Read only here, only by tests: how often the reaper runs instead of REAP_EVERY_MS. */
const REAP_EVERY_ENV = 'SIFT_SERVE_TEST_REAP_MS';
/**
 * How often a running `sift serve` closes the runs of this host whose sift died, as every start of
 * sift does: their tokens are revoked with them, without waiting for another sift to start.
 */
const REAP_EVERY_MS = 30_000;

/**
 * `sift serve [--listen HOST:PORT] [--allow-host H]... [--rate N]`: the agent tools over MCP
 * Streamable HTTP (docs/team-mode.md). Runs until SIGTERM or SIGINT, then drains and resolves 0.
 */
const serve: Command = async context => {
	if (context.input.length > 0) throw new UsageError(`sift serve takes no arguments, got ${JSON.stringify(context.input[0])}`);
	const {host, port} = parseListen(context.flags.listen);
	const rate = context.flags.rate ?? DEFAULT_RATE;
	if (!Number.isFinite(rate) || rate <= 0) throw new UsageError('--rate must be a number of requests a second above 0');
	const allowHosts = (context.flags.allowHost ?? []).flatMap(entry => entry.split(',')).map(entry => entry.trim()).filter(Boolean);
	return withStore(context, async store => {
		const delay = Number(context.env[CALL_DELAY_ENV] ?? 0);
		const log = (line: string) => context.stderr.write(`${line}\n`);
		const server = await startServe({store, host, port, allowHosts, rate, log, callDelayMs: delay > 0 ? delay : undefined});
		// The location, never the URL as given: it may carry a password.
		log(`sift serve: ${server.url}/mcp for ${store.location} (${rate} requests/s per token)`);
		const reaper = setInterval(() => void reapAbandonedRuns(store, context.env), Number(context.env[REAP_EVERY_ENV]) || REAP_EVERY_MS);
		reaper.unref();
		const signal = await new Promise<NodeJS.Signals>(resolve => {
			process.once('SIGTERM', () => resolve('SIGTERM'));
			process.once('SIGINT', () => resolve('SIGINT'));
		});
		clearInterval(reaper);
		// A write waiting for another process's lock gives up (busy) rather than hold the drain.
		store.stopLockWaits?.();
		log(`sift serve: ${signal}, finishing ${server.inFlight()} request(s) in flight`);
		const inTime = await server.drain();
		log(inTime ? 'sift serve: stopped' : 'sift serve: stopped; requests still running after 10 s were cut off');
		return 0;
	});
};

export default serve;

/** `HOST:PORT`, `[V6]:PORT`, `:PORT` or `HOST`; default 127.0.0.1:7345. */
export function parseListen(value: string | undefined): {host: string; port: number} {
	if (value === undefined) return DEFAULT_LISTEN;
	const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s[\]]*))(?::(\d{1,5}))?$/.exec(value.trim());
	const port = match?.[3] === undefined ? DEFAULT_LISTEN.port : Number(match[3]);
	if (!match || port > 65_535) throw new UsageError(`--listen must be HOST:PORT, e.g. 127.0.0.1:7345, got ${JSON.stringify(value)}`);
	return {host: match[1] ?? (match[2] || DEFAULT_LISTEN.host), port};
}
