// `sift runs [RUN_ID]`: the run history (edits, proposals, refusals), or one run's steps replayed
// from its log; `sift runs diff RUN` and `sift runs revert RUN [--yes]`
// ([review](review.md#diff-and-revert))

import {StoreError} from '../../store/index.js';
import {historySteps, loadHistoryRun, loadRunHistory, type HistoryRun} from '../codex/history.js';
import {resolveStateDir} from '../codex/paths.js';
import {sanitize} from '../text/sanitize.js';
import {output, wholeNumber, withStore} from './common.js';
import {UsageError, type Command, type CommandContext} from './context.js';
import {sortRevert} from '../../store/review-plan.js';
import {diffText, revertPreviewText, revertText} from '../text/review.js';
import {counted, nounFor, proposedNotApplied} from '../text/format.js';

const DEFAULT_LIMIT = 20;

/**
 * `sift runs [RUN_ID]`: the run history of this database, or one run with its steps replayed from
 * its log. The same list as R in the TUI (codex/history.ts); logs are read, never rewritten.
 */
const runs: Command = async context => {
	const [action, runArgument, ...extra] = context.input;
	if (action === 'diff' || action === 'revert') {
		if (runArgument === undefined || extra.length > 0) throw new UsageError(`expected: sift runs ${action} RUN`);
		return action === 'diff' ? diff(context, runArgument) : revert(context, runArgument);
	}

	if (context.flags.yes) throw new UsageError('--yes only goes with sift runs revert RUN');
	if (context.input.length > 1) throw new UsageError('expected at most one run id');
	const limit = wholeNumber(context.flags.limit, '--limit', 1) ?? DEFAULT_LIMIT;
	const stateDir = resolveStateDir(context.env);
	return withStore(context, async store => {
		const [runId] = context.input;
		if (runId === undefined) {
			const rows = (await loadRunHistory(store, stateDir, limit)).map(rowJson);
			output(context, rows, () => historyText(rows));
			return 0;
		}
		const run = await loadHistoryRun(store, stateDir, runId);
		if (!run) throw new StoreError({error: 'not_found', message: `no run ${JSON.stringify(runId).slice(0, 80)} in this database; \`sift runs\` lists them`});
		const detail = runDetail(run);
		output(context, detail, () => detailText(detail));
		return 0;
	});
};


/** "2 proposed (not applied)", and once a person has decided some, "…; 1 accepted, 1 declined)". */
function proposalCounts(run: {proposals: number; accepted: number; declined: number}): string {
	const said = proposedNotApplied(run.proposals);
	return run.accepted + run.declined === 0 ? said : `${said.slice(0, -1)}; ${run.accepted} accepted, ${run.declined} declined)`;
}
export default runs;

/** `sift runs diff RUN`: every field the run changed, from → to, and the value now. */
async function diff(context: CommandContext, runId: string): Promise<number> {
	return withStore(context, async store => {
		const result = await store.runs.diff(runId);
		const channel = await store.getChannel(result.channel_id).catch(() => undefined);
		output(context, result, () => diffText(result, channel));
		return 0;
	});
}

/**
 * `sift runs revert RUN [--yes]`: without --yes, what the revert would do; with it, the revert
 * (one edit of the person's whose events name the run). Exit 1 when fields were left as conflicts or refused.
 */
async function revert(context: CommandContext, runId: string): Promise<number> {
	return withStore(context, async store => {
		if (!context.flags.yes) {
			const preview = await store.runs.diff(runId);
			const sorting = sortRevert(preview);
			const channel = await store.getChannel(preview.channel_id).catch(() => undefined);
			output(context, {run_id: runId, dry_run: true, ...sorting}, () => revertPreviewText(runId, sorting, channel));
			return 0;
		}

		const result = await store.runs.revert(runId);
		const run = await store.runs.get(runId);
		const channel = run ? await store.getChannel(run.channel_id).catch(() => undefined) : undefined;
		output(context, result, () => revertText(result, channel));
		return result.conflicts.length > 0 || result.refused.length > 0 ? 1 : 0;
	});
}

/** The row as `--json` prints it: the table's columns (the log itself stays out). */
function rowJson(run: HistoryRun) {
	const {log: _log, text: _text, duration_ms: _duration, ...row} = run;
	return row;
}

type RunJson = ReturnType<typeof rowJson>;

function runDetail(run: HistoryRun) {
	return {
		...rowJson(run),
		text: run.text,
		steps: historySteps(run).map(({kind, label, status, result}) => ({kind, label, status, result})),
		// The row names a log, but not one this state dir's runs folder holds (or it is gone): shown without it.
		log_shown: run.log !== undefined,
	};
}

function historyText(rows: RunJson[]): string {
	if (rows.length === 0) return 'No runs yet. Start one with `sift run "INSTRUCTION"`, or with c in the TUI.';
	return rows
		.map(row => {
			const counts = `${row.edits_applied} edited, ${row.mode === 'propose' ? `${proposalCounts(row)}, ` : ''}${row.rejections} refused`;
			return `${sanitize(row.id)}  ${sanitize(row.outcome ?? 'unfinished').padEnd(13)} ${String(row.item_ids.length).padStart(3)} ${nounFor(row.item_ids.length, 'item ', 'items')}  ${counts.padEnd(22)} ${sequenceSpan(row).padEnd(14)} ${oneLine(row.instruction)}`;
		})
		.join('\n');
}

function detailText(detail: ReturnType<typeof runDetail>): string {
	const lines = [
		`${sanitize(detail.id)}  ${sanitize(detail.outcome ?? 'unfinished')}`,
		sanitize(`channel ${detail.channel_id}${detail.item_ids.length > 0 ? `, items ${detail.item_ids.join(', ')}` : ''}`),
		sanitize(`started ${detail.started_at}${detail.finished_at ? `, finished ${detail.finished_at}` : ''}`),
		`events: sequence ${detail.start_sequence ?? 'unknown'} at the start, ${endSequence(detail)} at the end`,
		`instruction: ${oneLine(detail.instruction, 500)}`,
		`${detail.mode === 'propose' ? `propose mode: ${proposalCounts(detail)}, ` : ''}${counted(detail.edits_applied, 'edit')} applied, ${detail.rejections} refused, ${counted(detail.followups_opened, 'follow-up')}`,
	];
	if (detail.error) lines.push(`error: ${sanitize(detail.error)}`);
	for (const step of detail.steps) lines.push(`  ${sanitize(step.status).padEnd(7)} ${sanitize(step.label)}${step.result ? ` — ${sanitize(step.result)}` : ''}`);
	if (detail.text) lines.push('', sanitize(detail.text, {multiline: true}));
	if (detail.log_path) lines.push('', `log: ${sanitize(detail.log_path)}${detail.log_shown ? '' : ' (not read: not a run log of this state dir, or missing)'}`);
	return lines.join('\n');
}

/**
 * The channel's latest sequence at the run's start and end (the agent cursor), as `seq 12..40`:
 * `seq 12..` while it runs, `?` where it is not known (a run from before sift kept it, an end the
 * reaper recorded).
 */
function sequenceSpan(row: RunJson): string {
	const end = row.end_sequence ?? (row.finished_at ? '?' : '');
	return `seq ${row.start_sequence ?? '?'}..${end}`;
}

function endSequence(row: RunJson): string {
	if (row.end_sequence !== null) return String(row.end_sequence);
	return row.finished_at ? 'unknown' : 'not yet';
}

function oneLine(text: string, max = 60): string {
	const flat = sanitize(text.replaceAll(/\s+/g, ' ').trim());
	return flat.length <= max ? flat : flat.slice(0, max - 1) + '…';
}
