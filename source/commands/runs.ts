import {existsSync} from 'node:fs';
import {StoreError} from '../../store/index.js';
import {getRun, listRuns, type RunRow} from '../../store/runs.js';
import {loadRunLog, type RunLog} from '../codex/runlog.js';
import {RunTracker} from '../codex/tracker.js';
import {sanitize} from '../text/sanitize.js';
import {output, wholeNumber, withStore} from './common.js';
import {UsageError, type Command} from './context.js';
import {counted} from '../text/format.js';

const DEFAULT_LIMIT = 20;

/** `sift runs [RUN_ID]`: the run history, or one run with its steps replayed from its log. */
const runs: Command = async context => {
	if (context.input.length > 1) throw new UsageError('expected at most one run id');
	const limit = wholeNumber(context.flags.limit, '--limit', 1) ?? DEFAULT_LIMIT;
	return withStore(context, store => {
		const [runId] = context.input;
		if (runId === undefined) {
			const rows = listRuns(store.db, {limit}).map(withLoggedOutcome);
			output(context, rows, () => historyText(rows));
			return 0;
		}
		const row = getRun(store.db, runId);
		if (!row) throw new StoreError({error: 'not_found', message: `no run ${JSON.stringify(runId).slice(0, 80)} in this database; \`sift runs\` lists them`});
		const detail = runDetail(withLoggedOutcome(row));
		output(context, detail, () => detailText(detail));
		return 0;
	});
};

export default runs;

/**
 * A row without an outcome is a run in flight, or one whose sift died before writing it; its log
 * may still have the end line (sift died after the log, before the table), so that is the fallback.
 */
function withLoggedOutcome(row: RunRow): RunRow {
	if (row.outcome !== null) return row;
	const end = readLog(row)?.end;
	return end ? {...row, outcome: end.outcome, finished_at: end.finished_at, error: end.error, usage: end.usage} : row;
}

function readLog(row: RunRow): RunLog | undefined {
	return row.log_path && existsSync(row.log_path) ? loadRunLog(row.log_path) : undefined;
}

function runDetail(row: RunRow) {
	const log = readLog(row);
	const tracker = new RunTracker();
	for (const event of log?.events ?? []) tracker.apply(event);
	return {...row, text: log?.end?.text ?? tracker.text, steps: tracker.steps.map(({kind, label, status, result}) => ({kind, label, status, result}))};
}

function historyText(rows: RunRow[]): string {
	if (rows.length === 0) return 'No runs yet. Start one with `sift run "INSTRUCTION"`, or with c in the TUI.';
	return rows
		.map(row => {
			const counts = `${row.edits_applied} edited, ${row.rejections} refused`;
			return `${row.id}  ${(row.outcome ?? 'unfinished').padEnd(13)} ${String(row.item_ids.length).padStart(3)} items  ${counts.padEnd(22)} ${oneLine(row.instruction)}`;
		})
		.join('\n');
}

function detailText(detail: ReturnType<typeof runDetail>): string {
	const lines = [
		`${detail.id}  ${detail.outcome ?? 'unfinished'}`,
		`channel ${detail.channel_id}${detail.item_ids.length > 0 ? `, items ${detail.item_ids.join(', ')}` : ''}`,
		`started ${detail.started_at}${detail.finished_at ? `, finished ${detail.finished_at}` : ''}`,
		`instruction: ${oneLine(detail.instruction, 500)}`,
		`${counted(detail.edits_applied, 'edit')} applied, ${detail.rejections} refused, ${counted(detail.followups_opened, 'follow-up')}`,
	];
	if (detail.error) lines.push(`error: ${sanitize(detail.error)}`);
	for (const step of detail.steps) lines.push(`  ${step.status.padEnd(7)} ${sanitize(step.label)}${step.result ? ` — ${sanitize(step.result)}` : ''}`);
	if (detail.text) lines.push('', sanitize(detail.text, {multiline: true}));
	if (detail.log_path) lines.push('', `log: ${detail.log_path}`);
	return lines.join('\n');
}

function oneLine(text: string, max = 60): string {
	const flat = sanitize(text.replaceAll(/\s+/g, ' ').trim());
	return flat.length <= max ? flat : flat.slice(0, max - 1) + '…';
}
