// Starts a run: preflight, spawn, deadline, stall notices, cancel, kill.

import {rmSync} from 'node:fs';
import {ensurePrivateDir, isPostgresUrl} from '../../store/index.js';
import type {EditMode} from '../../store/writes.js';
import path from 'node:path';
import {INSTALL_HINT, loginCommand, resolveCodexBinary} from './binary.js';
import {superviseChild, type ChildExit} from './child.js';
import {buildCodexCommand, type McpHttpServer} from './command.js';
import {trackActiveRun} from './active.js';
import {UpdateFeed} from './feed.js';
import {loginRequired, preflightLogin} from './login.js';
import {decideOutcome, notLoggedIn, type Decision, type Outcome} from './outcome.js';
import {newRunId, resolveStateDir, runLogPath, runWorkDir, siftEntry} from './paths.js';
import {probeCodex} from './probe.js';
import {shellRefusal} from './agent-tools.js';
import {redact, runSecrets} from './redact.js';
import {buildPrompt, type AgentCursor} from './prompt.js';
import {RunLogWriter} from './runlog.js';
import type {Step} from './steps.js';
import {parseEventLine, type CodexEvent} from './stream.js';
import {RunTracker, type RunUpdate, type Usage} from './tracker.js';
import type {Turn} from './transcript.js';

export const DEFAULT_RUN_DEADLINE_MS = 1_800_000;
/** How long Codex may stay silent before the run says so, and again after each further such span. */
export const DEFAULT_STALL_NOTICE_MS = 60_000;
const DEFAULT_KILL_GRACE_MS = 3000;
const DEFAULT_DRAIN_GRACE_MS = 250;

export type RunOptions = {
	instruction: string;
	channelId: string;
	/** The records to work on; empty or absent means the instruction says which. */
	itemIds?: string[];
	/** The store the MCP server opens: a file path (made absolute here) or a postgres:// URL, passed as given. */
	dbPath: string;
	/** Earlier turns, e.g. from loadTranscript(). */
	transcript?: Turn[];
	/** Where a run without explicit items catches up from (startRecordedRun reads it from the store). */
	cursor?: AgentCursor;
	/** --codex PATH; else SIFT_CODEX, PATH, node_modules/.bin (see binary.ts). */
	codex?: string;
	model?: string;
	/** `KEY=VALUE` pairs passed through as `-c KEY=VALUE`. */
	codexConfig?: string[];
	/** Keep CODEX_API_KEY / OPENAI_API_KEY / OPENAI_BASE_URL in Codex's environment. */
	keepApiEnv?: boolean;
	/** Start even when this Codex would give the agent a shell that cannot be turned off (agent-tools.ts). */
	allowAgentShell?: boolean;
	/** propose: the agent's valid edits become proposals for a person (docs/review.md); recorded with the run. */
	mode?: EditMode;
	/** Propose mode: a proposal at least this sure is accepted on arrival (the config's auto_accept_above, docs/review.md#auto-accept). */
	autoAcceptAbove?: number;
	/** Default 1800 s, from the start of the run. */
	timeoutMs?: number;
	/** Between SIGTERM and SIGKILL of the run's process group; default 3 s. */
	killGraceMs?: number;
	/** How long stdout may stay open after Codex exited; default 250 ms. */
	drainGraceMs?: number;
	/** Default process.env. Codex gets this minus the API variables (see command.ts). */
	env?: NodeJS.ProcessEnv;
	/** Default resolveStateDir(env). */
	stateDir?: string;
	runId?: string;
	/** Reach the tools through `sift serve` (source/codex/run-token.ts mints the token). */
	server?: McpHttpServer;
	/** Default $SIFT_STALL_NOTICE_MS, else 60 s. */
	stallNoticeMs?: number;
	/** Told when Codex started (its pid is its process group) and when the result is final, before `done` resolves. */
	hooks?: RunHooks;
};

export type RunHooks = {
	spawned?: (group: number) => void;
	/** Awaited before `done` resolves, so a recorded end is in the store by then. */
	finished?: (result: RunResult) => void | Promise<void>;
};

export type RunResult = {
	runId: string;
	outcome: Outcome;
	/** Codex's final answer (kept for partial, timed out and cancelled runs too). */
	text: string;
	error: string | null;
	usage: Usage | null;
	durationMs: number;
	steps: Step[];
	warnings: string[];
	editsApplied: number;
	/** Valid edits kept as proposals (propose mode; absent reads as 0). */
	proposals?: number;
	rejections: number;
	followupsOpened: number;
	logPath: string;
	exitCode: number | null;
	signal: string | null;
	stderrTail: string;
	/** The Codex process, also its process group id; undefined when it never started. */
	pid: number | undefined;
	/** How to log in with the binary this run used (`codex login`, else its path); null without a binary. */
	loginCommand: string | null;
};

/**
 * A run in flight.
 * - `updates` yields every step change, answer text, warning, notice and usage report as Codex
 *   streams it. Each `for await` replays from the first update, so late or several readers miss
 *   nothing; iteration ends when the run is over.
 * - `cancel()` stops the run (idempotent): the whole process group is killed and `done` resolves
 *   with outcome `cancelled`.
 * - `done` resolves with the result once Codex and every process it started are gone and the
 *   run log has its end line. It rejects only if the run log cannot be written.
 */
export type RunHandle = {
	runId: string;
	logPath: string;
	updates: AsyncIterable<RunUpdate>;
	cancel: () => void;
	done: Promise<RunResult>;
};

export function startRun(options: RunOptions): RunHandle {
	const env = options.env ?? process.env;
	const runId = options.runId ?? newRunId();
	const stateDir = options.stateDir ?? resolveStateDir(env);
	const logPath = runLogPath(stateDir, runId);
	const feed = new UpdateFeed<RunUpdate>();
	const abort = new AbortController();
	const done = executeRun({options, env, runId, stateDir, logPath, feed, signal: abort.signal}).finally(() => feed.close());
	const handle: RunHandle = {runId, logPath, updates: feed, cancel: () => abort.abort(), done};
	trackActiveRun(handle);
	return handle;
}

type RunContext = {
	options: RunOptions;
	env: NodeJS.ProcessEnv;
	runId: string;
	stateDir: string;
	logPath: string;
	feed: UpdateFeed<RunUpdate>;
	signal: AbortSignal;
};

async function executeRun(context: RunContext): Promise<RunResult> {
	const {options, runId} = context;
	const startedAt = Date.now();
	const timeoutMs = options.timeoutMs ?? DEFAULT_RUN_DEADLINE_MS;
	const log = new RunLogWriter(context.logPath);
	log.start({
		run_id: runId,
		started_at: new Date(startedAt).toISOString(),
		channel_id: options.channelId,
		item_ids: options.itemIds ?? [],
		instruction: options.instruction,
		model: options.model ?? null,
	});
	const tracker = new RunTracker();
	// The store's password never goes into the log, the steps or the result, whatever Codex echoes.
	const secrets = runSecrets(options.dbPath, context.env);
	const scrub = (text: string) => redact(text, secrets);
	const stall = new StallWatch(stallNoticeMs(options, context.env), message => context.feed.push({type: 'stall', message}));
	let launched: Launched;
	try {
		launched = await launch(context, startedAt + timeoutMs, () => stall.begin(), raw => {
			const line = scrub(raw);
			log.stdout(line);
			const event = parseEventLine(line);
			const updates = event ? tracker.apply(event) : [];
			stall.heard(describeActivity(event, updates));
			for (const update of updates) context.feed.push(update);
		});
	} finally {
		stall.stop();
	}

	const child = 'exit' in launched ? launched.exit : undefined;
	const decision = 'decision' in launched ? launched.decision : decideOutcome({...tracker, ...launched.exit, timeoutMs, loginCommand: launched.loginCommand ?? undefined});
	const result = resultOf(context, tracker, {...decision, error: decision.error === null ? null : scrub(decision.error)}, child && {...child, stderrTail: scrub(child.stderrTail)}, Date.now() - startedAt, launched.loginCommand);
	log.end({
		...runResultFields(result),
		finished_at: new Date().toISOString(),
		exit_code: result.exitCode,
		signal: result.signal,
		stderr_tail: result.stderrTail,
	});
	await options.hooks?.finished?.(result);
	return result;
}

/** A run's result as the JSON both the run log's end line and `sift run --json` carry (snake_case, one spelling). */
export function runResultFields(result: RunResult) {
	return {
		run_id: result.runId,
		outcome: result.outcome,
		text: result.text,
		error: result.error,
		usage: result.usage,
		duration_ms: result.durationMs,
		edits_applied: result.editsApplied,
		proposals: result.proposals ?? 0,
		rejections: result.rejections,
		followups_opened: result.followupsOpened,
	};
}

function stallNoticeMs(options: RunOptions, env: NodeJS.ProcessEnv): number {
	const fromEnv = Number(env.SIFT_STALL_NOTICE_MS);
	return options.stallNoticeMs ?? (Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_STALL_NOTICE_MS);
}

/** The last thing Codex was seen doing, for the stall notice. */
function describeActivity(event: CodexEvent | undefined, updates: RunUpdate[]): string {
	const step = updates.filter(update => update.type === 'step').at(-1);
	if (step?.type === 'step') return `${step.step.label}${step.step.status === 'running' ? ' (running)' : ` (${step.step.status})`}`;
	if (updates.some(update => update.type === 'text')) return 'writing its answer';
	return event ? `a ${event.type} event` : 'a line that was not an event';
}

/**
 * Says when Codex has been silent for a whole interval, then again after every further interval,
 * until it is heard from again or the run ends. Only a notice: the deadline still decides.
 */
class StallWatch {
	private lastHeardAt = Date.now();
	private last = 'Codex started';
	private timer: NodeJS.Timeout | undefined;

	constructor(private readonly intervalMs: number, private readonly say: (message: string) => void) {}

	/** Codex runs: its silence counts from now. */
	begin(): void {
		this.lastHeardAt = Date.now();
		this.arm(this.intervalMs);
	}

	heard(activity: string): void {
		this.lastHeardAt = Date.now();
		this.last = activity;
		this.arm(this.intervalMs);
	}

	stop(): void {
		clearTimeout(this.timer);
	}

	private arm(delay: number): void {
		clearTimeout(this.timer);
		this.timer = setTimeout(() => this.fire(), delay);
		this.timer.unref();
	}

	private fire(): void {
		const silentMs = Date.now() - this.lastHeardAt;
		this.say(`no progress from Codex for ${Math.max(1, Math.round(silentMs / 1000))} s (last: ${this.last})`);
		this.arm(this.intervalMs);
	}
}

function resultOf(context: RunContext, tracker: RunTracker, decision: Decision, child: ChildExit | undefined, durationMs: number, loginCommand: string | null): RunResult {
	return {
		runId: context.runId,
		outcome: decision.outcome,
		text: tracker.text,
		error: decision.error,
		usage: tracker.usage,
		durationMs,
		steps: tracker.steps,
		warnings: tracker.warnings,
		editsApplied: tracker.editsApplied,
		proposals: tracker.proposals,
		rejections: tracker.rejections,
		followupsOpened: tracker.followupsOpened,
		logPath: context.logPath,
		exitCode: child?.exitCode ?? null,
		signal: child?.signal ?? null,
		stderrTail: child?.stderrTail ?? '',
		pid: child?.pid,
		loginCommand,
	};
}

type Launched = ({exit: ChildExit} | {decision: Decision}) & {loginCommand: string | null};

/** Finds and starts Codex; a run that never got a process says why as a ready decision. */
async function launch(context: RunContext, deadlineAt: number, onSpawn: () => void, onLine: (line: string) => void): Promise<Launched> {
	const {options, env, runId, stateDir} = context;
	const lookup = resolveCodexBinary(options.codex, env);
	if (!lookup.ok) return {decision: {outcome: 'codex_missing', error: lookup.message}, loginCommand: null};
	const binary = lookup.binary.path;
	const login = loginCommand(binary, env);
	const ready = (decision: Decision): Launched => ({decision, loginCommand: login});
	let prompt: string;
	try {
		prompt = buildPrompt({channelId: options.channelId, itemIds: options.itemIds ?? [], instruction: options.instruction, transcript: options.transcript, cursor: options.cursor, propose: options.mode === 'propose'});
	} catch (error) {
		return ready({outcome: 'failed', error: (error as Error).message});
	}
	// The same check as `sift doctor`: without a login, Codex would only fail later and slower.
	const preflight = loginRequired(options.codexConfig) ? await preflightLogin(binary, {env, keepApiEnv: options.keepApiEnv, stateDir, signal: context.signal}) : undefined;
	if (context.signal.aborted) return ready({outcome: 'cancelled', error: 'Cancelled before Codex started.'});
	if (preflight?.state === 'logged_out') return ready(notLoggedIn(`Codex is not logged in (\`codex login status\` says: ${preflight.detail})`, preflight.command));
	const probe = await probeCodex(binary, {stateDir, env, signal: context.signal});
	// cancel() can first be called here: startRun has returned by the time the probe yields.
	if (context.signal.aborted) return ready({outcome: 'cancelled', error: 'Cancelled before Codex started.'});
	if (!probe.tools.shellOff && !options.allowAgentShell) return ready({outcome: 'agent_sandbox_unavailable', error: shellRefusal(probe.tools)});
	const command = buildCodexCommand({
		prompt,
		runId,
		channelId: options.channelId,
		dbPath: isPostgresUrl(options.dbPath) ? options.dbPath : path.resolve(options.dbPath),
		nodePath: process.execPath,
		siftEntry: siftEntry(),
		ownerPid: process.pid,
		mode: options.mode,
		autoAcceptAbove: options.autoAcceptAbove,
		supportedFlags: probe.flags,
		toolSwitches: probe.tools.config,
		model: options.model,
		codexConfig: options.codexConfig,
		env,
		keepApiEnv: options.keepApiEnv,
		server: options.server,
	});
	const workDir = runWorkDir(stateDir, runId);
	ensurePrivateDir(workDir);
	try {
		const exit = await superviseChild({
			binary,
			args: command.args,
			env: command.env,
			cwd: workDir,
			deadlineAt,
			signal: context.signal,
			killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
			drainGraceMs: options.drainGraceMs ?? DEFAULT_DRAIN_GRACE_MS,
			onLine,
			onSpawn(group) {
				onSpawn();
				options.hooks?.spawned?.(group);
			},
		});
		if (exit.startError?.code === 'ENOENT') return ready({outcome: 'codex_missing', error: `Codex CLI could not be started (${binary}: not found). ${INSTALL_HINT}`});
		if (exit.startError) return ready({outcome: 'failed', error: `Codex CLI could not be started: ${exit.startError.message}`});
		return {exit, loginCommand: login};
	} finally {
		rmSync(workDir, {recursive: true, force: true});
	}
}
