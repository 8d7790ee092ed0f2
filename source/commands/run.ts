// `sift run`: headless Codex runs (`--items` or `--where`, cut into `--batch`es run `--parallel`),
// progress on stderr, a summary per run on stdout (JSON Lines for several), exit code by the worst
// outcome (the order is here, beside the exit codes)

import type {AsyncStore} from '../../store/index.js';
import {DEFAULT_BATCH_SIZE, DEFAULT_PARALLEL, isSingleRun, splitIntoBatches} from '../codex/batches.js';
import {Fanout, type FanoutRun} from '../codex/fanout.js';
import {OUTCOMES, type Outcome} from '../codex/outcome.js';
import {handleTerminationSignals} from '../codex/group.js';
import {runResultFields, type RunResult} from '../codex/runner.js';
import type {Step} from '../codex/steps.js';
import type {RunUpdate} from '../codex/tracker.js';
import {counted, proposedNotApplied} from '../text/format.js';
import {batchStarter, type BatchRunOptions} from '../codex/run-token.js';
import {safeJson, sanitize} from '../text/sanitize.js';
import {channelOf, databasePath, output, resolveItem, serverEndpoint, wholeNumber, withStore} from './common.js';
import {UsageError, type Command, type CommandContext} from './context.js';
import {pages} from '../../store/page-stream.js';

/** `sift run` exit codes, one per outcome (docs/reference.md#exit-codes). */
export const EXIT_CODES: Record<Outcome, number> = {
	ok: 0,
	failed: 1,
	codex_missing: 1,
	agent_sandbox_unavailable: 1,
	partial: 3,
	auth_required: 4,
	timed_out: 5,
	cancelled: 130,
	// Never the outcome of a run this command waits for: recorded later for a run whose sift died.
	abandoned: 1,
};

/**
 * Outcomes from best to worst: several runs (a fan-out, a watch) exit with the code of the worst.
 * A cancel is worst: the person stopped the whole command. Then what blocks every run (no login,
 * no codex), then a run that failed or was abandoned, then one that ran out of time, then one that
 * answered without finishing.
 */
export const OUTCOME_ORDER: readonly Outcome[] = ['ok', 'partial', 'timed_out', 'failed', 'abandoned', 'codex_missing', 'agent_sandbox_unavailable', 'auth_required', 'cancelled'];

export function worstOutcome(outcomes: readonly Outcome[]): Outcome | undefined {
	let worst: Outcome | undefined;
	for (const outcome of outcomes) if (worst === undefined || OUTCOME_ORDER.indexOf(outcome) > OUTCOME_ORDER.indexOf(worst)) worst = outcome;
	return worst;
}

/** The exit code of several runs: the worst outcome's; 0 when there were none. */
export function exitCodeOf(outcomes: readonly Outcome[]): number {
	const worst = worstOutcome(outcomes);
	return worst === undefined ? 0 : EXIT_CODES[worst];
}

const STATUS_MARK: Record<Step['status'], string> = {running: '…', done: '✓', failed: '✗'};

/** What every batch's run shares: all of RunOptions but the items and the run id. */

/** The run options the Codex flags (--model, --timeout, --codex...) ask for. */
export function codexRunOptions(context: CommandContext, instruction: string, channelId: string): BatchRunOptions {
	const timeoutSeconds = wholeNumber(context.flags.timeout, '--timeout', 1);
	return {
		instruction,
		channelId,
		// The location as given (a postgres:// URL stays a URL): `sift mcp` in the Codex child opens it.
		dbPath: databasePath(context),
		codex: context.flags.codex,
		model: context.flags.model,
		codexConfig: context.flags.codexConfig,
		keepApiEnv: context.flags.keepApiEnv,
		allowAgentShell: context.flags.allowAgentShell,
		mode: context.flags.propose ? 'propose' : undefined,
		timeoutMs: timeoutSeconds === undefined ? undefined : timeoutSeconds * 1000,
		env: context.env,
	};
}

/**
 * A proposing run's auto-accept threshold: the config file's auto_accept_above (docs/review.md#auto-accept);
 * undefined for a run that writes, or when the config sets none.
 */
export async function autoAcceptOf(context: CommandContext): Promise<number | undefined> {
	if (!context.flags.propose) return undefined;
	const {configPath, loadConfig} = await import('../config/config.js');
	return (await loadConfig(context.flags.config ?? configPath(context.env))).config.auto_accept_above;
}

/** `sift run "INSTRUCTION"`: headless Codex runs, one per batch; progress on stderr, a summary per run on stdout. */
const run: Command = async context => {
	const instruction = context.input.join(' ').trim();
	if (!instruction) throw new UsageError('give the instruction, e.g. sift run "triage the new bugs"');
	const {where, itemIds: namedIds, batch = DEFAULT_BATCH_SIZE, parallel = DEFAULT_PARALLEL} = context.flags;
	if (where !== undefined && namedIds !== undefined) throw new UsageError('give either --items or --where, not both');
	const endpoint = serverEndpoint(context.flags.server);
	const baseOptions = (channelId: string) => codexRunOptions(context, instruction, channelId);
	return withStore(context, async store => {
		const channelId = await channelOf(store, context);
		const options = {...baseOptions(channelId), autoAcceptAbove: await autoAcceptOf(context)};
		const itemIds = where === undefined ? await namedItems(store, channelId, namedIds ?? []) : await matchingIds(store, channelId, where);
		if (where !== undefined && itemIds.length === 0) {
			context.stderr.write('sift: --where matches no items; no run started\n');
			return 0;
		}

		const batches = isSingleRun(itemIds.length, batch) ? [itemIds] : splitIntoBatches(itemIds, batch);
		const fanout = new Fanout({parallel, start: batchStarter(store, options, endpoint)});
		const report = reportRuns(context, fanout, {channelId, total: batches.length});
		await runBatches(fanout, batches);
		return report.finish();
	});
};

/** Every batch through the fan-out, to the end; Ctrl+C, kill, a closed terminal: every run (its whole process group) stops before sift exits. */
export async function runBatches(fanout: Fanout, batches: readonly string[][]): Promise<void> {
	const uninstall = handleTerminationSignals(() => fanout.cancelAll());
	try {
		for (const items of batches) fanout.add(items);
		await fanout.idle();
	} finally {
		uninstall();
	}
}

/**
 * The ids of the items `--items` names, in the order given, each named as every command names an
 * item (its id or a unique value such as BUG-0042). An unknown or ambiguous name is refused here
 * (exit 1), not left for the agent to stumble over; an item named twice runs once.
 */
async function namedItems(store: AsyncStore, channelId: string, names: readonly string[]): Promise<string[]> {
	const ids: string[] = [];
	for (const name of names) ids.push(await resolveItem(store, channelId, name));
	return [...new Set(ids)];
}

/** The ids of every item the query matches, in the query's order. */
async function matchingIds(store: AsyncStore, channelId: string, where: string): Promise<string[]> {
	const ids: string[] = [];
	for await (const page of pages(store, channelId, {where})) ids.push(...page.items.map(item => item.id));
	return ids;
}

/** What reportRuns knows when the runs are over. */
export type RunsReport = {
	outcomes: Outcome[];
	/** Prints the closing totals (several runs, text only) and returns the exit code; rethrows why a lone run could not start. */
	finish: () => number;
};

/**
 * Writes what the fan-out's runs do as they do it: each run's start and steps on stderr, and its
 * summary on stdout when it ends. One run reads as `sift run` always did (one JSON object); several
 * prefix their progress with the batch and print one JSON object a line (JSON Lines).
 * `total` is the number of batches when known (`sift run`), undefined for a watch that goes on.
 */
export function reportRuns(context: CommandContext, fanout: Fanout, {channelId, total}: {channelId: string; total?: number}): RunsReport {
	const several = total !== 1;
	const outcomes: Outcome[] = [];
	const finished: RunResult[] = [];
	let loneStartError: unknown;
	const label = (run: FanoutRun) => (total === undefined ? `batch ${run.index + 1}` : `batch ${run.index + 1}/${total}`);
	fanout.subscribe(event => {
		const {run} = event;
		switch (event.type) {
			case 'started':
				context.stderr.write(`sift: run ${run.runId} on ${sanitize(channelId)}${run.itemIds.length > 0 ? ` (${counted(run.itemIds.length, 'item')})` : ''}${several ? ` — ${label(run)}` : ''}\n`);
				break;
			case 'update': {
				const line = progressLine(event.update);
				if (line) context.stderr.write(several ? line.replace(/^ {2}/, `  [${run.index + 1}] `) : line);
				break;
			}

			case 'finished':
				outcomes.push(event.result.outcome);
				finished.push(event.result);
				if (!several) output(context, runJson(event.result), () => summary(event.result));
				else if (context.flags.json) context.stdout.write(`${safeJson(runJson(event.result))}\n`);
				else context.stdout.write(`${sanitize(`${label(run)} (${run.runId}, ${counted(run.itemIds.length, 'item')}): ${summary(event.result)}`, {multiline: true})}\n\n`);
				break;
			case 'unstarted':
				outcomes.push('failed');
				if (several) context.stderr.write(`sift: ${label(run)} could not start: ${sanitize(run.error ?? '')}\n`);
				else loneStartError = event.error;
				break;
			case 'skipped':
				outcomes.push('cancelled');
				context.stderr.write(`sift: ${label(run)} (${counted(run.itemIds.length, 'item')}) cancelled before it started\n`);
				break;
			default:
				break;
		}
	});
	return {
		outcomes,
		finish() {
			if (loneStartError !== undefined) throw loneStartError;
			if (several && !context.flags.json && finished.length > 0) context.stdout.write(`${totals(finished, outcomes)}\n`);
			return exitCodeOf(outcomes);
		},
	};
}

/** `4 runs: 3 ok, 1 failed — 31 edits applied, 2 refused (3 follow-ups)`. */
function totals(results: RunResult[], outcomes: Outcome[]): string {
	const byOutcome = OUTCOMES.filter(outcome => outcomes.includes(outcome)).map(outcome => `${outcomes.filter(each => each === outcome).length} ${outcome}`);
	const sum = (key: 'editsApplied' | 'proposals' | 'rejections' | 'followupsOpened') => results.reduce((total, result) => total + (result[key] ?? 0), 0);
	return `${counted(outcomes.length, 'run')}: ${byOutcome.join(', ')} — ${editCounts(sum('editsApplied'), sum('proposals'))}, ${counted(sum('rejections'), 'edit')} refused (${counted(sum('followupsOpened'), 'follow-up')})`;
}

/** `3 edits applied`, and `2 proposed (not applied)` when the run proposed (docs/review.md). */
function editCounts(applied: number, proposals: number): string {
	return `${counted(applied, 'edit')} applied${proposals > 0 ? `, ${proposedNotApplied(proposals)}` : ''}`;
}

export default run;

function progressLine(update: RunUpdate): string {
	switch (update.type) {
		case 'step':
			return `  ${STATUS_MARK[update.step.status]} ${sanitize(update.step.label)}${update.step.result ? ` — ${sanitize(update.step.result)}` : ''}\n`;
		case 'notice':
		case 'warning':
		case 'stall':
			return `  ! ${sanitize(update.message)}\n`;
		default:
			return '';
	}
}

/** The one object of `sift run --json` (docs/reference.md#exit-codes). */
export function runJson(result: RunResult) {
	return {
		...runResultFields(result),
		steps: result.steps.map(({kind, label, status, result: stepResult}) => ({kind, label, status, result: stepResult})),
		log: result.logPath,
	};
}

function summary(result: RunResult): string {
	const counts = `${editCounts(result.editsApplied, result.proposals ?? 0)}, ${counted(result.rejections, 'edit')} refused (${counted(result.followupsOpened, 'follow-up')})`;
	const lines = [`${result.outcome} — ${counts}, ${(result.durationMs / 1000).toFixed(1)} s`];
	if (result.error) lines.push(`error: ${sanitize(result.error, {multiline: true})}`);
	if (result.text) lines.push('', sanitize(result.text, {multiline: true}), '');
	if ((result.proposals ?? 0) > 0) lines.push(`review: sift proposals --run ${result.runId}`);
	lines.push(`log: ${result.logPath}`);
	return lines.join('\n');
}
