import type {Outcome} from '../codex/outcome.js';
import {handleTerminationSignals} from '../codex/group.js';
import {startRecordedRun} from '../codex/record.js';
import type {RunResult} from '../codex/runner.js';
import type {Step} from '../codex/steps.js';
import type {RunUpdate} from '../codex/tracker.js';
import {counted} from '../text/format.js';
import {mcpEndpoint, startServerRun} from '../serve/run-token.js';
import {sanitize} from '../text/sanitize.js';
import {channelOf, databasePath, output, wholeNumber, withStore} from './common.js';
import {UsageError, type Command} from './context.js';

/** `sift run` exit codes, one per outcome (docs/reference.md#exit-codes). */
export const EXIT_CODES: Record<Outcome, number> = {
	ok: 0,
	failed: 1,
	codex_missing: 1,
	partial: 3,
	auth_required: 4,
	timed_out: 5,
	cancelled: 130,
	// Never the outcome of a run this command waits for: recorded later for a run whose sift died.
	abandoned: 1,
};

const STATUS_MARK: Record<Step['status'], string> = {running: '…', done: '✓', failed: '✗'};

/** `sift run "INSTRUCTION"`: a headless Codex run; progress on stderr, the summary on stdout. */
const run: Command = async context => {
	const instruction = context.input.join(' ').trim();
	if (!instruction) throw new UsageError('give the instruction, e.g. sift run "triage the new bugs"');
	const timeoutSeconds = wholeNumber(context.flags.timeout, '--timeout', 1);
	const endpoint = context.flags.server === undefined ? undefined : mcpEndpoint(context.flags.server);
	if (endpoint === null) throw new UsageError(`--server must be the http(s) URL of sift serve, e.g. http://127.0.0.1:7345; got ${JSON.stringify(context.flags.server)}`);
	return withStore(context, async store => {
		const channelId = await channelOf(store, context);
		const itemIds = context.flags.itemIds ?? [];
		// Unknown ids are refused here (exit 1), not left for the agent to stumble over.
		for (const id of itemIds) await store.readItem(channelId, id);
		const runOptions = {
			instruction,
			channelId,
			itemIds,
			// The location as given (a postgres:// URL stays a URL): `sift mcp` in the Codex child opens it.
			dbPath: databasePath(context),
			codex: context.flags.codex,
			model: context.flags.model,
			codexConfig: context.flags.codexConfig,
			keepApiEnv: context.flags.keepApiEnv,
			timeoutMs: timeoutSeconds === undefined ? undefined : timeoutSeconds * 1000,
			env: context.env,
		};
		// --server: the agent reaches the store through `sift serve` with a token for this run only.
		const handle = endpoint === undefined ? await startRecordedRun(store, runOptions) : await startServerRun(store, {...runOptions, endpoint});
		context.stderr.write(`sift: run ${handle.runId} on ${channelId}${itemIds.length > 0 ? ` (${itemIds.length} items)` : ''}\n`);
		// Ctrl+C, kill, a closed terminal: the run (its whole process group) stops before sift exits.
		const uninstall = handleTerminationSignals(() => handle.cancel());
		try {
			for await (const update of handle.updates) context.stderr.write(progressLine(update));
			const result = await handle.done;
			output(context, runJson(result), () => summary(result));
			return EXIT_CODES[result.outcome];
		} finally {
			uninstall();
		}
	});
};

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
		run_id: result.runId,
		outcome: result.outcome,
		text: result.text,
		error: result.error,
		usage: result.usage,
		duration_ms: result.durationMs,
		steps: result.steps.map(({kind, label, status, result: stepResult}) => ({kind, label, status, result: stepResult})),
		edits_applied: result.editsApplied,
		rejections: result.rejections,
		followups_opened: result.followupsOpened,
		log: result.logPath,
	};
}

function summary(result: RunResult): string {
	const counts = `${counted(result.editsApplied, 'edit')} applied, ${counted(result.rejections, 'edit')} refused (${counted(result.followupsOpened, 'follow-up')})`;
	const lines = [`${result.outcome} — ${counts}, ${(result.durationMs / 1000).toFixed(1)} s`];
	if (result.error) lines.push(`error: ${sanitize(result.error, {multiline: true})}`);
	if (result.text) lines.push('', sanitize(result.text, {multiline: true}), '');
	lines.push(`log: ${result.logPath}`);
	return lines.join('\n');
}
