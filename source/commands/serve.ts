// `sift serve`: the agent tools over MCP Streamable HTTP until SIGTERM, then drains.

import {DEFAULT_LISTEN, DEFAULT_RATE, DRAIN_TIMEOUT_MS, startServe} from '../serve/http.js';
import {allowHostEntries} from '../serve/hosts.js';
import {captureConsole, jsonLinesStream, logLine} from '../serve/log.js';
import {reapAbandonedRuns} from '../codex/reap.js';
import {withStore} from './common.js';
import {configPath, loadConfig} from '../config/config.js';
import {UsageError, type Command} from './context.js';
import {counted} from '../text/format.js';

/** Read only here, only by tests: every tool call waits this long, so one can be caught in flight. */
const CALL_DELAY_ENV = 'SIFT_SERVE_TEST_CALL_DELAY_MS';
/** Read only here, only by tests: how long SIGTERM waits for requests in flight (default 10 s). */
const DRAIN_ENV = 'SIFT_SERVE_TEST_DRAIN_MS';
/** Read only here, only by tests: how often the reaper runs instead of REAP_EVERY_MS. */
const REAP_EVERY_ENV = 'SIFT_SERVE_TEST_REAP_MS';
/**
 * How often a running `sift serve` closes the runs of this host whose sift died, as every start of
 * sift does: their tokens are revoked with them, without waiting for another sift to start.
 */
const REAP_EVERY_MS = 30_000;

/**
 * `sift serve [--listen HOST:PORT] [--allow-host H[:P]]... [--rate N]`: the agent tools over MCP
 * Streamable HTTP (docs/team-mode.md). Runs until SIGTERM or SIGINT, then drains and resolves 0.
 * Its stderr is its log, one JSON object a line (docs/team-mode.md#logs).
 */
const serve: Command = async context => {
	if (context.input.length > 0) throw new UsageError(`sift serve takes no arguments, got ${JSON.stringify(context.input[0])}`);
	const {host, port} = parseListen(context.flags.listen);
	const rate = context.flags.rate ?? DEFAULT_RATE;
	if (!Number.isFinite(rate) || rate <= 0) throw new UsageError('--rate must be a number of requests a second above 0');
	const allowHosts = (context.flags.allowHost ?? []).flatMap(entry => entry.split(',')).map(entry => entry.trim()).filter(Boolean);
	try {
		allowHostEntries(allowHosts);
	} catch (error) {
		throw new UsageError((error as Error).message);
	}

	const stderr = context.stderr;
	const log = (line: string) => stderr.write(`${line}\n`);
	const note = (message: string, fields: Record<string, unknown> = {}) => log(logLine({level: 'info', ...fields, message}));
	// Whatever else is written while serving (a lock-wait notice, a library's console output) is a JSON line too.
	const restoreConsole = captureConsole(log);
	// Listened for from the start, so a signal while the store opens still ends in a drain and exit 0.
	const stop = stopSignal(note);
	let cutOff = false;
	try {
		return await withStore({...context, stderr: jsonLinesStream(stderr)}, async store => {
			const delay = Number(context.env[CALL_DELAY_ENV] ?? 0);
			const drainMs = Number(context.env[DRAIN_ENV] ?? 0) || DRAIN_TIMEOUT_MS;
			const server = await startServe({store, host, port, allowHosts, rate, log, callDelayMs: delay > 0 ? delay : undefined});
			// The location, never the URL as given: it may carry a password.
			note(`sift serve: ${server.url}/mcp for ${store.location} (${counted(rate, 'request')}/s per token)`, {event: 'listening', url: `${server.url}/mcp`});
			const reaper = setInterval(() => void reapAbandonedRuns(store, context.env), Number(context.env[REAP_EVERY_ENV]) || REAP_EVERY_MS);
			reaper.unref();
			// The config's `sync: {live: true}`: every linked channel kept in step while serving; its rounds' failures are log lines.
			const configFile = context.flags.config ?? configPath(context.env);
			const config = await loadConfig(configFile);
			const live = config.config.sync?.live ? (await import('../sync/live.js')).liveSyncFromConfig(store, config, configFile, context.env, undefined, notice => {
				if (notice.kind === 'error') log(logLine({level: notice.fatal ? 'error' : 'warn', event: 'sync_failed', fatal: notice.fatal, message: `sift serve: sync: ${notice.message}`}));
			}) : null;
			if (live) note('sift serve: keeping the linked channels in step with their trackers', {event: 'sync_live'});
			const signal = await stop.signal;
			clearInterval(reaper);
			await live?.stop();
			// A write waiting for another process's lock gives up (busy) rather than hold the drain.
			store.stopLockWaits?.();
			note(`sift serve: ${signal}, finishing ${server.inFlight()} request(s) in flight`, {event: 'draining', in_flight: server.inFlight()});
			const inTime = await server.drain(drainMs);
			cutOff = !inTime;
			note(inTime ? 'sift serve: stopped' : `sift serve: stopped; requests still running after ${drainMs / 1000} s were cut off`, {event: 'stopped', cut_off: !inTime});
			return 0;
		});
	} finally {
		stop.dispose();
		restoreConsole();
		// A request cut off may still hold a timer or a socket: it must not keep the process alive
		// once the store is closed (the exit code is already decided).
		if (cutOff) setTimeout(() => process.exit(process.exitCode ?? 0), 500).unref();
	}
};

export default serve;

/**
 * The first SIGTERM or SIGINT; later ones are noted and change nothing (the drain ends by itself
 * within its time), so no second Ctrl+C kills the process before the store is closed.
 */
function stopSignal(note: (message: string, fields?: Record<string, unknown>) => void) {
	let first: ((signal: NodeJS.Signals) => void) | undefined;
	const signal = new Promise<NodeJS.Signals>(resolve => (first = resolve));
	let seen = false;
	const onSignal = (name: NodeJS.Signals) => {
		if (seen) note(`sift serve: ${name} again; still finishing the requests in flight`, {event: 'signal'});
		seen = true;
		first!(name);
	};

	process.on('SIGTERM', onSignal);
	process.on('SIGINT', onSignal);
	return {signal, dispose: () => (process.off('SIGTERM', onSignal), process.off('SIGINT', onSignal))};
}

/** `HOST:PORT`, `[V6]:PORT`, `:PORT` or `HOST`; default 127.0.0.1:7345. */
export function parseListen(value: string | undefined): {host: string; port: number} {
	if (value === undefined) return DEFAULT_LISTEN;
	const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s[\]]*))(?::(\d{1,5}))?$/.exec(value.trim());
	const port = match?.[3] === undefined ? DEFAULT_LISTEN.port : Number(match[3]);
	if (!match || port > 65_535) throw new UsageError(`--listen must be HOST:PORT, e.g. 127.0.0.1:7345, got ${JSON.stringify(value)}`);
	return {host: match[1] ?? (match[2] || DEFAULT_LISTEN.host), port};
}
