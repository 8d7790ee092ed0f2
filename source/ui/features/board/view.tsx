import {Box, Text} from '#ink';
import type {FanoutRun} from '../../../codex/fanout.js';
import type {RunResult} from '../../../codex/runner.js';
import {sanitize} from '../../../text/sanitize.js';
import {counted, proposedNotApplied, thousands} from '../../../text/format.js';
import {boardTotals, type RunView} from '../../model/runs.js';
import {useTheme} from '../../theme.js';
import {runDurationMs, seconds, SPINNER, stepCount} from '../../run-status.js';
import {RunPane} from '../../components/run-pane.js';
import type {FeatureView} from '../feature.js';

export type RunsBoardProps = {
	runs: readonly FanoutRun[];
	views: Readonly<Record<string, RunView>>;
	/** The run with the cursor, and whether its live steps are shown instead of the board. */
	cursor: number;
	focused: boolean;
	/** Whether the board has the keys (the cursor is drawn only then). */
	interactive: boolean;
	/** "watch on: …" while watch mode runs. */
	watch: string | null;
	now: number;
	frame: number;
	width: number;
	height: number;
};

const STATE_MARK: Record<FanoutRun['state'], string> = {queued: '·', starting: '…', running: '', finished: '', skipped: '-', unstarted: '✗'};
const OUTCOME_TONE: Record<string, string> = {ok: 'green', partial: 'yellow', cancelled: 'yellow'};

/** What a finished run did to the records: edits, proposals (propose mode) and follow-ups, as `sift run`'s summary counts them. */
export const writesOf = (result: RunResult) => [counted(result.editsApplied, 'edit'), ...(result.proposals ? [proposedNotApplied(result.proposals)] : []), counted(result.followupsOpened, 'follow-up')].join(', ');

const tokensOf = (run: FanoutRun) => (run.usage ? run.usage.input_tokens + run.usage.output_tokens : 0);

/**
 * One line of the board: state, items, steps, current step, elapsed, tokens. With the run's view
 * the steps and the time are the ones its pane and the header show (run-status.ts).
 */
export function boardLine(run: FanoutRun, position: number, now: number, frame: number, view?: RunView): {mark: string; text: string; tone: string | undefined} {
	const outcome = run.result?.outcome;
	let mark = STATE_MARK[run.state];
	if (run.state === 'running') mark = SPINNER[frame % SPINNER.length]!;
	if (run.state === 'finished') mark = outcome === 'ok' ? '✓' : '✗';
	let elapsed = run.startedAt === null ? '—' : seconds((run.finishedAt ?? now) - run.startedAt);
	if (view && run.startedAt !== null) elapsed = seconds(runDurationMs(view, now));
	const steps = view ? stepCount(view) : counted(run.stepsDone, 'step');
	const doing = run.state === 'finished' ? `${outcome ?? 'finished'}${run.result ? ` · ${writesOf(run.result)}` : ''}` : (run.currentStep ? sanitize(run.currentStep) : run.state);
	const text = `[${position + 1}] ${counted(run.itemIds.length, 'item')} · ${steps} · ${elapsed} · ${thousands(tokensOf(run))} tok · ${doing}`;
	const tone = run.state === 'finished' ? OUTCOME_TONE[outcome ?? ''] ?? 'red' : (run.state === 'unstarted' ? 'red' : undefined);
	return {mark, text, tone};
}

/**
 * The runs of a fan-out (or a watch), one line each, under their totals; a focused run shows its
 * live steps in the run pane instead.
 */
export function RunsBoard({runs, views, cursor, focused, interactive, watch, now, frame, width, height}: RunsBoardProps) {
	const theme = useTheme();
	const at = Math.max(0, Math.min(cursor, runs.length - 1));
	const chosen = runs[at];
	const view = chosen ? views[chosen.runId] : undefined;
	if (focused && chosen && view) {
		return (
			<Box flexDirection="column" width={width} height={height} overflow="hidden">
				<Text dimColor wrap="truncate-end">{`run ${at + 1} of ${runs.length} · Enter: back to the board · x cancels it`}</Text>
				<RunPane run={view} now={now} frame={frame} width={width} height={height - 1}/>
			</Box>
		);
	}

	const totals = boardTotals(runs);
	const head = `Runs: ${totals.running} going · ${totals.done} done · ${counted(totals.items, 'item')} · ${thousands(totals.tokens)} tokens`;
	const room = Math.max(1, height - 2 - (watch ? 1 : 0));
	const first = Math.max(0, Math.min(cursor - room + 1, runs.length - room));
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Text bold wrap="truncate-end">{head}</Text>
			{watch ? <Text color={theme.color('cyan')} wrap="truncate-end">{sanitize(watch)}</Text> : null}
			{runs.length === 0 ? <Text dimColor>  no runs yet</Text> : null}
			{runs.slice(first, first + room).map((run, offset) => {
				const line = boardLine(run, first + offset, now, frame, views[run.runId]);
				const here = interactive && first + offset === at;
				return (
					<Text key={run.runId} wrap="truncate-end" inverse={here}>
						<Text color={line.tone ? theme.color(line.tone) : undefined}>{`${here ? '›' : ' '}${line.mark} `}</Text>
						<Text>{line.text}</Text>
					</Text>
				);
			})}
			<Text dimColor wrap="truncate-end">{interactive ? 'j/k move · Enter live steps · x cancel · X cancel all · Esc back' : 'b: the board · X cancels all'}</Text>
		</Box>
	);
}

/** The header's status while the board is shown: the totals. */
export function boardStatus(runs: readonly FanoutRun[], watching = false): {text: string; tone: 'info' | 'ok' | 'warn'} | null {
	if (runs.length === 0 && !watching) return null;
	const totals = boardTotals(runs);
	return {text: `${watching ? 'Watching · ' : ''}Runs ${totals.running} going · ${totals.done} done · ${counted(totals.items, 'item')} · ${thousands(totals.tokens)} tok`, tone: totals.running > 0 ? 'info' : 'ok'};
}

/** The board has the keys: drawn in the pane, its cursor shown. */
export const BOARD_VIEW = {
	place: 'pane',
	render: (_overlay, {state, layout, runs, now, frame}) => <RunsBoard runs={runs.runs} views={runs.views} cursor={state.board.cursor} focused={state.board.focused} interactive watch={runs.watch} now={now} frame={frame} width={layout.paneWidth} height={layout.paneHeight}/>,
} satisfies FeatureView<'board'>;
